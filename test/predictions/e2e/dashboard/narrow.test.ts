import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { launchChromium, overflowOf, SHOTS } from '../../../support/platform/browser';

/**
 * The dashboard on a phone (390 px) and on a desktop (1280 px): no horizontal overflow, no text cut
 * by its box (team names in the tables), the data section with each league's freshness; and every
 * page of the surface (dashboard, API reference, application form) has its icon: no request of the
 * browser's fails (a missing favicon was a 404 on each).
 */

let t: TestApp;
let key: string;
let browser: Browser;
let context: BrowserContext;
const failed: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  t = await startTestApp();
  key = await t.createKey('pro');
  context = await browser.newContext();
  context.on('response', (res) => {
    if (res.status() >= 400 && !res.url().includes('/api/dashboard/') && !res.url().endsWith('/api/')) failed.push(`${res.status()} ${res.url()}`);
  });
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await t?.stop();
});

async function signedIn(width: number): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${t.urls.predictions}/dashboard/`);
  await page.getByLabel('API key').fill(key);
  await page.keyboard.press('Enter');
  await page.locator('body[data-state="ready"]').waitFor({ timeout: 30_000 });
  return page;
}

/** Elements whose text is wider than their box (cut). */
const cutText = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const cut: string[] = [];
    for (const el of doc.querySelectorAll('td, th, caption, h1, h2, p, figcaption, button, code')) {
      if (el.offsetParent === null) continue;
      if (el.scrollWidth > el.clientWidth + 1) cut.push(`${el.tagName} "${el.textContent.trim().slice(0, 40)}" ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return cut;
  });

it.each([390, 1280])(
  'at %i px nothing overflows or is cut, and the data section says how fresh each league is',
  async (width) => {
    const page = await signedIn(width);
    const shot = join(process.env.DASHBOARD_SCREENSHOT_DIR ?? SHOTS, `dashboard-${width}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    expect(await cutText(page)).toEqual([]);
    expect({ width, overflow: await overflowOf(page) }).toEqual({ width, overflow: 0 });
    expect(await page.locator('#leagues-table tbody tr').count()).toBe(6);
    expect(await page.locator('#leagues-table tbody').innerText()).toContain('English Premier League (en.1)');
    expect(await page.locator('#feed-text').innerText()).toMatch(/No live feed is configured/);
    if (width === 390) {
      // each cell is labelled with its column on the card
      const label = await page
        .locator('#fixtures-table tbody tr td')
        .nth(1)
        .evaluate((td) => (globalThis as any).getComputedStyle(td, '::before').content);
      expect(label).toBe('"Match"');
    }
    await page.close();
  },
  90_000,
);

it.each(['/api/docs/', '/apply/'])(
  "at 390 px %s does not scroll sideways (the apply page's `Usage:` line wraps)",
  async (path) => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`${t.urls.predictions}${path}`);
    await page.waitForLoadState('networkidle');
    expect({ path, overflow: await overflowOf(page) }).toEqual({ path, overflow: 0 });
    await page.close();
  },
  60_000,
);

it('every page has an icon: no request of the dashboard, the API reference or the form fails', async () => {
  const page = await context.newPage();
  for (const path of ['/dashboard/', '/api/docs/', '/apply/']) {
    await page.goto(`${t.urls.predictions}${path}`);
    await page.waitForLoadState('networkidle');
  }
  const icon = await page.request.get(`${t.urls.predictions}/favicon.ico`);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toBe('image/x-icon');
  expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  expect((await page.request.get(`${t.urls.predictions}/favicon.svg`)).status()).toBe(200);
  expect(failed).toEqual([]);
  await page.close();
}, 90_000);
