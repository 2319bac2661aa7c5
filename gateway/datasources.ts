import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { parse, validate, type GraphQLError, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Logger } from '../lib/logger';
import { ANONYMOUS, PRINCIPAL_HEADER, signPrincipal, type Principal } from '../lib/principal';
import type { SubgraphContext } from '../lib/subgraph';
import type { GatewayContext } from './context';

/** A subgraph the gateway can send an operation to, as a given principal (used by the gateway's own calls). */
export interface SubgraphCaller {
  call(query: string, variables: Record<string, unknown>, principal: Principal, requestId: string): Promise<GatewayGraphQLResponse>;
}

export type SubgraphDataSource = GraphQLDataSource<GatewayContext> & SubgraphCaller;

const MAX_CACHED_DOCUMENTS = 2000;

/**
 * In-process subgraph (npm start). Unlike @apollo/gateway's LocalGraphQLDataSource, which parses
 * and validates every subgraph operation on every request, this compiles each operation once
 * (graphql-jit) and keeps it: the query planner produces a small, fixed set of them.
 */
export class InProcessDataSource implements SubgraphDataSource {
  private readonly documents = new Map<string, CompiledQuery | readonly GraphQLError[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly logger: Logger,
  ) {}

  async process({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayGraphQLResponse> {
    const gatewayContext = context as Partial<GatewayContext>;
    return this.run(request.query!, request.variables ?? {}, request.operationName, gatewayContext.principal ?? ANONYMOUS, gatewayContext.requestId ?? '-');
  }

  call(query: string, variables: Record<string, unknown>, principal: Principal, requestId: string): Promise<GatewayGraphQLResponse> {
    return this.run(query, variables, undefined, principal, requestId);
  }

  private async run(query: string, variables: Record<string, unknown>, operationName: string | undefined, principal: Principal, requestId: string) {
    const compiled = this.compiled(query, operationName);
    if (Array.isArray(compiled)) return { errors: compiled } as GatewayGraphQLResponse;
    const contextValue: SubgraphContext = { principal, requestId, logger: this.logger, loaders: new Map() };
    return (await (compiled as CompiledQuery).query(undefined, contextValue, variables)) as GatewayGraphQLResponse;
  }

  /** Parsed, validated and compiled (graphql-jit) once per operation string. */
  private compiled(query: string, operationName: string | undefined): CompiledQuery | readonly GraphQLError[] {
    const cacheKey = operationName ? `${operationName}\n${query}` : query;
    let entry = this.documents.get(cacheKey);
    if (!entry) {
      const parsed = parse(query);
      const errors = validate(this.schema, parsed);
      if (errors.length) entry = errors;
      else {
        const result = compileQuery(this.schema, parsed, operationName);
        entry = isCompiledQuery(result) ? result : (result.errors ?? []);
      }
      if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(cacheKey, entry);
    }
    return entry;
  }
}

/** Remote subgraph (docker compose): forwards the verified principal, signed, and the request id. */
export class SignedRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> implements SubgraphDataSource {
  constructor(
    url: string,
    private readonly secret: string,
  ) {
    super({ url });
  }

  override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]) {
    const ctx = context as Partial<GatewayContext>;
    request.http?.headers.set(PRINCIPAL_HEADER, signPrincipal(ctx.principal ?? ANONYMOUS, this.secret));
    if (ctx.requestId) request.http?.headers.set('x-request-id', ctx.requestId);
  }

  async call(query: string, variables: Record<string, unknown>, principal: Principal, requestId: string): Promise<GatewayGraphQLResponse> {
    const res = await fetch(this.url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [PRINCIPAL_HEADER]: signPrincipal(principal, this.secret),
        'x-request-id': requestId,
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as GatewayGraphQLResponse;
  }
}
