import { isUtf8 } from 'node:buffer';
import { ApolloServer, type GraphQLRequest } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { KeyObject } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import type { Config } from '../lib/config';
import { isDatabaseUnavailable } from '../lib/faults';
import { isAdmin, PRINCIPAL_HEADER, verifyRequestToken, type Principal } from '../lib/principal';
import { GATEWAY_SERVICE } from '../lib/service-keys';
import { cors, keepRawBody, rawBody, requestContext } from '../lib/http';
import type { Logger } from '../lib/logger';
import { probeResponder, type ReadinessCheck } from '../lib/probes';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../lib/errors';
import { Authenticator } from './authentication';
import { credentialCarriers, type CredentialKind } from '../lib/credentials';
import { createGatewayContext, type GatewayContext, type RequestCredentials } from './context';
import type { SubgraphDataSource } from './datasources';
import { graphqlIde } from './ide';
import { useAuthentication } from './plugins/use-authentication';
import { useDocumentLimits, type DocumentLimits } from './plugins/use-document-limits';
import { useIntrospectionGuard } from './plugins/use-introspection-guard';
import { useQueryLimits, type QueryLimits } from './plugins/use-query-limits';
import { useServiceUnavailable } from './plugins/use-service-unavailable';
import { useExecutableOperation } from './plugins/use-executable-operation';
import { DATA_CHANGED, type SubgraphCachePolicy } from '../lib/cache-policy';
import type { NotificationListener } from '../lib/database';
import { ResponseCache } from './response-cache';
import { SupergraphExecutor } from './supergraph-executor';

export type GatewayLimits = QueryLimits & DocumentLimits;

/** The gateway's limits from the configuration (MAX_QUERY_* and MAX_ROOT_FIELDS). */
/** The response cache's settings (RESPONSE_CACHE…) with the policies of the subgraphs served; undefined when it is off. */
export function responseCacheOf(config: Config, policies: Record<string, SubgraphCachePolicy>): GatewayOptions['responseCache'] {
  if (!config.RESPONSE_CACHE) return undefined;
  return { policies, maxBytes: config.RESPONSE_CACHE_MAX_MB * 1024 * 1024, ttlSeconds: config.RESPONSE_CACHE_TTL_SECONDS };
}

export const gatewayLimits = (config: Config): GatewayLimits => ({
  maxDepth: config.MAX_QUERY_DEPTH,
  maxCost: config.MAX_QUERY_COST,
  maxRootFields: config.MAX_ROOT_FIELDS,
  maxFields: config.MAX_QUERY_FIELDS,
  maxAliases: config.MAX_QUERY_ALIASES,
  maxDirectives: config.MAX_QUERY_DIRECTIVES,
  maxTokens: config.MAX_QUERY_TOKENS,
});

const unauthenticatedBody = (message: string) => ({ errors: [{ message, extensions: { code: 'UNAUTHENTICATED' } }] });

/**
 * The public endpoint takes credentials, never a signed principal: a token captured inside must not
 * work from outside, and nothing that arrives here skips verification and metering.
 */
function refuseSignedPrincipals(req: Request, res: Response, next: NextFunction) {
  if (req.headers[PRINCIPAL_HEADER] === undefined) return next();
  req.log.warn('refused a signed principal on the public endpoint');
  res.status(401).json(unauthenticatedBody('Signed principals are not accepted here; send a credential.'));
}

export interface GatewayOptions {
  supergraphSdl: string;
  dataSources: Record<string, SubgraphDataSource>;
  /** Every credential kind the subgraphs verify (subgraphs/products.ts collects them from the product manifests: credentialsOf). */
  credentials: readonly CredentialKind[];
  logger: Logger;
  development: boolean;
  limits: GatewayLimits;
  /** Largest request body read (GATEWAY_BODY_LIMIT). */
  bodyLimit: string;
  /** What GET /readyz checks (lib/probes.ts): the database in-process, the subgraphs in the remote topology. */
  readiness: Record<string, ReadinessCheck>;
  /** The proxies whose X-Forwarded-For gives the client's address (Express `trust proxy`; TRUST_PROXY). */
  trustProxy?: string;
  /**
   * Remote topology: each subgraph's public key, by name. The gateway then also serves `internalApp`,
   * where subgraphs read the supergraph with their own signed service principal.
   */
  servicePublicKeys?: Record<string, KeyObject>;
  /**
   * The response cache (gateway/response-cache.ts) and what each subgraph lets it keep; it serves
   * nothing until `listenForChanges` hears the data change announcements. None: nothing is cached.
   */
  responseCache?: { policies: Record<string, SubgraphCachePolicy>; maxBytes: number; ttlSeconds: number };
  /** Single-fetch plans sent directly (GATEWAY_DIRECT_FETCH; default: yes). */
  directFetch?: boolean;
}

