import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminPost, adminSignIn, changeNode, createUser, installValidLicence, login, type AdminSession } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';
import { balanceOf, postWebhook } from '../../support/finance/money-modules';

/**
 * Crypto deposits and swaps (module `crypto`) through the REST surface: a deposit address per asset
 * from the (sandbox) exchange, a confirmed deposit credited once however often it is delivered,
 * swaps by quote (rate, fee, expiry) as one atomic multi-leg ledger batch, and the module's toggle.
 */
let t: TestApp;
let secret: string;
let admin: AdminSession;
beforeAll(async () => {
  t = await startTestApp();
  await installValidLicence(t);
  secret = (await t.app.services.crypto.exchange.webhookSecret())!;
  admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
});
afterAll(() => t?.stop());

const { url, post } = surface(() => t.urls.finance);

async function user(level: 'basic' | 'enhanced' = 'basic') {
  const u = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(u.id, level);
  return { ...u, token: await login(t, u.username) };
}

const confirmed = (depositId: string, address: string, asset: string, amount: string) => ({
  id: `evt_${randomUUID()}`,
  type: 'deposit.confirmed',
  data: { deposit: { id: depositId, address, asset, amount, tx_hash: `0x${depositId}` } },
});

async function confirmedDeposit(token: string, asset: string, amount: string) {
  const address = (await post('/api/v1/crypto/addresses/', token, { asset })).body.address as string;
  const res = await postWebhook(t, '/api/v1/webhooks/crypto/sandbox/', confirmed(`dep_${randomUUID()}`, address, asset, amount), secret);
  expect(res.status).toBe(200);
}

describe('deposit addresses and deposits', () => {
  it('gives one address per asset, and credits a confirmed deposit once however often (and in whatever form) it is delivered', async () => {
    const u = await user();
    const created = await post('/api/v1/crypto/addresses/', u.token, { asset: 'BTC' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      asset: 'BTC',
      network: 'bitcoin',
      address: expect.stringMatching(/^tb1q/),
      created_at: expect.any(String),
    });
    expect((await post('/api/v1/crypto/addresses/', u.token, { asset: 'BTC' })).body).toEqual(created.body);
    const eth = await post('/api/v1/crypto/addresses/', u.token, { asset: 'ETH' });
    expect([eth.status, eth.body.network, eth.body.address]).toEqual([201, 'ethereum', expect.stringMatching(/^0x[0-9a-f]{40}$/)]);
    const list = await http(url('/api/v1/crypto/addresses/'), { key: u.token });
    expect(list.body.results.map((a: { asset: string }) => a.asset)).toEqual(['BTC', 'ETH']);
    expect((await post('/api/v1/crypto/addresses/', u.token, { asset: 'DOGE' })).status).toBe(400);

    const event = confirmed('dep_1', created.body.address, 'BTC', '0.50000000');
    const first = await postWebhook(t, '/api/v1/webhooks/crypto/sandbox/', event, secret);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ asset: 'BTC', amount: { amount: '0.50000000', currency: 'BTC' }, status: 'credited', address: created.body.address });
    // redelivered, and concurrently; then the same deposit id claiming another amount
    await Promise.all(Array.from({ length: 4 }, () => postWebhook(t, '/api/v1/webhooks/crypto/sandbox/', { ...event, id: `evt_${randomUUID()}` }, secret)));
    const changed = await postWebhook(t, '/api/v1/webhooks/crypto/sandbox/', confirmed('dep_1', created.body.address, 'BTC', '5.00000000'), secret);
    expect([changed.status, changed.body.amount.amount]).toEqual([200, '0.50000000']);
    expect((await balanceOf(t, u.token, 'BTC'))!.posted.amount).toBe('0.50000000');
    const deposits = await http(url('/api/v1/crypto/deposits/'), { key: u.token });
    expect([deposits.body.results.length, deposits.body.next_cursor]).toEqual([1, null]);

    for (const [body, status] of [
      [confirmed('dep_2', created.body.address, 'BTC', '0.000000001'), 400],
      [confirmed('dep_3', created.body.address, 'ETH', '1.0'), 400],
      [confirmed('dep_4', 'tb1qunknown', 'BTC', '1.0'), 404],
    ] as const) {
      expect((await postWebhook(t, '/api/v1/webhooks/crypto/sandbox/', body, secret)).status).toBe(status);
    }
    const forged = await postWebhook(t, '/api/v1/webhooks/crypto/sandbox/', confirmed('dep_5', created.body.address, 'BTC', '9'), 'not the secret');
    expect([forged.status, forged.body.code]).toEqual([401, 'webhook_signature_invalid']);
    expect((await balanceOf(t, u.token, 'BTC'))!.posted.amount).toBe('0.50000000');
    await invariants(t.app.services.ledger.store.store, 'BTC');
  });
});

