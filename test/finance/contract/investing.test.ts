import { randomUUID } from 'node:crypto';
import { TOGGLES } from '../../../subgraphs/finance/kernel/contract';
import { AssetIssuerInvalidError } from '../../../subgraphs/finance/investing/domain/providers/types';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminPost, adminSignIn, changeNode, createUser, installValidLicence, login, type AdminSession } from '../../support/finance/node';
import { startProviders, type Providers } from '../../support/finance/investing';
import { invariants } from '../../support/finance/ledger';

/**
 * The investing module through the :8000 surface, against local servers that speak Alpaca's API and
 * Horizon's order book: instruments of the active provider only, quotes, orders with their ledger
 * reservation (pending → posted at the fill price with the rest released | voided), portfolios.
 */
let t: TestApp;
let p: Providers;
let admin: AdminSession;

beforeAll(async () => {
  p = await startProviders();
  t = await startTestApp(p.env);
  await installValidLicence(t);
  admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
  await t.app.services.investing.investing.syncInstruments({ provider: 'equities', trigger: 'test' });
  await t.app.services.investing.investing.syncInstruments({ provider: 'dex', trigger: 'test' });
});
afterAll(async () => {
  await t?.stop();
  await p?.close();
});

const { url, post } = surface(() => t.urls.finance);
const settings = (change: Record<string, unknown>) => changeNode(t, () => t.app.services.node.node.updateSettings(change, 'test'));
const services = () => t.app.services.investing;

/** A signed-in user with basic KYC and USD in the wallet. */
async function trader(usd = 1000n * 100n) {
  const user = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(user.id, 'basic');
  if (usd > 0n) await t.app.services.ledger.ledger.fund(user.id, 'USD', usd, randomUUID(), 'deposit');
  return { ...user, token: await login(t, user.username) };
}

const usd = async (token: string) => {
  const res = await http(url('/api/balance/'), { key: token });
  const b = (res.body.balances as { currency: string; available: { amount: string }; posted: { amount: string } }[]).find((x) => x.currency === 'USD');
  return { available: b?.available.amount, posted: b?.posted.amount };
};

describe('instruments', () => {
  it('lists only the active provider’s rows, and a switch in the admin console changes them for every client at once', async () => {
    const user = await trader(0n);
    const list = async () =>
      ((await http(url('/api/v1/instruments/'), { key: user.token })).body.results as { symbol: string; provider: string }[]).map((i) => i.symbol);
    expect(await list()).toEqual(['AAPL', 'BRK.A', 'TSLA']);
    const first = (await http(url('/api/v1/instruments/?limit=1'), { key: user.token })).body;
    expect(first.results).toEqual([
      {
        provider: 'equities_brokerage',
        symbol: 'AAPL',
        name: 'Apple Inc. Common Stock',
        asset_class: 'us_equity',
        issuer: null,
        tradable: true,
        fractionable: true,
        active: true,
        quote_currency: 'USD',
        last_price: null,
        last_price_at: null,
      },
    ]);
    const second = (await http(url(`/api/v1/instruments/?limit=1&cursor=${first.next_cursor}`), { key: user.token })).body;
    expect(second.results.map((i: { symbol: string }) => i.symbol)).toEqual(['BRK.A']);
    expect((await http(url('/api/v1/instruments/?cursor=garbage'), { key: user.token })).status).toBe(400);

    const form = Object.fromEntries(TOGGLES.flatMap((g) => (g.type === 'boolean' ? (g.default ? [[g.field, 'on']] : []) : [[g.field, String(g.default)]])));
    try {
      const saved = await changeNode(t, () => adminPost(t, admin, '/admin/node/settings/', { ...form, brokerageProvider: 'decentralized_exchange' }));
      expect(saved.status).toBe(302);
      expect(await list()).toEqual(['NVDAX', 'TSLAX']);
      // the DEX rows carry their issuer; entries without a valid one were skipped at load, with a warning
      const tslax = (await http(url('/api/v1/instruments/'), { key: user.token })).body.results[1];
      expect([tslax.issuer, tslax.quote_currency, tslax.asset_class]).toEqual([p.issuers.TSLAX, 'USDC', 'tokenized_equity']);
      expect(services().brokerages.registry().warnings).toEqual([
        'entry 3 (NOISS): skipped, no issuer address',
        'entry 4 (BADISS): skipped, the issuer "GNOTANADDRESS" is not a valid account id',
      ]);
      await settings({ brokerage_provider: 'market_data' });
      expect(await list()).toEqual([]);
    } finally {
      await settings({ brokerage_provider: 'equities_brokerage' });
    }
    expect(await list()).toEqual(['AAPL', 'BRK.A', 'TSLA']);
  });
});

