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
import { composeConfig, type ConfiguredProduct } from './config';
import { NotificationListener, Notifications, ensureDatabase, openStore, poolOptions } from './database';
import { requireSettings, runEntry } from './entry';
import { asServiceUnavailable } from './faults';
import { keepRawBody, rawBody, requestContext } from './http';
import { startJobQueue } from './jobs';
import { createLogger, type Logger } from './logger';
import { databaseCheck, probeResponder } from './probes';
import { PRINCIPAL_HEADER, verifyRequestToken, type Principal } from './principal';
import { GATEWAY_SERVICE, parseServicePrivateKey, parseServicePublicKey } from './service-keys';
import type { KeyObject } from 'node:crypto';
import { listen, onShutdown } from './server';
import type { SubgraphContext, SubgraphDefinition, SubgraphDeps } from './subgraph';
import { startSubgraph, untilDatabase } from './subgraph-start';
import { httpSupergraphClient } from './supergraph-client';

/** What the gateway forwards stays below this (it accepts 1 MB per operation). */
const BODY_LIMIT = '2mb';

/** The platform's settings and the subgraph's product's, with those a standalone subgraph cannot run without. */
const standaloneConfig = (name: string, product: ConfiguredProduct) =>
  requireSettings(composeConfig([product]).loadConfig(), ['DATABASE_URL', 'SERVICE_PRIVATE_KEY', 'GATEWAY_PUBLIC_KEY', 'GATEWAY_URL'], `the ${name} subgraph`);

/**
 * One subgraph as its own HTTP service (docker compose): the same definition `npm start` runs
 * in-process, behind POST /graphql. The caller's identity is only what the gateway signed, for this
 * subgraph, with its own key: an unsigned request is refused. It validates the platform's settings and
 * its own product's (`product`: its manifest).
 */
export function runStandaloneSubgraph<S>(def: SubgraphDefinition<S>, product: ConfiguredProduct): Promise<void> {
  return runEntry(async () => {
    const config = standaloneConfig(def.name, product);
    const logger = createLogger(config.LOG_LEVEL, def.name);
    const databaseUrl = config.DATABASE_URL;
    const { store, jobs } = await openDatabase(def, config, logger);
    // aborted first on shutdown: background work waiting for the gateway stops waiting
    const shutdown = new AbortController();
    const supergraph = httpSupergraphClient(config.GATEWAY_URL, parseServicePrivateKey(config.SERVICE_PRIVATE_KEY), def.name, {
      shutdown: shutdown.signal,
      timeoutMs: config.GATEWAY_TIMEOUT_MS,
    });
    const listener = new NotificationListener(databaseUrl, logger);
    const notifications = new Notifications(listener);
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
      formatError: (formatted, raw) => {
        // an unreachable database is a 503 for the caller (lib/faults.ts), not a resolver fault
        const error = raw instanceof GraphQLError ? asServiceUnavailable(raw) : raw;
        if (error !== raw) formatted = { ...formatted, message: (error as GraphQLError).message, extensions: (error as GraphQLError).extensions };
        // the stack of a real fault exists only here; the gateway sees a generic error
        if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') logger.error({ err: error }, 'resolver failed');
        const status = error instanceof GraphQLError ? (error.extensions.http as { status?: number } | undefined)?.status : undefined;
        return status === undefined ? formatted : { ...formatted, extensions: { ...formatted.extensions, http: { status } } };
      },
    });
    await apollo.start();

    const app = express();
    app.disable('x-powered-by');
    // probes (lib/probes.ts) are not logged: one line every few seconds per container says nothing
    const probe = probeResponder({ checks: { database: databaseCheck(databaseUrl) } });
    app.use((req, res, next) => {
      if (!probe(req, res)) next();
    });
    app.use(requestContext(logger));
    app.post(
      '/graphql',
      express.json({ limit: BODY_LIMIT, verify: keepRawBody }),
      verifiedPrincipal(def.name, parseServicePublicKey(config.GATEWAY_PUBLIC_KEY)),
      expressMiddleware(apollo, {
        context: async ({ req, res }): Promise<SubgraphContext> => ({
          principal: res.locals.principal as Principal,
          clientAddress: res.locals.clientAddress as string | undefined,
          requestId: req.id,
          logger: req.log,
          loaders: new Map(),
        }),
      }),
    );

    const notes = await startSubgraph(def, services, deps, { signal: shutdown.signal });
    const server = await listen(app, config.HOST, config.SUBGRAPH_PORT, { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS });
    onShutdown(
      async () => {
        shutdown.abort();
        await server.close();
        await apollo.stop();
        await notifications.close();
        await listener.close();
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
 * The principal the gateway verified and signed for this subgraph, with the client's address. A
 * request without one, or whose token fails (another signer, another audience, expired, another
 * body): 401 — nothing reaches the schema unsigned, not even as anonymous.
 */
function verifiedPrincipal(subgraph: string, gatewayKey: KeyObject) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const verified = await verifyRequestToken(req.get(PRINCIPAL_HEADER), {
      audience: subgraph,
      publicKeyOf: (issuer) => (issuer === GATEWAY_SERVICE ? gatewayKey : undefined),
      body: rawBody(req),
    });
    if (!verified?.principal) {
      req.log.warn(req.get(PRINCIPAL_HEADER) ? 'rejected a request with an unverifiable principal' : 'rejected an unsigned request');
      res.status(401).json({
        errors: [
          { message: 'Only the gateway may call a subgraph: the signed principal is missing, invalid or expired.', extensions: { code: 'UNAUTHENTICATED' } },
        ],
      });
      return;
    }
    res.locals.principal = verified.principal;
    res.locals.clientAddress = verified.clientAddress;
    next();
  };
}

/** The database, the subgraph's store (migrated) and the job queue, each waited for while the database is unavailable. */
async function openDatabase(def: SubgraphDefinition<unknown>, config: ReturnType<typeof standaloneConfig>, logger: Logger) {
  const url = config.DATABASE_URL;
  await untilDatabase('the database', () => ensureDatabase(url), logger);
  const store = await untilDatabase(`the ${def.name} store`, () => openStore(def.store, { url, ...poolOptions(config), logger, migrate: true }), logger);
  const jobs = await untilDatabase('the job queue', () => startJobQueue({ url, logger }), logger);
  return { store, jobs };
}
