import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { createLogger } from '../../../lib/logger';
import { projectRoot } from '../../../lib/paths';
import { listen, type RunningServer } from '../../../lib/server';
import { inProcessExecutor } from '../../../rest-adapter/core/executor';
import type { Route } from '../../../rest-adapter/core/route';
import { createSurfaceApp, type Surface } from '../../../rest-adapter/core/surface';
import { predictionSurface } from '../../../rest-adapter/predictions';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

/**
 * The REST core (rest-adapter/core) as the prediction surface uses it. What the prediction routes
 * cannot show yet (JSON bodies, query parameters, faults) goes through a small surface with the
 * prediction API's conventions, built here with createSurfaceApp and executed by the real gateway.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INTERNAL = { detail: 'Internal server error.', code: 'error' };

/** Persisted operations of the test surface (written to a temporary operations folder). */
const OPERATIONS: Record<string, string> = {
  Viewer: 'query Viewer { viewer { plan role } }',
  // the gateway cannot parse it
  Unparsable: 'query Unparsable { viewer { plan }',
  // the gateway rejects it: no such field in the supergraph
  UnknownField: 'query UnknownField { noSuchField }',
};

const testRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/echo/',
    summary: 'Echoes a JSON body',
    security: 'apiKey',
    operation: 'Viewer',
    body: z.object({ name: z.string().min(1), count: z.number().int().optional() }),
    respond: (data: { viewer: { plan: string } }, input) => ({ kind: 'json', status: 201, body: { received: input.body, plan: data.viewer.plan } }),
    response: { status: 201, description: 'The body back' },
  },
  {
    method: 'POST',
    path: '/api/intercepted/',
    summary: 'Answers without the operation when the body says so',
    security: 'apiKey',
    operation: 'Viewer',
    body: z.object({ count: z.number().int() }),
    intercept: (req) => ((req.body as { trap?: string }).trap ? { kind: 'json', status: 202, body: { intercepted: true } } : undefined),
    respond: (data: { viewer: { plan: string } }) => ({ kind: 'json', body: { plan: data.viewer.plan } }),
    response: { description: 'The plan' },
  },
  {
    method: 'GET',
    path: '/api/search/',
    summary: 'Validates its query string',
    security: 'apiKey',
    operation: 'Viewer',
    query: z.object({ limit: z.coerce.number().int().min(1).max(100), order: z.enum(['asc', 'desc']).default('asc') }),
    respond: (_data, input) => ({ kind: 'json', body: { query: input.query } }),
    response: { description: 'The parsed query' },
  },
  {
    method: 'GET',
    path: '/api/unparsable/',
    summary: 'Broken persisted operation',
    security: 'apiKey',
    operation: 'Unparsable',
    response: { description: 'never' },
  },
  {
    method: 'GET',
    path: '/api/unknown-field/',
    summary: 'Persisted operation the gateway rejects',
    security: 'apiKey',
    operation: 'UnknownField',
    response: { description: 'never' },
  },
  {
    method: 'GET',
    path: '/api/crash/',
    summary: 'Fails while building its reply',
    security: 'apiKey',
    operation: 'Viewer',
    respond: () => {
      throw new Error('secret detail: connection to 10.0.0.7 refused at /srv/app/dist/x.js:12');
    },
    response: { description: 'never' },
  },
];

let t: TestApp;
let surfaceServer: RunningServer;
let opsRoot: string;
let key: string;
/** Every error body answered in this file: none may carry a stack trace or an internal message. */
const errorBodies: unknown[] = [];

const api = (path: string) => `${t.urls.predictions}${path}`;
const test = (path: string) => `${surfaceServer.url}${path}`;
async function call(url: string, init: Parameters<typeof http>[1] = {}) {
  const res = await http(url, init);
  if (res.status >= 400) errorBodies.push(res.body);
  return res;
}

beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('pro');
  opsRoot = mkdtempSync(join(tmpdir(), 'matchday-rest-core-'));
  mkdirSync(join(opsRoot, 'operations'));
  for (const [name, doc] of Object.entries(OPERATIONS)) writeFileSync(join(opsRoot, 'operations', `${name}.graphql`), doc);
  const surface: Surface = {
    ...predictionSurface,
    // loadOperations reads rest-adapter/<product>/operations
    product: relative(join(projectRoot(), 'rest-adapter'), opsRoot),
    routes: testRoutes,
    pages: undefined,
  };
  const app = createSurfaceApp(surface, {
    config: t.config,
    executor: inProcessExecutor(t.app.gateway),
    logger: createLogger(t.config.LOG_LEVEL, 'rest-core-test'),
    bodyLimit: t.config.REST_BODY_LIMIT,
  });
  surfaceServer = await listen(app, '127.0.0.1', 0);
});
afterAll(async () => {
  await surfaceServer?.close();
  await t?.stop();
  if (opsRoot) rmSync(opsRoot, { recursive: true, force: true });
});

