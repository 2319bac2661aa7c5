import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import type { z } from 'zod';
import { cors, requestContext, type CorsPolicy } from '../../lib/http';
import type { Logger } from '../../lib/logger';
import { CORE_STATUS, mapGraphQLError, type CoreErrorKind, type ErrorCatalogue, type ErrorShape } from './errors';
import type { OperationExecutor } from './executor';
import { loadOperations } from './operations';
import type { Reply, Route, RouteInput } from './route';

/** A product's REST surface: its route table, error catalogue and conventions. */
export interface Surface {
  /** Folder name under rest-adapter/ (operations are read from there). */
  product: string;
  title: string;
  version: string;
  description: string;
  routes: Route[];
  catalogue: ErrorCatalogue;
  errorShape: ErrorShape;
  cors: CorsPolicy;
  /** Extra pages (API docs, forms) mounted before the route table. */
  pages?: (app: Express) => void;
  /** Response headers copied from the operation's result (quota state, Retry-After, WWW-Authenticate). */
  passHeaders?: string[];
}

export interface SurfaceOptions {
  executor: OperationExecutor;
  logger: Logger;
  bodyLimit: string;
}

function sendCoreError(res: Response, surface: Surface, kind: CoreErrorKind, message: string, details?: unknown, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(CORE_STATUS[kind]).json(surface.errorShape.body(CORE_STATUS[kind], surface.errorShape.coreCode(kind), message, details));
}

function sendReply(res: Response, reply: Reply) {
  switch (reply.kind) {
    case 'json':
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
      res.status(reply.status ?? 200).json(reply.body);
      return;
    case 'redirect':
      res.redirect(reply.status ?? 302, reply.location);
      return;
    case 'file':
      res.status(200).type(reply.contentType).attachment(reply.filename).send(reply.body);
      return;
    case 'html':
      res.status(reply.status ?? 200).type('html').send(reply.html);
      return;
  }
}

/** Zod issues → {field: [messages]} (DRF's shape for validation errors). */
function fieldErrors(error: z.ZodError, where: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : where;
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Builds the Express app of one surface from its route table. */
export function createSurfaceApp(surface: Surface, opts: SurfaceOptions): Express {
  const operations = loadOperations(surface.product, surface.routes.map((r) => r.operation));
  const app = express();
  app.disable('x-powered-by');
  app.set('strict routing', true);
  app.set('case sensitive routing', true);
  app.set('etag', false);
  app.use(requestContext(opts.logger));
  app.use(cors(surface.cors));
  surface.pages?.(app);

  const parsers = {
    json: express.json({ limit: opts.bodyLimit, strict: false }),
    form: express.urlencoded({ limit: opts.bodyLimit, extended: false }),
    text: express.text({ limit: opts.bodyLimit, type: () => true }),
  };
  const methodsByPath = new Map<string, Set<string>>();

  for (const route of surface.routes) {
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    methodsByPath.set(route.path, methods);
    const document = operations.get(route.operation)!;
    const handler = async (req: Request, res: Response) => {
      const input: RouteInput = { params: req.params as Record<string, string>, query: {}, body: undefined, req };
      if (route.params) {
        const parsed = route.params.safeParse(req.params);
        if (!parsed.success) return sendCoreError(res, surface, 'not_found', 'Not found.');
        input.params = parsed.data as Record<string, string>;
      }
      const invalid = (message: string, fields: Record<string, string[]>) =>
        route.respondError
          ? sendReply(res, route.respondError({ status: 400, code: surface.errorShape.coreCode('invalid'), message, fields }, input))
          : sendCoreError(res, surface, 'invalid', message, fields);
      if (route.query) {
        const parsed = route.query.safeParse(req.query);
        if (!parsed.success) return invalid('Invalid query parameters.', fieldErrors(parsed.error, 'query'));
        input.query = parsed.data;
      }
      if (route.body) {
        const parsed = route.body.safeParse(req.body);
        if (!parsed.success) return invalid('Invalid request body.', fieldErrors(parsed.error, 'body'));
        input.body = parsed.data;
      }
      const variables = route.variables ? route.variables(input) : {};
      const outcome = await opts.executor.execute(document, variables, req.headers, req.id);
      for (const name of surface.passHeaders ?? []) {
        const value = outcome.headers.get(name);
        if (value !== undefined) res.setHeader(name, value);
      }
      const error = outcome.body.errors?.[0];
      if (error) {
        const mapped = mapGraphQLError(error, surface.catalogue);
        if (mapped.status >= 500) req.log.error({ error }, 'operation failed');
        if (route.respondError) {
          const fields = mapped.details && typeof mapped.details === 'object' ? (mapped.details as Record<string, string[]>) : undefined;
          return sendReply(res, route.respondError({ status: mapped.status, code: mapped.code, message: mapped.message, fields }, input));
        }
        // the catalogue's headers, unless the gateway already gave a more specific one (passHeaders)
        for (const [k, v] of Object.entries(mapped.headers)) if (!res.hasHeader(k)) res.setHeader(k, v);
        res.status(mapped.status).json(surface.errorShape.body(mapped.status, mapped.code, mapped.message, mapped.details));
        return;
      }
      const data = outcome.body.data ?? {};
      sendReply(res, route.respond ? route.respond(data, input) : { kind: 'json', status: route.response.status ?? 200, body: data });
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    if (route.method === 'GET' || route.method === 'DELETE') app[method](route.path, handler);
    else app[method](route.path, requireContentType(surface, route.consumes ?? 'json'), parsers[route.consumes ?? 'json'], handler);
  }

  // The same path with a wrong method: 405 with Allow. A missing trailing slash: redirect, as Django does.
  app.use((req, res) => {
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
  });

  const errors: ErrorRequestHandler = (err, req, res, _next) => {
    const e = err as { type?: string; status?: number; message?: string };
    if (e.type === 'entity.parse.failed') return sendCoreError(res, surface, 'parse_error', 'Malformed JSON in request body.');
    if (e.type === 'entity.too.large') return sendCoreError(res, surface, 'payload_too_large', `Request body exceeds the limit of ${opts.bodyLimit}.`);
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return sendCoreError(res, surface, 'unsupported_media_type', e.message ?? 'Unsupported encoding.');
    req.log?.error({ err }, 'unhandled error');
    if (res.headersSent) return;
    sendCoreError(res, surface, 'internal', 'Internal server error.');
  };
  app.use(errors);
  return app;
}

const CONTENT_TYPES = { json: ['application/json'], form: ['application/x-www-form-urlencoded'], text: ['message/rfc822', 'text/plain'] };

/** A body must come in the route's format (an empty body is fine: some POSTs take none). */
function requireContentType(surface: Surface, consumes: 'json' | 'form' | 'text') {
  return (req: Request, res: Response, next: () => void) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if ((length > 0 || chunked) && !req.is(CONTENT_TYPES[consumes])) {
      return sendCoreError(res, surface, 'unsupported_media_type', `Request body must be ${CONTENT_TYPES[consumes].join(' or ')}.`);
    }
    next();
  };
}

/** Whether a concrete path matches a route path with `:param` segments. */
function matches(routePath: string, path: string): boolean {
  const a = routePath.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') ? b[i] !== '' : seg === b[i]);
}
