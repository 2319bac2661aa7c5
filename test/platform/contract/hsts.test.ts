import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

/**
 * HSTS is configurable: HSTS=auto (the production default) sends
 * Strict-Transport-Security on requests that came over TLS — here X-Forwarded-Proto: https from a
 * proxy TRUST_PROXY names —, HSTS=on always, HSTS=off (and development's default) never.
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  FRONTEND_URL: 'http://127.0.0.1:8000/app/',
  PRODUCTS: 'finance',
  FRAMEWORK_SECRET_KEY: 'f'.repeat(64),
  SERVER_JWT_KEY: 'j'.repeat(48),
  TRUST_PROXY: 'loopback',
};
const apps: Record<string, TestApp<'finance'>> = {};
beforeAll(async () => {
  const start = (env: Record<string, string>) => startTestApp(env, { products: ['finance'] });
  [apps.production, apps.off, apps.development] = await Promise.all([
    start({ ...PRODUCTION, HSTS_MAX_AGE_SECONDS: '86400' }),
    start({ ...PRODUCTION, HSTS: 'off' }),
    start({ TRUST_PROXY: 'loopback' }),
  ]);
}, 240_000);
afterAll(() => Promise.all(Object.values(apps).map((t) => t?.stop())));

const hstsOf = async (t: TestApp<'finance'>, path: string, tls: boolean) =>
  (await http(`${t.urls.finance}${path}`, { headers: tls ? { 'x-forwarded-proto': 'https' } : {} })).headers.get('strict-transport-security');

it('production (auto): on responses that came over TLS, pages and API alike; not over plain HTTP', async () => {
  for (const path of ['/api/v1/config/', '/admin/login/', '/healthz', '/api/nope/']) {
    expect([path, await hstsOf(apps.production, path, true)]).toEqual([path, 'max-age=86400']);
    expect([path, await hstsOf(apps.production, path, false)]).toEqual([path, null]);
  }
});

it('HSTS=off, and development by default: never', async () => {
  expect(await hstsOf(apps.off, '/api/v1/config/', true)).toBeNull();
  expect(await hstsOf(apps.development, '/api/v1/config/', true)).toBeNull();
});
