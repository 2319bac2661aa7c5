import type { AccessServices } from '../../../subgraphs/predictions/access/services';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

/**
 * Outside development mode the GraphQL IDE asks for an administrator key (HTTP Basic, the key as
 * password). That check is metered like any request: it must not test keys for free.
 */

let t: TestApp<'predictions'>;
beforeAll(async () => {
  t = await startTestApp(
    { NODE_ENV: 'production', PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090', PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080' },
    { products: ['predictions'] },
  );
});
afterAll(() => t?.stop());

const openIde = (key?: string) =>
  http(`${t.urls.gateway}/graphql`, {
    headers: { accept: 'text/html', ...(key ? { authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` } : {}) },
  });

it('opens for an administrator key and stays shut without one', async () => {
  expect((await openIde(t.adminKey)).status).toBe(200);
  const shut = await openIde();
  expect(shut.status).toBe(401);
  expect(shut.headers.get('www-authenticate')).toMatch(/^Basic /);
});

it("counts each check against a client key's quota, and answers 401 once the quota is used", async () => {
  const access = t.app.services.access as AccessServices;
  const key = await t.createKey('enterprise', { dailyLimit: 3 });
  const [record] = (await access.apiKeys.list()).filter((k) => key.startsWith(k.prefix));
  const used = async () => (await access.apiKeys.usageToday([record.id])).get(record.id) ?? 0;
  expect(await used()).toBe(0);
  expect((await openIde(key)).status).toBe(401);
  expect(await used()).toBe(1);
  for (let i = 0; i < 2; i++) await openIde(key);
  expect(await used()).toBe(3);
  // the quota is gone: the IDE check and the API now answer alike
  expect((await openIde(key)).status).toBe(401);
  const api = await http(`${t.urls.predictions}/api/`, { key });
  expect(api.status).toBe(429);
  expect(await used()).toBe(3);
});