describe('quotes', () => {
  it('equities: the mid of the live bid and ask, which becomes the cached price', async () => {
    const user = await trader(0n);
    const res = await http(url('/api/v1/instruments/AAPL/quote/'), { key: user.token });
    expect(res.status).toBe(200);
    expect({ ...res.body, at: undefined }).toEqual({ symbol: 'AAPL', bid: '199.9', ask: '200.1', price: '200', currency: 'USD', at: undefined });
    const aapl = (await http(url('/api/v1/instruments/?limit=1'), { key: user.token })).body.results[0];
    expect(aapl.last_price).toBe('200');
    expect((await http(url('/api/v1/instruments/NOPE/quote/'), { key: user.token })).status).toBe(404);
  });

  it('DEX: the order book mid; an empty book is a clear error; a bad issuer fails before any network call', async () => {
    const user = await trader(0n);
    await settings({ brokerage_provider: 'decentralized_exchange' });
    try {
      const res = await http(url('/api/v1/instruments/TSLAX/quote/'), { key: user.token });
      expect([res.status, res.body.bid, res.body.ask, res.body.price, res.body.currency]).toEqual([200, '250.0000000', '252.0000000', '251', 'USDC']);
      const empty = await http(url('/api/v1/instruments/NVDAX/quote/'), { key: user.token });
      expect([empty.status, empty.body.code]).toEqual([422, 'order_book_empty']);
      // a row whose issuer is not an account id (edited by hand): refused without asking Horizon
      await services().store.upsertInstruments('decentralized_exchange', [
        { symbol: 'ODDX', name: 'Odd', assetClass: 'tokenized_equity', issuer: 'GBAD', tradable: true, fractionable: true, quoteCurrency: 'USDC' },
      ]);
      const before = p.horizon.requests.get('/order_book') ?? 0;
      const bad = await http(url('/api/v1/instruments/ODDX/quote/'), { key: user.token });
      expect([bad.status, bad.body.code]).toEqual([422, 'asset_issuer_invalid']);
      await expect(
        services().brokerages.provider('decentralized_exchange').quote({ symbol: 'ODDX', issuer: null, quoteCurrency: 'USDC' }),
      ).rejects.toBeInstanceOf(AssetIssuerInvalidError);
      expect(p.horizon.requests.get('/order_book') ?? 0).toBe(before);
    } finally {
      await services().store.deactivateMissing('decentralized_exchange', ['TSLAX', 'NVDAX']);
      await settings({ brokerage_provider: 'equities_brokerage' });
    }
  });

  it('market-data provider: quotes, and buying and selling fail by design', async () => {
    const user = await trader();
    await settings({ brokerage_provider: 'market_data' });
    try {
      const q = await http(url('/api/v1/instruments/MSFT/quote/'), { key: user.token });
      expect([q.status, q.body.price]).toEqual([200, '410.5']);
      for (const side of ['buy', 'sell']) {
        const res = await post('/api/v1/orders/', user.token, { symbol: 'MSFT', side, qty: '1' });
        expect([res.status, res.body.code]).toEqual([422, 'trading_not_supported']);
      }
    } finally {
      await settings({ brokerage_provider: 'equities_brokerage' });
    }
    expect(await usd(user.token)).toEqual({ available: '1000.00', posted: '1000.00' });
  });
});

