import { randomUUID } from 'node:crypto';
import { generate as totpGenerate } from 'otplib';
import { type Browser, type Page } from 'playwright-core';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { inspect, launchChromium } from '../../../support/platform/browser';
import { changeNode, createUser, installValidLicence, login } from '../../../support/finance/node';
import { outbox } from '../../../support/platform/mail';
import { startProviders, type Providers } from '../../../support/finance/investing';
import { smsCodeTo } from '../../../support/finance/phone';
import { webClient } from '../../../support/finance/web-client';

/**
 * A new user's whole way in, in headless Chromium against a real node (finance only): sign up at
 * /app/signup, open the verification link of the mail the node wrote to its outbox, sign in, pass the
 * sandbox KYC (upload, submit: the sandbox approves any last name but its magic ones), receive money,
 * send some to another user, convert, buy a share (search, live quote, confirmation), check out a cart
 * and pay it from the wallet, dispute the payment she sent from its receipt and follow the dispute;
 * reset the password by mail; in the settings change it (the other sessions end), end a session from
 * the list, verify a phone number with the code of the text message (then money reaches it), switch
 * 2FA on and see the recovery codes once. The same user all along, by clicks and typing only (helpers
 * set up the node: licence, providers, a product, the money she receives), on a phone: 390 px with
 * touch, moving between pages by the bottom bar and More. Every page is also checked at 1280 px (no
 * sideways scrolling, axe clean at both widths; screenshots kept, test/support/platform/browser.ts).
 */
let t: TestApp;
let p: Providers;
let browser: Browser;
let page: Page;
let mail: ReturnType<typeof outbox>;
let bob: { id: string; username: string };
const dora = { username: `dora_${randomUUID().slice(0, 6)}`, email: '', password: 'a long enough password', id: '' };
dora.email = `${dora.username}@example.com`;

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  p = await startProviders();
  t = (await startTestApp({ ...p.env, AUTH_ATTEMPTS_PER_HOUR: '40' }, { products: ['finance'] })) as unknown as TestApp;
  await changeNode(t, () => installValidLicence(t));
  await t.app.services.investing.investing.syncInstruments({ provider: 'equities', trigger: 'test' });
  await t.app.services.commerce.shop.createProduct({ name: 'Desk lamp', description: 'A warm light', price: '19.90', currency: 'EUR', stock: 5 });
  mail = outbox(t.config.dataDir);
  bob = await createUser(t);
  browser = await launchChromium();
  // a phone: the whole journey at 390 px with touch (each page is also checked at 1280 px)
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await p?.close();
});

const { go, tap, signIn, linkIn } = webClient(
  () => page,
  () => t.urls.finance,
);
/** This page at 390 and 1280 px: no sideways scrolling, axe clean, screenshots `signup-<name>-<width>.png`; back at 390. */
const shot = (name: string) => inspect(page, `signup-${name}`, { restore: 390 });

