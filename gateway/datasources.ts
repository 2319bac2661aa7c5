import type { KeyObject } from 'node:crypto';
import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import {
  astFromValue,
  getNullableType,
  isInputObjectType,
  isInputType,
  isListType,
  Kind,
  parse,
  typeFromAST,
  validate,
  valueFromASTUntyped,
  type DocumentNode,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { asServiceUnavailable } from '../lib/faults';
import type { Logger } from '../lib/logger';
import { ANONYMOUS, PRINCIPAL_HEADER, signRequestToken, type Principal, type RequestClaims } from '../lib/principal';
import { GATEWAY_SERVICE } from '../lib/service-keys';
import type { SubgraphContext } from '../lib/subgraph';
import type { GatewayContext } from './context';

/** The request a gateway's own call (credential verification) serves. */
export interface CallOrigin {
  requestId: string;
  clientAddress?: string;
}

/** A subgraph the gateway can send an operation to, as a given principal (used by the gateway's own calls). */
export interface SubgraphCaller {
  call(query: string, variables: Record<string, unknown>, principal: Principal, origin: CallOrigin): Promise<GatewayGraphQLResponse>;
}

export type SubgraphDataSource = GraphQLDataSource<GatewayContext> & SubgraphCaller;

const MAX_CACHED_DOCUMENTS = 2000;

/** A compiled operation, with the variables whose values may hold input objects. */
interface Compiled {
  query: CompiledQuery;
  inputVariables: [string, GraphQLInputType][];
}

/** Whether a value of this type can hold an input object (whose fields may have defaults). */
function holdsInputObject(type: GraphQLInputType): boolean {
  const t = getNullableType(type);
  return isListType(t) ? holdsInputObject(t.ofType as GraphQLInputType) : isInputObjectType(t);
}

/**
 * A variable's value with the defaults of the input fields it leaves out, as graphql-js coerces it
 * (`plan: PlanCode! = free`): graphql-jit 0.8.9 reports such a non-null field as missing instead.
 * Defaults are written in their external form (an enum by its name), which graphql-jit then coerces.
 */
function withInputDefaults(type: GraphQLInputType, value: unknown): unknown {
  const t = getNullableType(type);
  if (value === null || value === undefined) return value;
  if (isListType(t)) {
    const item = t.ofType as GraphQLInputType;
    return Array.isArray(value) ? value.map((v) => withInputDefaults(item, v)) : withInputDefaults(item, value);
  }
  if (!isInputObjectType(t) || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of Object.values(t.getFields())) {
    if (Object.prototype.hasOwnProperty.call(out, field.name)) out[field.name] = withInputDefaults(field.type, out[field.name]);
    else if (field.defaultValue !== undefined) {
      const literal = astFromValue(field.defaultValue, field.type);
      if (literal) out[field.name] = valueFromASTUntyped(literal);
    }
  }
  return out;
}

function inputVariables(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): [string, GraphQLInputType][] {
  const operation = document.definitions
    .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
    .find((d) => operationName === undefined || d.name?.value === operationName);
  if (!operation) return [];
  const variables: [string, GraphQLInputType][] = [];
  for (const v of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, v.type);
    if (type && isInputType(type) && holdsInputObject(type)) variables.push([v.variable.name.value, type]);
  }
  return variables;
}

/**
 * In-process subgraph (npm start). Unlike @apollo/gateway's LocalGraphQLDataSource, which parses
 * and validates every subgraph operation on every request, this compiles each operation once
 * (graphql-jit) and keeps it: the query planner produces a small, fixed set of them.
 */
export class InProcessDataSource implements SubgraphDataSource {
  private readonly documents = new Map<string, Compiled | readonly GraphQLError[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly logger: Logger,
  ) {}

