import { z } from 'zod';
import { loadConfig } from '../../../test/support/platform/config';
import { createLogger } from '../../../lib/logger';
import { listen, type RunningServer } from '../../../lib/server';
import { detailErrorShape } from '../errors';
import type { Route } from '../route';
import { createSurfaceApp, hostAllowed, type Surface } from '../surface';

/**
 * The REST core's browser-session mechanisms, generic for every surface (the finance admin console
 * uses them; the registry's customer workspace is next): routes answered without an operation,
 * cookies on replies, CSRF (Origin check and double-submit token), headers on every response,
 * Host validation, CORS read from the configuration. Every route here answers locally: no
 * operation runs, so the executor is never called.
 */
const routes: Route[] = [
  {
    method: 'GET',
    path: '/form/',
    summary: 'A form page',
    security: 'none',
    operationId: 'form',
    reply: ({ csrfToken }) => ({ kind: 'html', html: `<form><input name="csrfmiddlewaretoken" value="${csrfToken}"></form>` }),
    response: { description: 'HTML' },
  },
  {
    method: 'POST',
    path: '/form/',
    summary: 'Its submission',
    security: 'none',
    operationId: 'submit',
    consumes: 'form',
    csrf: true,
    body: z.record(z.string(), z.string()),
    reply: ({ body }) => ({
      kind: 'redirect',
      status: 302,
      location: '/form/?ok=1',
      cookies: [{ name: 'sessionid', value: String((body as Record<string, string>).name), maxAgeSeconds: 60 }],
    }),
    response: { status: 302, description: 'Saved' },
  },
  {
    method: 'POST',
    path: '/api/echo/',
    summary: 'A JSON write without a session',
    security: 'none',
    operationId: 'echo',
    body: z.object({ x: z.number() }),
    reply: ({ body }) => ({ kind: 'json', body }),
    response: { description: 'The body' },
  },
  {
    method: 'GET',
    path: '/ping',
    summary: 'Plain text',
    security: 'none',
    operationId: 'ping',
    reply: () => ({ kind: 'text', body: 'pong\n' }),
    response: { description: 'pong' },
  },
];

const surface: Surface = {
  product: 'core-sessions-test',
  title: 'test',
  version: '1',
  description: 'test',
  routes,
  credentials: [],
  catalogue: {},
  errorShape: detailErrorShape,
  cors: (config) => ({ origins: config.CORS_ALLOWED_ORIGINS, allowHeaders: ['Authorization', 'X-Request-ID'] }),
  responseHeaders: (config) => ({ 'X-App-Name': config.APP_NAME }),
  allowedHosts: (config) => config.ALLOWED_HOSTS,
  csrf: (config) => ({ trustedOrigins: config.CSRF_TRUSTED_ORIGINS }),
};