describe('orders', () => {
  it('buys a fractional share by notional: reserved at submit, posted at the fill price over partial fills, the rest released', async () => {
    const user = await trader();
    const res = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '100.00', client_order_id: 'first-buy' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      notional: '100',
      qty: null,
      status: 'accepted',
      filled_qty: '0',
      reserved: { amount: '100.00', currency: 'USD' },
    });
    expect(await usd(user.token)).toEqual({ available: '900.00', posted: '1000.00' });
    const sandboxOrder = p.alpaca.byClientOrderId('first-buy')!;
    expect(sandboxOrder).toMatchObject({ notional: '100', side: 'buy', type: 'market', time_in_force: 'day' });

    // a partial fill: a position, a fill, the money still reserved
    p.alpaca.fill(sandboxOrder.id, '0.2', '200', 'partially_filled');
    await services().investing.refreshOrders();
    const orders = (await http(url('/api/v1/orders/'), { key: user.token })).body.results;
    expect(orders[0]).toMatchObject({ id: res.body.id, status: 'partially_filled', filled_qty: '0.2', filled_avg_price: '200' });
    expect((await http(url('/api/v1/portfolio/'), { key: user.token })).body.positions[0]).toMatchObject({ symbol: 'AAPL', qty: '0.2', average_cost: '200' });
    await invariants(t.app.services.ledger.store.store, 'USD');

    // the rest fills at 210: 0.2 × 200 + 0.25 × 210 = 92.50 posted, 7.50 released
    p.alpaca.fill(sandboxOrder.id, '0.25', '210');
    await services().investing.refreshOrders();
    const done = (await http(url('/api/v1/orders/'), { key: user.token })).body.results[0];
    expect(done).toMatchObject({ status: 'filled', filled_qty: '0.45' });
    expect(await usd(user.token)).toEqual({ available: '907.50', posted: '907.50' });
    const portfolio = (await http(url('/api/v1/portfolio/'), { key: user.token })).body.positions;
    expect(portfolio).toEqual([
      expect.objectContaining({ symbol: 'AAPL', qty: '0.45', held_qty: '0', currency: 'USD', average_cost: '205.555555556', cost_basis: '92.50' }),
    ]);
    expect(portfolio[0].last_price).not.toBeNull();
    const fills = (await http(url('/api/v1/portfolio/fills/'), { key: user.token })).body.results;
    expect(fills.map((f: { qty: string; price: string }) => [f.qty, f.price])).toEqual([
      ['0.25', '210'],
      ['0.2', '200'],
    ]);
    await invariants(t.app.services.ledger.store.store, 'USD');

    // and sells it: proceeds at the fill price go to the wallet, the position closes
    p.alpaca.settings.autoFill = true;
    try {
      const sell = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'sell', qty: '0.45' });
      expect([sell.status, sell.body.status, sell.body.filled_avg_price]).toEqual([201, 'filled', '199.9']);
    } finally {
      p.alpaca.settings.autoFill = false;
    }
    // 0.45 × 199.90 = 89.955 → 89.96 (trade value rounds half up)
    expect(await usd(user.token)).toEqual({ available: '997.46', posted: '997.46' });
    expect((await http(url('/api/v1/portfolio/'), { key: user.token })).body.positions).toEqual([]);
    await invariants(t.app.services.ledger.store.store, 'USD');
  });

  it('a market buy by quantity reserves the live ask plus the buffer; cancel voids the reservation', async () => {
    const user = await trader();
    const res = await post('/api/v1/orders/', user.token, { symbol: 'TSLA', side: 'buy', qty: '2' });
    // 2 × 251.00 × 1.05
    expect([res.status, res.body.reserved, res.body.quote_price]).toEqual([201, { amount: '527.10', currency: 'USD' }, '250']);
    expect(await usd(user.token)).toEqual({ available: '472.90', posted: '1000.00' });
    const cancel = await http(url(`/api/v1/orders/${res.body.id}/`), { method: 'DELETE', key: user.token });
    expect([cancel.status, cancel.body.status]).toEqual([200, 'canceled']);
    expect(await usd(user.token)).toEqual({ available: '1000.00', posted: '1000.00' });
    const again = await http(url(`/api/v1/orders/${res.body.id}/`), { method: 'DELETE', key: user.token });
    expect([again.status, again.body.code]).toEqual([422, 'order_not_cancelable']);
    // someone else's order, or none
    const other = await trader(0n);
    expect((await http(url(`/api/v1/orders/${res.body.id}/`), { method: 'DELETE', key: other.token })).status).toBe(404);
    await invariants(t.app.services.ledger.store.store, 'USD');
  });

  it('a limit buy reserves quantity × limit; expiry at the provider voids it', async () => {
    const user = await trader();
    const res = await post('/api/v1/orders/', user.token, { symbol: 'TSLA', side: 'buy', type: 'limit', qty: '1', limit_price: '240.00' });
    expect([res.status, res.body.reserved.amount]).toEqual([201, '240.00']);
    p.alpaca.setStatus(p.alpaca.byClientOrderId(res.body.client_order_id)!.id, 'expired');
    await services().investing.refreshOrders();
    expect((await http(url('/api/v1/orders/'), { key: user.token })).body.results[0].status).toBe('expired');
    expect(await usd(user.token)).toEqual({ available: '1000.00', posted: '1000.00' });
  });

  it('validates: qty XOR notional, limit price for limits only, fractional rules, funds, position; nothing changes', async () => {
    const user = await trader(50n * 100n);
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ symbol: 'AAPL', side: 'buy', qty: '1', notional: '10' }, 400, 'invalid', 'notional'],
      [{ symbol: 'AAPL', side: 'buy' }, 400, 'invalid', 'qty'],
      [{ symbol: 'AAPL', side: 'buy', type: 'limit', qty: '1' }, 400, 'invalid', 'limit_price'],
      [{ symbol: 'AAPL', side: 'buy', qty: '1', limit_price: '10' }, 400, 'invalid', 'limit_price'],
      [{ symbol: 'AAPL', side: 'buy', qty: '-1' }, 400, 'invalid', 'qty'],
      [{ symbol: 'AAPL', side: 'hold', qty: '1' }, 400, 'invalid', 'side'],
      [{ symbol: 'BRK.A', side: 'buy', qty: '0.001' }, 422, 'fractional_not_allowed'],
      [{ symbol: 'AAPL', side: 'buy', qty: '1' }, 422, 'insufficient_funds'],
      [{ symbol: 'AAPL', side: 'sell', qty: '1' }, 422, 'insufficient_position'],
      [{ symbol: 'ZZZZ', side: 'buy', qty: '1' }, 404, 'not_found'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await post('/api/v1/orders/', user.token, body);
      expect([body, res.status, res.body.code]).toEqual([body, status, code]);
      if (field) expect(Object.keys(res.body.errors ?? {})).toContain(field);
    }
    await settings({ fractional_shares_enabled: false });
    try {
      for (const body of [
        { symbol: 'AAPL', side: 'buy', qty: '0.5' },
        { symbol: 'AAPL', side: 'buy', notional: '10' },
      ]) {
        const res = await post('/api/v1/orders/', user.token, body);
        expect([res.status, res.body.code]).toEqual([422, 'fractional_not_allowed']);
      }
    } finally {
      await settings({ fractional_shares_enabled: true });
    }
    expect(await usd(user.token)).toEqual({ available: '50.00', posted: '50.00' });
    expect((await http(url('/api/v1/orders/'), { key: user.token })).body.results).toEqual([]);
  });

  it("refuses a buy over the per-transaction limit of the trader's KYC level with 403 limit_exceeded: no order, nothing reserved", async () => {
    const user = await trader(3000n * 100n);
    const over = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '2000.01' });
    expect([over.status, over.body.code, over.body.limit, over.body.currency, over.body.period]).toEqual([
      403,
      'limit_exceeded',
      '2000.00',
      'USD',
      'transaction',
    ]);
    expect(await usd(user.token)).toEqual({ available: '3000.00', posted: '3000.00' });
    expect((await http(url('/api/v1/orders/'), { key: user.token })).body.results).toEqual([]);
    expect((await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '2000.00' })).status).toBe(201);
    expect(await usd(user.token)).toEqual({ available: '1000.00', posted: '3000.00' });
  });

  it('is idempotent by client_order_id and by Idempotency-Key: one order, one reservation', async () => {
    const user = await trader();
    const body = { symbol: 'AAPL', side: 'buy', notional: '10', client_order_id: `c-${randomUUID()}` };
    const [a, b] = [await post('/api/v1/orders/', user.token, body), await post('/api/v1/orders/', user.token, body)];
    expect([a.status, b.status, b.body.id]).toEqual([201, 201, a.body.id]);
    const reused = await post('/api/v1/orders/', user.token, { ...body, notional: '20' });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
    const key = randomUUID();
    const c = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '5' }, { 'idempotency-key': key });
    const d = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '5' }, { 'idempotency-key': key });
    expect(d.body.id).toBe(c.body.id);
    expect(
      [...p.alpaca.orders.values()].filter((o) => o.client_order_id === body.client_order_id || o.client_order_id === c.body.client_order_id),
    ).toHaveLength(2);
    expect(await usd(user.token)).toEqual({ available: '985.00', posted: '1000.00' });
  });

  it('asks for identity verification before money moves', async () => {
    const user = await createUser(t);
    const token = await login(t, user.username);
    const res = await post('/api/v1/orders/', token, { symbol: 'AAPL', side: 'buy', notional: '10' });
    expect([res.status, res.body.code]).toEqual([403, 'kyc_required']);
  });

  it('DEX: a market buy fills against the book’s best ask round the clock', async () => {
    const user = await trader(0n);
    await t.app.services.ledger.ledger.fund(user.id, 'USDC', 1000n * 10n ** 8n, randomUUID(), 'deposit');
    await settings({ brokerage_provider: 'decentralized_exchange' });
    try {
      const res = await post('/api/v1/orders/', user.token, { symbol: 'TSLAX', side: 'buy', qty: '2' });
      expect([res.status, res.body.status, res.body.filled_qty, res.body.filled_avg_price]).toEqual([201, 'filled', '2', '252']);
      const pos = (await http(url('/api/v1/portfolio/'), { key: user.token })).body.positions;
      expect(pos).toEqual([expect.objectContaining({ symbol: 'TSLAX', qty: '2', currency: 'USDC', cost_basis: '504.00000000' })]);
      await invariants(t.app.services.ledger.store.store, 'USDC');
    } finally {
      await settings({ brokerage_provider: 'equities_brokerage' });
    }
  });
});

