import { z } from 'zod';
import { isPage, type Route } from './route';
import type { Surface } from './types';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (malformed body, bad parameters)',
  401: 'Missing, malformed, unknown or revoked credential',
  403: 'The credential may not do this',
  404: 'Not found',
  405: 'Method not allowed (see the Allow header)',
  409: 'Conflict with the current state',
  422: 'The request cannot be processed as it stands',
  413: 'Request body too large',
  429: 'Daily quota used up (see Retry-After)',
  500: 'Internal error',
  501: 'Not offered by this deployment (a feature it is not configured for); asking again changes nothing until it is',
  503: 'Temporarily unavailable (the database or the gateway cannot be reached or did not answer in time); retry after the Retry-After seconds',
};

interface HeaderDoc {
  description: string;
  schema: unknown;
}

export interface OpenApiOptions {
  serverUrl?: string;
  securitySchemes: Record<string, unknown>;
  /** Route security name → OpenAPI security requirement. */
  security: Record<string, Record<string, string[]>[]>;
  errorSchema: z.ZodType;
  /** Headers every response of a metered route carries. */
  responseHeaders?: Record<string, HeaderDoc>;
  /** Headers the error responses of a status carry (e.g. 401: WWW-Authenticate, 429: Retry-After). */
  errorHeaders?: Record<number, Record<string, HeaderDoc>>;
  /** The surface's own descriptions of error statuses (over the defaults). */
  statusText?: Record<number, string>;
  /**
   * Whether every request with a credential is metered and may be refused with 429 (default); a surface
   * without a per-credential limit says false, and its throttled routes list 429 themselves.
   */
  rateLimited?: boolean;
}

const REQUEST_TYPE = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  text: 'message/rfc822',
  // whatever the object is (an upload link fixes its type in its signature)
  binary: '*/*',
} as const;
const REQUEST_TYPE_TEXT = {
  json: 'JSON',
  form: 'an HTML form (application/x-www-form-urlencoded)',
  text: 'message/rfc822 or text/plain',
  binary: 'any bytes (application/octet-stream)',
} as const;

/**
 * A zod schema as JSON Schema (2020-12, as OpenAPI 3.1 uses). Requests are described by what the
 * client may send (`input`: a field with a default is optional), responses by what the server
 * answers (`output`: a defaulted field is always there).
 */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Record<string, unknown>;
  return rest;
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** The header of idempotent requests (Route.idempotent, lib/idempotency.ts). */
const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Names this request so that a retry is applied once: the first outcome is answered again for 24 hours; 409 while the first is still ' +
    'being processed (retry after Retry-After); 422 when the key was used for a different request. Without it, X-Request-ID serves as the key.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/**
 * The statuses a route documents besides its success: its own, the ones its security and input imply,
 * and for a route that runs an operation 500 and 503 (the database or the gateway unreachable for a
 * moment, with Retry-After). A route the surface answers itself (probes, documents, object links) lists
 * its faults in `errors` when it has any.
 */
function errorStatuses(route: Route<string>, rateLimited: boolean): number[] {
  const statuses = new Set<number>([...(route.errors ?? []), ...(route.operation ? (route.faults ?? [500, 503]) : [])]);
  if (route.security !== 'none') statuses.add(401);
  if (route.security !== 'none' && rateLimited) statuses.add(429);
  // an API route refuses query parameters it does not name (rest-adapter/core/stages/parse.ts)
  if (route.query || route.body || !isPage(route)) statuses.add(400);
  if (route.body) [413, 415].forEach((s) => statuses.add(s));
  // an idempotent request: 400 for a malformed key, 409 while the first with its key runs, 422 for the key reused
  if (route.idempotent) [400, 409, 422].forEach((s) => statuses.add(s));
  return [...statuses].sort();
}

/**
 * The bodies of an error status. A route that answers its errors in its own format (`respondError`,
 * e.g. an HTML form shown again) does so for what its input checks and its operation report; the
 * core's own refusals (413, 415) stay JSON except on a form answered by a page, and faults are JSON too.
 */