describe('intercepting a request before the operation', () => {
  it('answers with the reply of `intercept`, before validation and credentials, and runs nothing', async () => {
    // the intercepting route of the surface built here
    const intercepted = (body: unknown, withKey = true) =>
      call(test('/api/intercepted/'), {
        method: 'POST',
        ...(withKey ? { key } : {}),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(await intercepted({ trap: 'filled', count: 'not a number' }, false)).toMatchObject({ status: 202, body: { intercepted: true } });
    expect(await intercepted({ count: 1 })).toMatchObject({ status: 200, body: { plan: 'pro' } });
    expect((await intercepted({ count: 'x' })).status).toBe(400);
  });
});

describe('routing on the prediction surface', () => {
  it('answers an unknown path with 404 {detail, code: "not_found"}, before any credential check', async () => {
    for (const path of ['/api/nope/', '/nope', '/API/', '/api/dashboard/']) {
      const res = await call(api(path));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });

  it('answers a wrong method on a known path with 405 and an Allow header', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await call(api('/api/'), { method, key });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(res.body).toEqual({ detail: `Method "${method}" not allowed.`, code: 'method_not_allowed' });
    }
    const onPost = await call(api('/api/retrain/'), { key });
    expect(onPost.status).toBe(405);
    expect(onPost.headers.get('allow')).toBe('POST, OPTIONS');
    expect(onPost.body).toEqual({ detail: 'Method "GET" not allowed.', code: 'method_not_allowed' });
  });

  it('answers OPTIONS on a known path (no preflight) with 204 and Allow', async () => {
    const res = await http(api('/api/'), { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('redirects a known path without its trailing slash to the slashed path (301), keeping the query string', async () => {
    const res = await http(api('/api'), { key });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/api/');
    const withQuery = await http(test('/api/search?limit=5'), { key });
    expect(withQuery.status).toBe(301);
    expect(withQuery.headers.get('location')).toBe('/api/search/?limit=5');
  });
});

describe('HEAD requests', () => {
  it('answers HEAD on a GET route like GET, headers and length, without a body; it counts as a request', async () => {
    const headKey = await t.createKey('free');
    const get = await http(api('/api/'), { key: headKey });
    const head = await http(api('/api/'), { method: 'HEAD', key: headKey });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(get.body))));
    expect(head.headers.get('x-ratelimit-limit')).toBe('50');
    expect(head.headers.get('x-ratelimit-remaining')).toBe('48');
    expect(head.headers.get('x-ratelimit-reset')).toBe(get.headers.get('x-ratelimit-reset'));
  });

  it('answers HEAD with the same statuses and headers as GET: 401 with its challenge, 400, 301 to the slashed path', async () => {
    const anonymous = await http(api('/api/predictions/latest/'), { method: 'HEAD' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(anonymous.body).toBe('');
    const invalid = await http(api('/api/predictions/latest/?limit=0'), { method: 'HEAD', key });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toBe('');
    const unslashed = await http(api('/api/dashboard/overview'), { method: 'HEAD', key });
    expect(unslashed.status).toBe(301);
    expect(unslashed.headers.get('location')).toBe('/api/dashboard/overview/');
  });

  it('answers HEAD on a POST-only path with 405 and its Allow header, and serves HEAD for the pages', async () => {
    const retrain = await http(api('/api/retrain/'), { method: 'HEAD', key });
    expect(retrain.status).toBe(405);
    expect(retrain.headers.get('allow')).toBe('POST, OPTIONS');
    for (const [path, type] of [
      ['/apply/', /^text\/html/],
      ['/api/openapi.json', /^application\/json/],
      ['/api/docs/', /^text\/html/],
    ] as const) {
      const res = await http(api(path), { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(res.body).toBe('');
    }
  });
});

describe('request bodies and query parameters on the prediction routes', () => {
  // a client key: whatever gets through to the operation is refused (403), so no retrain ever starts
  const retrain = (body: string, contentType?: string) =>
    call(api('/api/retrain/'), { method: 'POST', key, body, headers: contentType ? { 'content-type': contentType } : {} });

  it('answers malformed JSON on POST /api/retrain/ with 400 parse_error', async () => {
    const res = await retrain('{"model": ', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Malformed JSON in request body.', code: 'parse_error' });
  });

  it('answers a body over the limit with 413 request_too_large', async () => {
    const res = await retrain(JSON.stringify({ model: 'x'.repeat(200 * 1024) }), 'application/json');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: `Request body exceeds the limit of ${t.config.REST_BODY_LIMIT}.`, code: 'request_too_large' });
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await retrain('model=elo', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: 'Request body must be application/json.', code: 'unsupported_media_type' });
  });

  it('answers a body the route does not accept with 400 invalid and per-field messages', async () => {
    const res = await retrain(JSON.stringify({ model: 'crystal-ball' }), 'application/json');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Invalid request body.', code: 'invalid', errors: { model: [expect.any(String)] } });
  });

  it('reaches the operation with an acceptable body (or none), where a client key is refused', async () => {
    for (const [body, type] of [
      ['', undefined],
      ['{"model": "elo"}', 'application/json'],
    ] as const) {
      const res = await retrain(body, type);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'This operation requires an administrator key.', code: 'permission_denied' });
    }
  });

  it('answers invalid query parameters of GET /api/predictions/latest/ with 400 invalid and a message per field', async () => {
    const res = await call(api('/api/predictions/latest/?limit=0&competition=xx.9'), { key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: 'Invalid query parameters.',
      code: 'invalid',
      errors: { limit: [expect.any(String)], competition: [expect.any(String)] },
    });
  });
});

describe('request bodies (a surface of the core built here)', () => {
  // the echo route, sent a body as it is: malformed, too big, not JSON
  const echo = (body: string | Buffer, contentType?: string) =>
    call(test('/api/echo/'), { method: 'POST', key, body, headers: contentType ? { 'content-type': contentType } : {} });

  it('passes a valid JSON body to the route, which runs its operation through the gateway', async () => {
    const res = await echo(JSON.stringify({ name: 'x', count: 2 }), 'application/json');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ received: { name: 'x', count: 2 }, plan: 'pro' });
  });

  it('answers malformed JSON with 400 parse_error', async () => {
    const res = await echo('{"name": "x",', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Malformed JSON in request body.', code: 'parse_error' });
  });

  it('answers a body over the limit with 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(200 * 1024) });
    const res = await echo(big, 'application/json');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: `Request body exceeds the limit of ${t.config.REST_BODY_LIMIT}.`, code: 'request_too_large' });
  });

  it('answers a body that is not JSON with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await echo('name=x', type);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ detail: 'Request body must be application/json.', code: 'unsupported_media_type' });
    }
  });

  it('answers a JSON body that fails the route schema with 400 invalid and per-field messages', async () => {
    const res = await echo(JSON.stringify({ name: '', count: 1.5 }), 'application/json');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(res.body.detail).toBe('Invalid request body.');
    expect(Object.keys(res.body.errors).sort()).toEqual(['count', 'name']);
    for (const messages of Object.values(res.body.errors)) expect(messages).toEqual([expect.any(String)]);
  });
});

