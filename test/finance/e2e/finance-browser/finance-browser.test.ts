import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { launchChromium, offlineContext } from '../../../support/platform/browser';
import { createUser, PASSWORD } from '../../../support/finance/node';

/**
 * The finance node in headless Chromium, with no network but this machine:
 *  - CORS: a page on another origin (CORS_ALLOWED_ORIGINS) calls the API with the seven client
 *    headers; the preflights pass. The same page on an origin not in the list fails.
 *  - The admin console: sign in, flip a toggle, and /api/v1/config/features/ shows it at once.
 */
/** The client page: signs in and reads the balance with every header the real clients send. */
const CLIENT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>client</title></head><body><script>
window.callNode = async (api, username, password) => {
  const headers = (extra) => ({
    Accept: 'application/json', 'X-Request-ID': 'req-' + Math.random().toString(16).slice(2), 'X-Request-Timestamp': String(Date.now()),
    'X-Client-Platform': 'web', 'X-Client-Version': '3.1.0', ...extra });
  try {
    const login = await fetch(api + '/api/login/', { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ username, password }) });
    const token = (await login.json()).access;
    const sent = headers({ Authorization: 'Bearer ' + token });
    const balance = await fetch(api + '/api/balance/', { headers: sent });
    return { ok: true, login: login.status, status: balance.status, body: await balance.json(), requestId: balance.headers.get('X-Request-ID'), sentRequestId: sent['X-Request-ID'], appVersion: balance.headers.get('X-App-Version') };
  } catch (err) {
    return { ok: false, error: String(err) };
  }
};
</script></body></html>`;

let t: TestApp;
let pages: Server;
let pagePort: number;
let browser: Browser;
let context: BrowserContext;
const external: string[] = [];

beforeAll(async () => {
  browser = await launchChromium({ args: ['--disable-quic'] });
  pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(CLIENT_PAGE));
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  pagePort = (pages.address() as AddressInfo).port;
  // the client's origin is http://localhost:<port>; http://127.0.0.1:<port> is another origin, not allowed
  t = await startTestApp({ CORS_ALLOWED_ORIGINS: `http://localhost:${pagePort}`, CSRF_TRUSTED_ORIGINS: `http://localhost:${pagePort}`, APP_VERSION: '9.8.7' });
  context = await offlineContext(browser, external);
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await t?.stop();
  await new Promise((r) => pages?.close(r));
});

async function openPage(url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

describe('CORS in a browser', () => {
  it('lets a page on an allowed origin sign in and read the balance with the seven client headers; X-Request-ID comes back', async () => {
    const user = await createUser(t);
    await t.app.services.ledger.ledger.fund(user.id, 'EUR', 4_200n, '00000000-0000-4000-8000-00000000c0a5');
    const page = await openPage(`http://localhost:${pagePort}/`);
    const result = await page.evaluate(
      ([api, u, p]) => (globalThis as unknown as { callNode: (a: string, b: string, c: string) => Promise<unknown> }).callNode(api, u, p),
      [t.urls.finance, user.username, PASSWORD] as const,
    );
    expect(result).toMatchObject({ ok: true, login: 200, status: 200, appVersion: '9.8.7' });
    const r = result as { requestId: string; sentRequestId: string; body: unknown };
    expect(r.requestId).toBe(r.sentRequestId);
    expect(r.body).toEqual({
      balances: [
        {
          currency: 'EUR',
          available: { amount: '42.00', currency: 'EUR' },
          posted: { amount: '42.00', currency: 'EUR' },
          pending: { amount: '42.00', currency: 'EUR' },
        },
      ],
    });
    await page.close();
  });

  it('refuses the same calls from an origin that is not allowed (the browser sees a failed fetch)', async () => {
    const user = await createUser(t);
    const page = await openPage(`http://127.0.0.1:${pagePort}/`);
    const result = await page.evaluate(
      ([api, u, p]) => (globalThis as unknown as { callNode: (a: string, b: string, c: string) => Promise<unknown> }).callNode(api, u, p),
      [t.urls.finance, user.username, PASSWORD] as const,
    );
    expect(result).toEqual({ ok: false, error: 'TypeError: Failed to fetch' });
    await page.close();
    expect(external).toEqual([]);
  });
});

describe('API documentation in a browser', () => {
  it('renders Swagger UI at /swagger/ and ReDoc at /redoc/ with no request off this machine', async () => {
    const page = await openPage(`${t.urls.finance}/swagger/`);
    // both render the whole document in the page: with every module's routes, that takes a while on a busy machine
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 90_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Finance Platform Node');
    // Swagger UI resolves the operations tag by tag: the first ones rendered show that the document was read
    await page.locator('.opblock-summary-path[data-path="/healthz"]').first().waitFor({ timeout: 90_000 });
    await page.goto(`${t.urls.finance}/redoc/`);
    await page
      .getByRole('heading', { name: /Finance Platform Node/ })
      .first()
      .waitFor({ timeout: 90_000 });
    await page.getByText('/api/v1/config/features/').first().waitFor({ state: 'attached', timeout: 90_000 });
    await page.close();
    expect(external).toEqual([]);
  }, 300_000);
});

describe('the admin console in a browser', () => {
  it('signs in, flips a toggle, and /api/v1/config/features/ changes at once', async () => {
    const admin = await createUser(t, 'chief', { superuser: true });
    expect((await http(`${t.urls.finance}/api/v1/config/features/`)).body.shop_enabled).toBe(true);
    const page = await openPage(`${t.urls.finance}/admin/`);
    expect(new URL(page.url()).pathname).toBe('/admin/login/');
    await page.fill('#id_username', admin.username);
    await page.fill('#id_password', PASSWORD);
    await Promise.all([page.waitForURL(`${t.urls.finance}/admin/`), page.click('input[type=submit]')]);
    await page.getByRole('heading', { name: 'Executive dashboard' }).waitFor();
    expect(await page.textContent('#user-tools')).toContain('chief');
    const session = (await context.cookies(t.urls.finance)).find((c) => c.name === 'sessionid')!;
    expect([session.httpOnly, session.sameSite]).toEqual([true, 'Lax']);

    // /admin/<app>/: the model list, with a back link
    await page.goto(`${t.urls.finance}/admin/node/`);
    await page.getByRole('link', { name: 'Settings record' }).click();
    await page.waitForURL(`${t.urls.finance}/admin/node/settings/`);
    await page.uncheck('#id_shopEnabled');
    await Promise.all([page.waitForURL(/\/admin\/node\/settings\/\?saved=1$/), page.click('button[name=_save]')]);
    expect(await page.textContent('.banner.ok')).toContain('The settings record was changed successfully.');
    const features = await http(`${t.urls.finance}/api/v1/config/features/`);
    expect(features.body.shop_enabled).toBe(false);
    expect((await http(`${t.urls.finance}/api/v1/config/`)).body.modules.shop).toBe(false);

    await page.goto(`${t.urls.finance}/admin/`);
    expect(await page.textContent('body')).toContain('admin:chief');
    await Promise.all([page.waitForURL(/\/admin\/login\/$/), page.click('#user-tools button')]);
    expect((await http(`${t.urls.finance}/admin/`, { headers: { cookie: `sessionid=${session.value}` } })).status).toBe(302);
    expect(external).toEqual([]);
  }, 60_000);
});