/** The next mail to `to` the node wrote to its outbox, and the link in it (made absolute on this node). */
/** Opens a page of the menu as a person on a phone does: from the bottom bar, or from More. */
describe('a new user in the web client', () => {
  it('signs up, verifies the address from the mail and signs in', async () => {
    await go('signup/', 'Create an account');
    await shot('form');
    await page.getByLabel('User name').fill(dora.username);
    await page.getByLabel('E-mail').fill(dora.email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('#signup-error:not(:empty), .field-error:not(:empty), [id$="-error"]:not(:empty)').first().waitFor();
    await shot('form-error');
    await page.getByLabel('Password', { exact: true }).fill(dora.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail', level: 1 }).waitFor();
    expect(await page.getByRole('status').first().textContent()).toContain(dora.email);
    await shot('sent');
    const { mail: verification, link } = await linkIn(mail, dora.email);
    expect(verification.subject).toMatch(/verify your e-mail address/);
    await page.goto(link);
    await page.getByText('Your e-mail address is verified.').waitFor();
    await shot('verified');
    await signIn(dora.username, dora.password);
    dora.id = (await http(`${t.urls.finance}/api/v1/profile/`, { key: await login(t, dora.username, dora.password) })).body.id;
  }, 180_000);

  it('passes the sandbox KYC: upload a document, submit, verified', async () => {
    await tap('Identity');
    await page.getByLabel('First name').fill('Dora');
    await page.getByLabel('Last name').fill('Explorer');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByLabel('Document').waitFor();
    await shot('kyc-started');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await page.getByLabel('Document').selectOption('passport');
    await page.getByLabel('Photo or scan (JPEG, PNG or PDF)').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('#documents li').first().waitFor();
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page
      .locator('.kyc-state', { hasText: /^verified$/i })
      .first()
      .waitFor();
    expect(await page.locator('.kyc-state').first().textContent()).toMatch(/^verified$/i);
    await shot('kyc-verified');
  }, 180_000);

  it('receives money, sends some to another user and converts', async () => {
    await t.app.services.ledger.ledger.fund(dora.id, 'EUR', 300_00n, randomUUID(), 'deposit');
    await t.app.services.ledger.ledger.fund(dora.id, 'USD', 1000_00n, randomUUID(), 'deposit');
    await tap('Home');
    await page.locator('#balances li[data-currency="EUR"] .available').waitFor();
    expect(await page.locator('#balances li[data-currency="EUR"] .available').textContent()).toBe('€300.00');
    expect(await page.locator('#balances li[data-currency="USD"] .available').textContent()).toBe('$1,000.00');
    await shot('home');
    await tap('Send money');
    await page.getByLabel('To (user name, e-mail or phone)').fill(bob.username);
    await page.getByLabel('Amount').fill('40');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByLabel('Note (optional)').fill('Concert tickets');
    await shot('send-form');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Confirm the payment' }).waitFor();
    await shot('send-confirm');
    await page.getByRole('button', { name: 'Send €40.00' }).click();
    await page.locator('#transfer-receipt').waitFor();
    expect(await page.locator('#transfer-receipt [role="status"]').textContent()).toBe(`You sent €40.00 to ${bob.username}.`);
    await shot('send-receipt');
    await tap('Convert');
    await page.getByLabel('From').selectOption('EUR');
    await page.getByLabel('Amount to convert').fill('50');
    await page.getByLabel('To', { exact: true }).selectOption('USD');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.locator('#quote').waitFor();
    await shot('convert-quote');
    await page.getByRole('button', { name: 'Convert €50.00' }).click();
    await page.locator('#conversion-done').waitFor();
    const balances = await t.app.services.ledger.ledger.balances(dora.id);
    expect(balances.find((b) => b.currency === 'EUR')?.posted).toMatchObject({ amount: '210.00' });
    await shot('converted');
  }, 180_000);

  it('buys a share: search, live quote, confirmation; the order and the portfolio show it', async () => {
    await tap('Invest');
    await page.getByLabel('Search by name or symbol').fill('apple');
    await page.getByRole('button', { name: /^AAPL/ }).click();
    await page.locator('#live-quote').waitFor();
    expect(await page.locator('#live-quote').textContent()).toMatch(/^AAPL: \$200\.00/);
    await page.getByLabel('Shares').fill('2');
    await shot('invest');
    await page.getByRole('button', { name: 'Review order' }).click();
    await page.getByRole('button', { name: 'Confirm buy' }).waitFor();
    await shot('invest-review');
    await page.getByRole('button', { name: 'Confirm buy' }).click();
    await page.locator('#order-placed').waitFor();
    expect(await page.locator('#order-placed').textContent()).toMatch(/^Order placed: buy AAPL/);
    // open until the brokerage fills it, then a position: either way the page shows it
    await page.locator('#open-orders li:has-text("AAPL"), #portfolio tr[data-symbol="AAPL"]').first().waitFor();
    await shot('invest-ordered');
    const orders = await t.app.services.investing.investing.orders(dora.id, { limit: 10 });
    expect(orders.map((o) => [o.symbol, o.side])).toEqual([['AAPL', 'buy']]);
  }, 180_000);

  it('checks out a cart and pays the pending order from the wallet', async () => {
    await tap('Shop');
    await page.getByRole('button', { name: 'Add Desk lamp to the cart' }).click();
    await page.locator('#cart').getByText('Desk lamp × 1').waitFor();
    await page.getByRole('button', { name: 'One more Desk lamp' }).click();
    await page.locator('#cart').getByText('Desk lamp × 2').waitFor();
    await shot('shop-cart');
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('button', { name: 'Pay €39.80' }).waitFor();
    await shot('shop-order');
    await page.getByRole('button', { name: 'Pay €39.80' }).click();
    await page.getByText('Paid. Thank you!').waitFor();
    await shot('shop-paid');
    const eur = (await t.app.services.ledger.ledger.balances(dora.id)).find((b) => b.currency === 'EUR');
    expect(eur?.posted).toMatchObject({ amount: '170.20' });
  }, 180_000);

  it('disputes the payment she sent from its receipt, then follows the dispute', async () => {
    await tap('Activity');
    await page.getByRole('link', { name: /−€40\.00/ }).waitFor();
    await shot('activity');
    await page.getByRole('link', { name: /−€40\.00/ }).click();
    await page.getByRole('heading', { name: 'Receipt', level: 1 }).waitFor();
    expect(await page.locator('#receipt .big').textContent()).toBe('−€40.00');
    await shot('receipt');
    await page.getByRole('link', { name: 'Dispute this payment' }).click();
    await page.getByRole('heading', { name: 'Dispute a payment' }).waitFor();
    await page.getByLabel('What went wrong?').selectOption('not_received');
    await page.getByLabel('Tell us what happened').fill('short');
    await page.getByRole('button', { name: 'Raise the dispute' }).click();
    expect(await page.locator('#dispute-error').textContent()).toContain('at least 10 characters');
    await page.getByLabel('Tell us what happened').fill('The concert tickets never came.');
    await shot('dispute-new');
    await page.getByRole('button', { name: 'Raise the dispute' }).click();
    await page.getByRole('heading', { name: 'Dispute', level: 1 }).waitFor();
    expect(await page.locator('#dispute-status').textContent()).toBe('open');
    await page.getByLabel('Write to support').fill('The seller stopped answering my messages.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('The seller stopped answering my messages.', { exact: true }).waitFor();
    await shot('dispute');

    // support takes it up on the node; she finds it again in her list and reads the answer
    const disputes = t.app.services.commerce.disputes;
    const [raised] = (await disputes.disputes({ userId: dora.id })).results;
    const support = { role: 'admin' as const, username: 'support' };
    await disputes.review(raised.id, support);
    await disputes.postMessage(raised.id, support, 'We are asking the recipient about the tickets.');
    await tap('Disputes');
    await page.locator('#disputes li', { hasText: '€40.00' }).getByRole('link').click();
    await page.getByRole('heading', { name: 'Dispute', level: 1 }).waitFor();
    expect(await page.locator('#dispute-status').textContent()).toMatch(/^under.review$/i);
    await page.getByText('We are asking the recipient about the tickets.', { exact: true }).waitFor();
    await shot('dispute-followed');
  }, 180_000);

  it('resets the password by mail', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await go('reset/', 'Reset your password');
    await page.getByLabel('E-mail').fill(dora.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(/a reset link is on its way/).waitFor();
    const { link } = await linkIn(mail, dora.email);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    dora.password = 'another long password';
    await page.getByLabel('New password', { exact: true }).fill(dora.password);
    await page.getByLabel('New password again').fill(dora.password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    await signIn(dora.username, dora.password);
  }, 180_000);

  it('settings: ends a session from the list, changes the password (the other sessions end)', async () => {
    const elsewhere = await login(t, dora.username, dora.password);
    const profileWith = async (token: string) => (await http(`${t.urls.finance}/api/v1/profile/`, { key: token })).status;
    expect(await profileWith(elsewhere)).toBe(200);
    await tap('Settings');
    const other = page.locator('#sessions li', { hasText: 'Sign out this session' });
    await other.first().waitFor();
    expect(await page.locator('#sessions li').count()).toBe(2);
    await shot('sessions');
    await other.first().getByRole('button', { name: 'Sign out this session' }).click();
    await page.locator('#sessions li').nth(1).waitFor({ state: 'detached' });
    expect(await profileWith(elsewhere)).toBe(401);

    const another = await login(t, dora.username, dora.password);
    await page.getByLabel('Current password').fill(dora.password);
    dora.password = 'a third long password';
    await page.getByLabel('New password', { exact: true }).fill(dora.password);
    await page.getByLabel('New password again').fill(dora.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed. Your other sessions have ended.').waitFor();
    expect(await profileWith(another)).toBe(401);
    // this browser keeps working with the new token
    await tap('Settings');
    await page.locator('#sessions li').first().waitFor();
  }, 180_000);

  it('settings: sets a phone number, verifies it with the code of the text message, and then receives money by it', async () => {
    const phone = `+447400${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
    await tap('Settings');
    await page.getByLabel('Phone number (with country code)').fill(`${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`);
    await page.getByRole('button', { name: 'Save phone number' }).click();
    await page.getByText(`We sent a code to ${phone}. Enter it below to verify your number.`).waitFor();
    await page.getByText(`${phone} (not verified yet)`).waitFor();
    const code = await smsCodeTo(t, phone);
    await page.getByLabel('Code from the text message').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify phone number' }).click();
    await page.getByText('That code is not right. Check the text message and try again.').waitFor();
    await page.getByLabel('Code from the text message').fill(code);
    await page.getByRole('button', { name: 'Verify phone number' }).click();
    await page.getByText(`Your number ${phone} is verified. Others can now send you money at it.`).waitFor();
    await page.getByText(`${phone} (verified)`).waitFor();
    expect(await page.getByLabel('Code from the text message').count()).toBe(0);
    await shot('phone-verified');

    const sender = await createUser(t);
    await t.app.services.identity.identity.setKycLevel(sender.id, 'basic');
    await t.app.services.ledger.ledger.fund(sender.id, 'EUR', 10_00n, randomUUID());
    const sent = await http(`${t.urls.finance}/api/v1/transfers/`, {
      method: 'POST',
      key: await login(t, sender.username),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recipient: phone, amount: '1.00', currency: 'EUR' }),
    });
    expect([sent.status, sent.body.recipient]).toEqual([201, dora.username]);
  }, 180_000);

  it('settings: switches 2FA on and shows the recovery codes once', async () => {
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    // the current password first: a borrowed session cannot add its own authenticator
    await page.getByLabel('Your current password').fill(dora.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#otp-secret').waitFor();
    const secret = (await page.locator('#otp-secret').textContent())!;
    await page.getByLabel('Confirmation code from your authenticator app').fill(await totpGenerate({ secret }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('#recovery-codes li').first().waitFor();
    const codes = await page.locator('#recovery-codes li').allTextContents();
    expect(codes).toHaveLength(10);
    await shot('recovery-codes');
    // shown once: the settings page, opened again, lists none
    await tap('Settings');
    await page.getByText('On: signing in needs a code from your authenticator app.').waitFor();
    expect(await page.locator('#recovery-codes').count()).toBe(0);
    // one of them signs in instead of a code
    const res = await http(`${t.urls.finance}/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: dora.username, password: dora.password, recovery_code: codes[0].trim() }),
    });
    expect(res.status).toBe(200);
  }, 180_000);
});
