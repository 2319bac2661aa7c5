import { randomUUID } from 'node:crypto';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { inspect, launchChromium, offlineContext } from '../../../support/platform/browser';
import { generate as totpGenerate } from 'otplib';
import { changeNode, createUser, installValidLicence, login, PASSWORD } from '../../../support/finance/node';
import { startProviders, type Providers } from '../../../support/finance/investing';
import { webClient } from '../../../support/finance/web-client';

/**
 * The finance web client's journeys in headless Chromium against a real node (finance only): a user
 * receives money, sends some to another user (confirmation, receipt), disputes that payment from its
 * receipt, converts currencies, buys a share, checks out a cart and pays, uploads a KYC document.
 * Every page is checked at 390 px and 1280 px: no sideways scrolling, axe (WCAG 2 A/AA) clean; the
 * screenshots are kept in SHOTS for a human to look at.
 */

let t: TestApp;
let p: Providers;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let alice: { id: string; username: string };
let bob: { id: string; username: string };
/** Signed in from the activity test on: many deposits, then 2FA in the settings. */
let dave: { id: string; username: string };
const external: string[] = [];

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  p = await startProviders();
  // the finance node alone (the helpers of test/support/finance/node.ts take any app: they use its finance URL and services only)
  t = (await startTestApp(p.env, { products: ['finance'] })) as unknown as TestApp;
  await changeNode(t, () => installValidLicence(t));
  await t.app.services.investing.investing.syncInstruments({ provider: 'equities', trigger: 'test' });
  alice = await createUser(t);
  bob = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(alice.id, 'basic');
  // the money she receives: a deposit in euros and dollars
  await t.app.services.ledger.ledger.fund(alice.id, 'EUR', 500_00n, randomUUID(), 'deposit');
  await t.app.services.ledger.ledger.fund(alice.id, 'USD', 1000_00n, randomUUID(), 'deposit');
  await t.app.services.commerce.shop.createProduct({ name: 'Desk lamp', description: 'A warm light', price: '19.90', currency: 'EUR', stock: 5 });
  browser = await launchChromium();
  context = await offlineContext(browser, external, { viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await p?.close();
});

const { url, go } = webClient(
  () => page,
  () => t.urls.finance,
);

/** At each width: nothing scrolls sideways, axe finds nothing, and a screenshot is kept. */

