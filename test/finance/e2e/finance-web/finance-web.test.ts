import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { generate as totpGenerate } from 'otplib';
import { type Browser, type BrowserContext, type Request } from 'playwright-core';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { TOGGLES } from '../../../../subgraphs/finance/kernel/contract';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { inspect, launchChromium, offlineContext } from '../../../support/platform/browser';
import { adminPost, adminSignIn, changeNode, createUser, installValidLicence, PASSWORD, type AdminSession } from '../../../support/finance/node';
import { signInToWebClient } from '../../../support/finance/web-client';

/**
 * The finance web client (clients/finance-web) as the node serves it at /app/, in headless Chromium:
 * read-only banner, sign-in, the balances with the seven client headers, a module page that goes away
 * when its toggle goes off, the maintenance notice, accessibility (axe, WCAG 2 AA) at desktop and
 * phone size; and how the files are served (caching, SPA fallback).
 */
const CLIENT_HEADERS = ['authorization', 'content-type', 'accept', 'x-request-id', 'x-request-timestamp', 'x-client-platform', 'x-client-version'];

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let admin: AdminSession;
const external: string[] = [];

/** The admin console's settings form with every toggle at its default, then `changes`. */
function settings(changes: Record<string, string | null>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const toggle of TOGGLES) {
    if (toggle.type === 'boolean') {
      if (toggle.default) fields[toggle.field] = 'on';
    } else fields[toggle.field] = String(toggle.default);
  }
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete fields[field];
    else fields[field] = value;
  }
  return fields;
}

async function saveSettings(changes: Record<string, string | null>): Promise<void> {
  const saved = await changeNode(t, () => adminPost(t, admin, '/admin/node/settings/', settings(changes)));
  expect(saved.status).toBe(302);
}

beforeAll(async () => {
  browser = await launchChromium();
  // `npm run build` builds it too; built again here so that the test sees the sources as they are (about a second)
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  t = await startTestApp({ APP_VERSION: '4.5.6' });
  const chief = await createUser(t, undefined, { superuser: true });
  admin = await adminSignIn(t, chief.username);
  context = await offlineContext(browser, external);
}, 90_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await t?.stop();
});

