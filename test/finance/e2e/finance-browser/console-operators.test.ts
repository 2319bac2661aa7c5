import { randomUUID } from 'node:crypto';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { inspect, launchChromium } from '../../../support/platform/browser';
import { auditDelivered, createUser, installValidLicence, login, PASSWORD } from '../../../support/finance/node';

/**
 * The console's operator pages in headless Chromium: an administrator adds a user through the form,
 * proposes a manual adjustment, reads the audit log; switches sign-up to invite-only and creates an
 * invite, with which a new user signs up in the web client (without one, refused in plain words); the
 * list pages of banking, cards, crypto and investing. Each page fits a 390 px phone and a 1280 px screen
 * without horizontal scrolling (wide tables scroll inside their box, which the keyboard can reach) and is
 * axe-clean (WCAG 2 A/AA); screenshots are kept (test/support/platform/browser.ts).
 */
let t: TestApp<'finance'>;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
  browser = await launchChromium();
  context = await browser.newContext();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/** A superuser signed in to the console, in a new tab. */
async function adminPage(): Promise<Page> {
  const admin = await createUser(t as unknown as TestApp, undefined, { superuser: true });
  const page = await context.newPage();
  await page.goto(`${t.urls.finance}/admin/login/`);
  await page.fill('#id_username', admin.username);
  await page.fill('#id_password', PASSWORD);
  await Promise.all([page.waitForURL(`${t.urls.finance}/admin/`), page.click('input[type=submit]')]);
  return page;
}

it('adds a user, proposes an adjustment, reads the audit log; no page overflows at 390 or 1280 px or fails axe', async () => {
  const customer = await createUser(t as unknown as TestApp);
  const page = await adminPage();

  await page.goto(`${t.urls.finance}/admin/identity/user/`);
  await Promise.all([page.waitForURL(/\/admin\/identity\/user\/add\/$/), page.getByRole('link', { name: '+ Add user' }).click()]);
  await page.fill('#id_username', 'walked_in');
  await page.fill('#id_email', 'walked_in@example.com');
  await page.fill('#id_password', 'a fine long password');
  await Promise.all([page.waitForURL(/\/admin\/identity\/user\/[0-9a-f-]{36}\/\?saved=added$/), page.click('.submit-row button')]);
  expect(await page.textContent('body')).toContain('walked_in');
  // added, not "changed"
  expect(await page.textContent('.banner.ok')).toContain('was added successfully');

  await page.goto(`${t.urls.finance}/admin/adjustments/`);
  await page.fill('#id_user', customer.username);
  await page.fill('#id_amount', '7.25');
  await page.fill('#id_reason', 'goodwill for a delayed card');
  await Promise.all([page.waitForURL(/\?saved=proposed$/), page.click('.submit-row button')]);
  expect(await page.textContent('.banner.ok')).toContain('a different administrator must approve it');

  await page.goto(`${t.urls.finance}/admin/audit/`);
  expect(await page.textContent('body')).toContain('adjustment.proposed');

  const paths = ['/admin/identity/user/add/', '/admin/audit/', '/admin/adjustments/', '/admin/identity/user/', '/admin/'];
  for (const path of paths) {
    await page.goto(`${t.urls.finance}${path}`);
    await inspect(page, `console${path.replace(/\/$/, '').replace(/\//g, '-')}`);
  }
  await page.close();
}, 90_000);

