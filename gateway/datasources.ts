import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway/dist/datasources/types';
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
import { ANONYMOUS, type Principal } from '../lib/principal';
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
