import { z } from 'zod';
import type { Surface } from './surface';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (malformed JSON, bad parameters)',
  401: 'Missing, malformed, unknown or revoked credential',
  403: 'The credential may not do this',
  404: 'Not found',
  405: 'Method not allowed (see the Allow header)',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  415: 'Request body must be JSON',
  429: 'Daily quota used up (see Retry-After)',
  500: 'Internal error',
};

export interface OpenApiOptions {
  serverUrl?: string;
  securitySchemes: Record<string, unknown>;
  /** Route security name → OpenAPI security requirement. */
  security: Record<string, Record<string, string[]>[]>;
  errorSchema: z.ZodType;
  /** Headers every response of a metered route carries. */
  responseHeaders?: Record<string, { description: string; schema: unknown }>;
}

const REQUEST_TYPE = { json: 'application/json', form: 'application/x-www-form-urlencoded', text: 'message/rfc822' } as const;

const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** OpenAPI 3.1 generated from the route table: one source for the routes and their documentation. */
export function buildOpenApi(surface: Surface, opts: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of surface.routes) {
    const openPath = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [location, schema] of [['path', route.params], ['query', route.query]] as const) {
      if (!schema) continue;
      const js = jsonSchema(schema) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      for (const [name, prop] of Object.entries(js.properties ?? {})) {
        const { description, ...propSchema } = prop;
        parameters.push({ name, in: location, required: location === 'path' || (js.required ?? []).includes(name), description, schema: propSchema });
      }
    }
    const status = String(route.response.status ?? 200);
    const contentType = route.response.contentType ?? 'application/json';
    const headers = route.security !== 'none' ? opts.responseHeaders : undefined;
    const responses: Record<string, unknown> = {
      [status]: {
        description: route.response.description,
        ...(headers || route.response.headers ? { headers: { ...(headers ?? {}), ...Object.fromEntries(Object.entries(route.response.headers ?? {}).map(([k, d]) => [k, { description: d, schema: { type: 'string' } }])) } } : {}),
        ...(route.response.schema ? { content: { [contentType]: { schema: jsonSchema(route.response.schema) } } } : {}),
      },
    };
    const errorStatuses = new Set<number>([...(route.errors ?? []), 500]);
    if (route.security !== 'none') [401, 429].forEach((s) => errorStatuses.add(s));
    if (route.query || route.body) errorStatuses.add(400);
    if (route.body) [413, 415].forEach((s) => errorStatuses.add(s));
    for (const s of [...errorStatuses].sort()) {
      responses[String(s)] = { description: STATUS_TEXT[s] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    (paths[openPath] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operation,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.tags ? { tags: route.tags } : {}),
      security: opts.security[route.security] ?? [],
      ...(parameters.length ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: !route.body.safeParse(undefined).success, content: { [REQUEST_TYPE[route.consumes ?? 'json']]: { schema: jsonSchema(route.body) } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: surface.title, version: surface.version, description: surface.description },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    paths,
    components: { securitySchemes: opts.securitySchemes, schemas: { Error: jsonSchema(opts.errorSchema) } },
  };
}
