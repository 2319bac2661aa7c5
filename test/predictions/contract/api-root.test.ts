import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { serviceInfo, errorBody } from '../../../rest-adapter/predictions/schemas';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

describe('GET /api/', () => {
  it('answers 200 with service information, the endpoint list and rate-limit headers for a valid key', async () => {
    const key = await t.createKey('free');
    const before = Date.now();
    const res = await http(`${t.urls.predictions}/api/`, { key });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(serviceInfo.parse(res.body)).toBeTruthy();
    expect(res.body.key.plan).toBe('free');
    expect(res.body.endpoints).toContainEqual({ method: 'GET', path: '/api/', description: expect.any(String), auth: 'api_key' });
    expect(res.body.data.matches).toBe(33322);
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('49');
    // the next 00:00 UTC after the instant the server answered, somewhere between `before` and `after`
    // (both the same midnight, except across 00:00 UTC); test/predictions/integration/quota-reset.test.ts sets the clock
    const nextMidnight = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate() + 1) / 1000;
    expect([nextMidnight(before), nextMidnight(after)]).toContain(Number(res.headers.get('x-ratelimit-reset')));
  });

  it('answers 401 with WWW-Authenticate: Bearer without a key', async () => {
    const res = await http(`${t.urls.predictions}/api/`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(errorBody.parse(res.body).code).toBe('not_authenticated');
  });

  it.each([
    ['an unknown key', 'Bearer mpk_000000000000000000000000000000000000000000000000'],
    ['a malformed header', 'Token abc'],
    ['a too-short key', 'Bearer short'],
  ])('answers 401 with WWW-Authenticate for %s', async (_label, header) => {
    const res = await http(`${t.urls.predictions}/api/`, { headers: { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body.code).toBe('authentication_failed');
  });

  it('answers 401 for a revoked key, at once', async () => {
    const key = await t.createKey('pro');
    expect((await http(`${t.urls.predictions}/api/`, { key })).status).toBe(200);
    await t.app.services.access.apiKeys.revoke(key.slice(0, 12));
    const res = await http(`${t.urls.predictions}/api/`, { key });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/revoked/);
  });

  it('answers 429 with Retry-After once the daily quota is used up, and counts once per request', async () => {
    const key = await t.createKey('enterprise', { dailyLimit: 3 });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await http(`${t.urls.predictions}/api/`, { key });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86400);
    expect(last!.body.code).toBe('throttled');
  });
});
