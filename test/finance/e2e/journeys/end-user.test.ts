import { randomUUID } from 'node:crypto';
import { type Browser, type Page } from 'playwright-core';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { inspect, launchChromium, SHOTS } from '../../../support/platform/browser';
import { changeNode, createUser, installValidLicence } from '../../../support/finance/node';
import { outbox } from '../../../support/platform/mail';
import { webClient } from '../../../support/finance/web-client';

/**
 * The end user's journey in Chromium on a phone (390 px, touch), one walk by
 * links and buttons on a node whose providers are the sandboxes: sign up, open the link of the mail the
 * node sent, sign in, pass the sandbox KYC, add money by mobile money (the sandbox provider's callback
 * completes it, through the webhook receiver), send some to another user (the confirmation names
 * them), and download the period's statement. A screenshot of each step
 * (`journey-end-user-<step>-390.png` in SHOTS, axe-clean, nothing past the screen's edge).
 */
let t: TestApp;
let browser: Browser;
let page: Page;
let mail: ReturnType<typeof outbox>;
let bob: { id: string; username: string };
const nia = { username: `nia_${randomUUID().slice(0, 6)}`, email: '', password: 'a long enough password' };
nia.email = `${nia.username}@example.com`;

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  t = (await startTestApp({ BANKING_SANDBOX_CALLBACK_SECONDS: '1' }, { products: ['finance'] })) as unknown as TestApp;
  await changeNode(t, () => installValidLicence(t));
  mail = outbox(t.config.dataDir);
  bob = await createUser(t);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, acceptDownloads: true })).newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/** The page at 390 px: fits, every control on the screen, axe-clean, `journey-end-user-<name>-390.png`. */
const shot = (name: string) => inspect(page, `journey-end-user-${name}`, { widths: [390], restore: 390, onScreen: true });

/** The web client as a person on a phone uses it: `tap` a page of the menu, the link a mail carries. */
const client = webClient(
  () => page,
  () => t.urls.finance,
);

it('signs up and opens the link of the mail', async () => {
  await page.goto(`${t.urls.finance}/app/`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
  await page.getByLabel('User name').fill(nia.username);
  await page.getByLabel('E-mail').fill(nia.email);
  await page.getByLabel('Password', { exact: true }).fill(nia.password);
  await shot('sign-up');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail', level: 1 }).waitFor();
  await shot('check-mail');
  // the mail's link, opened as a click in the mail app does
  await page.goto((await client.linkIn(mail, nia.email)).link);
  await page.getByText('Your e-mail address is verified.').waitFor();
  await shot('verified');
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.getByLabel('User name').fill(nia.username);
  await page.getByLabel('Password').fill(nia.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await page.locator('#add-money').getByText('You hold no money yet.').waitFor();
  // each way to add money: its button, and what it is below it
  for (const way of await page.locator('#add-money li').all()) {
    const [button, text] = [await way.getByRole('link').boundingBox(), await way.locator('small').boundingBox()];
    expect({ way: await way.textContent(), below: text!.y >= button!.y + button!.height }).toEqual({ way: await way.textContent(), below: true });
  }
  await shot('home-empty');
}, 120_000);

it('passes the sandbox KYC: a document uploaded, submitted, verified', async () => {
  await client.tap('Identity');
  await page.getByLabel('First name').fill('Nia');
  await page.getByLabel('Last name').fill('Journey');
  await page.getByRole('button', { name: 'Start' }).click();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  await page.getByLabel('Document').selectOption('passport');
  await page.getByLabel('Photo or scan (JPEG, PNG or PDF)').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.locator('#documents li').first().waitFor();
  await shot('kyc-document');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await page
    .locator('.kyc-state', { hasText: /^verified$/i })
    .first()
    .waitFor();
  await shot('kyc-verified');
}, 120_000);

it("adds money by mobile money: pending until the sandbox provider's callback, then on the balance", async () => {
  await client.tap('Home');
  await page.locator('#add-money').getByRole('link', { name: 'Add money by mobile money' }).click();
  await page.getByRole('heading', { name: 'Mobile money', level: 1 }).waitFor();
  await page.getByLabel('Mobile money phone number').fill('+233241234567');
  await page.getByLabel('Amount').fill('50');
  await page.getByLabel('Currency').selectOption('GHS');
  await page.getByRole('button', { name: 'Add money' }).click();
  // the callback comes a second later: the page says what happens meanwhile, then follows it
  await page
    .locator('#mobile-money li', { hasText: /pending|posted/ })
    .first()
    .waitFor();
  await page.locator('#mobile-money li', { hasText: 'posted' }).first().waitFor({ timeout: 15_000 });
  await page.locator('#mobile-money-pending').waitFor({ state: 'detached' });
  await shot('mobile-money-posted');
  await client.tap('Home');
  const ghs = page.locator('.balance[data-currency="GHS"] [data-testid="available"]');
  await ghs.waitFor();
  expect(await ghs.textContent()).toMatch(/50\.00/);
  await shot('home-funded');
}, 120_000);

it('sends money to another user: the confirmation names who the handle is, then a receipt', async () => {
  await client.tap('Send money');
  await page.getByLabel('To (user name, e-mail or phone)').fill(bob.username);
  await page.getByLabel('Amount').fill('20');
  await page.getByLabel('Currency').selectOption('GHS');
  await page.getByLabel('Note (optional)').fill('Market share');
  await shot('send-form');
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('heading', { name: 'Confirm the payment' }).waitFor();
  await page.locator('#recipient-resolved').waitFor();
  expect(await page.locator('#recipient-resolved').textContent()).toContain(bob.username);
  await shot('send-confirm');
  await page.getByRole('button', { name: /^Send .*20\.00$/ }).click();
  await page.locator('#transfer-receipt').waitFor();
  expect(await page.locator('#transfer-receipt [role="status"]').textContent()).toMatch(new RegExp(`^You sent .*20\\.00 to ${bob.username}\\.$`));
  await shot('send-receipt');
  const bobs = await t.app.services.ledger.ledger.balances(bob.id);
  expect(bobs.find((b) => b.currency === 'GHS')?.posted).toMatchObject({ amount: '20.00' });
}, 120_000);

it("downloads the period's statement: opening and closing balances, the deposit and the transfer", async () => {
  await client.tap('Activity');
  await page.getByRole('link', { name: 'Statement for a period' }).click();
  await page.getByRole('heading', { name: 'Statement', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Show statement' }).click();
  const ghs = page.locator('#statement section[data-currency="GHS"]');
  await ghs.waitFor();
  expect(await ghs.locator('tr.opening td.num').textContent()).toMatch(/^\D*0\.00$/);
  expect(await ghs.locator('tr.closing td.num').textContent()).toMatch(/^\D*30\.00$/);
  expect(await ghs.getByRole('cell', { name: `Transfer to ${bob.username}` }).count()).toBe(1);
  await shot('statement');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString();
  expect(csv).toMatch(/^date,description,amount,currency,id\r\n/);
  expect(csv).toContain(',Opening balance,0.00,GHS,\r\n');
  expect(csv).toMatch(/,[^,\r\n]+,50\.00,GHS,[0-9a-f-]{36}\r\n/);
  expect(csv).toContain(`,Transfer to ${bob.username},-20.00,GHS,`);
  expect(csv).toContain(',Closing balance,30.00,GHS,\r\n');
  console.log(`end-user journey screenshots: ${SHOTS}/journey-end-user-*-390.png`);
}, 120_000);