describe('the finance web client in Chromium', () => {
  it('shows the read-only banner while the node has no licence, and signs in all the same', async () => {
    const user = await createUser(t);
    const page = await context.newPage();
    await page.goto(`${t.urls.finance}/app/`);
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    expect(await page.locator('#read-only-banner').textContent()).toContain('no valid licence');
    // axe (WCAG 2 A/AA) clean, no sideways scrolling
    await inspect(page, 'finance-web-sign-in-read-only', { widths: [1280] });
    await signInToWebClient(page, t.urls.finance, user.username, PASSWORD);
    await page.getByText('You hold no money yet.').waitFor();
    await page.close();
  }, 60_000);

  it('signs in, shows the balance with the seven client headers on the call, and takes a module away when its toggle goes off', async () => {
    await changeNode(t, () => installValidLicence(t));
    const user = await createUser(t);
    await t.app.services.ledger.ledger.fund(user.id, 'EUR', 4_200n, '00000000-0000-4000-8000-00000000f1e1');
    const page = await context.newPage();
    const balanceRequests: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/balance/') balanceRequests.push(request);
    });
    await page.goto(`${t.urls.finance}/app/`);
    await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
    expect(await page.locator('#read-only-banner').count()).toBe(0);

    // a wrong password: the node's message, and still on the sign-in form
    await page.getByLabel('User name').fill(user.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#sign-in-error:not(:empty)').waitFor();
    expect(await page.getByRole('heading', { name: 'Home' }).count()).toBe(0);

    await signInToWebClient(page, t.urls.finance, user.username, PASSWORD);
    const row = page.locator('#balances li[data-currency="EUR"]');
    await row.waitFor();
    // available in the currency's format; nothing pending, so no pending line (the old client showed the whole balance as pending)
    expect(await row.locator('.available').textContent()).toBe('€42.00');
    expect(await row.locator('.pending').count()).toBe(0);
    const sent = await balanceRequests[0].allHeaders();
    expect(CLIENT_HEADERS.filter((name) => !sent[name])).toEqual([]);
    expect(sent.authorization).toMatch(/^Bearer .+/);
    expect([sent['x-client-platform'], sent['x-client-version']]).toEqual(['web', expect.stringMatching(/^\d+\.\d+\.\d+/)]);
    expect(new Date(sent['x-request-timestamp']).toString()).not.toBe('Invalid Date');
    await inspect(page, 'finance-web-home', { widths: [1280] });

    // the shop's page is in the menu; keyboard: the link is reachable and opens with Enter
    const shop = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop', exact: true });
    await shop.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/shop/');

    await saveSettings({ shopEnabled: null });
    await page.reload();
    await page.getByRole('heading', { name: 'Not available', level: 1 }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getByRole('link', { name: 'Shop', exact: true }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Invest', exact: true }).count()).toBe(1);

    await saveSettings({});
    await page.reload();
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    await page.close();
    expect(external).toEqual([]);
  }, 90_000);

  it('shows the maintenance notice, and during it the last balances it had (dated) instead of blanking them', async () => {
    const notice = 'Back at 10:00 UTC: the ledger is being upgraded.';
    const user = await createUser(t);
    await t.app.services.ledger.ledger.fund(user.id, 'EUR', 1_500n, randomUUID());
    const page = await context.newPage();
    await signInToWebClient(page, t.urls.finance, user.username, PASSWORD);
    await page.locator('#balances li[data-currency="EUR"]').waitFor();
    await saveSettings({ maintenanceMode: 'on', maintenanceMessage: notice });
    try {
      await page.reload();
      await page.locator('#maintenance-notice').waitFor();
      expect(await page.locator('#maintenance-notice').textContent()).toBe(`Maintenance: ${notice}`);
      // the node still refuses the read (503: its contract); the page keeps what it last knew, and says so
      await page.locator('#balances-stale').waitFor();
      expect(await page.locator('#balances-stale').textContent()).toMatch(/^Under maintenance: your balances as of .+ nothing can be sent/);
      expect(await page.locator('#balances li[data-currency="EUR"] .available').textContent()).toBe('€15.00');
      await inspect(page, 'finance-web-maintenance-balances', { widths: [390, 1280] });
      // another tab (no balances seen yet): the notice, and no invented balances
      const fresh = await context.newPage();
      await fresh.goto(`${t.urls.finance}/app/`);
      await fresh.locator('#maintenance-notice').waitFor();
      expect(await fresh.locator('#balances').count()).toBe(0);
      await fresh.close();
    } finally {
      await saveSettings({});
      await page.close();
    }
  }, 90_000);

  it('with "Enforce 2FA on login" on: enrols the user in the page, then signs in with the code', async () => {
    const user = await createUser(t);
    await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: true }, 'test'));
    try {
      const page = await context.newPage();
      await page.goto(`${t.urls.finance}/app/`);
      await page.getByLabel('One-time code from your authenticator app').waitFor();
      await page.getByLabel('User name').fill(user.username);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
      const secret = (await page.locator('#otp-secret').textContent())!;
      await page.getByLabel('Confirmation code from your authenticator app').fill('000000');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.locator('#enrolment-error:not(:empty)').waitFor();
      await page.getByLabel('Confirmation code from your authenticator app').fill(await totpGenerate({ secret }));
      await page.getByRole('button', { name: 'Confirm' }).click();
      // on, and its ten recovery codes shown once
      await page.getByText('Two-factor authentication is on.').waitFor();
      expect(await page.locator('#recovery-codes li').count()).toBe(10);
      // the next time step's code: the confirmation used the current one, which is not accepted twice
      const next = await totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 } as Parameters<typeof totpGenerate>[0]);
      await page.getByLabel('One-time code from your authenticator app').fill(next);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      await page.close();
    } finally {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: false }, 'test'));
    }
  }, 60_000);

  it('fits a phone-sized screen without sideways scrolling and stays accessible there', async () => {
    const user = await createUser(t);
    await t.app.services.ledger.ledger.fund(user.id, 'USD', 123_456n, '00000000-0000-4000-8000-00000000f1e2');
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await signInToWebClient(page, t.urls.finance, user.username, PASSWORD);
    await page.locator('#balances').waitFor();
    // no sideways scrolling and axe clean at 360 px (a small phone)
    await inspect(page, 'finance-web-home-phone', { widths: [360], restore: 360 });
    await page.close();
  }, 60_000);
});

describe('serving the client', () => {
  it('caches hashed assets for a year, revalidates the page, and answers any client path with the page', async () => {
    const index = await http(`${t.urls.finance}/app/`);
    expect([index.status, index.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    const deep = await http(`${t.urls.finance}/app/shop/`);
    expect([deep.status, deep.body]).toEqual([200, index.body]);
    const asset = readdirSync(join(DEFAULT_CLIENT_DIR, 'assets')).find((f) => f.endsWith('.js'))!;
    const script = await http(`${t.urls.finance}/app/assets/${asset}`);
    expect([script.status, script.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    const manifest = await http(`${t.urls.finance}/app/manifest.webmanifest`);
    expect([manifest.status, manifest.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    expect((await http(`${t.urls.finance}/app/assets/missing.js`)).status).toBe(404);
    expect((await http(`${t.urls.finance}/app/..%2f..%2fpackage.json`)).status).toBe(404);
    const bare = await http(`${t.urls.finance}/app`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/app/']);
  });
});
