import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { isDatabaseUnavailable } from '../../../lib/faults';
import { originRefusal, protects } from '../csrf';
import { sendCoreError, sendUnavailable } from '../reply';
import type { Surface, SurfaceOptions } from '../types';
import { bodyProblem, decodes, formDecodes } from './parse';

/**
 * The stages every request of a surface passes before its route: well-formed URL, allowed Host,
 * CSRF Origin check (CORS and the probes are lib/http.ts's and lib/probes.ts's); and what answers
 * when no route does (405 with Allow, Django's trailing-slash redirect, 404) or something throws.
 */

/** A path or query string with malformed percent-encoding (or encoded bytes that are not UTF-8): 400, before routing. */
export function malformedUrl(surface: Surface): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    if (!decodes(path)) return sendCoreError(res, surface, 'invalid', 'Malformed percent-encoding in the request path.');
    if (q >= 0 && !formDecodes(url.slice(q + 1))) return sendCoreError(res, surface, 'invalid', 'Malformed percent-encoding in the query string.');
    next();
  };
}

/** Django's host validation: exact names, `.domain` for the domain and its subdomains, `*` for any. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p === '*' || p === name || (p.startsWith('.') && (name.endsWith(p) || name === p.slice(1)));
  });
}

/** Another Host than the surface's ALLOWED_HOSTS: 400 `disallowed_host`, as Django answers. */
export function allowedHost(surface: Surface, allowed: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const host = req.headers.host ?? '';
    if (hostAllowed(host, allowed)) return next();
    const shown = host.replace(/[^\x20-\x7e]/g, '?').slice(0, 255);
    sendCoreError(
      res,
      surface,
      'disallowed_host',
      `Invalid HTTP_HOST header: '${shown}'. You may need to add '${shown.replace(/:\d+$/, '')}' to ALLOWED_HOSTS.`,
    );
  };
}

/** A state-changing request from another origin: 403 `csrf_failed` (the surface's CSRF policy). */
export function csrfOrigin(surface: Surface, options: SurfaceOptions): RequestHandler | undefined {
  const policy = surface.csrf?.(options.config);
  if (!policy) return undefined;
  return (req, res, next) => {
    const refusal = protects(policy, req) ? originRefusal(req, policy) : undefined;
    if (refusal) return sendCoreError(res, surface, 'csrf_failed', refusal);
    next();
  };
}

/** Whether a concrete path matches a route path with `:param` segments. */
function matches(routePath: string, path: string): boolean {
  const a = routePath.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((seg, i) => (seg.startsWith(':') ? b[i] !== '' : seg === b[i]));
}

/** No route answered: the same path with a wrong method is 405 with Allow; a missing trailing slash redirects, as Django does; else 404. */
export function unrouted(surface: Surface): RequestHandler {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of surface.routes) methodsByPath.set(route.path, (methodsByPath.get(route.path) ?? new Set<string>()).add(route.method));
  return (req, res) => {
    const known = [...methodsByPath.entries()].find(([path]) => matches(path, req.path));
    if (known) {
      const allow = [...known[1]];
      if (allow.includes('GET')) allow.push('HEAD');
      allow.push('OPTIONS');
      res.setHeader('allow', allow.join(', '));
      if (req.method === 'OPTIONS') return void res.status(204).end();
      return sendCoreError(res, surface, 'method_not_allowed', `Method "${req.method}" not allowed.`);
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && !req.path.endsWith('/')) {
      const withSlash = `${req.path}/`;
      if ([...methodsByPath.keys()].some((path) => matches(path, withSlash))) {
        const q = req.originalUrl.indexOf('?');
        return void res.redirect(301, withSlash + (q >= 0 ? req.originalUrl.slice(q) : ''));
      }
    }
    sendCoreError(res, surface, 'not_found', 'Not found.');
  };
}

/** What escaped a stage: a client's mistake the framework caught is a 4xx, the database away a 503, anything else a logged 500. */
export function failures(surface: Surface, options: SurfaceOptions): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    const problem = bodyProblem(err, options.bodyLimit, req);
    if (problem) return sendCoreError(res, surface, problem.kind, problem.message);
    if (isDatabaseUnavailable(err)) return sendUnavailable(res, surface);
    req.log?.error({ err }, 'unhandled error');
    sendCoreError(res, surface, 'internal', 'Internal server error.');
  };
}