describe('a switch of the active provider', () => {
  it('keeps the holdings at the previous provider in the portfolio, sellable there while it trades them', async () => {
    const user = await trader();
    p.alpaca.settings.autoFill = true;
    try {
      const bought = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', qty: '1' });
      expect([bought.status, bought.body.status]).toEqual([201, 'filled']);
      // the admin console switches to the market-data provider, which trades nothing
      await settings({ brokerage_provider: 'market_data' });
      try {
        const positions = (await http(url('/api/v1/portfolio/'), { key: user.token })).body.positions;
        expect(positions).toEqual([expect.objectContaining({ symbol: 'AAPL', provider: 'equities_brokerage', qty: '1', sellable: true })]);
        // a buy goes to the active provider, which cannot trade; the sell goes where the shares are
        expect((await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', qty: '1' })).body.code).toBe('trading_not_supported');
        const sold = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'sell', qty: '1' });
        expect([sold.status, sold.body.status]).toEqual([201, 'filled']);
        expect((await http(url('/api/v1/portfolio/'), { key: user.token })).body.positions).toEqual([]);
      } finally {
        await settings({ brokerage_provider: 'equities_brokerage' });
      }
    } finally {
      p.alpaca.settings.autoFill = false;
    }
    await invariants(t.app.services.ledger.store.store, 'USD');
  });
});

