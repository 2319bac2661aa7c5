import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/**
 * What the browser tests share: headless Chromium (Debian's, /usr/bin/chromium, or CHROMIUM_PATH), the
 * folder the screenshots are kept in for a human to look at (FINANCE_WEB_SHOTS), and the check of a page
 * at a phone's and a desktop's width: no sideways scrolling, axe (WCAG 2 A/AA) clean, a screenshot.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS = process.env.FINANCE_WEB_SHOTS ?? join(tmpdir(), 'finance-web-screenshots');
/** A phone (390 px) and a desktop (1280 px). */
export const WIDTHS = [1280, 390] as const;
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Headless Chromium; fails with the way to get it when it is not installed. The screenshot folder is made.
 * `args` adds switches to CHROMIUM_ARGS (e.g. `--disable-quic`). Each test takes its own `browser.newContext()`:
 * a fresh profile (cookies, storage, cache) as a context, closed with the browser.
 */
export async function launchChromium(opts: { args?: readonly string[] } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM} (apt-get install chromium, as .ci/run does; or set CHROMIUM_PATH).`);
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...(opts.args ?? [])] });
}

/**
 * A fresh context whose pages reach this machine only (127.0.0.1, localhost, data: and blob: URLs):
 * any other request is aborted and its URL pushed onto `external`, for the test to expect none. The
 * whole context is routed, so that workers and every page are covered; `requested` collects every URL.
 */
export async function offlineContext(
  browser: Browser,
  external: string[],
  { requested, ...options }: BrowserContextOptions & { requested?: string[] } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.route('**/*', (route) => {
    requested?.push(route.request().url());
    const { protocol, hostname } = new URL(route.request().url());
    if ((protocol === 'http:' || protocol === 'https:') && (hostname === '127.0.0.1' || hostname === 'localhost')) return route.continue();
    if (protocol === 'data:' || protocol === 'blob:') return route.continue();
    external.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  return context;
}

/** How far the page scrolls sideways past the viewport (0: it fits). */
export async function overflowOf(page: Page): Promise<number> {
  const [scrollWidth, innerWidth] = await page.evaluate<number[]>('[document.documentElement.scrollWidth, window.innerWidth]');
  return Math.max(0, scrollWidth - innerWidth);
}

/**
 * The table headers broken inside a word ("Sha re" at 390 px): a header whose text takes more lines than it
 * has words. Every `th` of the page, so a new table is covered without naming it.
 */
export async function headersBrokenMidWord(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.querySelectorAll('th')].filter((th) => {
    const text = (th.textContent || '').trim();
    if (!text || th.getClientRects().length === 0) return false;
    const range = document.createRange();
    range.selectNodeContents(th);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size > text.split(/\\s+/).length;
  }).map((th) => (th.textContent || '').trim())`);
}

/**
 * The controls (links, buttons, fields) a person cannot reach without scrolling sideways: lying past the
 * viewport's right edge, e.g. an Approve button in a table that scrolls inside its own box while the page
 * itself fits. Every control of the page, so a new table is covered without naming it.
 */
export async function controlsOffScreen(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && r.right > window.innerWidth + 1;
  }).map((el) => el.tagName.toLowerCase() + ': ' + ((el.textContent || '').trim() || el.getAttribute('aria-label') || el.getAttribute('name') || '').slice(0, 60))`);
}

export interface InspectOptions {
  /** Run axe (WCAG 2 A/AA) and expect no violation; default true. */
  axe?: boolean;
  /** Widths to check; default 1280 and 390 px. */
  widths?: readonly number[];
  /** The width the page is left at afterwards; default 1280 px. */
  restore?: number;
  /** Also expect every control on the screen's width (controlsOffScreen); default false. */
  onScreen?: boolean;
}

/**
 * At each width: waits until nothing shows `.loading` (the web client's loading note), expects no
 * sideways overflow, no table header broken inside a word, (with `onScreen`) no control past the screen's edge and no axe violation, and keeps a full-page screenshot `<name>-<width>.png` in SHOTS.
 */
export async function inspect(page: Page, name: string, opts: InspectOptions = {}): Promise<void> {
  for (const width of opts.widths ?? WIDTHS) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    // (a locator, not waitForFunction: the web client's CSP forbids the eval a polled predicate needs)
    await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 10_000 });
    expect({ name, width, overflow: await overflowOf(page) }).toEqual({ name, width, overflow: 0 });
    expect({ name, width, headersBrokenMidWord: await headersBrokenMidWord(page) }).toEqual({ name, width, headersBrokenMidWord: [] });
    if (opts.onScreen) expect({ name, width, offScreen: await controlsOffScreen(page) }).toEqual({ name, width, offScreen: [] });
    if (opts.axe ?? true) {
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect({ name, width, violations: axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) }).toEqual({
        name,
        width,
        violations: [],
      });
    }
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  const restore = opts.restore ?? 1280;
  await page.setViewportSize({ width: restore, height: restore > 400 ? 900 : 844 });
}
