import { randomUUID } from 'node:crypto';
import { type Browser, type Page } from 'playwright-core';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../../clients/finance-web/build';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { inspect, launchChromium } from '../../../support/platform/browser';
import { changeNode, installValidLicence } from '../../../support/finance/node';

/**
 * Verification a person can finish on a development node, in headless Chromium at
 * 390 px with touch: sign up in the web client, follow "Open the outbox" from the "Check your e-mail"
 * screen, click the link of the verification mail there (absolute, it opens the client: verified),
 * sign in, set a phone number in Settings and read the SMS code on the outbox page the code form
 * links to. Links and buttons only, no typed URLs after the first page. Screenshots `outbox-*-<width>.png`
 * (test/support/platform/browser.ts SHOTS).
 */
let t: TestApp;
let browser: Browser;
let page: Page;
const who = { username: `olga_${randomUUID().slice(0, 6)}`, email: '', password: 'a long enough password' };
who.email = `${who.username}@example.com`;

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  t = (await startTestApp({}, { products: ['finance'] })) as unknown as TestApp;
  await changeNode(t, () => installValidLicence(t));
  await t.app.services.node.node.updateBranding({ organisation_name: 'Harbour Bank' }, 'test');
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const shot = (p: Page, name: string) => inspect(p, `outbox-${name}`, { restore: 390 });

/** Follows the development outbox link of the current screen: the outbox opens in a new tab. */
async function openOutbox(): Promise<Page> {
  const [outbox] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Open the outbox' }).click()]);
  await outbox.getByRole('heading', { name: 'Outbox', level: 1 }).waitFor();
  return outbox;
}

describe('a new user on a development node', () => {
  it('signs up and verifies the address from the mail shown in the outbox', async () => {
    await page.goto(`${t.urls.finance}/app/signup/`);
    await page.getByLabel('User name').fill(who.username);
    await page.getByLabel('E-mail').fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail', level: 1 }).waitFor();
    await shot(page, 'check-mail');

    const outbox = await openOutbox();
    const message = outbox.locator('article', { hasText: who.email }).first();
    await message.waitFor();
    expect(await message.locator('.from').textContent()).toBe('Harbour Bank <no-reply@localhost>');
    expect(await message.locator('h2').textContent()).toContain('Harbour Bank: verify your e-mail address');
    await shot(outbox, 'mail');
    const link = message.getByRole('link', { name: /\/app\/verify-email\/\?token=/ });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${t.urls.finance}/app/verify-email/\\?token=`));
    await link.click();
    await outbox.getByText('Your e-mail address is verified.').waitFor();
    await shot(outbox, 'verified');
    await outbox.close();
  }, 180_000);

  it('verifies a phone number with the code read on the outbox page', async () => {
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('User name').fill(who.username);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const quick = page.getByRole('navigation', { name: 'Quick' });
    await quick.getByRole('link', { name: 'More', exact: true }).click();
    await page.getByRole('navigation', { name: 'All pages' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    const phone = `+447400${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
    await page.getByLabel('Phone number (with country code)').fill(phone);
    await page.getByRole('button', { name: 'Save phone number' }).click();
    await page.getByText(`We sent a code to ${phone}. Enter it below to verify your number.`).waitFor();
    await shot(page, 'phone-code');

    const outbox = await openOutbox();
    const sms = outbox.locator('article[data-channel="sms"]', { hasText: phone }).first();
    await sms.waitFor();
    await shot(outbox, 'sms');
    const code = /your verification code is (\d{6})/.exec((await sms.locator('.body').textContent()) ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await outbox.close();

    await page.getByLabel('Code from the text message').fill(code!);
    await page.getByRole('button', { name: 'Verify phone number' }).click();
    await page.getByText(`Your number ${phone} is verified. Others can now send you money at it.`).waitFor();
    await shot(page, 'phone-verified');
  }, 180_000);
});