export interface ExecutedOperation {
  status: number;
  headers: Map<string, string>;
  body: { data?: Record<string, unknown> | null; errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> };
}

export interface Gateway {
  server: ApolloServer<GatewayContext>;
  /** Express app: POST /graphql, the IDE on GET /graphql (browsers), the probes /healthz, /livez and /readyz. Takes no signed principal. */
  app: Express;
  /**
   * Remote topology: POST /graphql for subgraphs only, on its own listener (the internal network):
   * every request carries a service principal signed by that subgraph's key, and nothing else counts.
   */
  internalApp?: Express;
  /**
   * Runs one operation in-process, as if it had arrived over HTTP with these headers; or, for a
   * subgraph reading the supergraph, as its already-verified service `principal`.
   */
  execute(request: GraphQLRequest, credentials: RequestCredentials, requestId: string, principal?: Principal): Promise<ExecutedOperation>;
  /** The response cache, when there is one. */
  cache?: ResponseCache;
  /** How an operation runs: sent directly to one subgraph or not, and what its cached answer is tagged with if it is cached. */
  describe: SupergraphExecutor['describe'];
  /**
   * Evicts cached answers on the data change announcements (NOTIFY DATA_CHANGED) heard by `listener`;
   * the cache serves while they arrive. Returns what stops it.
   */
  listenForChanges(listener: NotificationListener): () => Promise<void>;
  stop(): Promise<void>;
}

