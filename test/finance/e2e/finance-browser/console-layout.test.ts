import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { surface } from '../../../support/platform/http';
import { isPage } from '../../../../rest-adapter/core/route';
import { financeSurface } from '../../../../rest-adapter/finance';
import { controlsOffScreen, launchChromium, overflowOf, SHOTS } from '../../../support/platform/browser';
import { createUser, installValidLicence, login, PASSWORD } from '../../../support/finance/node';

/**
 * The console's layout in Chromium: at 1280 px the dashboard gives Recent activity and
 * Recent transfers room (every column shown, none squeezed into a third of the page); at 390 px a
 * list's actions (an order's Fulfil) are on the screen, not in a table scrolled off it — the rows
 * stack as cards, each cell with its column's name; and on every console page of the route table no
 * control lies past the screen's edge (the KYC reviews' Approve did). Screenshots `console-<name>-<width>.png`.
 */
let t: TestApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  t = (await startTestApp({}, { products: ['finance'] })) as unknown as TestApp;
  await installValidLicence(t);
  const u = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  const token = await login(t, u.username);
  const asShopper = surface(() => t.urls.finance, { key: () => token, idempotent: true });
  const ledger = t.app.services.ledger.ledger;
  const [funding, wallet] = await Promise.all([ledger.fundingAccount('EUR'), ledger.wallet(u.id, 'EUR')]);
  await ledger.createDecimalTransfers([{ id: randomUUID(), debitAccountId: funding.id, creditAccountId: wallet.id, amount: '100.00', code: 'deposit' }]);
  const p = await t.app.services.commerce.shop.createProduct({
    name: 'A lamp with a long name',
    description: 'Light',
    price: '19.90',
    currency: 'EUR',
    stock: 5,
  });
  await asShopper.post('/api/v1/shop/cart/items/', undefined, { product_id: p.id, quantity: 1 });
  const order = (await asShopper.post('/api/v1/shop/checkout/')).body;
  expect((await asShopper.post(`/api/v1/shop/orders/${order.id}/pay/`)).status).toBe(200);

  const operator = await createUser(t, `chief_${randomUUID().slice(0, 6)}`, { superuser: true });
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

const widthOf = async (caption: string) => (await page.getByRole('region', { name: caption }).boundingBox())!.width;

it('the dashboard at 1280 px gives Recent activity and Recent transfers room for every column', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${t.urls.finance}/admin/`);
  for (const caption of ['Recent activity', 'Recent transfers']) {
    expect([caption, (await widthOf(caption)) >= 540]).toEqual([caption, true]);
    // no column cut off: the table fits its box
    const region = page.getByRole('region', { name: caption });
    const [box, tableWidth] = [(await region.boundingBox())!.width, (await region.locator('table').boundingBox())!.width];
    expect([caption, tableWidth <= box + 1]).toEqual([caption, true]);
  }
  await page.screenshot({ path: join(SHOTS, 'console-dashboard-1280.png'), fullPage: true });
});

it("at 390 px an order's Fulfil button is on the screen, and no page scrolls sideways", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${t.urls.finance}/admin/commerce/order/`);
  const fulfil = page.getByRole('button', { name: 'Fulfil' }).first();
  await fulfil.waitFor();
  const box = (await fulfil.boundingBox())!;
  expect({ left: box.x >= 0, right: box.x + box.width <= 390 }).toEqual({ left: true, right: true });
  expect(await overflowOf(page)).toBe(0);
  // each cell says which column it is
  expect(await page.locator('td[data-label="Status"]').first().textContent()).toContain('paid');
  await page.screenshot({ path: join(SHOTS, 'console-orders-390.png'), fullPage: true });
  await page.goto(`${t.urls.finance}/admin/`);
  expect(await overflowOf(page)).toBe(0);
  await page.screenshot({ path: join(SHOTS, 'console-dashboard-390.png'), fullPage: true });
});

it("at 390 px no console page from the route table keeps a control past the screen's edge", async () => {
  // every GET page of /admin/ without path parameters (a new list is covered without naming it)
  const paths = financeSurface.routes
    .filter((r) => r.method === 'GET' && isPage(r) && r.path.startsWith('/admin/') && !r.path.includes(':') && !r.path.startsWith('/admin/login'))
    .map((r) => r.path);
  expect(paths.length).toBeGreaterThanOrEqual(20);
  // a KYC submission waiting for review, so that its list has its review forms
  const applicant = await createUser(t);
  const token = await login(t, applicant.username);
  const asApplicant = surface(() => t.urls.finance, { key: () => token, idempotent: true });
  const verification = (await asApplicant.post('/api/v1/kyc/verifications/', undefined, { level: 'basic', first_name: 'Ada', last_name: 'Review' })).body as {
    id: string;
  };
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR passport scan')]);
  await asApplicant.post(`/api/v1/kyc/verifications/${verification.id}/documents/`, undefined, { kind: 'passport', content_base64: png.toString('base64') });
  expect((await asApplicant.post(`/api/v1/kyc/verifications/${verification.id}/submit/`)).body.state).toBe('in_review');
  await page.setViewportSize({ width: 390, height: 844 });
  const faults: { path: string; offScreen: string[]; overflow: number }[] = [];
  for (const path of paths) {
    await page.goto(`${t.urls.finance}${path}`);
    const [offScreen, overflow] = [await controlsOffScreen(page), await overflowOf(page)];
    if (offScreen.length || overflow) faults.push({ path, offScreen, overflow });
  }
  expect(faults).toEqual([]);
});
