import { startTestApp, type TestApp } from '../../support/platform/app';
import { surface } from '../../support/platform/http';

/**
 * A request refused for its input (400) after its key was verified counts against the quota, like
 * any request the gateway verified, and says so: it carries the X-RateLimit-* headers of that count.
 */

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('free');
}, 90_000);
afterAll(() => t?.stop());

const { get } = surface(() => t.urls.predictions, { key: () => key });

it('a 400 for a bad query parameter carries the X-RateLimit-* headers of the request it counted', async () => {
  const first = await get('/api/predictions/latest/?limit=1');
  expect(first.status).toBe(200);
  const remaining = Number(first.headers.get('x-ratelimit-remaining'));

  const bad = await get('/api/predictions/latest/?limit=0');
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('invalid');
  expect(bad.headers.get('x-ratelimit-limit')).toBe('50');
  expect(bad.headers.get('x-ratelimit-remaining')).toBe(String(remaining - 1));
  expect(bad.headers.get('x-ratelimit-reset')).toBe(first.headers.get('x-ratelimit-reset'));

  // counted once: the next request sees one fewer again
  const next = await get('/api/predictions/latest/?limit=1');
  expect(next.headers.get('x-ratelimit-remaining')).toBe(String(remaining - 2));
});