function errorContent(route: Route<string>, status: number): Record<string, unknown> | undefined {
  // a range that cannot be served: no body, its Content-Range says why (RFC 9110 §15.5.17)
  if (status === 416) return undefined;
  const json = { 'application/json': { schema: ERROR_REF } };
  if (!route.respondError) return json;
  const redirects = (route.response.status ?? 200) >= 300 && (route.response.status ?? 200) < 400;
  // a page that answers a form shows every refusal of it as the page again, the core's 413 and 415 included,
  // except on a CSRF-protected form: a body it cannot read has no token to check, and is the core's JSON (stages/pipeline.ts)
  const page = route.response.contentType === 'text/html' && !redirects && !route.csrf;
  if ((status === 413 || status === 415) && !page) return json;
  // a JSON route that answers its own errors answers them in the surface's error body
  if (!route.response.contentType && !redirects) return json;
  // a form whose success is a redirect shows what went wrong as a page
  const own = { [route.response.contentType ?? 'text/html']: { schema: { type: 'string' } } };
  return status === 500 || status === 503 ? { ...json, ...own } : own;
}

function successContent(route: Route<string>): Record<string, unknown> | undefined {
  const contentType = route.response.contentType ?? 'application/json';
  if (route.response.schema) return { [contentType]: { schema: jsonSchema(route.response.schema, 'output') } };
  return route.response.contentType ? { [contentType]: { schema: { type: 'string' } } } : undefined;
}

/** OpenAPI 3.1 generated from the route table: one source for the routes and their documentation. */
export function buildOpenApi(surface: Surface, opts: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of surface.routes) {
    if (route.documented === false) continue;
    const operationId = route.operationId ?? route.operation;
    if (!operationId) throw new Error(`${surface.product}: ${route.method} ${route.path} has neither an operation nor an operationId`);
    // OpenAPI requires unique operationIds (clients generate one method per operation)
    if (operationIds.has(operationId)) throw new Error(`${surface.product}: operationId ${operationId} is used twice; give one route its own operationId`);
    operationIds.add(operationId);
    const openPath = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [location, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue;
      const js = jsonSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      for (const [name, prop] of Object.entries(js.properties ?? {})) {
        const { description, ...propSchema } = prop;
        parameters.push({ name, in: location, required: location === 'path' || (js.required ?? []).includes(name), description, schema: propSchema });
      }
    }
    if (route.idempotent) parameters.push(IDEMPOTENCY_PARAMETER);
    const headers = {
      ...(route.security !== 'none' ? opts.responseHeaders : {}),
      ...Object.fromEntries(Object.entries(route.response.headers ?? {}).map(([k, d]) => [k, { description: d, schema: { type: 'string' } }])),
    };
    const content = successContent(route);
    const success = (description: string) => ({
      description,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(content ? { content } : {}),
    });
    const responses: Record<string, unknown> = { [String(route.response.status ?? 200)]: success(route.response.description) };
    for (const [status, description] of Object.entries(route.response.otherStatuses ?? {})) responses[status] = success(description);
    for (const s of errorStatuses(route, opts.rateLimited ?? true)) {
      if (responses[String(s)]) continue; // answered with the success body (otherStatuses)
      const description =
        s === 415 ? `Request body must be ${REQUEST_TYPE_TEXT[route.consumes ?? 'json']}` : (opts.statusText?.[s] ?? STATUS_TEXT[s] ?? 'Error');
      const errorHeaders = {
        ...(s === 429 && route.security !== 'none' ? opts.responseHeaders : {}),
        ...(opts.errorHeaders?.[s] ?? {}),
      };
      const content = errorContent(route, s);
      responses[String(s)] = { description, ...(Object.keys(errorHeaders).length ? { headers: errorHeaders } : {}), ...(content ? { content } : {}) };
    }
    (paths[openPath] ??= {})[route.method.toLowerCase()] = {
      operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.tags ? { tags: route.tags } : {}),
      security: opts.security[route.security] ?? [],
      ...(parameters.length ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: !route.body.safeParse(undefined).success,
              content: { [REQUEST_TYPE[route.consumes ?? 'json']]: { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : route.consumes === 'binary'
          ? {
              requestBody: { required: true, content: { [REQUEST_TYPE.binary]: { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
            }
          : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: surface.title, version: surface.version, description: surface.description },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    paths,
    components: { securitySchemes: opts.securitySchemes, schemas: { Error: jsonSchema(opts.errorSchema, 'output') } },
  };
}
