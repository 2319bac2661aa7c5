import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { inspect, launchChromium, offlineContext, SHOTS } from '../../../support/platform/browser';

/**
 * The model dashboard (/dashboard/) in Chromium with no network but this machine: sign in with a key
 * (keyboard only), wait for the charts, take a screenshot, check that every chart drew pixels, that
 * the page broke no Content-Security-Policy rule, that no request left 127.0.0.1, that axe finds no
 * serious accessibility fault, and that a running retrain's progress shows and ends in a new version.
 */

const CHARTS = ['versions-chart', 'calibration-chart', 'confidence-chart', 'fixtures-chart'];

let t: TestApp;
let key: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const external: string[] = [];
const requested: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium({ args: ['--disable-quic'] });
  // a one-season evaluation window keeps the retrain below to seconds
  t = await startTestApp({ BACKTEST_SEASONS: '1' });
  key = await t.createKey('pro');
  context = await offlineContext(browser, external, { viewport: { width: 1280, height: 900 }, requested });
  page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  // (page functions run in the browser: its globals are reached through globalThis, as the tests compile without DOM types)
  await page.addInitScript(() => {
    const seen: string[] = [];
    const browser = globalThis as any;
    browser.cspViolations = seen;
    browser.document.addEventListener('securitypolicyviolation', (e: any) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await t?.stop();
});

/** Share of a canvas's pixels that are not transparent: a chart that drew nothing has 0. */
const drawnShare = (id: string) =>
  page.evaluate((canvasId) => {
    const canvas = (globalThis as any).document.getElementById(canvasId);
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
    return drawn / (canvas.width * canvas.height);
  }, id);

it('signs in with a key (keyboard only), draws every chart from the API, offline, within its CSP, and is accessible', async () => {
  await page.goto(`${t.urls.predictions}/dashboard/`);
  await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);

  // a wrong key: the message is tied to the field
  await page.getByLabel('API key').focus();
  await page.keyboard.type('mpk_not_a_real_key_000000000000');
  await page.keyboard.press('Enter');
  const error = page.locator('#key-error');
  await error.waitFor({ state: 'visible' });
  expect(await error.innerText()).toMatch(/not accepted/);
  expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');

  await page.getByLabel('API key').focus();
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.locator('body[data-state="ready"]').waitFor({ timeout: 20_000 });

  // DASHBOARD_SCREENSHOT keeps the screenshot (e.g. as a CI artifact)
  const shot = process.env.DASHBOARD_SCREENSHOT ?? join(SHOTS, 'dashboard.png');
  await page.screenshot({ path: shot, fullPage: true });
  expect(statSync(shot).size).toBeGreaterThan(50_000);
  for (const id of CHARTS) {
    expect(await drawnShare(id)).toBeGreaterThan(0.02);
    expect(await page.locator(`#${id}`).getAttribute('aria-label')).toMatch(/^\w.{30,}/);
  }
  // the same figures as text
  expect(await page.locator('#versions-table tbody tr').count()).toBe(1);
  expect(await page.locator('#versions-table tbody').innerText()).toMatch(/version_1 \(active\)\s+ensemble/);
  expect(await page.locator('#calibration-table tbody tr').count()).toBe(10);
  expect(await page.locator('#fixtures-table tbody tr').count()).toBe(10);
  expect(await page.locator('#confidence-table tbody tr').count()).toBe(3);
  expect(await page.locator('#retrain-text').innerText()).toMatch(/Last retrain \(ensemble\) succeeded: version_1/);

  // every request went to this server: the API with the key, the page and Chart.js from here
  expect(external).toEqual([]);
  const apiCalls = requested.filter((u) => u.includes('/api/'));
  expect(apiCalls.length).toBeGreaterThanOrEqual(4);
  expect(requested).toContain(`${t.urls.predictions}/dashboard/chart.umd.min.js`);
  expect(await page.evaluate(() => (globalThis as any).cspViolations)).toEqual([]);
  expect(consoleErrors.filter((e) => !/401/.test(e))).toEqual([]);

  // axe (WCAG 2 A/AA): no violation at all, and no sideways scrolling (at the context's 1280 px)
  await inspect(page, 'dashboard', { widths: [1280] });

  // the key is kept for the tab: a reload shows the dashboard without asking again
  await page.reload();
  await page.locator('body[data-state="ready"]').waitFor({ timeout: 20_000 });
  expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('matchday.apiKey'))).toBe(key);
}, 90_000);

it("shows a running retrain's progress, then the new version", async () => {
  const started = await http(`${t.urls.predictions}/api/retrain/`, { method: 'POST', key: t.adminKey });
  expect(started.status).toBe(202);
  await page.reload();
  await page.locator('body[data-state="ready"]').waitFor({ timeout: 20_000 });
  // progress while it runs (polled every few seconds; the backtest alone takes longer than that), then the table gains version_2
  expect(await page.locator('#retrain-text').innerText()).toMatch(/^Retraining \(ensemble\): .+ \d+ %\.$/);
  await page.locator('#versions-table tbody tr').nth(1).waitFor({ timeout: 90_000 });
  expect(await page.locator('#versions-table tbody').innerText()).toMatch(/version_2 \(active\)/);
  expect(await page.locator('#retrain-text').innerText()).toMatch(/succeeded: version_2/);
  expect(await page.locator('#retrain-progress').getAttribute('value')).toBe('100');
  expect(await drawnShare('versions-chart')).toBeGreaterThan(0.02);
  expect(external).toEqual([]);
}, 120_000);
