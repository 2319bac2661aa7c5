import { randomUUID } from 'node:crypto';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { generate as totpGenerate } from 'otplib';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { surface } from '../../../support/platform/http';
import { inspect, launchChromium, SHOTS } from '../../../support/platform/browser';
import { changeNode, createUser, installValidLicence, login, PASSWORD } from '../../../support/finance/node';
import { webClient } from '../../../support/finance/web-client';

/**
 * The operator's journey in Chromium at 390 px, by links and buttons only once
 * signed in: the operator signs in to the console with the one-time code of their authenticator app;
 * filters Users and Disputes with their toolbars (every list's toolbar with every select is
 * test/finance/contract/console-filters.test.ts); reviews a KYC submission, opening the uploaded
 * document from the review page, and approves it; a customer pays a shop order in the web client and
 * disputes the payment from its receipt; the operator resolves the dispute with a refund, and the
 * refunded order then has no Fulfil button and its fulfilment is refused (409). A screenshot of each
 * step (`journey-operator-<step>-390.png` in SHOTS, axe-clean, nothing scrolling sideways).
 */
let t: TestApp;
let browser: Browser;
let consoleContext: BrowserContext;
let op: Page;
let client: Page;
let operator: { id: string; username: string; secret: string };
let rita: { id: string; username: string };
let grace: { id: string; username: string; documentId: string };

/** A real (tiny) PNG, as a phone's camera would upload a passport photo. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  t = (await startTestApp({ BANKING_SANDBOX_CALLBACK_SECONDS: 'off' }, { products: ['finance'] })) as unknown as TestApp;
  await changeNode(t, () => installValidLicence(t));
  const identity = t.app.services.identity.identity;
  // the operator, enrolled in 2FA (the console asks for the code)
  const op0 = await createUser(t, `ops_${randomUUID().slice(0, 6)}`, { superuser: true });
  const { secret } = await identity.startTotpEnrolment(op0.id);
  await identity.confirmTotpEnrolment(op0.id, await identity.currentTotp(op0.id));
  operator = { ...op0, secret };
  // a customer with money, and a product for her to buy
  rita = await createUser(t, `rita_${randomUUID().slice(0, 6)}`);
  await identity.setKycLevel(rita.id, 'basic');
  await t.app.services.ledger.ledger.fund(rita.id, 'EUR', 100_00n, randomUUID(), 'deposit');
  await t.app.services.commerce.shop.createProduct({ name: 'Reading lamp', description: 'A lamp for the desk', price: '24.00', currency: 'EUR', stock: 3 });
  // an applicant whose KYC submission waits for a reviewer (submitted through the API, with a document)
  const g = await createUser(t, `grace_${randomUUID().slice(0, 6)}`);
  const token = await login(t, g.username);
  const asGrace = surface(() => t.urls.finance, { key: () => token, idempotent: true });
  const verification = (await asGrace.post('/api/v1/kyc/verifications/', undefined, { level: 'basic', first_name: 'Grace', last_name: 'Review' })).body as {
    id: string;
  };
  const doc = (
    await asGrace.post(`/api/v1/kyc/verifications/${verification.id}/documents/`, undefined, { kind: 'passport', content_base64: PNG.toString('base64') })
  ).body as { id: string };
  expect((await asGrace.post(`/api/v1/kyc/verifications/${verification.id}/submit/`)).body.state).toBe('in_review');
  grace = { ...g, documentId: doc.id };

  browser = await launchChromium();
  consoleContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  op = await consoleContext.newPage();
  client = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/** The page at 390 px: fits, every control on the screen, axe-clean, `journey-operator-<name>-390.png`. */
const shot = (page: Page, name: string) => inspect(page, `journey-operator-${name}`, { widths: [390], restore: 390, onScreen: true });

/** A console link, clicked, and the page it opens. */
async function follow(page: Page, name: string | RegExp, url: RegExp, scope = page.locator('body')): Promise<void> {
  await Promise.all([
    page.waitForURL(url),
    scope
      .getByRole('link', { name, exact: typeof name === 'string' })
      .first()
      .click(),
  ]);
}

/** A list of the console reached as an operator does: the header's link to the dashboard, then the list under its application. */
async function openList(page: Page, app: string, list: string, url: RegExp): Promise<void> {
  if (new URL(page.url()).pathname !== '/admin/') await follow(page, 'Finance Node administration', /\/admin\/$/, page.locator('#header'));
  await follow(page, list, url, page.locator('.module', { hasText: 'Applications' }).getByRole('row').filter({ hasText: app }));
}

/** The customer's web client (its page is made in beforeAll). */
const web = webClient(
  () => client,
  () => t.urls.finance,
);