describe('banking in the web client', () => {
  it('signs in and shows the money received, per currency', async () => {
    await page.goto(url());
    await page.getByLabel('User name').fill(alice.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await inspect(page, 'sign-in');
    // keyboard only: the password field's Enter submits the form
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.locator('#balances li[data-currency="EUR"] .available').waitFor();
    expect(await page.locator('#balances li[data-currency="EUR"] .available').textContent()).toBe('€500.00');
    expect(await page.locator('#balances li[data-currency="USD"] .available').textContent()).toBe('$1,000.00');
    await inspect(page, 'home');
  }, 90_000);

  it('sends money to another user: confirmation naming who the handle resolves to, then a receipt', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Send money' }).click();
    await page.getByRole('heading', { name: 'Send money', level: 1 }).waitFor();
    // a handle nobody has: the confirmation says so before anything is sent, and Send stays off
    await page.getByLabel('To (user name, e-mail or phone)').fill('nobody_has_this_handle');
    await page.getByLabel('Amount').fill('25');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.locator('#recipient-error').getByText('We could not find anyone with that user name').waitFor();
    expect(await page.getByRole('button', { name: 'Send €25.00' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByLabel('To (user name, e-mail or phone)').fill(bob.username);
    await page.getByLabel('Amount').fill('0');
    await page.getByRole('button', { name: 'Review' }).click();
    expect(await page.locator('#amount-error').textContent()).toContain('greater than zero');
    await page.getByLabel('Amount').fill('25');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByLabel('Note (optional)').fill('Dinner');
    await inspect(page, 'send-form');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Confirm the payment' }).waitFor();
    // who the handle resolves to, from the node (bob has not passed KYC)
    await page.locator('#recipient-resolved').waitFor();
    expect(await page.locator('#recipient-resolved').textContent()).toBe(`${bob.username} not verified`);
    await inspect(page, 'send-confirm');
    await page.getByRole('button', { name: 'Send €25.00' }).click();
    await page.locator('#transfer-receipt').waitFor();
    expect(await page.locator('#transfer-receipt [role="status"]').textContent()).toBe(`You sent €25.00 to ${bob.username}.`);
    await inspect(page, 'send-receipt');
    const bobs = await t.app.services.ledger.ledger.balances(bob.id);
    expect(bobs.find((b) => b.currency === 'EUR')?.posted).toMatchObject({ amount: '25.00' });
  }, 90_000);

  it('finds the payment in the activity, opens its receipt and disputes it from there', async () => {
    await page.getByRole('link', { name: 'See your activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    await page.getByRole('link', { name: /−€25\.00/ }).waitFor();
    await page.getByLabel('Money').selectOption('credit');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: /−€25\.00/ }).waitFor({ state: 'detached' });
    await page.getByLabel('Money').selectOption('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // the whole list again (the export takes the lines shown)
    await page.getByRole('link', { name: /−€25\.00/ }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await (await download.createReadStream()).toArray();
    expect(Buffer.concat(csv).toString()).toMatch(/^date,description,direction,amount,currency,status,id\r\n.*,debit,-25\.00,EUR,posted,/s);
    await inspect(page, 'activity');
    await page.getByRole('link', { name: /−€25\.00/ }).click();
    await page.getByRole('heading', { name: 'Receipt', level: 1 }).waitFor();
    expect(await page.locator('#receipt .big').textContent()).toBe('−€25.00');
    await inspect(page, 'receipt');
    await page.getByRole('link', { name: 'Dispute this payment' }).click();
    await page.getByRole('heading', { name: 'Dispute a payment' }).waitFor();
    await page.getByLabel('What went wrong?').selectOption('not_received');
    await page.getByLabel('Tell us what happened').fill('short');
    await page.getByRole('button', { name: 'Raise the dispute' }).click();
    expect(await page.locator('#dispute-error').textContent()).toContain('at least 10 characters');
    await page.getByLabel('Tell us what happened').fill('Bob never paid his share of the dinner back.');
    await inspect(page, 'dispute-new');
    await page.getByRole('button', { name: 'Raise the dispute' }).click();
    await page.getByRole('heading', { name: 'Dispute', level: 1 }).waitFor();
    expect(await page.locator('#dispute-status').textContent()).toBe('open');
    await page.getByLabel('Write to support').fill('Receipt attached to the first message.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Receipt attached to the first message.', { exact: true }).waitFor();
    await inspect(page, 'dispute');
  }, 90_000);

  it('shows a statement for a period with opening and closing balances, printable and as a CSV', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Statement for a period' }).click();
    await page.getByRole('heading', { name: 'Statement', level: 1 }).waitFor();
    // the default period: this month up to today, so everything alice did (all of it today)
    await page.getByRole('button', { name: 'Show statement' }).click();
    const eur = page.locator('#statement section[data-currency="EUR"]');
    await eur.waitFor();
    const posted = (await t.app.services.ledger.ledger.balances(alice.id)).find((b) => b.currency === 'EUR')!.posted.amount;
    expect(await eur.locator('tr.opening td.num').textContent()).toBe('€0.00');
    expect(await eur.locator('tr.closing td.num').textContent()).toBe(`€${Number(posted).toFixed(2)}`);
    expect(await eur.getByRole('cell', { name: `Transfer to ${bob.username}` }).count()).toBe(1);
    await inspect(page, 'statement');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString();
    expect(csv).toMatch(/^date,description,amount,currency,id\r\n/);
    expect(csv).toContain(',Opening balance,0.00,EUR,\r\n');
    expect(csv).toContain(`,Transfer to ${bob.username},-25.00,EUR,`);
    expect(csv).toContain(`,Closing balance,${posted},EUR,\r\n`);
  }, 90_000);

  it('converts euros into dollars after showing the rate, the fee and the expiry', async () => {
    await go('convert/', 'Convert');
    await page.getByLabel('From').selectOption('EUR');
    await page.getByLabel('Amount to convert').fill('100');
    await page.getByLabel('To', { exact: true }).selectOption('USD');
    await inspect(page, 'convert-form');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.locator('#quote').waitFor();
    const quote = await page.locator('#quote').textContent();
    expect(quote).toMatch(/You pay€100\.00/);
    expect(quote).toMatch(/Fee \(included\)€0\.50/);
    expect(quote).toMatch(/Rate1 EUR = [\d.]+ USD/);
    expect(quote).toMatch(/Quote expiresin \d+ s/);
    await inspect(page, 'convert-quote');
    await page.getByRole('button', { name: 'Convert €100.00' }).click();
    await page.locator('#conversion-done').waitFor();
    expect(await page.locator('#conversion-done [role="status"]').textContent()).toMatch(/^You converted €100\.00 into \$[\d,.]+\.$/);
    await inspect(page, 'convert-done');
  }, 90_000);

  it('buys a share: search, live quote, confirmation; the order and the portfolio show it', async () => {
    await go('invest/', 'Invest');
    await page.getByLabel('Search by name or symbol').fill('apple');
    await page.getByRole('button', { name: /^AAPL/ }).click();
    await page.locator('#live-quote').waitFor();
    expect(await page.locator('#live-quote').textContent()).toMatch(/^AAPL: \$200\.00/);
    await page.getByLabel('Shares').fill('2');
    await inspect(page, 'invest');
    await page.getByRole('button', { name: 'Review order' }).click();
    await page.getByRole('button', { name: 'Confirm buy' }).click();
    await page.locator('#order-placed').waitFor();
    expect(await page.locator('#order-placed').textContent()).toMatch(/^Order placed: buy AAPL/);
    await inspect(page, 'invest-ordered');
    // open until the brokerage fills it, then a position: either way the page shows it
    await page.locator('#open-orders li:has-text("AAPL"), #portfolio tr[data-symbol="AAPL"]').first().waitFor();
    // the buy's cost is reserved (a pending transfer): home shows it as the pending amount, beside what is
    // still available — not the whole balance as pending, as the old client did
    if ((await page.locator('#open-orders li:has-text("AAPL")').count()) > 0) {
      await go('', 'Home');
      const usd = page.locator('#balances li[data-currency="USD"]');
      await usd.locator('.pending').waitFor();
      expect(await usd.locator('.pending').textContent()).toMatch(/^-\$[1-9][\d,]*\.\d\d pending$/);
      expect(await usd.locator('.available').textContent()).not.toBe('$1,000.00');
    }
  }, 90_000);

  it('checks out a cart and pays the pending order from the wallet', async () => {
    await go('shop/', 'Shop');
    await page.getByRole('button', { name: 'Add Desk lamp to the cart' }).click();
    await page.locator('#cart').getByText('Desk lamp × 1').waitFor();
    await page.getByRole('button', { name: 'One more Desk lamp' }).click();
    await page.locator('#cart').getByText('Desk lamp × 2').waitFor();
    await inspect(page, 'shop-cart');
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('button', { name: 'Pay €39.80' }).waitFor();
    await inspect(page, 'shop-order');
    await page.getByRole('button', { name: 'Pay €39.80' }).click();
    await page.getByText('Paid. Thank you!').waitFor();
  }, 90_000);

  it("shows a card's number and security code only once the node has checked the password again, and hides them again", async () => {
    const token = await login(t, alice.username);
    const issued = await http(`${t.urls.finance}/api/v1/cards/`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ currency: 'EUR' }),
    });
    expect(issued.status).toBe(201);
    const requests: string[] = [];
    const record = (r: { method(): string; url(): string }) => void requests.push(`${r.method()} ${new URL(r.url()).pathname}`);
    page.on('request', record);
    await go('cards/', 'Cards');
    await page.getByRole('button', { name: 'Show card details' }).first().click();
    const password = page.getByLabel('Enter your password to see the number and security code');
    await password.fill('not my password');
    await page.getByRole('button', { name: 'Show details' }).click();
    await page.getByText('That password or code is not right.').waitFor();
    expect(await t.app.services.cards.store.reveals(issued.body.id as string)).toBe(0);
    await inspect(page, 'card-reveal');
    await password.fill(PASSWORD);
    await page.getByRole('button', { name: 'Show details' }).click();
    await page.locator('.card-number .card-pan').waitFor();
    expect((await page.locator('.card-number .card-pan').textContent())!.replace(/ /g, '')).toMatch(new RegExp(`^\\d{12,15}${issued.body.last4}$`));
    expect(await t.app.services.cards.store.reveals(issued.body.id as string)).toBe(1);
    // the password went to the reveal itself: no separate sign-in
    page.off('request', record);
    expect(requests.filter((r) => r.startsWith('POST /api/'))).toEqual([
      `POST /api/v1/cards/${issued.body.id}/reveal/`,
      `POST /api/v1/cards/${issued.body.id}/reveal/`,
    ]);
    // the security code, as the issuer has it (asked at the reveal, never stored by the node)
    const providerCardId = (await t.app.services.cards.store.card(issued.body.id as string))!.providerCardId;
    expect(await page.locator('.card-number .card-cvc').textContent()).toBe(await t.app.services.cards.issuer.cvcOf(providerCardId));
    await inspect(page, 'card-revealed');
    // hidden again on request: neither number nor code stays on the page
    await page.getByRole('button', { name: 'Hide card details' }).click();
    await page.getByRole('button', { name: 'Show card details' }).first().waitFor();
    expect(await page.locator('.card-number').count()).toBe(0);
  }, 90_000);

  it('uploads an identity document (the phone camera input) and follows the verification', async () => {
    const carol = await createUser(t);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('User name').fill(carol.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await go('kyc/', 'Identity');
    await page.getByLabel('First name').fill('Carol');
    // the sandbox leaves "Pending" pending: an administrator decides below, while the page is open
    await page.getByLabel('Last name').fill('Pending');
    await page.getByRole('button', { name: 'Start' }).click();
    const file = page.getByLabel('Photo or scan (JPEG, PNG or PDF)');
    await file.waitFor();
    expect(await file.getAttribute('capture')).toBe('environment');
    await page.getByRole('button', { name: 'Upload' }).click();
    expect(await page.locator('#kyc-error').textContent()).toContain('Choose a file');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await page.getByLabel('Document').selectOption('passport');
    await file.setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('#documents li').first().waitFor();
    expect(await page.locator('#documents').textContent()).toContain('passport');
    await inspect(page, 'kyc-upload');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.locator('.kyc-state:not(:text("unverified"))').first().waitFor();
    expect(await page.locator('.kyc-state').first().textContent()).toBe('pending');
    expect(await page.locator('.kyc-decision').first().textContent()).toContain('We are checking your documents. This page updates by itself.');
    await inspect(page, 'kyc-submitted');
    // decided on the node: the page shows it by itself (no reload, no click)
    const [verification] = await t.app.services.compliance.kyc.verifications(carol.id);
    await t.app.services.compliance.kyc.review(verification.id, 'verified', '', 'journey_reviewer');
    await page.locator('.kyc-decision:text("You are verified.")').waitFor({ timeout: 10_000 });
    expect(await page.locator('.kyc-state').first().textContent()).toBe('verified');
    await inspect(page, 'kyc-decided');
  }, 90_000);

  it('filters the activity on the node and keeps the filters when showing more', async () => {
    dave = await createUser(t);
    const ledger = t.app.services.ledger.ledger;
    for (let i = 1; i <= 55; i++) await ledger.fund(dave.id, 'EUR', BigInt(100 + i), randomUUID(), 'deposit');
    const clearing = await ledger.account('system', '00000000-0000-0000-0000-000000000000', 'EUR', 'payments:clearing');
    const wallet = (await ledger.wallet(dave.id, 'EUR')).id;
    const hold = randomUUID();
    await ledger.createTransfers([{ id: hold, debitAccountId: wallet, creditAccountId: clearing.id, amount: 7_00n, code: 'withdrawal', kind: 'pending' }]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('User name').fill(dave.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await go('activity/', 'Activity');
    const rows = page.locator('main ul.transactions > li');
    await page.getByRole('button', { name: 'Show more' }).waitFor();
    expect(await rows.count()).toBe(50);
    // money in only: 50 on the first page, then the other 5 (the hold, money out, never shows)
    await page.getByLabel('Money').selectOption('credit');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: /−€7\.00/ }).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(50);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.getByRole('button', { name: 'Show more' }).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(55);
    expect(await page.getByRole('link', { name: /−€/ }).count()).toBe(0);
    // pending only: the hold
    await page.getByLabel('Money').selectOption('');
    await page.getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: /−€7\.00/ }).waitFor();
    expect(await rows.count()).toBe(1);
    await inspect(page, 'activity-filtered');
    await page.getByLabel('Status').selectOption('voided');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Nothing matches these filters.').waitFor();
  }, 90_000);

  it('renews the 2FA recovery codes and switches 2FA off from the settings, saying a wrong code in words', async () => {
    // dave, signed in, turns 2FA on outside the page; codes of three steps in a row, each used once
    const identity = t.app.services.identity.identity;
    const { secret } = await identity.startTotpEnrolment(dave.id);
    const code = (step: number) => totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * step } as Parameters<typeof totpGenerate>[0]);
    await identity.confirmTotpEnrolment(dave.id, await code(-1));
    await go('settings/', 'Settings');
    await page.getByText('On: signing in needs a code from your authenticator app.').waitFor();
    await page.getByLabel('Code from your app, for new recovery codes').fill('000000');
    await page.getByRole('button', { name: 'Get new recovery codes' }).click();
    await page.locator('#twofa-error:text("That code is not right")').waitFor();
    await page.getByLabel('Code from your app, for new recovery codes').fill(await code(0));
    await page.getByRole('button', { name: 'Get new recovery codes' }).click();
    await page.locator('#new-recovery-codes li').first().waitFor();
    expect(await page.locator('#new-recovery-codes li').count()).toBe(10);
    await inspect(page, 'settings-2fa-codes');
    // switching off needs the password too: a wrong one is said in words, and nothing changes
    await page.getByLabel('Your current password').fill('not the password');
    await page.getByLabel('Code from your app, to switch off').fill(await code(1));
    await page.getByRole('button', { name: 'Switch off' }).click();
    await page.locator('#twofa-error:text("That is not your current password")').waitFor();
    await page.getByLabel('Your current password').fill(PASSWORD);
    await page.getByLabel('Code from your app, to switch off').fill(await code(1));
    await page.getByRole('button', { name: 'Switch off' }).click();
    await page.getByText('Two-factor authentication is off. Signing in needs only your password now.').waitFor();
    expect((await identity.findUser(dave.username))!.totpConfirmedAt).toBeNull();
    await inspect(page, 'settings-2fa-off');
  }, 90_000);

  it('every other page fits a phone and a desktop and is accessible, with no request leaving the machine', async () => {
    for (const [route, heading] of [
      ['', 'Home'],
      ['accounts/', 'Bank accounts'],
      ['cards/', 'Cards'],
      ['utilities/', 'Airtime and bills'],
      ['gift-cards/', 'Gift cards'],
      ['mobile-money/', 'Mobile money'],
      ['crypto/', 'Crypto'],
      ['ramps/', 'Buy and sell crypto'],
      ['rewards/', 'Rewards'],
      ['disputes/', 'Disputes'],
      ['settings/', 'Settings'],
      ['more/', 'More'],
    ]) {
      await go(route, heading);
      await inspect(page, route.replace(/\/$/, '') || 'home-new-user');
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    for (const [route, heading] of [
      ['signup/', 'Create an account'],
      ['reset/', 'Reset your password'],
    ]) {
      await go(route, heading);
      await inspect(page, route.replace(/\/$/, ''));
    }
    // sign-up works on this node (the whole journey is in signup.test.ts): a taken user name is said in words
    await go('signup/', 'Create an account');
    await page.getByLabel('User name').fill(bob.username);
    await page.getByLabel('E-mail').fill(`${randomUUID().slice(0, 8)}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('#new-username-error:not(:empty), #signup-error:not(:empty)').first().waitFor();
    expect(await page.locator('main').textContent()).not.toContain('not available on this node');
    expect(external).toEqual([]);
  }, 420_000);
});
