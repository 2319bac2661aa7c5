import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request id per request (the caller's X-Request-Id when sane), echoed back and on every log line. */
export function requestContext(logger: Logger, opts: { logRequests?: boolean } = {}) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    req.id = typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
    // the request's logger is made when something logs (most requests log nothing at the usual levels)
    let log: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: true,
      get: () => (log ??= logger.child({ requestId: req.id })),
      set: (value: Logger) => (log = value),
    });
    res.setHeader('x-request-id', req.id);
    if (opts.logRequests !== false && logger.isLevelEnabled('info')) {
      const start = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        req.log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
      });
    }
    next();
  };
}

export interface CorsPolicy {
  origins: '*' | string[];
  allowHeaders: string[];
  exposeHeaders?: string[];
  credentials?: boolean;
}

/** CORS per surface. Preflights are answered here with 204. */
export function cors(policy: CorsPolicy) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin) {
      const allowed = policy.origins === '*' || policy.origins.includes(origin);
      if (allowed) {
        res.setHeader('access-control-allow-origin', policy.origins === '*' && !policy.credentials ? '*' : origin);
        if (policy.origins !== '*' || policy.credentials) res.append('vary', 'Origin');
        if (policy.credentials) res.setHeader('access-control-allow-credentials', 'true');
        if (policy.exposeHeaders?.length) res.setHeader('access-control-expose-headers', policy.exposeHeaders.join(', '));
      }
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
        if (allowed) {
          res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
          res.setHeader('access-control-allow-headers', policy.allowHeaders.join(', '));
          res.setHeader('access-control-max-age', '600');
        }
        res.status(204).end();
        return;
      }
    }
    next();
  };
}

/** An express.json() `verify` hook keeping the body exactly as it arrived (a request token covers its SHA-256). */
export function keepRawBody(req: Request, _res: Response, buf: Buffer): void {
  (req as Request & { rawBody?: Buffer }).rawBody = buf;
}

/** The body kept by `keepRawBody` (empty when there was none). */
export const rawBody = (req: Request): Buffer => (req as Request & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