it('switches sign-up to invite-only and creates an invite; a new user signs up in the client with it, and without one is refused', async () => {
  const page = await adminPage();
  await page.goto(`${t.urls.finance}/admin/identity/`);
  await Promise.all([page.waitForURL(/\/admin\/identity\/signup\/$/), page.getByRole('link', { name: 'Sign-up and invites' }).click()]);
  expect(await page.textContent('#signup-mode')).toBe('Now: Open: anyone signs up.');
  await inspect(page, 'console-signup');
  await page.selectOption('#id_mode', 'invite_only');
  await Promise.all([page.waitForURL(/\?saved=mode$/), page.getByRole('button', { name: 'Save' }).click()]);
  expect(await page.textContent('.banner.ok')).toContain('Saved. Invite-only: with an invite code.');
  expect(await t.app.services.identity.onboarding.signupMode()).toBe('invite_only');

  await page.fill('#id_note', 'for Erin');
  await page.fill('#id_expires_in_days', '7');
  await page.getByRole('button', { name: 'Create invite' }).click();
  await page.locator('#invite-code').waitFor();
  const code = (await page.textContent('#invite-code'))!.trim();
  expect(code).toMatch(/^inv_[A-Za-z0-9_-]+$/);
  expect(await page.textContent('body')).toContain('Note: for Erin.');
  await inspect(page, 'console-invite-created');
  await page.getByRole('link', { name: 'Back to Sign-up and invites' }).first().click();
  await page.locator('td', { hasText: 'for Erin' }).waitFor();
  // the list shows the code by its last four characters only
  expect(await page.textContent('body')).not.toContain(code);
  expect(await page.textContent('body')).toContain(`…${code.slice(-4)}`);
  await inspect(page, 'console-signup-invites');
  await page.close();

  // the new user, in the web client: refused without a code, in plain words; then signs up with it
  const erin = `erin_${randomUUID().slice(0, 6)}`;
  const client = await context.newPage();
  await client.goto(`${t.urls.finance}/app/signup/`);
  await client.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
  await client.getByLabel('User name').fill(erin);
  await client.getByLabel('E-mail').fill(`${erin}@example.com`);
  await client.getByLabel('Password', { exact: true }).fill('a long enough password');
  await client.getByRole('button', { name: 'Create account' }).click();
  await client.locator('#signup-error:not(:empty)').waitFor();
  expect(await client.textContent('#signup-error')).toContain('Sign-up is by invitation only: enter your invite code.');
  await inspect(client, 'client-signup-refused');
  expect(await t.app.services.identity.identity.findUser(erin)).toBeFalsy();
  await client.getByLabel('Invite code (if you have one)').fill(code);
  await client.getByRole('button', { name: 'Create account' }).click();
  await client.getByRole('heading', { name: 'Check your e-mail', level: 1 }).waitFor();
  await inspect(client, 'client-signup-invited');
  expect(await t.app.services.identity.identity.findUser(erin)).toMatchObject({ username: erin });
  await client.close();

  // the invite is used: the console says so
  const again = await adminPage();
  await again.goto(`${t.urls.finance}/admin/identity/signup/`);
  expect(await again.locator('tr', { hasText: 'for Erin' }).textContent()).toMatch(/used /);
  await again.selectOption('#id_mode', 'open');
  await Promise.all([again.waitForURL(/\?saved=mode$/), again.getByRole('button', { name: 'Save' }).click()]);
  await again.close();
}, 120_000);

it('the list pages of banking, cards, crypto and investing: axe-clean (WCAG 2 A/AA), no overflow at 390 or 1280 px', async () => {
  // rows, so that the toolbar has filters with options and the table has cells
  await t.app.services.investing.store.upsertInstruments('equities_brokerage', [
    { symbol: 'AAPL', name: 'Apple Inc. Common Stock', assetClass: 'us_equity', issuer: null, tradable: true, fractionable: true, quoteCurrency: 'USD' },
    {
      symbol: 'BRK.A',
      name: 'Berkshire Hathaway Inc. Class A',
      assetClass: 'us_equity',
      issuer: null,
      tradable: true,
      fractionable: false,
      quoteCurrency: 'USD',
    },
  ]);
  const page = await adminPage();
  const paths = [
    '/admin/banking/virtualaccount/',
    '/admin/banking/movement/',
    '/admin/banking/event/',
    '/admin/cards/card/',
    '/admin/cards/authorisation/',
    '/admin/crypto/address/',
    '/admin/crypto/deposit/',
    '/admin/crypto/swap/',
    '/admin/investing/instrument/',
    '/admin/investing/order/',
    '/admin/investing/run/',
  ];
  for (const path of paths) {
    await page.goto(`${t.urls.finance}${path}`);
    expect(await page.locator('form.toolbar[role=search]').count()).toBe(1);
    await inspect(page, `console${path.replace(/\/$/, '').replace(/\//g, '-')}`, { axe: true });
  }
  await page.close();
}, 120_000);

it('a KYC reviewer sees the person by name and @handle and opens the document; the audit log reads as words (390 and 1280 px, axe)', async () => {
  const customer = await createUser(t as unknown as TestApp);
  const token = await login(t as unknown as TestApp, customer.username);
  const call = async (path: string, body?: unknown) =>
    (
      await fetch(`${t.urls.finance}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json() as Promise<{ id: string; state: string }>;
  const verification = await call('/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Grace', last_name: 'Review' });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR passport scan')]);
  const doc = await call(`/api/v1/kyc/verifications/${verification.id}/documents/`, { kind: 'passport', content_base64: png.toString('base64') });
  expect((await call(`/api/v1/kyc/verifications/${verification.id}/submit/`)).state).toBe('in_review');

  const page = await adminPage();
  await page.goto(`${t.urls.finance}/admin/compliance/verification/?state=in_review`);
  const row = page.locator('tr', { hasText: 'Grace Review' });
  expect(await row.getByRole('link', { name: `@${customer.username}` }).count()).toBe(1);
  await inspect(page, 'console-kyc-review', { axe: true });
  const [opened] = await Promise.all([context.waitForEvent('page'), row.getByRole('link', { name: 'passport' }).click()]);
  await opened.waitForLoadState();
  expect(new URL(opened.url()).pathname).toBe(`/admin/compliance/verification/documents/${doc.id}/`);
  await opened.close();

  await auditDelivered(t as unknown as TestApp);
  await page.goto(`${t.urls.finance}/admin/audit/?action=kyc.document_viewed`);
  expect(await page.textContent('table')).toContain(`@${customer.username}`);
  expect(await page.textContent('table')).toContain(`document: ${doc.id}`);
  await inspect(page, 'console-audit-readable', { axe: true });
  await page.close();
}, 90_000);