describe('query parameters (a surface of the core built here)', () => {
  it('passes parsed, typed parameters to the route', async () => {
    const res = await call(test('/api/search/?limit=5'), { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ query: { limit: 5, order: 'asc' } });
  });

  it('answers invalid parameters with 400 invalid and a message per field', async () => {
    const res = await call(test('/api/search/?limit=500&order=sideways'), { key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: 'Invalid query parameters.',
      code: 'invalid',
      errors: { limit: [expect.stringMatching(/100/)], order: [expect.stringMatching(/asc|desc/)] },
    });
    const missing = await call(test('/api/search/'), { key });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['limit']);
  });
});

describe('faults', () => {
  it('answers 500 {detail: "Internal server error.", code: "error"} when the gateway cannot parse the persisted operation', async () => {
    const res = await call(test('/api/unparsable/'), { key });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(INTERNAL);
  });

  it('answers 500 with the same body when building the reply throws, without the error message', async () => {
    const res = await call(test('/api/crash/'), { key });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(INTERNAL);
  });

  it("answers 500 with the same body when the gateway rejects the persisted operation (a server fault, not the client's)", async () => {
    const res = await call(test('/api/unknown-field/'), { key });
    expect(res.body).toEqual(INTERNAL);
    expect(res.status).toBe(500);
  });

  it('never puts a stack trace or an internal message in an error body', () => {
    expect(errorBodies.length).toBeGreaterThanOrEqual(15);
    for (const body of errorBodies) {
      expect(Object.keys(body as object).every((k) => ['detail', 'code', 'errors'].includes(k))).toBe(true);
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/\bat .+:\d+|\.(ts|js):\d+|node_modules|stack|secret detail|Syntax Error|Cannot query field|GraphQL|Error:/i);
    }
  });
});

describe('CORS and request ids', () => {
  it('answers a preflight with 204 and the access-control-allow-* headers', async () => {
    const res = await http(api('/api/'), {
      method: 'OPTIONS',
      headers: { origin: 'https://dashboard.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-request-id');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.body).toBe('');
  });

  it('lets a browser read the quota headers of a cross-origin answer', async () => {
    const res = await http(api('/api/'), { key, headers: { origin: 'https://dashboard.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = res.headers.get('access-control-expose-headers')!.split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-request-id']));
  });

  it("echoes the caller's x-request-id and generates one when it is absent or unusable", async () => {
    const given = await http(api('/api/'), { key, headers: { 'x-request-id': 'client-trace-42' } });
    expect(given.headers.get('x-request-id')).toBe('client-trace-42');
    const onError = await http(api('/api/nope/'), { headers: { 'x-request-id': 'client-trace-43' } });
    expect(onError.headers.get('x-request-id')).toBe('client-trace-43');
    const generated = await http(api('/api/'), { key });
    expect(generated.headers.get('x-request-id')).toMatch(UUID);
    const other = await http(api('/api/'), { key });
    expect(other.headers.get('x-request-id')).not.toBe(generated.headers.get('x-request-id'));
    const unusable = await http(api('/api/'), { key, headers: { 'x-request-id': 'has spaces and "quotes"' } });
    expect(unusable.headers.get('x-request-id')).toMatch(UUID);
  });
});