const LANDING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Supergraph gateway</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}code{background:#eef1f4;padding:0 .25rem}</style></head>
<body><h1>Supergraph gateway</h1>
<p>GraphQL endpoint: <code>POST /graphql</code> (JSON <code>{"query", "variables"}</code>) with the credential of the product you call,
for example <code>Authorization: Bearer &lt;API_KEY&gt;</code> for the match prediction API.</p>
<p><a href="/graphql">Open the GraphQL IDE</a> (in production it asks for an administrator API key).</p>
<p>Health: <a href="/healthz"><code>/healthz</code></a>.</p></body></html>`;

/** The supergraph gateway: static supergraph, in-process or remote subgraphs, one auth and metering point. */
export async function createGateway(opts: GatewayOptions): Promise<Gateway> {
  const authenticator = new Authenticator(opts.credentials, opts.dataSources);
  const cache = opts.responseCache && new ResponseCache({ maxBytes: opts.responseCache.maxBytes, ttlMs: opts.responseCache.ttlSeconds * 1000 });
  const executor = new SupergraphExecutor({
    supergraphSdl: opts.supergraphSdl,
    dataSources: opts.dataSources,
    direct: opts.directFetch,
    cache: cache && { store: cache, policies: opts.responseCache!.policies },
  });
  const server = new ApolloServer<GatewayContext>({
    // shutdown is ours (drain, then stop), not Apollo's own signal handler
    stopOnTerminationSignals: false,
    gateway: executor,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    logger: opts.logger,
    ...useDocumentLimits(opts.limits),
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      // in this order: the operation as it executes (variables included), the limits measured on it, then authentication
      useExecutableOperation(),
      useQueryLimits(opts.limits),
      useAuthentication(authenticator),
      useIntrospectionGuard({ openToAll: opts.development, identify: async (ctx) => (await authenticator.authenticate(ctx, { meter: false })).principal }),
      useServiceUnavailable(),
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
        const ctx = createGatewayContext({ headers: req.headers, query: req.query, clientAddress: req.ip }, req.id, req.log);
        // metered like any request: else this page would tell, for free and without a trace, whether a key is valid
        return isAdmin((await authenticator.authenticate(ctx, { meter: true })).principal);
      } catch {
        return false;
      }
    },
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy ?? false);
  const probe = probeResponder({ checks: opts.readiness });
  app.use((req, res, next) => {
    if (!probe(req, res)) next();
  });
  app.use(requestContext(opts.logger));
  // a person who opens the gateway's address finds where to go (instead of a bare 404)
  app.get('/', (_req, res) => {
    res.type('html').send(LANDING_PAGE);
  });
  app.use(ide.assets);
  app.use(
    '/graphql',
    cors({
      origins: '*',
      allowHeaders: ['content-type', 'x-request-id', 'apollo-require-preflight', ...credentialCarriers(opts.credentials).headers.filter((h) => h !== 'cookie')],
      exposeHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-request-id'],
    }),
    refuseSignedPrincipals,
    ide.page,
    // a credential of no known format is refused before the body is read or the operation parsed
    (req, res, next) => {
      const refusal = authenticator.refuseMalformed({ headers: req.headers, query: req.query });
      if (!refusal) return next();
      const http = refusal.extensions.http as { status: number; headers: Map<string, string> };
      for (const [name, value] of http.headers) res.setHeader(name, value);
      res.status(http.status).json({ errors: [{ message: refusal.message, extensions: { code: refusal.extensions.code } }] });
    },
    express.json({ limit: opts.bodyLimit, verify: refuseInvalidUtf8 }),
    expressMiddleware(server, {
      context: async ({ req }) => createGatewayContext({ headers: req.headers, query: req.query, clientAddress: req.ip }, req.id, req.log),
    }),
  );
  app.use((_req, res) => {
    res.status(404).json({ errors: [{ message: 'Not found: the GraphQL endpoint is /graphql.', extensions: { code: 'NOT_FOUND' } }] });
  });
  app.use(gatewayErrors(opts));

  let internalApp: Express | undefined;
  if (opts.servicePublicKeys) {
    const keys = opts.servicePublicKeys;
    internalApp = express();
    internalApp.disable('x-powered-by');
    internalApp.use(requestContext(opts.logger));
    internalApp.post(
      '/graphql',
      express.json({
        limit: opts.bodyLimit,
        verify: (req, res, buf, encoding) => {
          refuseInvalidUtf8(req, res, buf, encoding);
          keepRawBody(req as Request, res as Response, buf);
        },
      }),
      async (req: Request, res: Response, next: NextFunction) => {
        const verified = await verifyRequestToken(req.get(PRINCIPAL_HEADER), {
          audience: GATEWAY_SERVICE,
          publicKeyOf: (issuer) => (Object.hasOwn(keys, issuer) ? keys[issuer] : undefined),
          body: rawBody(req),
        });
        if (!verified) {
          req.log.warn('refused a request without a valid service principal on the internal endpoint');
          return void res.status(401).json(unauthenticatedBody('This endpoint is for the subgraphs: a service principal signed with its own key is required.'));
        }
        // the signer is the principal: a subgraph's key signs for that subgraph, never an administrator
        res.locals.principal = { kind: 'service', name: verified.issuer } satisfies Principal;
        next();
      },
      expressMiddleware(server, {
        context: async ({ req, res }) => createGatewayContext({ headers: {} }, req.id, req.log, res.locals.principal as Principal),
      }),
    );
    internalApp.use(gatewayErrors(opts));
  }

  return {
    server,
    app,
    internalApp,
    async execute(request, credentials, requestId, principal) {
      const response = await server.executeOperation(request, {
        contextValue: createGatewayContext(credentials, requestId, opts.logger.child({ requestId }), principal),
      });
      const body = response.body.kind === 'single' ? response.body.singleResult : response.body.initialResult;
      return { status: response.http.status ?? 200, headers: response.http.headers, body: body };
    },
    cache,
    describe: (query, operationName) => executor.describe(query, operationName),
    listenForChanges(listener) {
      if (!cache) return async () => undefined;
      return listener.listen(
        DATA_CHANGED,
        (schema) => cache.invalidate(schema),
        (listening) => cache.setListening(listening),
      );
    },
    stop: () => server.stop(),
  };
}

/** A body that is not valid UTF-8 is refused, not read with U+FFFD in place of its bytes. */
function refuseInvalidUtf8(_req: unknown, _res: unknown, buf: Buffer, encoding: string) {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(buf))
    throw Object.assign(new Error('Request body is not valid UTF-8.'), { status: 400, type: 'entity.encoding.invalid' });
}

/**
 * What goes wrong before an operation starts (a body that is not JSON, too large, not decodable as
 * its Content-Encoding says; a malformed URL) is answered as GraphQL errors with the client's status,
 * never Express's HTML error page with its stack trace.
 */
function gatewayErrors(opts: GatewayOptions): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    const e = err as { status?: number; statusCode?: number; type?: string };
    const status = e.status ?? e.statusCode;
    const reply = (code: number, message: string, extensionCode: string, headers: Record<string, string> = {}) => {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      res.status(code).json({ errors: [{ message, extensions: { code: extensionCode } }] });
    };
    if (e.type === 'entity.too.large') return reply(413, `Request body exceeds the limit of ${opts.bodyLimit}.`, 'PAYLOAD_TOO_LARGE');
    if (e.type === 'entity.parse.failed') return reply(400, 'Malformed JSON in request body.', 'BAD_REQUEST');
    if (e.type === 'entity.encoding.invalid') return reply(400, 'Request body is not valid UTF-8.', 'BAD_REQUEST');
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return reply(415, 'Unsupported content encoding or charset.', 'BAD_REQUEST');
    if (isDatabaseUnavailable(err))
      return reply(503, 'The service is temporarily unavailable; please retry shortly.', 'SERVICE_UNAVAILABLE', {
        'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
    if (typeof status === 'number' && status >= 400 && status < 500) return reply(400, 'Malformed request.', 'BAD_REQUEST');
    (req.log ?? opts.logger).error({ err }, 'unhandled error');
    reply(500, 'Internal server error.', 'INTERNAL_SERVER_ERROR');
  };
}
