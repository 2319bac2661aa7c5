import { randomUUID } from 'node:crypto';
import { isPage } from '../../../rest-adapter/core/route';
import { financeSurface } from '../../../rest-adapter/finance';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminSignIn, createUser, installValidLicence, login, type AdminSession } from '../../support/finance/node';

/**
 * Every list of the admin console, found from the console's route table (each GET page
 * without path parameters that answers with a toolbar), submitted as a person submits its toolbar:
 * every select on its default ("All", an empty value) with and without a search, then each select on
 * each of its values. Each answer is 200 and has the right rows: "All" is the whole list, a value the
 * rows that show it, and the values of a select together never more than the whole list.
 */
let t: TestApp<'finance'>;
let admin: AdminSession;
const { url, send } = surface(() => t.urls.finance, { idempotent: true });
const asAdmin = (path: string) => http(url(path), { headers: { cookie: admin.cookie } });

/** Rows in the lists: a customer with an order, a dispute, a mobile-money deposit and a virtual account. */
async function seed() {
  const u = await createUser(t as unknown as TestApp);
  await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  const token = await login(t as unknown as TestApp, u.username);
  const ledger = t.app.services.ledger.ledger;
  const [funding, wallet] = await Promise.all([ledger.fundingAccount('EUR'), ledger.wallet(u.id, 'EUR')]);
  await ledger.createDecimalTransfers([{ id: randomUUID(), debitAccountId: funding.id, creditAccountId: wallet.id, amount: '100.00', code: 'deposit' }]);
  for (const price of ['12.50', '3.00']) {
    const p = await t.app.services.commerce.shop.createProduct({
      name: `Thing ${randomUUID().slice(0, 6)}`,
      description: 'A thing',
      price,
      currency: 'EUR',
      stock: 5,
    });
    await send('POST', '/api/v1/shop/cart/items/', token, { product_id: p.id, quantity: 1 });
    const order = (await send('POST', '/api/v1/shop/checkout/', token)).body;
    if (price === '3.00') continue; // one order stays pending
    const paid = await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, token);
    expect(paid.status).toBe(200);
    const dispute = await send('POST', '/api/v1/disputes/', token, {
      transaction_id: paid.body.payment_transaction_id,
      reason: 'not_received',
      description: 'It never came.',
    });
    expect(dispute.status).toBe(201);
  }
  expect((await send('POST', '/api/v1/mobile-money/deposits/', token, { amount: '5.00', currency: 'GHS', phone_number: '+46733123452' })).status).toBe(201);
  expect((await send('POST', '/api/v1/virtual-accounts/', token, { currency: 'EUR' })).status).toBe(201);
  // a price run in the investing runs list, whose page shows another table (the DEX registry's warnings) above it
  await t.app.services.investing.investing.refreshPrices('test');
}

