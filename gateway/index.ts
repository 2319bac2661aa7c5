import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type GraphQLRequest } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Express } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { isAdmin, type Principal } from '../lib/principal';
import { cors, requestContext } from '../lib/http';
import type { Logger } from '../lib/logger';
import { Authenticator } from './authentication';
import { createGatewayContext, type GatewayContext } from './context';
import type { SubgraphDataSource } from './datasources';
import { graphqlIde } from './ide';
import { useAuthentication } from './plugins/use-authentication';
import { useIntrospectionGuard } from './plugins/use-introspection-guard';
import { useQueryLimits } from './plugins/use-query-limits';

export interface GatewayOptions {
  supergraphSdl: string;
  dataSources: Record<string, SubgraphDataSource>;
  logger: Logger;
  development: boolean;
  limits: { maxDepth: number; maxCost: number };
  /** Verifies principals signed by subgraphs calling the gateway (remote topology). */
  internalSecret?: string;
}

export interface ExecutedOperation {
  status: number;
  headers: Map<string, string>;
  body: { data?: Record<string, unknown> | null; errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> };
}

export interface Gateway {
  server: ApolloServer<GatewayContext>;
  /** Express app: POST /graphql, the IDE on GET /graphql (browsers), /healthz. */
  app: Express;
  /**
   * Runs one operation in-process, as if it had arrived over HTTP with these headers; or, for a
   * subgraph reading the supergraph, as its already-verified service `principal`.
   */
  execute(request: GraphQLRequest, headers: IncomingHttpHeaders, requestId: string, principal?: Principal): Promise<ExecutedOperation>;
  stop(): Promise<void>;
}

/** The supergraph gateway: static supergraph, in-process or remote subgraphs, one auth and metering point. */
export async function createGateway(opts: GatewayOptions): Promise<Gateway> {
  const access = opts.dataSources.access;
  if (!access) throw new Error('the access subgraph is required: it verifies credentials');
  const authenticator = new Authenticator(access, opts.internalSecret);
  const gateway = new ApolloGateway({
    supergraphSdl: opts.supergraphSdl,
    buildService: ({ name }) => {
      const ds = opts.dataSources[name];
      if (!ds) throw new Error(`no data source for subgraph "${name}"`);
      return ds;
    },
    logger: opts.logger,
  });
  const server = new ApolloServer<GatewayContext>({
    // shutdown is ours (drain, then stop), not Apollo's own signal handler
    stopOnTerminationSignals: false,
    gateway,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    logger: opts.logger,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      useQueryLimits(opts.limits),
      useAuthentication(authenticator),
      useIntrospectionGuard({ openToAll: opts.development }),
    ],
    formatError: (formatted, error) => {
      if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR' || formatted.extensions?.code === 'DOWNSTREAM_SERVICE_ERROR') {
        opts.logger.error({ err: error }, 'operation failed');
        return { message: 'Internal server error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      }
      return formatted;
    },
  });
  await server.start();

  const ide = graphqlIde({
    endpoint: '/graphql',
    allowed: async (req) => {
      if (opts.development) return true;
      try {
        const ctx = createGatewayContext(req.headers, req.id, req.log);
        return isAdmin((await authenticator.authenticate(ctx, { meter: false })).principal);
      } catch {
        return false;
      }
    },
  });

  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(opts.logger));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(ide.assets);
  app.use(
    '/graphql',
    cors({ origins: '*', allowHeaders: ['authorization', 'content-type', 'x-request-id', 'apollo-require-preflight'], exposeHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-request-id'] }),
    ide.page,
    express.json({ limit: '1mb' }),
    expressMiddleware(server, { context: async ({ req }) => createGatewayContext(req.headers, req.id, req.log) }),
  );

  return {
    server,
    app,
    async execute(request, headers, requestId, principal) {
      const response = await server.executeOperation(request, { contextValue: createGatewayContext(headers, requestId, opts.logger.child({ requestId }), principal) });
      const body = response.body.kind === 'single' ? response.body.singleResult : response.body.initialResult;
      return { status: response.http.status ?? 200, headers: response.http.headers, body: body as ExecutedOperation['body'] };
    },
    stop: () => server.stop(),
  };
}