it('signs in to the console with the one-time code of the authenticator app', async () => {
  await op.goto(`${t.urls.finance}/admin/`);
  await op.waitForURL(/\/admin\/login\//);
  await op.getByLabel('Username').fill(operator.username);
  await op.getByLabel('Password').fill(PASSWORD);
  // without the code: refused, and the page asks for it
  await op.getByRole('button', { name: /log in|sign in/i }).click();
  await op
    .getByText(/one-time code/i)
    .first()
    .waitFor();
  expect(new URL(op.url()).pathname).toBe('/admin/login/');
  await shot(op, 'sign-in-code-asked');
  // the code of the next 30-second step (the enrolment used the current one)
  const code = await totpGenerate({ secret: operator.secret, epoch: Math.floor(Date.now() / 1000) + 30 } as Parameters<typeof totpGenerate>[0]);
  await op.getByLabel('Password').fill(PASSWORD);
  await op.getByLabel(/One-time code/).fill(code);
  await Promise.all([op.waitForURL(`${t.urls.finance}/admin/`), op.getByRole('button', { name: /log in|sign in/i }).click()]);
  await op.getByRole('heading', { name: 'Executive dashboard' }).waitFor();
  await shot(op, 'dashboard');
}, 120_000);

it('filters Users with the toolbar: a search with every select on "All", then a select on a value', async () => {
  await openList(op, 'Identity', 'Users', /\/admin\/identity\/user\/$/);
  const toolbar = op.getByRole('search');
  await toolbar.getByLabel('Search').fill(rita.username);
  await Promise.all([op.waitForURL(/\/admin\/identity\/user\/\?q=/), toolbar.getByRole('button', { name: 'Filter' }).click()]);
  const table = op.locator('table tbody');
  expect(await table.getByRole('link', { name: rita.username }).count()).toBe(1);
  expect(await table.locator('tr').count()).toBe(1);
  await shot(op, 'users-searched');
  // the search kept, KYC level chosen: she is basic, so "none" shows nobody and "basic" shows her
  await op.getByRole('search').getByLabel('KYC level').selectOption('none');
  await Promise.all([op.waitForURL(/kyc=none/), op.getByRole('search').getByRole('button', { name: 'Filter' }).click()]);
  expect(await op.locator('table tbody').getByRole('link', { name: rita.username }).count()).toBe(0);
  await op.getByRole('search').getByLabel('KYC level').selectOption('basic');
  await Promise.all([op.waitForURL(/kyc=basic/), op.getByRole('search').getByRole('button', { name: 'Filter' }).click()]);
  expect(await op.locator('table tbody').getByRole('link', { name: rita.username }).count()).toBe(1);
  await shot(op, 'users-filtered');
}, 120_000);

it('reviews a KYC submission: the person by name and handle, opens the uploaded document, approves it', async () => {
  await openList(op, 'Compliance', 'KYC reviews', /\/admin\/compliance\/verification\/$/);
  await follow(op, 'in review', /state=in_review$/);
  const row = op.locator('tr', { hasText: 'Grace Review' });
  expect(await row.getByRole('link', { name: `@${grace.username}` }).count()).toBe(1);
  await shot(op, 'kyc-review');
  const [document, response] = await Promise.all([
    consoleContext.waitForEvent('page'),
    consoleContext.waitForEvent('response', (r) => r.url().includes('/documents/')),
    row.getByRole('link', { name: 'passport' }).click(),
  ]);
  await document.waitForLoadState();
  expect([new URL(document.url()).pathname, response.status(), response.headers()['content-type']]).toEqual([
    `/admin/compliance/verification/documents/${grace.documentId}/`,
    200,
    'image/png',
  ]);
  expect(Buffer.compare(await response.body(), PNG)).toBe(0);
  await document.screenshot({ path: `${SHOTS}/journey-operator-kyc-document-390.png` });
  await document.close();
  await Promise.all([op.waitForURL(/saved=1/), row.getByRole('button', { name: 'Approve' }).click()]);
  await op.getByText('The verification was reviewed successfully.').waitFor();
  expect(await t.app.services.compliance.kyc.verifications(grace.id)).toEqual([expect.objectContaining({ state: 'verified' })]);
  await shot(op, 'kyc-approved');
}, 120_000);

it('a customer pays a shop order in the web client and disputes the payment from its receipt', async () => {
  await web.signIn(rita.username, PASSWORD);
  await web.tap('Shop');
  await client.getByRole('button', { name: 'Add Reading lamp to the cart' }).click();
  await client.locator('#cart').getByText('Reading lamp × 1').waitFor();
  await client.getByRole('button', { name: 'Check out' }).click();
  await client.getByRole('button', { name: 'Pay €24.00' }).click();
  await client.getByText('Paid. Thank you!').waitFor();
  await shot(client, 'client-order-paid');
  await web.tap('Activity');
  await client.getByRole('link', { name: /−€24\.00/ }).click();
  await client.getByRole('heading', { name: 'Receipt', level: 1 }).waitFor();
  await client.getByRole('link', { name: 'Dispute this payment' }).click();
  await client.getByRole('heading', { name: 'Dispute a payment' }).waitFor();
  await client.getByLabel('What went wrong?').selectOption('not_received');
  await client.getByLabel('Tell us what happened').fill('The reading lamp never arrived.');
  await client.getByRole('button', { name: 'Raise the dispute' }).click();
  await client.getByRole('heading', { name: 'Dispute', level: 1 }).waitFor();
  expect(await client.locator('#dispute-status').textContent()).toBe('open');
  await shot(client, 'client-dispute-raised');
}, 120_000);

it('filters Disputes with the toolbar, resolves the dispute with a refund; the refunded order cannot be fulfilled', async () => {
  // a second tab on Orders, opened while the order is still paid: its Fulfil button goes stale below
  const stale = await consoleContext.newPage();
  await stale.goto(`${t.urls.finance}/admin/`);
  await openList(stale, 'Commerce', 'Orders', /\/admin\/commerce\/order\/$/);
  const paid = stale.locator('table tbody tr', { hasText: `@${rita.username}` });
  expect(await paid.locator('td[data-label="Status"]').textContent()).toContain('paid');
  await paid.getByRole('button', { name: 'Fulfil' }).waitFor();
  await shot(stale, 'order-paid');

  await openList(op, 'Commerce', 'Disputes', /\/admin\/commerce\/dispute\/$/);
  const toolbar = op.getByRole('search');
  await toolbar.getByLabel('Search').fill(rita.username);
  await Promise.all([op.waitForURL(/\/admin\/commerce\/dispute\/\?q=/), toolbar.getByRole('button', { name: 'Filter' }).click()]);
  expect(await op.locator('table tbody tr').count()).toBe(1);
  await op.getByRole('search').getByLabel('Status').selectOption('open');
  await Promise.all([op.waitForURL(/status=open/), op.getByRole('search').getByRole('button', { name: 'Filter' }).click()]);
  const row = op.locator('table tbody tr', { hasText: `@${rita.username}` });
  expect(await op.locator('table tbody tr').count()).toBe(1);
  await shot(op, 'disputes-filtered');
  await Promise.all([op.waitForURL(/\/admin\/commerce\/dispute\/[0-9a-f-]{36}\/$/), row.getByRole('link').first().click()]);
  await op.getByText('The reading lamp never arrived.').waitFor();
  await shot(op, 'dispute-open');
  await Promise.all([op.waitForURL(/saved=1/), op.getByRole('button', { name: 'Start review' }).click()]);
  await op.getByLabel('Resolution note').first().fill('Refunded: the parcel was lost.');
  await Promise.all([op.waitForURL(/saved=1/), op.getByRole('button', { name: /Resolve in the user's favour/ }).click()]);
  await op.getByText('Resolution: Refunded: the parcel was lost.').waitFor();
  // the history names people as they are known: the customer by @handle, the operator by user name, never a UUID
  const history = (await op.locator('table tbody').innerText()).replace(/\s+/g, ' ');
  expect(history).toContain(`@${rita.username}`);
  expect(history).toContain(operator.username);
  expect(history).not.toMatch(/user:[0-9a-f-]{36}/);
  // one way back, to the list it came from
  expect(await op.locator('a.back').allTextContents()).toEqual(['← Back to Disputes']);
  await shot(op, 'dispute-resolved');
  await follow(op, '← Back to Disputes', /\/admin\/commerce\/dispute\/$/);

  // the stale tab's Fulfil: refused (409) with the order's state, in words
  const [refused] = await Promise.all([
    stale.waitForResponse((r) => r.request().method() === 'POST' && /\/fulfil\/$/.test(r.url())),
    paid.getByRole('button', { name: 'Fulfil' }).click(),
  ]);
  expect(refused.status()).toBe(409);
  await stale.locator('.banner.error, .errornote').first().waitFor();
  expect(await stale.locator('.banner.error, .errornote').first().textContent()).toMatch(/refunded/i);
  await shot(stale, 'fulfil-refused');
  await stale.close();

  // Orders now: refunded, no Fulfil button (nor Cancel and refund)
  await openList(op, 'Commerce', 'Orders', /\/admin\/commerce\/order\/$/);
  const order = op.locator('table tbody tr', { hasText: `@${rita.username}` });
  expect(await order.locator('td[data-label="Status"]').textContent()).toContain('refunded');
  expect(await order.getByRole('button').count()).toBe(0);
  await shot(op, 'order-refunded');
  const { results } = await t.app.services.commerce.shop.orders({ userId: rita.id });
  expect(results.map((o) => o.status)).toEqual(['refunded']);

  // the customer has her money back
  await web.tap('Home');
  await client.locator('#balances li[data-currency="EUR"] .available').waitFor();
  expect(await client.locator('#balances li[data-currency="EUR"] .available').textContent()).toBe('€100.00');
  await shot(client, 'client-refunded');
  console.log(`operator journey screenshots: ${SHOTS}/journey-operator-*-390.png`);
}, 120_000);