beforeAll(async () => {
  t = await startTestApp({ BANKING_SANDBOX_CALLBACK_SECONDS: 'off' }, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
  const operator = await createUser(t as unknown as TestApp, undefined, { superuser: true });
  admin = await adminSignIn(t as unknown as TestApp, operator.username);
  await seed();
}, 180_000);
afterAll(() => t?.stop());

interface Toolbar {
  action: string;
  selects: { name: string; label: string; options: { value: string; label: string }[] }[];
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
const text = (fragment: string) => decode(fragment.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ')).trim();

/** The list's toolbar form as the browser sees it: its action and each select with its label and options. */
function toolbarOf(page: string): Toolbar | undefined {
  const form = /<form class="toolbar" method="get" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  if (!form) return undefined;
  const selects = [...form[2].matchAll(/<select name="([^"]+)" id="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)].map((m) => ({
    name: m[1],
    label: text(new RegExp(`<label for="${m[2]}">([\\s\\S]*?)</label>`).exec(form[2])?.[1] ?? ''),
    options: [...m[3].matchAll(/<option value="([^"]*)"[^>]*>([\s\S]*?)<\/option>/g)].map((o) => ({ value: decode(o[1]), label: text(o[2]) })),
  }));
  return { action: decode(form[1]), selects };
}

/** The list's table: its column heads, its rows (cells as text), and the count its pager states. */
function rowsOf(page: string): { count: number; head: string[]; rows: string[][] } {
  const count = /(\d+) rows? · page/.exec(page);
  // the list's own table is the last one before its pager: a page may show other tables above the list
  // (the investing runs page shows the DEX registry's warnings first)
  const list = page.split('<nav class="pager"')[0];
  const last = (re: RegExp) => [...list.matchAll(re)].at(-1)?.[1] ?? '';
  const head = [...last(/<thead>([\s\S]*?)<\/thead>/g).matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => text(m[1]));
  const body = last(/<tbody>([\s\S]*?)<\/tbody>/g);
  const rows = body
    .split(/<tr>/)
    .slice(1)
    .map((r) => [...r.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => text(c[1])));
  return { count: count ? Number(count[1]) : -1, head, rows };
}

/** What the browser sends for the toolbar: every field, the search typed or empty, each select on its choice or "All". */
function submitted(bar: Toolbar, q: string, chosen: Record<string, string> = {}): string {
  const params = new URLSearchParams({ q });
  for (const s of bar.selects) params.set(s.name, chosen[s.name] ?? '');
  return `${bar.action}?${params.toString()}`;
}

/** The console's list pages, from the surface's route table: GET pages of /admin/ without path parameters. */
const candidates = financeSurface.routes
  .filter((r) => r.method === 'GET' && isPage(r) && r.path.startsWith('/admin/') && !r.path.includes(':'))
  .map((r) => r.path);

it('finds the lists in the route table (each with its toolbar), the seeded ones among them', async () => {
  const lists: string[] = [];
  for (const path of candidates) if (toolbarOf(String((await asAdmin(path)).body))) lists.push(path);
  expect(lists.length).toBeGreaterThanOrEqual(15);
  expect(lists).toEqual(expect.arrayContaining(['/admin/identity/user/', '/admin/banking/movement/', '/admin/commerce/order/', '/admin/commerce/dispute/']));
});

describe.each(candidates)('the list at %s', (path) => {
  it('answers its toolbar with every select on "All" and on each value: 200 and the right rows', async () => {
    const first = await asAdmin(path);
    expect([path, first.status]).toEqual([path, 200]);
    const bar = toolbarOf(String(first.body));
    if (!bar) return; // not a list (a form, a dashboard)
    const all = rowsOf(String(first.body));

    // every select left on "All", no search: the whole list
    const plain = await asAdmin(submitted(bar, ''));
    expect([path, plain.status]).toEqual([path, 200]);
    expect([path, rowsOf(String(plain.body)).count]).toEqual([path, all.count]);

    // a search with every select on "All": the rows it finds (a word of the first row that the list searches)
    if (all.count > 0) {
      let found = 0;
      for (const word of all.rows[0].flatMap((c) => c.split(' ')).filter((w) => /^[\w.:@-]{4,}$/.test(w))) {
        const searched = await asAdmin(submitted(bar, word));
        expect([path, word, searched.status]).toEqual([path, word, 200]);
        found = rowsOf(String(searched.body)).count;
        expect(found).toBeLessThanOrEqual(all.count);
        if (found > 0) break;
      }
      expect([path, all.rows[0].join(' | '), found > 0]).toEqual([path, all.rows[0].join(' | '), true]);
    }
    const none = await asAdmin(submitted(bar, 'no-row-has-this-word'));
    expect([path, none.status, rowsOf(String(none.body)).count]).toEqual([path, 200, 0]);

    for (const select of bar.selects) {
      let total = 0;
      const shownAs = new Map<string, string>();
      for (const option of select.options.filter((o) => o.value !== '')) {
        const res = await asAdmin(submitted(bar, '', { [select.name]: option.value }));
        expect([path, select.name, option.value, res.status]).toEqual([path, select.name, option.value, 200]);
        const picked = rowsOf(String(res.body));
        total += picked.count;
        // the rows of a value all show one same cell in the select's column, and two values never the same one
        const column = picked.head.findIndex((h) => h.toLowerCase() === select.label.toLowerCase());
        if (column >= 0 && picked.count > 0 && picked.count <= 50) {
          const cells = new Set(picked.rows.map((r) => r[column]));
          expect([path, select.name, option.value, cells.size]).toEqual([path, select.name, option.value, 1]);
          const cell = [...cells][0];
          expect([path, select.name, option.value, shownAs.get(cell)]).toEqual([path, select.name, option.value, undefined]);
          shownAs.set(cell, option.value);
        }
      }
      expect([path, select.name, total <= all.count]).toEqual([path, select.name, true]);
      // a select whose values are the whole list's (no row without one) adds up to the list
      if (all.count > 0 && all.count <= 50) expect([path, select.name, total > 0]).toEqual([path, select.name, true]);
    }
  });
});
