import { isUtf8 } from 'node:buffer';
import { pipeline } from 'node:stream/promises';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import { CREDENTIAL_KINDS_HEADER, credentialCarriers, presentedCredential, type CredentialKind } from '../../lib/credentials';
import type { Config } from '../../lib/config';
import { DomainError, UNAVAILABLE_RETRY_AFTER_SECONDS, unauthenticated } from '../../lib/errors';
import { isDatabaseUnavailable } from '../../lib/faults';
import { IDEMPOTENCY_KEY } from '../../lib/idempotency';
import { cors, keepRawBody, requestContext, type CorsPolicy } from '../../lib/http';
import type { RequestCredentials } from '../../gateway/context';
import type { Logger } from '../../lib/logger';
import { probeResponder, type ReadinessCheck } from '../../lib/probes';
import { htmlSecurityHeaders, inlineScriptHashes } from '../../lib/security-headers';
import { cleanStrings, textProblem } from '../../lib/text';
import { CORE_STATUS, mapGraphQLError, type CoreErrorKind, type ErrorCatalogue, type ErrorShape, type MappedError } from './errors';
import type { OperationExecutor } from './executor';
import { loadOperations } from './operations';
import type { Reply, Route, RouteError, RouteInput, StreamBody } from './route';
import { setCookie } from './cookies';
import { csrfToken, originRefusal, protects, tokenRefusal, type CsrfPolicy } from './csrf';

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

function sendCoreError(res: Response, surface: Surface, kind: CoreErrorKind, message: string, details?: unknown, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(CORE_STATUS[kind]).json(surface.errorShape.body(CORE_STATUS[kind], surface.errorShape.coreCode(kind), message, details));
}

/**
 * The security headers of the HTML pages a route answers (helmet, lib/security-headers.ts). A page's
 * own inline scripts are admitted by their hashes (and only those), so each distinct set of inline
 * scripts gets its policy once.
 */
const htmlHeaderSets = new Map<string, ReturnType<typeof htmlSecurityHeaders>>();
function htmlHeaders(html: string): ReturnType<typeof htmlSecurityHeaders> {
  const hashes = inlineScriptHashes(html);
  const key = hashes.join(' ');
  let headers = htmlHeaderSets.get(key);
  if (!headers) {
    headers = htmlSecurityHeaders(hashes.length ? { 'script-src': hashes } : {});
    // pages are few; a page whose inline script changes per request would grow this without bound
    if (htmlHeaderSets.size > 200) htmlHeaderSets.clear();
    htmlHeaderSets.set(key, headers);
  }
  return headers;
}

function sendReply(req: Request, res: Response, reply: Reply) {
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  for (const cookie of reply.cookies ?? []) setCookie(req, res, cookie);
  switch (reply.kind) {
    case 'json':
      res.status(reply.status ?? 200).json(reply.body);
      return;
    case 'text':
      res
        .status(reply.status ?? 200)
        .type(reply.contentType ?? 'text/plain')
        .send(reply.body);
      return;
    case 'redirect':
      res.redirect(reply.status ?? 302, reply.location);
      return;
    case 'file':
      // attachment() sets a type from the filename's extension: the reply's own type goes after it
      res.setHeader('x-content-type-options', 'nosniff');
      res.status(200).attachment(reply.filename).type(reply.contentType).send(reply.body);
      return;
    case 'stream':
      sendStream(req, res, reply.body);
      return;
    case 'html':
      htmlHeaders(reply.html)(req, res, () =>
        res
          .status(reply.status ?? 200)
          .type('html')
          .send(reply.html),
      );
      return;
  }
}