  async process({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const gatewayContext = context as Partial<GatewayContext>;
    return this.run(request.query!, request.variables ?? {}, request.operationName, gatewayContext.principal ?? ANONYMOUS, {
      requestId: gatewayContext.requestId ?? '-',
      clientAddress: gatewayContext.clientAddress,
    });
  }

  call(query: string, variables: Record<string, unknown>, principal: Principal, origin: CallOrigin): Promise<GatewayGraphQLResponse> {
    return this.run(query, variables, undefined, principal, origin);
  }

  private async run(query: string, variables: Record<string, unknown>, operationName: string | undefined, principal: Principal, origin: CallOrigin) {
    const compiled = this.compiled(query, operationName);
    if (Array.isArray(compiled)) return { errors: compiled } as GatewayGraphQLResponse;
    const { query: run, inputVariables } = compiled as Compiled;
    let values = variables;
    if (inputVariables.length) {
      values = { ...variables };
      for (const [name, type] of inputVariables) if (name in values) values[name] = withInputDefaults(type, values[name]);
    }
    const contextValue: SubgraphContext = {
      principal,
      clientAddress: origin.clientAddress,
      requestId: origin.requestId,
      logger: this.logger,
      loaders: new Map(),
    };
    const result = await run.query(undefined, contextValue, values);
    // an unreachable database is a 503 for the caller, not a fault of the operation (lib/faults.ts)
    if (result.errors?.length) result.errors = result.errors.map(asServiceUnavailable);
    return result as GatewayGraphQLResponse;
  }

  /** Parsed, validated and compiled (graphql-jit) once per operation string. */
  private compiled(query: string, operationName: string | undefined): Compiled | readonly GraphQLError[] {
    const cacheKey = operationName ? `${operationName}\n${query}` : query;
    let entry = this.documents.get(cacheKey);
    if (!entry) {
      const parsed = parse(query);
      const errors = validate(this.schema, parsed);
      if (errors.length) entry = errors;
      else {
        const result = compileQuery(this.schema, parsed, operationName);
        entry = isCompiledQuery(result) ? { query: result, inputVariables: inputVariables(this.schema, parsed, operationName) } : (result.errors ?? []);
      }
      if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(cacheKey, entry);
    }
    return entry;
  }
}

/** Carries a query plan's claims from willSendRequest to the fetcher, which signs them with the exact body; never sent. */
const CLAIMS_HEADER = 'x-matchday-unsigned-claims';

/** How long the gateway waits for a subgraph's answer before the operation fails as unavailable (503). */
const SUBGRAPH_TIMEOUT_MS = 20_000;

/**
 * The gateway's fetch to a remote subgraph: Node's own fetch, which looks a service's name up again for
 * every new connection (the default fetcher, make-fetch-happen, caches DNS for five minutes: a restarted
 * container on a new address was called at its old one meanwhile), bounded in time; a timeout is an
 * ETIMEDOUT, which the gateway answers with 503 and Retry-After like any unreachable service.
 */
async function subgraphFetch(target: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(target, { ...init, signal: AbortSignal.timeout(SUBGRAPH_TIMEOUT_MS) });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError')
      throw Object.assign(new Error(`${target} did not answer within ${SUBGRAPH_TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' });
    throw err;
  }
}

/**
 * Remote subgraph (docker compose): every request carries the verified principal and the client's
 * address in a token the gateway signs with its own key, for this subgraph only, bound to the
 * request's body (lib/principal.ts). The token is made in the fetcher, where the body is final.
 */
export class SignedRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> implements SubgraphDataSource {
  constructor(
    url: string,
    /** The subgraph's name: the token's audience. */
    private readonly subgraph: string,
    private readonly privateKey: KeyObject,
  ) {
    super({ url, fetcher: subgraphFetch as unknown as RemoteGraphQLDataSource['fetcher'] });
    const send = this.fetcher;
    this.fetcher = async (target, init) => {
      const headers = { ...(init?.headers as Record<string, string>) };
      const claims = JSON.parse(headers[CLAIMS_HEADER] ?? '{}') as RequestClaims;
      delete headers[CLAIMS_HEADER];
      headers[PRINCIPAL_HEADER] = await this.sign(claims, String(init?.body ?? ''));
      return send(target, { ...init, headers });
    };
  }

  override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]) {
    const ctx = context as Partial<GatewayContext>;
    const claims: RequestClaims = { principal: ctx.principal ?? ANONYMOUS, clientAddress: ctx.clientAddress };
    request.http?.headers.set(CLAIMS_HEADER, JSON.stringify(claims));
    if (ctx.requestId) request.http?.headers.set('x-request-id', ctx.requestId);
  }

  async call(query: string, variables: Record<string, unknown>, principal: Principal, origin: CallOrigin): Promise<GatewayGraphQLResponse> {
    const body = JSON.stringify({ query, variables });
    const res = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [PRINCIPAL_HEADER]: await this.sign({ principal, clientAddress: origin.clientAddress }, body),
        'x-request-id': origin.requestId,
      },
      body,
    });
    return (await res.json()) as GatewayGraphQLResponse;
  }

  private sign(claims: RequestClaims, body: string): Promise<string> {
    return signRequestToken({ issuer: GATEWAY_SERVICE, audience: this.subgraph, privateKey: this.privateKey, body, ...claims });
  }
}
