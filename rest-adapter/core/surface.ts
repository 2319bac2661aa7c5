import express, { type Express } from 'express';
import type { Config } from '../../lib/config';
import type { CredentialKind } from '../../lib/credentials';
import { cors, requestContext, type CorsPolicy } from '../../lib/http';
import type { Logger } from '../../lib/logger';
import { probeResponder, type ReadinessCheck } from '../../lib/probes';
import type { ErrorCatalogue, ErrorShape } from './errors';
import type { OperationExecutor } from './executor';
import { loadOperations } from './operations';
import type { Route } from './route';
import type { CsrfPolicy } from './csrf';
import { credentialForwarder } from './stages/credential';
import type { SurfaceRuntime } from './stages/exchange';
import type { SurfaceGate } from './stages/gate';
import { bodyParsers } from './stages/parse';
import { routeHandler } from './stages/pipeline';
import { allowedHost, csrfOrigin, failures, malformedUrl, unrouted } from './stages/request';

export { hostAllowed } from './stages/request';
export { IDEMPOTENCY_HEADER } from './stages/parse';
export { parseRange } from './reply';

/** A product's REST surface: its route table, error catalogue and conventions. */
export interface Surface {
  /** Folder name under rest-adapter/ (operations are read from there). */
  product: string;
  title: string;
  version: string;
  description: string;
  /** Security names are the surface's own (see `buildOpenApi`'s `security`). */
  routes: Route<string>[];
  /**
   * The credential kinds this surface accepts, in order (their declarations live with the subgraph
   * that verifies them). The surface forwards exactly what they read, and the gateway looks for no other.
   */
  credentials: readonly CredentialKind[];
  /** Labels (and headers) of the GraphQL error codes on this surface; statuses come from the errors. */
  catalogue: ErrorCatalogue;
  errorShape: ErrorShape;
  /** A fixed policy, or one read from the configuration (e.g. CORS_ALLOWED_ORIGINS). */
  cors: CorsPolicy | ((config: Config) => CorsPolicy);
  /** Headers on every response of the surface, errors and probes included (e.g. X-App-Name, X-App-Version). */
  responseHeaders?: (config: Config) => Record<string, string>;
  /**
   * Host names the surface answers to, as Django's ALLOWED_HOSTS: exact names, `.example.com` for a
   * domain and its subdomains, `*` for any. Another Host header is 400 `disallowed_host`.
   */
  allowedHosts?: (config: Config) => string[];
  /** CSRF protection (Origin check of state-changing requests; tokens for `csrf: true` routes). */
  csrf?: (config: Config) => CsrfPolicy;
  /**
   * The surface's OpenAPI document, generated from its route table (rest-adapter/core/openapi.ts) and
   * served by its pages; the conformance test replays every operation it documents.
   */
  openapi?: () => Record<string, unknown>;
  /** Extra pages (API docs, forms) mounted before the route table. */
  pages?: (app: Express, config: Config) => void;
  /** Response headers copied from the operation's result (quota state, Retry-After, WWW-Authenticate). */
  passHeaders?: string[];
  /** The gate its subgraphs enforce (the finance node's read-only mode), answered before an input problem (stages/gate.ts). */
  gate?: SurfaceGate;
}

export interface SurfaceOptions {
  config: Config;
  executor: OperationExecutor;
  logger: Logger;
  bodyLimit: string;
  /** The proxies whose X-Forwarded-For gives the client's address (Express `trust proxy`; TRUST_PROXY). */
  trustProxy?: string;
  /**
   * What the readiness probe (GET /readyz, lib/probes.ts) checks: the database in `npm start`, the
   * gateway behind the REST adapter in its own container. None: ready while it serves.
   */
  readiness?: Record<string, ReadinessCheck>;
}

/**
 * Builds the Express app of one surface from its route table. Every request passes the surface's
 * stages (headers, probes, request context, URL, Host, CORS, CSRF Origin, its pages), then its
 * route's (rest-adapter/core/stages/pipeline.ts: read the body → CSRF token → intercept → validate →
 * credential → gate → refuse → execute → reply); what no route answers is 405, a slash redirect or 404.
 */
export function createSurfaceApp(surface: Surface, opts: SurfaceOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy ?? false);
  app.set('strict routing', true);
  app.set('case sensitive routing', true);
  app.set('etag', false);
  const headers = surface.responseHeaders?.(opts.config);
  if (headers) {
    app.use((_req, res, next) => {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      next();
    });
  }
  // probes next: not logged, never behind a credential or a host check; a path the surface's contract
  // defines (the finance node's /healthz, /livez, /readyz) stays its own
  const probe = probeResponder({ checks: opts.readiness ?? {}, except: surface.routes.map((r) => r.path) });
  app.use((req, res, next) => {
    if (!probe(req, res)) next();
  });
  app.use(requestContext(opts.logger));
  app.use(malformedUrl(surface));
  const hosts = surface.allowedHosts?.(opts.config);
  if (hosts) app.use(allowedHost(surface, hosts));
  app.use(cors(typeof surface.cors === 'function' ? surface.cors(opts.config) : surface.cors));
  const origin = csrfOrigin(surface, opts);
  if (origin) app.use(origin);
  surface.pages?.(app, opts.config);
  const runtime = surfaceRuntime(surface, opts);
  for (const route of surface.routes) {
    app[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](route.path, routeHandler(route, runtime));
  }
  app.use(unrouted(surface));
  app.use(failures(surface, opts));
  return app;
}

/** What a surface's route stages share: its options, body parsers, persisted operations and credential forwarders. */
function surfaceRuntime(surface: Surface, options: SurfaceOptions): SurfaceRuntime {
  const operations = loadOperations(
    surface.product,
    surface.routes.flatMap((r) => (r.operation && !r.reply ? [r.operation] : [])),
  );
  const forwarders = new Map(surface.routes.map((r) => [r, credentialForwarder(r.credentials ?? surface.credentials)]));
  return {
    surface,
    options,
    parsers: bodyParsers(options.bodyLimit),
    document: (route) => (route.operation && !route.reply ? operations.get(route.operation) : undefined),
    forward: (route, req) => forwarders.get(route)!(req),
  };
}