/** `Range: bytes=…` against a length: one range, `'unsatisfiable'` (416), or undefined (the whole body). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  // absent, another unit, several ranges, malformed: the whole body, as RFC 9110 allows
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const etagListMatches = (header: string, etag: string) => header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === `"${etag}"`);

function sendStream(req: Request, res: Response, body: StreamBody) {
  if (body.filename) res.attachment(body.filename);
  res.setHeader('accept-ranges', 'bytes');
  res.setHeader('content-type', body.contentType);
  if (body.etag) res.setHeader('etag', `"${body.etag}"`);
  if (body.lastModified) res.setHeader('last-modified', body.lastModified.toUTCString());
  for (const [k, v] of Object.entries(body.headers ?? {})) res.setHeader(k, v);
  const ifNoneMatch = req.headers['if-none-match'];
  if (body.etag && ifNoneMatch && etagListMatches(ifNoneMatch, body.etag)) return void res.status(304).end();
  let range = parseRange(req.headers.range, body.size);
  // If-Range: the range only if the representation is still the one the client has part of
  const ifRange = req.get('if-range');
  if (range && ifRange && !(body.etag && ifRange.trim() === `"${body.etag}"`)) range = undefined;
  if (range === 'unsatisfiable') {
    res.setHeader('content-range', `bytes */${body.size}`);
    return void res.status(416).end();
  }
  if (range) {
    res.status(206).setHeader('content-range', `bytes ${range.start}-${range.end}/${body.size}`);
    res.setHeader('content-length', String(range.end - range.start + 1));
  } else {
    res.status(200).setHeader('content-length', String(body.size));
  }
  if (req.method === 'HEAD') return void res.end();
  pipeline(body.open(range), res).catch((err: unknown) => {
    // the client went away, or the storage failed mid-body: the status is sent, so the connection is cut
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') req.log.warn({ err }, 'streaming a body failed');
    res.destroy();
  });
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

/** A number in a query string or form is written in decimal: `0x10`, ` 5`, `1e3` and `Infinity` are not numbers to a person. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The type under a field's wrappers (default, optional, nullable, pipe). */
function baseType(schema: z.ZodType): string {
  let def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
  while (def.innerType || def.in) def = (def.innerType ?? def.in)!._zod.def as typeof def;
  return def.type;
}

/** Fields of an object schema that take numbers from strings (`z.coerce.number()`) whose value is not a decimal. */
function numberFormatProblems(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const shape = (schema as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape || !value || typeof value !== 'object') return {};
  const problems: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(shape)) {
    const raw = (value as Record<string, unknown>)[name];
    if (typeof raw === 'string' && baseType(field) === 'number' && !DECIMAL.test(raw)) problems[name] = ['Expected a number in decimal notation.'];
  }
  return problems;
}

function mergeFields(...all: Record<string, string[]>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const fields of all) for (const [k, v] of Object.entries(fields)) (out[k] ??= []).push(...v.filter((m) => !out[k].includes(m)));
  return out;
}

/**
 * Checks and parses one part of the request (query string or body) against the route's schema: text
 * hygiene (lib/text.ts: control characters and invalid Unicode refused, invisible-only strings empty),
 * decimal numbers, then the schema. One place for every route of every surface.
 */
function parsePart(schema: z.ZodType, raw: unknown, where: string, strictNumbers: boolean): { data?: unknown; fields?: Record<string, string[]> } {
  const cleaned = cleanStrings(raw);
  const parsed = schema.safeParse(cleaned.value);
  const fields = mergeFields(
    cleaned.problems,
    strictNumbers ? numberFormatProblems(schema, cleaned.value) : {},
    parsed.success ? {} : fieldErrors(parsed.error, where),
  );
  return Object.keys(fields).length ? { fields } : { data: parsed.data };
}

/** Whether a URL component decodes (well-formed percent-encoding of valid UTF-8). */
function decodes(component: string): boolean {
  try {
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}

/** `a=1&b=%20x` decodes pair by pair (a form body, a query string). */
const formDecodes = (text: string) => text.split('&').every((pair) => decodes(pair.replace(/\+/g, ' ')));

const bodyError = (message: string, type: string) => Object.assign(new Error(message), { status: 400, type });

/** Bodies are UTF-8 (when they say so or say nothing): invalid bytes are refused, not stored as U+FFFD. */
function verifyBody(form: boolean) {
  return (req: Request, res: Response, buf: Buffer, encoding: string) => {
    // the bytes as they came: a signed webhook's HMAC covers them, not their parsed form
    keepRawBody(req, res, buf);
    if (!/^utf-?8$/i.test(encoding)) return;
    if (!isUtf8(buf)) throw bodyError('Request body is not valid UTF-8.', 'entity.encoding.invalid');
    if (form && !formDecodes(buf.toString('utf8'))) throw bodyError('Malformed percent-encoding in the form body.', 'entity.encoding.invalid');
  };
}

/** Headers passed on besides the credentials. */
const TRACE_HEADERS = ['user-agent'];

/**
 * What the surface forwards to the gateway: the headers and query parameters its credential kinds
 * read, and the client's address as this server determined it (never the client's own X-Forwarded-For).
 */
function credentialForwarder(credentials: readonly CredentialKind[]): (req: Request) => RequestCredentials {
  const carriers = credentialCarriers(credentials);
  const headers = [...carriers.headers, ...TRACE_HEADERS];
  const kinds = credentials.map((k) => k.name).join(',');
  return (req) => {
    const forwarded = { headers: { [CREDENTIAL_KINDS_HEADER]: kinds } as Record<string, string>, query: {} as Record<string, string>, clientAddress: req.ip };
    for (const name of headers) {
      const value = req.headers[name];
      if (typeof value === 'string') forwarded.headers[name] = value;
    }
    for (const name of carriers.query) {
      const value = (req.query as Record<string, unknown>)[name];
      if (typeof value === 'string') forwarded.query[name] = value;
    }
    return forwarded;
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

/** Builds the Express app of one surface from its route table. */
export function createSurfaceApp(surface: Surface, opts: SurfaceOptions): Express {
  const operations = loadOperations(
    surface.product,
    surface.routes.flatMap((r) => (r.operation && !r.reply ? [r.operation] : [])),
  );
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
  app.use(rejectMalformedUrl(surface));
  const allowedHosts = surface.allowedHosts?.(opts.config);
  if (allowedHosts) {
    app.use((req, res, next) => {
      const host = req.headers.host ?? '';
      if (hostAllowed(host, allowedHosts)) return next();
      const shown = host.replace(/[^\x20-\x7e]/g, '?').slice(0, 255);
      sendCoreError(
        res,
        surface,
        'disallowed_host',
        `Invalid HTTP_HOST header: '${shown}'. You may need to add '${shown.replace(/:\d+$/, '')}' to ALLOWED_HOSTS.`,
      );
    });
  }
  app.use(cors(typeof surface.cors === 'function' ? surface.cors(opts.config) : surface.cors));
  const csrf = surface.csrf?.(opts.config);
  if (csrf) {
    app.use((req, res, next) => {
      const refusal = protects(csrf, req) ? originRefusal(req, csrf) : undefined;
      if (refusal) return sendCoreError(res, surface, 'csrf_failed', refusal);
      next();
    });
  }
  surface.pages?.(app, opts.config);

  const parsers = {
    json: express.json({ limit: opts.bodyLimit, strict: false, verify: verifyBody(false) }),
    form: express.urlencoded({ limit: opts.bodyLimit, extended: false, verify: verifyBody(true) }),
    text: express.text({ limit: opts.bodyLimit, type: () => true, verify: verifyBody(false) }),
  };
  const methodsByPath = new Map<string, Set<string>>();

  /**
   * Before telling a caller what is wrong with its input, a route that needs a credential checks it:
   * no credential is a 401 at once; a presented one is verified by the gateway (a bare `__typename`
   * operation, metered like any request). Undefined when the credential holds.
   */
  const credentialRefusal = async (
    req: Request,
    res: Response,
    credentials: readonly CredentialKind[],
    forward: (req: Request) => RequestCredentials,
  ): Promise<MappedError | undefined> => {
    const presented = presentedCredential(credentials, { headers: req.headers, query: req.query as Record<string, unknown> });
    if (presented.kind === 'none') {
      const refused = unauthenticated();
      const mapped = mapGraphQLError({ message: refused.message, extensions: refused.extensions }, 401, surface.catalogue, surface.errorShape);
      const challenge = credentials.find((k) => k.challenge)?.challenge;
      if (challenge && !mapped.headers['www-authenticate']) mapped.headers = { ...mapped.headers, 'www-authenticate': challenge };
      return mapped;
    }
    const outcome = await opts.executor.execute(CREDENTIAL_CHECK, {}, forward(req), req.id);
    // the check was counted like any request: its headers (X-RateLimit-*) go on whatever answer follows, a 400 too
    for (const name of surface.passHeaders ?? []) {
      const value = outcome.headers.get(name);
      if (value !== undefined) res.setHeader(name, value);
    }
    const error = outcome.body.errors?.[0];
    if (!error) return undefined;
    return mapGraphQLError(error, outcome.status, surface.catalogue, surface.errorShape);
  };

  /** A failed operation or a refused credential, in the route's format (its own page) or the surface's error body. */
  const sendError = (req: Request, res: Response, route: Route<string>, input: RouteInput, mapped: MappedError) => {
    // the error's headers (Retry-After, the catalogue's), unless the gateway already gave a more specific one (passHeaders)
    for (const [k, v] of Object.entries(mapped.headers)) if (!res.hasHeader(k)) res.setHeader(k, v);
    if (route.respondError) {
      const fields = mapped.details && typeof mapped.details === 'object' ? (mapped.details as Record<string, string[]>) : undefined;
      return sendReply(req, res, route.respondError({ status: mapped.status, code: mapped.code, message: mapped.message, fields }, input));
    }
    const body = surface.errorShape.body(mapped.status, mapped.code, mapped.message, mapped.details) as Record<string, unknown>;
    res.status(mapped.status).json(mapped.fields ? { ...body, ...mapped.fields } : body);
  };

  /** A DomainError thrown by a route's own reply, mapped like an operation's error; anything else is a fault. */
  const sendThrown = (req: Request, res: Response, route: Route<string>, input: RouteInput, err: unknown) => {
    if (isDatabaseUnavailable(err)) return sendUnavailable(res, surface);
    const error = err instanceof DomainError ? { message: err.message, extensions: err.extensions } : { message: 'Internal server error.' };
    if (!(err instanceof DomainError)) req.log.error({ err }, 'route reply failed');
    sendError(req, res, route, input, mapGraphQLError(error, 500, surface.catalogue, surface.errorShape));
  };

  for (const route of surface.routes) {
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    methodsByPath.set(route.path, methods);
    const document = route.operation && !route.reply ? operations.get(route.operation)! : undefined;
    const forwardCredentials = credentialForwarder(route.credentials ?? surface.credentials);
    const handler = async (req: Request, res: Response) => {
      const intercepted = route.intercept?.(req);
      if (intercepted) return sendReply(req, res, intercepted);
      const input: RouteInput = { params: req.params as Record<string, string>, query: {}, body: undefined, req, config: opts.config };
      if (csrf && protects(csrf, req)) {
        if (route.csrf) {
          const refusal = tokenRefusal(req);
          if (refusal) return sendCoreError(res, surface, 'csrf_failed', refusal);
        }
        input.csrfToken = csrfToken(req, res);
      }
      if (route.idempotent) {
        const key = idempotencyKeyOf(req);
        if (key === null) return sendCoreError(res, surface, 'invalid', IDEMPOTENCY_KEY_MESSAGE, { [IDEMPOTENCY_HEADER]: [IDEMPOTENCY_KEY_MESSAGE] });
        input.idempotencyKey = key;
      }
      // a path segment with control characters or invalid Unicode names nothing (PostgreSQL cannot even compare NUL)
      if (Object.values(req.params as Record<string, string>).some((v) => textProblem(v))) return sendCoreError(res, surface, 'not_found', 'Not found.');
      if (route.params) {
        const parsed = route.params.safeParse(req.params);
        if (!parsed.success) return sendCoreError(res, surface, 'not_found', 'Not found.');
        input.params = parsed.data as Record<string, string>;
      }
      let invalid: { message: string; fields: Record<string, string[]> } | undefined;
      if (route.query) {
        const part = parsePart(route.query, req.query, 'query', true);
        if (part.fields) invalid = { message: 'Invalid query parameters.', fields: part.fields };
        else input.query = part.data as Record<string, unknown>;
      }
      if (route.body && !invalid && route.consumes !== 'binary') {
        const part = parsePart(route.body, req.body, 'body', route.consumes === 'form');
        if (part.fields) invalid = { message: 'Invalid request body.', fields: part.fields };
        else input.body = part.data;
      }
      if (invalid) {
        // the credential before the input: an anonymous caller learns nothing about what a route takes
        const credentials = route.credentials ?? surface.credentials;
        const refused =
          route.security !== 'none' && credentials.length
            ? await withUnavailable(res, surface, () => credentialRefusal(req, res, credentials, forwardCredentials))
            : undefined;
        if (refused === null) return;
        if (refused) return sendError(req, res, route, input, refused);
        const error: RouteError = { status: 400, code: surface.errorShape.coreCode('invalid'), message: invalid.message, fields: invalid.fields };
        return route.respondError
          ? sendReply(req, res, route.respondError(error, input))
          : sendCoreError(res, surface, 'invalid', invalid.message, invalid.fields);
      }
      if (!document) {
        let reply: Reply;
        try {
          reply = await route.reply!(input);
        } catch (err) {
          return sendThrown(req, res, route, input, err);
        }
        return sendReply(req, res, reply);
      }
      // a binary body is read by the route's `variables` (streamed to storage): only once the gateway accepts the caller
      if (route.consumes === 'binary' && route.security !== 'none') {
        const refused = await withUnavailable(res, surface, () => credentialRefusal(req, res, route.credentials ?? surface.credentials, forwardCredentials));
        if (refused === null) return;
        if (refused) return sendError(req, res, route, input, refused);
      }
      let variables: Record<string, unknown>;
      try {
        variables = { ...(route.variables ? await route.variables(input) : {}), ...(route.idempotent ? { idempotencyKey: input.idempotencyKey ?? null } : {}) };
      } catch (err) {
        return sendThrown(req, res, route, input, err);
      }
      const outcome = await withUnavailable(res, surface, () => opts.executor.execute(document, variables, forwardCredentials(req), req.id));
      if (outcome === null) return;
      for (const name of surface.passHeaders ?? []) {
        const value = outcome.headers.get(name);
        if (value !== undefined) res.setHeader(name, value);
      }
      const error = outcome.body.errors?.[0];
      if (error) {
        const mapped = mapGraphQLError(error, outcome.status, surface.catalogue, surface.errorShape);
        if (mapped.status >= 500 && mapped.status !== 503) req.log.error({ error }, 'operation failed');
        return sendError(req, res, route, input, mapped);
      }
      const data = outcome.body.data ?? {};
      sendReply(req, res, route.respond ? route.respond(data, input) : { kind: 'json', status: route.response.status ?? 200, body: data });
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const consumes = route.consumes ?? 'json';
    // a binary body is read by the route itself (streamed, e.g. an artifact upload)
    if (route.method === 'GET' || route.method === 'DELETE' || consumes === 'binary') app[method](route.path, handler);
    else app[method](route.path, requireContentType(surface, consumes), parsers[consumes], handler);
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
    if (res.headersSent) return;
    const e = err as { type?: string; status?: number; statusCode?: number; message?: string };
    if (e.type === 'entity.parse.failed') return sendCoreError(res, surface, 'parse_error', 'Malformed JSON in request body.');
    if (e.type === 'entity.too.large') return sendCoreError(res, surface, 'payload_too_large', `Request body exceeds the limit of ${opts.bodyLimit}.`);
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
      return sendCoreError(res, surface, 'unsupported_media_type', e.message ?? 'Unsupported encoding.');
    if (e.type === 'entity.encoding.invalid') return sendCoreError(res, surface, 'parse_error', e.message!);
    if (isDatabaseUnavailable(err)) return sendUnavailable(res, surface);
    // what body-parser and the router still call a client's mistake: a body that does not decode as
    // its Content-Encoding says, a request cut short, a parameter that does not decode
    const status = e.status ?? e.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const encoding = req.headers['content-encoding'];
      const message = encoding && encoding !== 'identity' ? `Request body is not valid ${encoding} data.` : 'Malformed request.';
      return sendCoreError(res, surface, 'parse_error', message);
    }
    req.log?.error({ err }, 'unhandled error');
    sendCoreError(res, surface, 'internal', 'Internal server error.');
  };
  app.use(errors);
  return app;
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const IDEMPOTENCY_KEY_MESSAGE = 'An Idempotency-Key is 1 to 255 visible ASCII characters (a UUID, for example).';

/**
 * The key of an idempotent request: its Idempotency-Key header, else its X-Request-ID (a client that
 * sends a fresh X-Request-ID per logical request and repeats it on retries gets idempotency for free).
 * Undefined: neither (the request runs unremembered); null: a malformed Idempotency-Key (400). A
 * malformed X-Request-ID is no key: it is only a fallback.
 */
function idempotencyKeyOf(req: Request): string | undefined | null {
  const explicit = req.headers['idempotency-key'];
  if (explicit !== undefined) return typeof explicit === 'string' && IDEMPOTENCY_KEY.test(explicit) ? explicit : null;
  const requestId = req.headers['x-request-id'];
  return typeof requestId === 'string' && IDEMPOTENCY_KEY.test(requestId) ? requestId : undefined;
}

/** The operation a route runs to have the gateway check a credential (see credentialRefusal). */
const CREDENTIAL_CHECK = 'query CredentialCheck { __typename }';

function sendUnavailable(res: Response, surface: Surface) {
  sendCoreError(res, surface, 'service_unavailable', 'The service is temporarily unavailable; please retry shortly.', undefined, {
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
}

/**
 * Runs a call to the gateway; when the gateway (or what stands behind it) cannot be reached, answers
 * 503 with Retry-After and returns null.
 */
async function withUnavailable<T>(res: Response, surface: Surface, call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    sendUnavailable(res, surface);
    return null;
  }
}

/** A path or query string with malformed percent-encoding (or encoded bytes that are not UTF-8): 400, before routing. */
function rejectMalformedUrl(surface: Surface) {
  return (req: Request, res: Response, next: NextFunction) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    if (!decodes(path)) return sendCoreError(res, surface, 'invalid', 'Malformed percent-encoding in the request path.');
    if (q >= 0 && !formDecodes(url.slice(q + 1))) return sendCoreError(res, surface, 'invalid', 'Malformed percent-encoding in the query string.');
    next();
  };
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
  return a.length === b.length && a.every((seg, i) => (seg.startsWith(':') ? b[i] !== '' : seg === b[i]));
}
