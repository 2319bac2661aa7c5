import express, { type Express } from 'express';
import { cors, requestContext } from '../../lib/http';
import { hstsMode } from '../../lib/config';
import { probeResponder } from '../../lib/probes';
import { strictTransportSecurity } from '../../lib/security-headers';
import { loadOperations } from './operations';
import { credentialForwarder } from './stages/credential';
import type { SurfaceRuntime } from './stages/exchange';
import { bodyParsers } from './stages/parse';
import { routeHandler } from './stages/pipeline';
import { allowedHost, csrfOrigin, failures, malformedUrl, unrouted } from './stages/request';

export { hostAllowed } from './stages/request';
export { IDEMPOTENCY_HEADER } from './stages/parse';
export { parseRange } from './reply';
export type { Surface, SurfaceGate, SurfaceOptions } from './types';
import type { Surface, SurfaceOptions } from './types';

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
  const hsts = strictTransportSecurity(hstsMode(opts.config), opts.config.HSTS_MAX_AGE_SECONDS);
  if (hsts) app.use(hsts);
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
