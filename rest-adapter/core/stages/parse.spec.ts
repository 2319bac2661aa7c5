import { z } from 'zod';
import { loadConfig } from '../../../test/support/platform/config';
import { createLogger } from '../../../lib/logger';
import { listen, type RunningServer } from '../../../lib/server';
import { detailErrorShape } from '../errors';
import { buildOpenApi } from '../openapi';
import type { Route } from '../route';
import { createSurfaceApp, type Surface } from '../surface';

/**
 * The REST core's idempotent routes (Route.idempotent; the records themselves are lib/idempotency.ts,
 * test/platform/integration/idempotency.test.ts): the key comes from Idempotency-Key, else X-Request-ID; a
 * malformed Idempotency-Key is a 400 before anything runs; the OpenAPI document shows the header and
 * the 409 and 422 answers. Routes here answer locally (`reply`): no operation runs.
 */
let runs = 0;
const routes: Route[] = [
  {
    method: 'POST',
    path: '/api/transfers/',
    summary: 'A money-moving write',
    security: 'none',
    operationId: 'createTransfer',
    idempotent: true,
    body: z.object({ amount: z.string() }),
    reply: ({ idempotencyKey }) => {
      runs++;
      return { kind: 'json', status: 201, body: { idempotencyKey: idempotencyKey ?? null } };
    },
    response: { status: 201, description: 'Created' },
  },
  {
    method: 'GET',
    path: '/api/items/',
    summary: 'A list with a query schema',
    security: 'none',
    operationId: 'listItems',
    query: z.object({ limit: z.coerce.number().int().optional() }),
    reply: ({ query }) => ({ kind: 'json', body: { query } }),
    response: { description: 'Items' },
  },
  {
    method: 'GET',
    path: '/items/',
    summary: 'A page of a browser application',
    security: 'none',
    operationId: 'itemsPage',
    documented: false,
    reply: () => ({ kind: 'html', html: '<p>items</p>' }),
    response: { description: 'Page', contentType: 'text/html' },
  },
];
const surface: Surface = {
  product: 'core-idempotency-test',
  title: 'test',
  version: '1',
  description: 'test',
  routes,
  credentials: [],
  catalogue: {},
  errorShape: detailErrorShape,
  cors: { origins: [], allowHeaders: [] },
};

let server: RunningServer;
beforeAll(async () => {
  const executor = { execute: () => Promise.reject(new Error('no operation runs in this test')) };
  server = await listen(createSurfaceApp(surface, { config: loadConfig({}), executor, logger: createLogger('silent'), bodyLimit: '10kb' }), '127.0.0.1', 0);
});
afterAll(() => server?.close());

const post = (headers: Record<string, string>) =>
  fetch(`${server.url}/api/transfers/`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"amount": "1.00"}' });

it('hands the route the Idempotency-Key, else the X-Request-ID, else nothing', async () => {
  expect(await (await post({ 'idempotency-key': 'k-1', 'x-request-id': 'r-1' })).json()).toEqual({ idempotencyKey: 'k-1' });
  expect(await (await post({ 'x-request-id': 'r-1' })).json()).toEqual({ idempotencyKey: 'r-1' });
  expect(await (await post({})).json()).toEqual({ idempotencyKey: null });
  // a malformed X-Request-ID is only no key (it is a fallback)
  expect(await (await post({ 'x-request-id': 'has space' })).json()).toEqual({ idempotencyKey: null });
});

it('refuses a malformed Idempotency-Key with 400 before the route runs', async () => {
  const before = runs;
  for (const key of ['has space', 'x'.repeat(256), '']) {
    const res = await post({ 'idempotency-key': key });
    expect([key.length, res.status, ((await res.json()) as { code: string }).code]).toEqual([key.length, 400, 'invalid']);
  }
  expect(runs).toBe(before);
});

it('documents the header and the 400, 409 and 422 answers of an idempotent route', () => {
  const doc = buildOpenApi(surface, { securitySchemes: {}, security: { none: [] }, errorSchema: z.object({ detail: z.string() }) }) as {
    paths: Record<string, Record<string, { parameters: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
  };
  const op = doc.paths['/api/transfers/'].post;
  expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
  expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '422']));
});

it('refuses unknown and bracketed query parameters on an API route with 400 naming them; a page tolerates them', async () => {
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return [path, res.status, res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text()];
  };
  expect(await get('/api/items/?limit=2')).toEqual(['/api/items/?limit=2', 200, { query: { limit: 2 } }]);
  expect(await get('/api/items/')).toEqual(['/api/items/', 200, { query: {} }]);
  for (const [path, field] of [
    ['/api/items/?limit[$ne]=1', 'limit[$ne]'],
    ['/api/items/?lmit=5', 'lmit'],
  ]) {
    const [, status, body] = await get(path);
    expect([path, status, body]).toEqual([
      path,
      400,
      { detail: 'Unknown query parameters.', code: 'invalid', errors: { [field]: ['Unknown query parameter.'] } },
    ]);
  }
  const post = await fetch(`${server.url}/api/transfers/?amount=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"amount":"1"}',
  });
  expect([post.status, await post.json()]).toEqual([
    400,
    { detail: 'Unknown query parameters.', code: 'invalid', errors: { amount: ['Unknown query parameter.'] } },
  ]);
  expect(await get('/items/?utm_source=mail')).toEqual(['/items/?utm_source=mail', 200, '<p>items</p>']);
});
