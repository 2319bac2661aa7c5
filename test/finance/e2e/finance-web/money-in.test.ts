import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { inspect, launchChromium, SHOTS } from '../../../support/platform/browser';
import { changeNode, installValidLicence } from '../../../support/finance/node';
import { outbox } from '../../../support/platform/mail';
import { webClient } from '../../../support/finance/web-client';

/**
 * A new user adds money on their own, on a phone (390 px, touch), by links and buttons
 * only, on a node whose providers are the sandboxes: sign up and verify the address from the mail,
 * find on the empty home how to add money, deposit by mobile money (the sandbox's callback completes
 * it within seconds, through the webhook receiver) and see the balance; open a EUR account (a BIC
 * shown) and receive a simulated incoming transfer on it. Screenshots `money-in-<step>-<width>.png`.
 */
let t: TestApp;
let browser: Browser;
let page: Page;
let mail: ReturnType<typeof outbox>;
const eve = { username: `eve_${randomUUID().slice(0, 6)}`, email: '', password: 'a long enough password' };
eve.email = `${eve.username}@example.com`;

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  t = (await startTestApp({ BANKING_SANDBOX_CALLBACK_SECONDS: '3' }, { products: ['finance'] })) as unknown as TestApp;
  await changeNode(t, () => installValidLicence(t));
  mail = outbox(t.config.dataDir);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const { url, tap, linkIn } = webClient(
  () => page,
  () => t.urls.finance,
);
const shot = (name: string) => inspect(page, `money-in-${name}`, { restore: 390 });

/** A page of the menu as a person on a phone opens it: the bottom bar, or More. */
it('a new user signs up, adds money by the mobile-money sandbox and by a simulated bank transfer, and sees the balances', async () => {
  await page.goto(url('signup/'));
  await page.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
  await page.getByLabel('User name').fill(eve.username);
  await page.getByLabel('E-mail').fill(eve.email);
  await page.getByLabel('Password', { exact: true }).fill(eve.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail', level: 1 }).waitFor();
  await page.goto((await linkIn(mail, eve.email)).link);
  await page.getByText('Your e-mail address is verified.').waitFor();
  await page.goto(url());
  await page.getByLabel('User name').fill(eve.username);
  await page.getByLabel('Password').fill(eve.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  // (the identity check of the node's KYC rule is the signup journey's: here she is verified by the operator)
  const { rows } = await t.app.services.identity.store.pool.query('SELECT id FROM identity.node_user WHERE username = $1', [eve.username]);
  await t.app.services.identity.identity.setKycLevel(rows[0].id, 'basic');

  // home, empty: how to add money
  const start = page.locator('#add-money');
  await start.getByText('You hold no money yet.').waitFor();
  await shot('home-empty');
  await start.getByRole('link', { name: 'Add money by mobile money' }).click();
  await page.getByRole('heading', { name: 'Mobile money', level: 1 }).waitFor();
  await page.getByLabel('Mobile money phone number').fill('+233241234567');
  await page.getByLabel('Amount').fill('50');
  await page.getByLabel('Currency').selectOption('GHS');
  await page.getByRole('button', { name: 'Add money' }).click();
  // pending, with what happens next, until the provider's callback (the sandbox's comes 3 s later)
  await page.locator('#mobile-money li', { hasText: 'pending' }).first().waitFor();
  await page.locator('#mobile-money-pending').waitFor();
  await page.screenshot({ path: join(SHOTS, 'money-in-mobile-money-pending-390.png'), fullPage: true });
  // the sandbox's callback comes within seconds; the page follows it
  await page.locator('#mobile-money li', { hasText: 'posted' }).first().waitFor({ timeout: 10_000 });
  await page.locator('#mobile-money-pending').waitFor({ state: 'detached' });
  await shot('mobile-money-posted');
  await tap('Home');
  const ghs = page.locator('.balance[data-currency="GHS"] [data-testid="available"]');
  await ghs.waitFor();
  expect(await ghs.textContent()).toMatch(/50\.00/);
  await shot('home-ghs');

  // a EUR account: its BIC, and a simulated incoming transfer
  await tap('Bank accounts');
  await page.getByLabel('Currency').selectOption('EUR');
  await page.getByRole('button', { name: 'Open an account' }).click();
  const eur = page.locator('#virtual-accounts li[data-currency="EUR"]');
  await eur.waitFor();
  expect(await eur.textContent()).toContain('SNDBDEB1XXX');
  await eur.getByLabel('Amount (EUR)').fill('25.00');
  await eur.getByRole('button', { name: 'Simulate incoming transfer' }).click();
  await eur.getByRole('status').filter({ hasText: 'arrived in your wallet' }).waitFor();
  await shot('accounts-received');
  await tap('Home');
  const euros = page.locator('.balance[data-currency="EUR"] [data-testid="available"]');
  await euros.waitFor();
  expect(await euros.textContent()).toMatch(/25\.00/);
  await shot('home-balances');
  console.log(`money-in screenshots: ${SHOTS}/money-in-*.png`);
}, 240_000);