describe('quotes and swaps', () => {
  it('swaps by a fresh quote in one atomic batch (fee to revenue), once per quote, and refuses an expired quote with 422 quote_expired', async () => {
    // 1 ETH is over the per-transaction limit of the basic level (0.8 ETH)
    const u = await user('enhanced');
    await confirmedDeposit(u.token, 'ETH', '2.00000000');
    const quote = await post('/api/v1/crypto/quotes/', u.token, { from_asset: 'ETH', to_asset: 'USDC', from_amount: '1.00000000' });
    expect(quote.status).toBe(201);
    // sandbox: 1 ETH = 3000 USDC; fee 50 bps of the amount sold
    expect(quote.body).toEqual({
      id: expect.any(String),
      from_amount: { amount: '1.00000000', currency: 'ETH' },
      fee: { amount: '0.00500000', currency: 'ETH' },
      to_amount: { amount: '2985.00000000', currency: 'USDC' },
      rate: '3000',
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    const key = randomUUID();
    const swap = await post('/api/v1/crypto/swaps/', u.token, { quote_id: quote.body.id }, { 'idempotency-key': key });
    expect(swap.status).toBe(201);
    expect(swap.body).toMatchObject({ quote_id: quote.body.id, from_amount: quote.body.from_amount, fee: quote.body.fee, to_amount: quote.body.to_amount });
    expect((await post('/api/v1/crypto/swaps/', u.token, { quote_id: quote.body.id }, { 'idempotency-key': key })).body.id).toBe(swap.body.id);
    const reused = await post('/api/v1/crypto/swaps/', u.token, { quote_id: randomUUID() }, { 'idempotency-key': key });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
    expect((await post('/api/v1/crypto/swaps/', u.token, { quote_id: quote.body.id }, { 'idempotency-key': 'bad key' })).status).toBe(400);
    // the same quote under another key: the same swap, no second movement
    expect((await post('/api/v1/crypto/swaps/', u.token, { quote_id: quote.body.id }, { 'idempotency-key': randomUUID() })).body.id).toBe(swap.body.id);
    expect((await balanceOf(t, u.token, 'ETH'))!.posted.amount).toBe('1.00000000');
    expect((await balanceOf(t, u.token, 'USDC'))!.posted.amount).toBe('2985.00000000');
    const swaps = await http(url('/api/v1/crypto/swaps/'), { key: u.token });
    expect(swaps.body.results.map((s: { id: string }) => s.id)).toEqual([swap.body.id]);

    const stale = await post('/api/v1/crypto/quotes/', u.token, { from_asset: 'ETH', to_asset: 'BTC', from_amount: '0.50000000' });
    await t.app.services.crypto.store.store.pool.query(`UPDATE crypto.quote SET expires_at = now() - interval '1 second' WHERE id = $1`, [stale.body.id]);
    const expired = await post('/api/v1/crypto/swaps/', u.token, { quote_id: stale.body.id }, { 'idempotency-key': randomUUID() });
    expect([expired.status, expired.body.code]).toEqual([422, 'quote_expired']);
    expect((await balanceOf(t, u.token, 'ETH'))!.posted.amount).toBe('1.00000000');
    for (const currency of ['ETH', 'USDC', 'BTC']) await invariants(t.app.services.ledger.store.store, currency);
  });

  it("refuses a swap beyond the balance (422 insufficient_funds), another user's quote (404), and bad quotes (400), moving nothing", async () => {
    const u = await user();
    await confirmedDeposit(u.token, 'BTC', '0.10000000');
    const big = await post('/api/v1/crypto/quotes/', u.token, { from_asset: 'BTC', to_asset: 'ETH', from_amount: '1.00000000' });
    const broke = await post('/api/v1/crypto/swaps/', u.token, { quote_id: big.body.id });
    expect([broke.status, broke.body.code]).toEqual([422, 'insufficient_funds']);
    const other = await user();
    expect((await post('/api/v1/crypto/swaps/', other.token, { quote_id: big.body.id })).status).toBe(404);
    for (const body of [
      { from_asset: 'BTC', to_asset: 'BTC', from_amount: '0.1' },
      { from_asset: 'BTC', to_asset: 'ETH', from_amount: '0.000000001' },
      { from_asset: 'BTC', to_asset: 'ETH', from_amount: '0.00000001' },
      { from_asset: 'BTC', to_asset: 'ETH', from_amount: 1 },
    ]) {
      const res = await post('/api/v1/crypto/quotes/', u.token, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'invalid']);
    }
    expect((await post('/api/v1/crypto/swaps/', u.token, { quote_id: 'nope' })).status).toBe(404);
    expect((await balanceOf(t, u.token, 'BTC'))!.posted.amount).toBe('0.10000000');
    expect((await balanceOf(t, u.token, 'ETH'))?.posted.amount ?? '0.00000000').toBe('0.00000000');
  });

  it("refuses a swap over the per-transaction limit of the user's KYC level with 403 limit_exceeded, moving nothing", async () => {
    const u = await user();
    await confirmedDeposit(u.token, 'ETH', '1.00000000');
    const quote = await post('/api/v1/crypto/quotes/', u.token, { from_asset: 'ETH', to_asset: 'USDC', from_amount: '0.90000000' });
    const over = await post('/api/v1/crypto/swaps/', u.token, { quote_id: quote.body.id });
    expect([over.status, over.body.code, over.body.limit, over.body.currency, over.body.period]).toEqual([
      403,
      'limit_exceeded',
      '0.80000000',
      'ETH',
      'transaction',
    ]);
    expect((await balanceOf(t, u.token, 'ETH'))!.posted.amount).toBe('1.00000000');
    expect((await balanceOf(t, u.token, 'USDC'))?.posted.amount ?? '0.00000000').toBe('0.00000000');
    expect((await http(url('/api/v1/crypto/swaps/'), { key: u.token })).body.results).toEqual([]);
    const within = await post('/api/v1/crypto/quotes/', u.token, { from_asset: 'ETH', to_asset: 'USDC', from_amount: '0.80000000' });
    expect((await post('/api/v1/crypto/swaps/', u.token, { quote_id: within.body.id })).status).toBe(201);
  });

  it('refuses a swap below the KYC level the node requires with 403 kyc_required', async () => {
    const u = await createUser(t);
    const token = await login(t, u.username);
    const quote = await post('/api/v1/crypto/quotes/', token, { from_asset: 'BTC', to_asset: 'ETH', from_amount: '0.1' });
    const res = await post('/api/v1/crypto/swaps/', token, { quote_id: quote.body.id });
    expect([res.status, res.body.code]).toEqual([403, 'kyc_required']);
  });
});

describe('the crypto toggle', () => {
  it('refuses every crypto route with 403 module_disabled while it is off, and lists the module in the admin console', async () => {
    const u = await user();
    const address = (await post('/api/v1/crypto/addresses/', u.token, { asset: 'USDT' })).body.address as string;
    const off = await changeNode(t, () => adminPost(t, admin, '/admin/node/settings/', { kycRequired: 'on', brokerageProvider: 'equities_brokerage' }));
    expect(off.status).toBe(302);
    try {
      for (const [method, path, body] of [
        ['POST', '/api/v1/crypto/addresses/', { asset: 'BTC' }],
        ['GET', '/api/v1/crypto/addresses/', undefined],
        ['GET', '/api/v1/crypto/deposits/', undefined],
        ['POST', '/api/v1/crypto/quotes/', { from_asset: 'BTC', to_asset: 'ETH', from_amount: '0.1' }],
        ['POST', '/api/v1/crypto/swaps/', { quote_id: randomUUID() }],
        ['GET', '/api/v1/crypto/swaps/', undefined],
      ] as const) {
        const res = await http(url(path), {
          method,
          key: u.token,
          ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
        });
        expect([method, path, res.status, res.body.code, res.body.module]).toEqual([method, path, 403, 'module_disabled', 'crypto']);
      }
      // money that arrived is still credited
      const credited = await postWebhook(t, '/api/v1/webhooks/crypto/sandbox/', confirmed(`dep_${randomUUID()}`, address, 'USDT', '10'), secret);
      expect([credited.status, credited.body.status]).toEqual([200, 'credited']);
      // the admin console keeps its lists
      for (const path of ['/admin/crypto/address/', '/admin/crypto/deposit/', '/admin/crypto/swap/']) {
        const page = await http(url(path), { headers: { cookie: admin.cookie } });
        expect([path, page.status]).toEqual([path, 200]);
      }
      expect((await http(url('/admin/crypto/address/'), { headers: { cookie: admin.cookie } })).body).toContain(address);
    } finally {
      await changeNode(t, () =>
        adminPost(t, admin, '/admin/node/settings/', { kycRequired: 'on', cryptoEnabled: 'on', brokerageProvider: 'equities_brokerage' }),
      );
    }
    expect((await http(url('/api/v1/crypto/addresses/'), { key: u.token })).status).toBe(200);
  });
});
