import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import type { IncomingHttpHeaders } from 'node:http';
import type { ParseOptions, ValidationRule } from 'graphql';
import { createGatewayContext, type GatewayContext } from '../../../gateway/context';
import { createLogger } from '../../../lib/logger';
import type { Principal } from '../../../lib/principal';

/**
 * Runs gateway plugins in-process on a tiny schema (no database, no port), as envelop's testkit
 * does: each plugin's spec states its behaviour against exactly the schema it needs.
 */
export interface PluginTestkit {
  run(
    query: string,
    opts?: { variables?: Record<string, unknown>; headers?: IncomingHttpHeaders; query?: Record<string, unknown>; principal?: Principal },
  ): Promise<{ status: number; headers: Map<string, string>; body: { data?: any; errors?: any[] } }>;
  stop(): Promise<void>;
}

export async function pluginTestkit(opts: {
  typeDefs: string;
  resolvers?: IResolvers;
  plugins: ApolloServerPlugin<GatewayContext>[];
  /** Server options that go with the plugins (parser limits, validation rules). */
  options?: { parseOptions?: ParseOptions; validationRules?: ValidationRule[] };
}): Promise<PluginTestkit> {
  const server = new ApolloServer<GatewayContext>({
    schema: makeExecutableSchema({ typeDefs: opts.typeDefs, resolvers: opts.resolvers ?? {} }),
    ...opts.options,
    plugins: opts.plugins,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
  });
  await server.start();
  const logger = createLogger('silent', 'testkit');
  return {
    async run(query, o = {}) {
      // with a principal, the operation is preverified (as a subgraph's own reads of the supergraph are)
      const contextValue = createGatewayContext({ headers: o.headers ?? {}, query: o.query }, 'spec', logger, o.principal);
      const response = await server.executeOperation({ query, variables: o.variables }, { contextValue });
      const body = response.body.kind === 'single' ? response.body.singleResult : response.body.initialResult;
      const headers = new Map<string, string>();
      for (const [k, v] of response.http.headers) headers.set(k, v);
      return { status: response.http.status ?? 200, headers, body: body as { data?: any; errors?: any[] } };
    },
    stop: () => server.stop(),
  };
}
