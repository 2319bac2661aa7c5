import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { startTestApp, type TestApp } from '../../../support/app';
import { createUser, installValidLicence, PASSWORD } from '../../../support/finance';

/**
 * The console's operator pages in headless Chromium: an administrator adds a user through the form,
 * proposes a manual adjustment, reads the audit log; each page fits a 390 px phone and a 1280 px
 * screen without horizontal scrolling (wide tables scroll inside their box).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let t: TestApp<'finance'>;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM} (apt-get install chromium, as .ci/run does; or set CHROMIUM_PATH).`);
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
  profile = mkdtempSync(join(tmpdir(), 'console-ops-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS });
}, 120_000);
afterAll(async () => {
  await context?.close();
  await t?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

it('adds a user, proposes an adjustment, reads the audit log; no page overflows at 390 or 1280 px', async () => {
  const admin = await createUser(t as unknown as TestApp, undefined, { superuser: true });
  const customer = await createUser(t as unknown as TestApp);
  const page = await context.newPage();
  await page.goto(`${t.urls.finance}/admin/login/`);
  await page.fill('#id_username', admin.username);
  await page.fill('#id_password', PASSWORD);
  await Promise.all([page.waitForURL(`${t.urls.finance}/admin/`), page.click('input[type=submit]')]);

  await page.goto(`${t.urls.finance}/admin/identity/user/`);
  await Promise.all([page.waitForURL(/\/admin\/identity\/user\/add\/$/), page.getByRole('link', { name: '+ Add user' }).click()]);
  await page.fill('#id_username', 'walked_in');
  await page.fill('#id_email', 'walked_in@example.com');
  await page.fill('#id_password', 'a fine long password');
  await Promise.all([page.waitForURL(/\/admin\/identity\/user\/[0-9a-f-]{36}\/\?saved=1$/), page.click('.submit-row button')]);
  expect(await page.textContent('body')).toContain('walked_in');

  await page.goto(`${t.urls.finance}/admin/adjustments/`);
  await page.fill('#id_user', customer.username);
  await page.fill('#id_amount', '7.25');
  await page.fill('#id_reason', 'goodwill for a delayed card');
  await Promise.all([page.waitForURL(/\?saved=proposed$/), page.click('.submit-row button')]);
  expect(await page.textContent('.banner.ok')).toContain('a different administrator must approve it');

  await page.goto(`${t.urls.finance}/admin/audit/`);
  expect(await page.textContent('body')).toContain('adjustment.proposed');

  const paths = ['/admin/identity/user/add/', '/admin/audit/', '/admin/adjustments/', '/admin/identity/user/', '/admin/'];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of paths) {
      await page.goto(`${t.urls.finance}${path}`);
      const [scroll, inner] = await page.evaluate<number[]>('[document.documentElement.scrollWidth, window.innerWidth]');
      expect([width, path, scroll <= inner]).toEqual([width, path, true]);
    }
  }
  await page.close();
}, 90_000);