let server: RunningServer;
let base: string;
beforeAll(async () => {
  const config = loadConfig({
    APP_NAME: 'Core Test',
    ALLOWED_HOSTS: '127.0.0.1,.example.test',
    CSRF_TRUSTED_ORIGINS: 'https://trusted.example',
    CORS_ALLOWED_ORIGINS: 'https://app.example',
  });
  const executor = { execute: () => Promise.reject(new Error('no operation runs in this test')) };
  server = await listen(createSurfaceApp(surface, { config, executor, logger: createLogger('silent'), bodyLimit: '10kb' }), '127.0.0.1', 0);
  base = server.url;
});
afterAll(() => server?.close());

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${base}/form/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe('surface hooks', () => {
  it('puts the surface headers on every response: replies, 404 and 405', async () => {
    for (const [method, path, status] of [
      ['GET', '/ping', 200],
      ['GET', '/nope/', 404],
      ['DELETE', '/form/', 405],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      expect([path, res.status, res.headers.get('x-app-name')]).toEqual([path, status, 'Core Test']);
    }
    expect(await (await fetch(`${base}/ping`)).text()).toBe('pong\n');
  });

  it("validates Host as Django's ALLOWED_HOSTS does", () => {
    expect(hostAllowed('127.0.0.1:8000', ['127.0.0.1'])).toBe(true);
    expect(hostAllowed('api.example.test', ['.example.test'])).toBe(true);
    expect(hostAllowed('example.test', ['.example.test'])).toBe(true);
    expect(hostAllowed('evil-example.test', ['.example.test'])).toBe(false);
    expect(hostAllowed('anything', ['*'])).toBe(true);
    expect(hostAllowed('[::1]:8000', ['[::1]'])).toBe(true);
  });

  it('reads CORS from the configuration', async () => {
    const res = await fetch(`${base}/api/echo/`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect([res.status, res.headers.get('access-control-allow-origin'), res.headers.get('access-control-allow-headers')]).toEqual([
      204,
      'https://app.example',
      'Authorization, X-Request-ID',
    ]);
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request from a foreign Origin, accepts its own origin, trusted origins and no Origin', async () => {
    const post = (origin?: string) =>
      fetch(`${base}/api/echo/`, { method: 'POST', headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) }, body: '{"x":1}' });
    const foreign = await post('https://evil.example');
    expect([foreign.status, await foreign.json()]).toEqual([
      403,
      { detail: 'CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins.', code: 'csrf_failed' },
    ]);
    for (const origin of [base, 'https://trusted.example', undefined]) expect([origin, (await post(origin)).status]).toEqual([origin, 200]);
    expect((await fetch(`${base}/ping`, { headers: { origin: 'https://evil.example' } })).status).toBe(200);
  });

  it('issues a token cookie with the page and requires it back in the form (double submit)', async () => {
    const page = await fetch(`${base}/form/`);
    const setCookie = page.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^csrftoken=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=31536000; SameSite=Lax$/);
    const token = /csrftoken=([^;]+)/.exec(setCookie)![1];
    expect(await page.text()).toContain(`value="${token}"`);
    // the same token while the cookie is there
    const again = await fetch(`${base}/form/`, { headers: { cookie: `csrftoken=${token}` } });
    expect(again.headers.get('set-cookie')).toBeNull();

    const refusal = async (res: Response) => [res.status, ((await res.json()) as { detail: string }).detail];
    expect(await refusal(await form({ name: 'a', csrfmiddlewaretoken: token }))).toEqual([403, 'CSRF Failed: CSRF cookie not set.']);
    expect(await refusal(await form({ name: 'a' }, { cookie: `csrftoken=${token}` }))).toEqual([403, 'CSRF Failed: CSRF token missing.']);
    expect(await refusal(await form({ name: 'a', csrfmiddlewaretoken: 'x'.repeat(43) }, { cookie: `csrftoken=${token}` }))).toEqual([
      403,
      'CSRF Failed: CSRF token incorrect.',
    ]);
    const ok = await form({ name: 'alice', csrfmiddlewaretoken: token }, { cookie: `csrftoken=${token}` });
    expect([ok.status, ok.headers.get('location')]).toEqual([302, '/form/?ok=1']);
    const header = await fetch(`${base}/form/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${token}`, 'x-csrftoken': token },
      body: 'name=bob',
    });
    expect(header.status).toBe(302);
  });

  it('sets reply cookies HttpOnly and SameSite=Lax, Secure behind HTTPS', async () => {
    const page = await fetch(`${base}/form/`);
    const token = /csrftoken=([^;]+)/.exec(page.headers.get('set-cookie')!)![1];
    const plain = await form({ name: 'alice', csrfmiddlewaretoken: token }, { cookie: `csrftoken=${token}` });
    expect(plain.headers.get('set-cookie')).toBe('sessionid=alice; Path=/; Max-Age=60; HttpOnly; SameSite=Lax');
    const https = await form({ name: 'alice', csrfmiddlewaretoken: token }, { cookie: `csrftoken=${token}`, 'x-forwarded-proto': 'https' });
    expect(https.headers.get('set-cookie')).toBe('sessionid=alice; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure');
  });
});
