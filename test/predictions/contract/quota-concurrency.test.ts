import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

it('meters exactly: 200 concurrent requests with a fresh Free key → exactly 50 succeed, 150 get 429', async () => {
  const key = await t.createKey('free');
  const results = await Promise.all(Array.from({ length: 200 }, () => http(`${t.urls.predictions}/api/`, { key })));
  const count = (s: number) => results.filter((r) => r.status === s).length;
  expect(count(200)).toBe(50);
  expect(count(429)).toBe(150);
  const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
  expect(new Set(remaining).size).toBe(50);
  expect(Math.min(...remaining)).toBe(0);
  expect(Math.max(...remaining)).toBe(49);
});

it('meters once per operation, not per subgraph fetch: GET /api/ touches two subgraphs and counts 1', async () => {
  const key = await t.createKey('free');
  await http(`${t.urls.predictions}/api/`, { key });
  const second = await http(`${t.urls.predictions}/api/`, { key });
  expect(second.headers.get('x-ratelimit-remaining')).toBe('48');
  const keys = await t.app.services.access.apiKeys.list();
  const row = keys.find((k) => k.prefix === key.slice(0, 12))!;
  const usage = await t.app.services.access.apiKeys.usageToday([row.id]);
  expect(usage.get(row.id)).toBe(2);
});
