import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { launchChromium, overflowOf, SHOTS } from '../../../support/platform/browser';
import { createUser, installValidLicence, PASSWORD } from '../../../support/finance/node';

/**
 * The logo upload in Chromium: an operator uploads the logo on the console's branding page (file input, button),
 * then the console's header and the web client at 390 px show it (the image loaded: naturalWidth > 0). A GIF
 * is refused on the page with the node's words. Screenshots `logo-<step>-<width>.png` in SHOTS.
 */
let t: TestApp;
let browser: Browser;
let page: Page;

const LOGO = Buffer.from(
  new Resvg(
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48"><rect width="160" height="48" rx="8" fill="#c2185b"/><circle cx="24" cy="24" r="14" fill="#fff"/><rect x="48" y="16" width="96" height="16" rx="4" fill="#fff"/></svg>',
  )
    .render()
    .asPng(),
);

beforeAll(async () => {
  t = (await startTestApp({}, { products: ['finance'] })) as unknown as TestApp;
  await installValidLicence(t);
  const operator = await createUser(t, `brand_${randomUUID().slice(0, 6)}`, { superuser: true });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${t.urls.finance}/admin/login/`);
  await page.fill('#id_username', operator.username);
  await page.fill('#id_password', PASSWORD);
  await Promise.all([page.waitForURL(`${t.urls.finance}/admin/`), page.click('input[type=submit]')]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const naturalWidth = (p: Page, selector: string) =>
  p
    .locator(selector)
    .first()
    .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
const shot = (p: Page, name: string, width: number) => p.screenshot({ path: join(SHOTS, `logo-${name}-${width}.png`), fullPage: true });

it('the operator uploads a logo on the branding page; the console shows it, a GIF is refused on the page', async () => {
  await shot(page, 'console-before', 1280);
  expect(await naturalWidth(page, '#header img.brand-logo')).toBe(0);
  await page.getByRole('link', { name: 'Node', exact: true }).first().click();
  await page.getByRole('link', { name: 'Branding', exact: true }).first().click();
  await page.waitForURL(/\/admin\/node\/branding\/$/);

  // refused: the node's message on the page, nothing saved
  await page.setInputFiles('#id_logo', { name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a....') });
  await page.getByRole('button', { name: 'Upload logo' }).click();
  await page.getByText('A logo is a PNG, JPEG or WebP image').waitFor();

  await page.setInputFiles('#id_logo', { name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
  await Promise.all([page.waitForURL(/\/admin\/node\/branding\/\?saved=1$/), page.getByRole('button', { name: 'Upload logo' }).click()]);
  await page.getByTestId('current-logo').waitFor();
  expect(await naturalWidth(page, '[data-testid=current-logo]')).toBe(160);
  expect(await naturalWidth(page, '#header img.brand-logo')).toBe(160);
  await shot(page, 'console-branding', 1280);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowOf(page)).toBe(0);
  await shot(page, 'console-branding', 390);
  // every console page carries it in the header
  await page.goto(`${t.urls.finance}/admin/`);
  expect(await naturalWidth(page, '#header img.brand-logo')).toBe(160);
  await shot(page, 'console-dashboard', 390);
});

it('the web client at 390 px shows the logo the configuration names', async () => {
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await phone.goto(`${t.urls.finance}/app/`);
  // (the generic client's own logo until the configuration has answered)
  const logo = phone.locator('img[data-testid=brand-logo][src^="/api/v1/config/logo/?v="]');
  await logo.waitFor();
  await logo.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
  expect(await naturalWidth(phone, 'img[data-testid=brand-logo][src^="/api/v1/config/logo/?v="]')).toBe(160);
  expect(await overflowOf(phone)).toBe(0);
  await shot(phone, 'client', 390);
  await phone.close();
});
