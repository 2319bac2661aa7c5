import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { headersBrokenMidWord, launchChromium } from '../../../support/platform/browser';

/**
 * The web client's stylesheet keeps table headers whole at a phone's width: the portfolio's five columns
 * with long amounts at 390 px once broke "Share" into "Sha re" (body's overflow-wrap: anywhere). The page
 * journeys check every `th` they show the same way (inspect); this one holds the worst case on purpose.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const css = readFileSync(join(__dirname, '../../../../clients/finance-web/src/style.css'), 'utf8');
const row = '<tr><th scope="row">AAPL</th><td>1234.56789012</td><td>$1,230,099.10</td><td>$12,345,678.90</td><td>-$1,234,567.89</td></tr>';

it('keeps every header of a wide table whole at 390 px, the table scrolling in its wrapper instead', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.setContent(
    `<!doctype html><html><head><style>${css}</style></head><body><main><div class="table-wrap"><table id="portfolio"><thead><tr>` +
      '<th scope="col">Share</th><th scope="col">Quantity</th><th scope="col">Average cost</th><th scope="col">Value</th><th scope="col">Gain or loss</th>' +
      `</tr></thead><tbody>${row}${row}</tbody></table></div></main></body></html>`,
  );
  expect(await headersBrokenMidWord(page)).toEqual([]);
  const [scrollWidth, innerWidth] = await page.evaluate<number[]>('[document.documentElement.scrollWidth, window.innerWidth]');
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await page.close();
});