describe('the investments toggle', () => {
  it('refuses every route with 403 module_disabled while it is off', async () => {
    const user = await trader();
    await settings({ investments_enabled: false });
    try {
      for (const [method, path] of [
        ['GET', '/api/v1/instruments/'],
        ['GET', '/api/v1/instruments/AAPL/quote/'],
        ['POST', '/api/v1/orders/'],
        ['GET', '/api/v1/orders/'],
        ['DELETE', `/api/v1/orders/${randomUUID()}/`],
        ['GET', '/api/v1/portfolio/'],
        ['GET', '/api/v1/portfolio/fills/'],
      ]) {
        const res = await http(url(path), {
          method,
          key: user.token,
          ...(method === 'POST'
            ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ symbol: 'AAPL', side: 'buy', notional: '1' }) }
            : {}),
        });
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'module_disabled']);
      }
    } finally {
      await settings({ investments_enabled: true });
    }
    expect(await usd(user.token)).toEqual({ available: '1000.00', posted: '1000.00' });
  });
});

describe('admin console', () => {
  it('lists instruments by provider and active, orders by status, and the runs with the registry warnings', async () => {
    const page = (path: string) => http(url(path), { headers: { cookie: admin.cookie } });
    const dex = await page('/admin/investing/instrument/?provider=decentralized_exchange&active=yes');
    expect(dex.status).toBe(200);
    expect(dex.body).toContain('TSLAX');
    expect(dex.body).toContain(p.issuers.TSLAX);
    expect(dex.body).not.toContain('AAPL');
    const equities = await page('/admin/investing/instrument/?provider=equities_brokerage');
    expect(equities.body).toContain('Apple Inc. Common Stock');
    expect(equities.body).not.toContain('TSLAX');

    const user = await trader();
    const order = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '3' });
    const accepted = await page('/admin/investing/order/?status=accepted');
    expect(accepted.status).toBe(200);
    expect(accepted.body).toContain(order.body.id);
    expect((await page('/admin/investing/order/?status=filled')).body).not.toContain(order.body.id);
    expect((await page('/admin/investing/order/?status=bogus')).status).toBe(400);

    const runs = await page('/admin/investing/run/');
    expect(runs.body).toContain('entry 3 (NOISS): skipped, no issuer address');
    expect(runs.body).toMatch(/<td[^>]*>sync<\/td>\s*<td[^>]*>decentralized_exchange<\/td>\s*<td[^>]*>test<\/td>/);

    // a user's token is no way in, and no session is a redirect to the sign-in page
    expect((await http(url('/admin/investing/order/'), { key: user.token })).status).toBe(403);
    const anonymous = await http(url('/admin/investing/order/'));
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([302, '/admin/login/?next=%2Fadmin%2Finvesting%2Forder%2F']);
  });

  const page = (path: string) => http(url(path), { headers: { cookie: admin.cookie } });
  const csvLines = async (path: string) => {
    const res = await page(path);
    expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, expect.stringContaining('text/csv')]);
    return String(res.body).trim().split('\r\n');
  };

  it('instruments: search, the node’s filters in the toolbar, CSV export, and the node’s next window by cursor', async () => {
    const apple = await page('/admin/investing/instrument/?provider=equities_brokerage&q=apple');
    expect(apple.body).toContain('AAPL');
    expect(apple.body).not.toContain('TSLA');
    expect(apple.body).toContain('1 row · page 1 of 1');
    // the node's filters are the toolbar's, with every option, the chosen one selected
    expect(apple.body).toMatch(/<option value="equities_brokerage"\s+selected>/);
    expect(apple.body).toMatch(/<option value="decentralized_exchange"\s*>/);
    expect(apple.body).toMatch(/<select name="active" id="id_active">/);
    expect((await page('/admin/investing/instrument/?provider=equities_brokerage&active=no')).body).toContain('0 rows');

    const lines = await csvLines('/admin/investing/instrument/?provider=equities_brokerage&format=csv');
    expect(lines[0]).toBe('Provider,Symbol,Name,Class,Issuer,Tradable,Fractionable,Active,Last price,Priced at');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual([
      'equities_brokerage,AAPL',
      'equities_brokerage,BRK.A',
      'equities_brokerage,TSLA',
    ]);
    expect(await csvLines('/admin/investing/instrument/?provider=equities_brokerage&q=tesla&format=csv')).toEqual([
      lines[0],
      expect.stringMatching(/^equities_brokerage,TSLA,/),
    ]);

    // more instruments than the node answers at once: the first window is paged and searched, its link reaches the rest
    const symbols = Array.from({ length: 205 }, (_, i) => `MD${String(i).padStart(3, '0')}`);
    await services().store.upsertInstruments(
      'market_data',
      symbols.map((symbol) => ({
        symbol,
        name: `Window ${symbol}`,
        assetClass: 'us_equity',
        issuer: null,
        tradable: false,
        fractionable: false,
        quoteCurrency: 'USD',
      })),
    );
    const first = await page('/admin/investing/instrument/?provider=market_data');
    expect(first.body).toContain('200 rows · page 1 of 4');
    const next = /<a href="([^"]*cursor=[^"]*)">Next instruments →<\/a>/.exec(first.body)?.[1].replace(/&amp;/g, '&');
    expect(next).toMatch(/^\/admin\/investing\/instrument\/\?provider=market_data&cursor=/);
    const rest = await page(next!);
    expect(rest.body).toContain('5 rows · page 1 of 1');
    expect(rest.body).toContain('MD204');
    expect(rest.body).not.toContain('MD199');
    expect(rest.body).not.toContain('Next instruments →');
    expect(rest.body).toContain('First rows');
    // the window's own export and search keep its cursor
    const restCsv = await csvLines(`${next!}&format=csv`);
    expect(restCsv.slice(1).map((l) => l.split(',')[1])).toEqual(symbols.slice(200));
    expect((await page(`${next!}&q=MD203`)).body).toContain('1 row · page 1 of 1');
    expect((await page('/admin/investing/instrument/?provider=market_data&cursor=garbage')).status).toBe(400);
  });

  it('orders: search by order or user, the status filter with every status, CSV export', async () => {
    const user = await trader();
    const order = await post('/api/v1/orders/', user.token, { symbol: 'TSLA', side: 'buy', notional: '4' });
    expect(order.status).toBe(201);
    const other = await trader();
    const theirs = await post('/api/v1/orders/', other.token, { symbol: 'AAPL', side: 'buy', notional: '2' });

    const found = await page(`/admin/investing/order/?q=${user.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toContain(order.body.id);
    expect(found.body).not.toContain(theirs.body.id);
    expect(found.body).toContain('1 row · page 1 of 1');
    // every status is an option, whatever the rows are; the chosen one applies
    for (const status of ['accepted', 'filled', 'canceled']) expect(found.body).toContain(`<option value="${status}"`);
    expect((await page(`/admin/investing/order/?q=${user.id}&status=accepted`)).body).toContain(order.body.id);
    expect((await page(`/admin/investing/order/?q=${user.id}&status=filled`)).body).toContain('0 rows');
    // a column's filter over the rows: the symbol's provider
    expect((await page(`/admin/investing/order/?q=${user.id}&provider=equities_brokerage`)).body).toContain(order.body.id);

    const lines = await csvLines(`/admin/investing/order/?q=${user.id}&format=csv`);
    expect(lines[0]).toBe('Order,Submitted,User,Provider,Symbol,Side,Type,Qty / notional,Status,Filled,Avg price,Reserved');
    expect(lines).toHaveLength(2);
    expect(lines[1].split(',')).toEqual([
      order.body.id,
      expect.stringMatching(/ UTC$/),
      user.id,
      'equities_brokerage',
      'TSLA',
      'buy',
      'market',
      '4 USD',
      'accepted',
      '0',
      '—',
      expect.stringMatching(/ USD$/),
    ]);
  });

  it('runs: search, the Kind and Provider filters, CSV export; the registry warnings stay above', async () => {
    const dex = await page('/admin/investing/run/?q=decentralized_exchange');
    expect(dex.body).toContain('entry 3 (NOISS): skipped, no issuer address');
    expect(dex.body).toMatch(/<td[^>]*>sync<\/td>\s*<td[^>]*>decentralized_exchange<\/td>/);
    expect(dex.body).not.toMatch(/<td[^>]*>equities_brokerage<\/td>/);
    const equities = await page('/admin/investing/run/?kind=sync&provider=equities_brokerage');
    expect(equities.body).toMatch(/<td[^>]*>sync<\/td>\s*<td[^>]*>equities_brokerage<\/td>\s*<td[^>]*>test<\/td>/);
    expect(equities.body).not.toMatch(/<td[^>]*>decentralized_exchange<\/td>/);
    expect(equities.body).toMatch(/<select name="kind" id="id_kind">/);

    const lines = await csvLines('/admin/investing/run/?provider=decentralized_exchange&format=csv');
    expect(lines[0]).toBe('Run,Kind,Provider,Trigger,Started,Finished,OK,Failed,Deactivated,Error');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line.split(',').slice(1, 4)).toEqual(['sync', 'decentralized_exchange', 'test']);
  });
});
