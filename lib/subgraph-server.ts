import 'reflect-metadata';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import { GraphQLError } from 'graphql';
import { loadConfig } from './config';
import { Notifications, ensureDatabase, openStore } from './database';
import { requireSettings, runEntry } from './entry';
import { requestContext } from './http';
import { startJobQueue } from './jobs';
import { createLogger } from './logger';
import { ANONYMOUS, PRINCIPAL_HEADER, verifyPrincipal, type Principal } from './principal';
import { listen, onShutdown } from './server';
import type { SubgraphContext, SubgraphDefinition, SubgraphDeps } from './subgraph';
import { httpSupergraphClient } from './supergraph-client';

/** What the gateway forwards stays below this (it accepts 1 MB per operation). */
const BODY_LIMIT = '2mb';

/**
 * One subgraph as its own HTTP service (docker compose): the same definition `npm start` runs
 * in-process, behind POST /graphql. The caller's identity is only what the gateway signed.
 */
export function runStandaloneSubgraph(def: SubgraphDefinition<any>): Promise<void> {
  return runEntry(async () => {
    const config = requireSettings(loadConfig(), ['DATABASE_URL', 'INTERNAL_SECRET', 'GATEWAY_URL'], `the ${def.name} subgraph`);
    const logger = createLogger(config.LOG_LEVEL, def.name);
    const databaseUrl = config.DATABASE_URL;
    await ensureDatabase(databaseUrl);
    const store = await openStore(def.store, { url: databaseUrl, poolSize: config.DB_POOL_SIZE, logger, migrate: true });
    const jobs = await startJobQueue({ url: databaseUrl, logger });
    const supergraph = httpSupergraphClient(config.GATEWAY_URL, config.INTERNAL_SECRET, def.name);
    const notifications = new Notifications(databaseUrl, logger);
    const deps: SubgraphDeps = { store, notifications, supergraph, config, logger, jobs };
    const services = await def.createServices(deps);
    const schema = await def.buildSchema(services);

    const apollo = new ApolloServer<SubgraphContext>({
      schema,
      includeStacktraceInErrorResponses: false,
      // the process handles SIGTERM itself (below), in order
      stopOnTerminationSignals: false,
      logger,
      plugins: [
        ApolloServerPluginLandingPageDisabled(),
        ApolloServerPluginInlineTraceDisabled(),
        ApolloServerPluginUsageReportingDisabled(),
        answerLikeInProcess,
      ],
      formatError: (formatted, error) => {
        // the stack of a real fault exists only here; the gateway sees a generic error
        if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') logger.error({ err: error }, 'resolver failed');
        const status = error instanceof GraphQLError ? (error.extensions.http as { status?: number } | undefined)?.status : undefined;
        return status === undefined ? formatted : { ...formatted, extensions: { ...formatted.extensions, http: { status } } };
      },
    });
    await apollo.start();

    const app = express();
    app.disable('x-powered-by');
    // probes are not logged: one line every few seconds per container says nothing
    app.get('/healthz', (_req, res) => {
      res.json({ status: 'ok' });
    });
    app.use(requestContext(logger));
    app.post(
      '/graphql',
      verifiedPrincipal(config.INTERNAL_SECRET),
      express.json({ limit: BODY_LIMIT }),
      expressMiddleware(apollo, {
        context: async ({ req, res }): Promise<SubgraphContext> => ({
          principal: res.locals.principal as Principal,
          requestId: req.id,
          logger: req.log,
          loaders: new Map(),
        }),
      }),
    );

    const notes = await def.start?.(services, deps);
    const server = await listen(app, config.HOST, config.SUBGRAPH_PORT);
    onShutdown(
      async () => {
        await server.close();
        await apollo.stop();
        await notifications.close();
        await def.stop?.(services);
        await jobs.stop();
        await store.close();
      },
      (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)),
    );
    for (const [name, value] of Object.entries(notes?.generatedCredentials ?? {})) {
      process.stdout.write(`${name} (generated at this start, shown once: store it now): ${value}\n`);
    }
    logger.info({ subgraph: def.name, url: `${server.url}/graphql` }, 'subgraph ready');
  });
}

/**
 * An executed operation goes back to the gateway the way the in-process data source hands it over:
 * HTTP 200, each error keeping its `extensions.http.status` (formatError above). Apollo Server would
 * instead make that the response's status, which RemoteGraphQLDataSource takes for a transport
 * failure ("401: Unauthorized"): the partial data and the error's code would be lost. The gateway
 * then sets the status its client sees, as in `npm start`.
 */
const answerLikeInProcess: ApolloServerPlugin<SubgraphContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind === 'single' && 'data' in response.body.singleResult) response.http.status = 200;
      },
    };
  },
};

/**
 * The principal the gateway verified and signed. No header: anonymous (the subgraph's own
 * @Authorized rules then apply). A header that fails verification (forged, expired): 401.
 */
function verifiedPrincipal(secret: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = req.headers[PRINCIPAL_HEADER];
    if (token === undefined) {
      res.locals.principal = ANONYMOUS;
      return next();
    }
    const principal = typeof token === 'string' ? verifyPrincipal(token, secret) : undefined;
    if (!principal) {
      req.log.warn('rejected a request with an unverifiable principal');
      res.status(401).json({ errors: [{ message: 'The forwarded principal is invalid or expired.', extensions: { code: 'UNAUTHENTICATED' } }] });
      return;
    }
    res.locals.principal = principal;
    next();
  };
}
