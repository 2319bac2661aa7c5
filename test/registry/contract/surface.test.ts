import { DOCS_PATH, OPENAPI_PATH, registryRoutes } from '../../../rest-adapter/registry/routes';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { validateOpenApi } from '../../support/platform/openapi';
import { createLicence, registryClient } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

let t: TestApp;
let doc: any;
beforeAll(async () => {
  // a small rate limit to reach it
  t = await startTestApp({ REGISTRY_RATE_LIMIT: '5' });
  doc = (await http(`${t.urls.registry}${OPENAPI_PATH}`)).body;
});
afterAll(() => t?.stop());

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('OpenAPI and the API reference', () => {
  it('serve a valid OpenAPI 3.1 document at /api/openapi.json and ReDoc at /api/docs/, without a credential', async () => {
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.info.title).toBe('Licence Registry');
    const page = await http(`${t.urls.registry}${DOCS_PATH}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`spec-url="${OPENAPI_PATH}"`);
  });

  it("document every route of the API (not the workspace's pages), the contract's paths exactly and the finance node's three", () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const api = registryRoutes.filter((r) => r.documented !== false);
    expect(api.length).toBeLessThan(registryRoutes.length);
    expect(registryRoutes.filter((r) => r.documented === false).every((r) => r.path.startsWith('/workspace/'))).toBe(true);
    // each workspace page says so in its own route entry (rest-adapter/registry/workspace/routes.ts)
    expect(registryRoutes.filter((r) => r.path.startsWith('/workspace/') && r.documented !== false)).toEqual([]);
    expect(documented.sort()).toEqual(api.map((r) => `${r.method} ${openApiPath(r.path)}`).sort());
    expect(documented).toEqual(
      expect.arrayContaining([
        'GET /api/v1/releases',
        'GET /api/v1/releases/check-update',
        'GET /api/v1/releases/{releaseId}/manifest',
        'POST /api/v1/artifacts/{artifactId}/authorize',
        'GET /api/v1/artifacts/{artifactId}/download',
        'POST /api/v1/deployments/register',
        'POST /api/v1/deployments/heartbeat',
        'GET /api/v1/license',
        'POST /api/v1/license/checkout',
        'GET /api/v1/license/public-key',
      ]),
    );
    expect(doc.components.securitySchemes.licenceKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-license-key' }));
    expect(doc.components.securitySchemes.licenceKeyQuery).toEqual(expect.objectContaining({ type: 'apiKey', in: 'query', name: 'licenseKey' }));
    const checkUpdate = doc.paths['/api/v1/releases/check-update'].get;
    expect(checkUpdate.parameters.map((p: { name: string }) => p.name)).toEqual(['product', 'channel', 'current_version']);
    const item = doc.paths['/api/v1/releases'].get.responses['200'].content['application/json'].schema.properties.data.items;
    expect(Object.keys(item.properties)).toEqual([
      'id',
      'version',
      'channel',
      'changelog',
      'publishedAt',
      'backdatedTo',
      'maintenanceCovered',
      'manifestUrl',
      'artifacts',
    ]);
    expect(doc.paths['/api/v1/artifacts/{artifactId}/download'].get.responses['302']).toBeDefined();
    expect(doc.info.description).toContain('NODE_LIMIT_EXCEEDED');
  });

  it('GET /api/v1/ lists the endpoints', async () => {
    const res = await http(`${t.urls.registry}/api/v1/`);
    expect(res.status).toBe(200);
    expect(res.body.data.endpoints).toContainEqual({
      method: 'GET',
      path: '/api/v1/releases/check-update',
      description: expect.any(String),
      auth: 'licenceKey',
    });
    expect((await http(`${t.urls.registry}/api/v1`)).status).toBe(301);
  });

  it('answers unknown paths and wrong methods in the envelope', async () => {
    const missing = await http(`${t.urls.registry}/api/v1/nothing-here`);
    expect(missing.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Not found.' } });
    const wrong = await http(`${t.urls.registry}/api/v1/releases`, { method: 'DELETE' });
    expect([wrong.status, wrong.body.error.code, wrong.headers.get('allow')]).toEqual([405, 'METHOD_NOT_ALLOWED', 'GET, HEAD, OPTIONS']);
  });
});

describe('the per-licence rate limit (REGISTRY_RATE_LIMIT per minute)', () => {
  it('counts every request of the licence and answers 429 RATE_LIMITED with Retry-After beyond it', async () => {
    const { key } = await createLicence(t);
    const client = registryClient(t, key);
    // until refused (a minute may turn meanwhile: then a new window begins, at most once)
    const results = [];
    for (let i = 0; i < 12; i++) {
      const res = await client.get('/api/v1/license');
      results.push(res);
      if (res.status === 429) break;
    }
    const refused = results[results.length - 1];
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    const window = refused.headers.get('x-ratelimit-reset');
    const admitted = results.filter((r) => r.status === 200 && r.headers.get('x-ratelimit-reset') === window);
    expect(admitted.map((r) => [r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining')])).toEqual([
      ['5', '4'],
      ['5', '3'],
      ['5', '2'],
      ['5', '1'],
      ['5', '0'],
    ]);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // another licence has its own allowance
    const { key: other } = await createLicence(t);
    expect((await client.get('/api/v1/license', { key: other })).status).toBe(200);
  });

  it('counts requests arriving together exactly: no more admitted than the limit, each with its own remaining count', async () => {
    const { key } = await createLicence(t);
    const client = registryClient(t, key);
    // while one metering statement runs the others wait for it and are counted together
    const results = await Promise.all(Array.from({ length: 20 }, () => client.get('/api/v1/license')));
    expect(results.every((r) => r.status === 200 || (r.status === 429 && r.body.error.code === 'RATE_LIMITED'))).toBe(true);
    const admitted = new Map<string, string[]>();
    for (const r of results.filter((r) => r.status === 200)) {
      const window = r.headers.get('x-ratelimit-reset')!;
      admitted.set(window, [...(admitted.get(window) ?? []), r.headers.get('x-ratelimit-remaining')!]);
    }
    // a minute may turn meanwhile: then each window admits its own, counted afresh
    for (const remaining of admitted.values()) expect(remaining.sort().reverse()).toEqual(['4', '3', '2', '1', '0'].slice(0, remaining.length));
    if (admitted.size === 1) expect([...admitted.values()][0]).toHaveLength(5);
  });
});
