import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminPost, adminSignIn, changeNode, createUser, installValidLicence, login, runCli } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';
import { setVerifiedPhone } from '../../support/finance/phone';
import { HttpRates } from '../../../subgraphs/finance/payments/domain/rates';

/**
 * The payments routes of the :8000 surface, exactly: transfers between users (by user name, e-mail,
 * phone) with idempotency (replay, 409 in flight, 422 reused), KYC gate and limits; accounts,
 * transactions with cursor pagination and date filters, receipts; FX quotes and conversions (expired,
 * reused, atomic with the fee to revenue); the HTTP rates client against a local rates server.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await installValidLicence(t);
  // the node asks for basic KYC (its default); the users below are verified at that level
});
afterAll(() => t?.stop());

const { url, get, post } = surface(() => t.urls.finance);

async function verifiedUser(level: 'none' | 'basic' | 'enhanced' = 'basic', fund: Record<string, bigint> = {}) {
  const user = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(user.id, level);
  for (const [currency, minor] of Object.entries(fund)) await t.app.services.ledger.ledger.fund(user.id, currency, minor, randomUUID());
  return { ...user, token: await login(t, user.username) };
}

async function availableIn(token: string, currency: string) {
  const res = await get('/api/v1/accounts/', token);
  return (res.body.results as { currency: string; available: { amount: string } }[]).find((a) => a.currency === currency)?.available.amount;
}

describe('POST /api/v1/transfers/', () => {
  it('sends money by user name, e-mail or phone: 201 with the transfer, both balances moved, a receipt for each side', async () => {
    const alice = await verifiedUser('basic', { EUR: 100_00n });
    const bob = await verifiedUser();
    const res = await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '12.50', currency: 'EUR', note: 'lunch' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'posted',
      amount: { amount: '12.50', currency: 'EUR' },
      sender: alice.username,
      recipient: bob.username,
      note: 'lunch',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
    });
    expect(await availableIn(alice.token, 'EUR')).toBe('87.50');
    expect(await availableIn(bob.token, 'EUR')).toBe('12.50');
    const receipt = await get(`/api/v1/transactions/${res.body.id}/receipt/`, bob.token);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({
      id: res.body.id,
      direction: 'credit',
      status: 'posted',
      code: 'transfer',
      note: 'lunch',
      counterparty: alice.username,
    });
    expect((await get(`/api/v1/transactions/${res.body.id}/receipt/`, alice.token)).body).toMatchObject({ direction: 'debit', counterparty: bob.username });
    // someone else's transaction is not found
    const carol = await verifiedUser();
    expect((await get(`/api/v1/transactions/${res.body.id}/receipt/`, carol.token)).status).toBe(404);

    // by e-mail (case-insensitive)
    await t.app.services.identity.store.pool.query('UPDATE identity.node_user SET email = $2 WHERE id = $1', [bob.id, `${bob.username}@example.com`]);
    const byEmail = await post('/api/v1/transfers/', alice.token, { recipient: `${bob.username.toUpperCase()}@Example.com`, amount: '1.00', currency: 'EUR' });
    expect([byEmail.status, byEmail.body.recipient]).toEqual([201, bob.username]);
    // by phone, once its owner verified it with the code sent to it (test/finance/contract/phone-verification.test.ts has the rest)
    const verified = await setVerifiedPhone(t, bob.token, '+44 7911 123456');
    expect(verified).toEqual({ username: bob.username, phone: '+447911123456', verified: true });
    const taken = await http(url('/api/v1/profile/phone/'), {
      method: 'PUT',
      key: carol.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+447911123456' }),
    });
    expect(taken.status).toBe(409);
    const bad = await http(url('/api/v1/profile/phone/'), {
      method: 'PUT',
      key: carol.token,
      headers: { 'content-type': 'application/json' },
      body: '{"phone":"12"}',
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid']);
    const byPhone = await post('/api/v1/transfers/', alice.token, { recipient: '+447911123456', amount: '1.00', currency: 'EUR' });
    expect([byPhone.status, byPhone.body.recipient]).toEqual([201, bob.username]);
    expect(await availableIn(bob.token, 'EUR')).toBe('14.50');
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it('refuses bad input with 4xx and moves nothing', async () => {
    const alice = await verifiedUser('basic', { EUR: 10_00n });
    const bob = await verifiedUser();
    const cases: [unknown, number, string][] = [
      [{ recipient: bob.username, amount: '1.001', currency: 'EUR' }, 400, 'invalid'],
      [{ recipient: bob.username, amount: '-1', currency: 'EUR' }, 400, 'invalid'],
      [{ recipient: bob.username, amount: '1', currency: 'XXX' }, 400, 'invalid'],
      [{ recipient: bob.username, amount: 1, currency: 'EUR' }, 400, 'invalid'],
      [{ recipient: alice.username, amount: '1', currency: 'EUR' }, 400, 'invalid'],
      [{ recipient: 'nobody-here', amount: '1', currency: 'EUR' }, 404, 'recipient_not_found'],
      [{ recipient: bob.username, amount: '10.01', currency: 'EUR' }, 422, 'insufficient_funds'],
      [{ recipient: bob.username, amount: '1', currency: 'EUR', note: 'x'.repeat(141) }, 400, 'invalid'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post('/api/v1/transfers/', alice.token, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), status, code]);
    }
    expect(await availableIn(alice.token, 'EUR')).toBe('10.00');
    expect((await http(url('/api/v1/transfers/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  it('leaves no account behind when it refuses a transfer in a currency a user holds no wallet in; an applied one creates the wallet', async () => {
    const alice = await verifiedUser('basic', { USD: 3000_00n });
    const bob = await verifiedUser();
    const pool = t.app.services.ledger.store.store.pool;
    const accounts = async () =>
      (await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger.account WHERE owner_id = ANY($1::uuid[])', [[alice.id, bob.id]])).rows[0].n;
    const before = await accounts();
    // alice holds no CHF: refused, and neither alice's nor bob's CHF wallet exists
    const noFunds = await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '1.00', currency: 'CHF' });
    expect([noFunds.status, noFunds.body.code]).toEqual([422, 'insufficient_funds']);
    // bob holds no USD, alice asks for more than her level's limit: refused, bob gets no USD wallet
    const overLimit = await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '2000.01', currency: 'USD' });
    expect([overLimit.status, overLimit.body.code]).toEqual([403, 'limit_exceeded']);
    expect(await accounts()).toBe(before);
    expect((await get('/api/v1/accounts/', bob.token)).body.results).toEqual([]);
    // the same transfer within the limit creates bob's wallet with it
    expect((await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '20.00', currency: 'USD' })).status).toBe(201);
    expect(await availableIn(bob.token, 'USD')).toBe('20.00');
    expect(Number(await accounts())).toBe(Number(before) + 1);
    await invariants(t.app.services.ledger.store.store, 'USD');
  });

  it('is idempotent: a replay answers the first response and moves money once; another body is 422; a malformed key 400', async () => {
    const alice = await verifiedUser('basic', { GBP: 50_00n });
    const bob = await verifiedUser();
    const key = randomUUID();
    const body = { recipient: bob.username, amount: '5.00', currency: 'GBP' };
    const first = await post('/api/v1/transfers/', alice.token, body, { 'idempotency-key': key });
    const again = await post('/api/v1/transfers/', alice.token, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect([again.status, again.body]).toEqual([201, first.body]);
    // X-Request-ID is the fallback key
    const viaRequestId = await post('/api/v1/transfers/', alice.token, body, { 'x-request-id': key });
    expect(viaRequestId.body).toEqual(first.body);
    const reused = await post('/api/v1/transfers/', alice.token, { ...body, amount: '6.00' }, { 'idempotency-key': key });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
    const malformed = await post('/api/v1/transfers/', alice.token, body, { 'idempotency-key': 'two words' });
    expect(malformed.status).toBe(400);
    // concurrent requests with one key: one runs; the others are replayed or told it is in flight (409 with Retry-After)
    const racing = randomUUID();
    const results = await Promise.all(Array.from({ length: 8 }, () => post('/api/v1/transfers/', alice.token, body, { 'idempotency-key': racing })));
    for (const r of results) expect([201, 409]).toContain(r.status);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.code).toBe('idempotency_in_flight');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    expect(await availableIn(alice.token, 'GBP')).toBe('40.00');
  });

  it("applies the KYC gate and the limits of the sender's level (403 kyc_required, 403 limit_exceeded with limit, currency, remaining)", async () => {
    const unverified = await verifiedUser('none', { EUR: 10_000_00n });
    const bob = await verifiedUser();
    const refused = await post('/api/v1/transfers/', unverified.token, { recipient: bob.username, amount: '1.00', currency: 'EUR' });
    expect([refused.status, refused.body.code, refused.body.required, refused.body.level]).toEqual([403, 'kyc_required', 'basic', 'none']);
    const alice = await verifiedUser('basic', { EUR: 10_000_00n });
    const over = await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '2000.01', currency: 'EUR' });
    expect([over.status, over.body.code, over.body.limit, over.body.currency, over.body.remaining]).toEqual([
      403,
      'limit_exceeded',
      '2000.00',
      'EUR',
      '2000.00',
    ]);
    for (let i = 0; i < 2; i++)
      expect((await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '2000.00', currency: 'EUR' })).status).toBe(201);
    const daily = await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '1000.01', currency: 'EUR' });
    expect([daily.status, daily.body.code, daily.body.limit, daily.body.remaining]).toEqual([403, 'limit_exceeded', '5000.00', '1000.00']);
    expect(await availableIn(alice.token, 'EUR')).toBe('6000.00');
    // the node without KYC requirements: the unverified user moves money within the "none" limits
    await changeNode(t, () => t.app.services.node.node.updateSettings({ kyc_required: false }, 'test'));
    try {
      const small = await post('/api/v1/transfers/', unverified.token, { recipient: bob.username, amount: '150.00', currency: 'EUR' });
      expect(small.status).toBe(201);
      const more = await post('/api/v1/transfers/', unverified.token, { recipient: bob.username, amount: '150.01', currency: 'EUR' });
      expect([more.status, more.body.code]).toEqual([403, 'limit_exceeded']);
    } finally {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ kyc_required: true }, 'test'));
    }
  });
});

describe('GET /api/v1/accounts/ and /api/v1/transactions/', () => {
  it('lists the accounts, and the transactions newest first, by cursor, per account, between dates', async () => {
    const alice = await verifiedUser('basic', { EUR: 100_00n, GBP: 100_00n });
    const bob = await verifiedUser();
    for (let i = 1; i <= 5; i++)
      expect((await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: `${i}.00`, currency: 'EUR' })).status).toBe(201);
    const accounts = await get('/api/v1/accounts/', alice.token);
    expect(accounts.status).toBe(200);
    expect(accounts.body.results.map((a: { currency: string }) => a.currency)).toEqual(['EUR', 'GBP']);
    expect(accounts.body.results[0]).toEqual({
      id: expect.any(String),
      currency: 'EUR',
      type: 'wallet',
      available: { amount: '85.00', currency: 'EUR' },
      posted: { amount: '85.00', currency: 'EUR' },
      pending: { amount: '85.00', currency: 'EUR' },
    });
    const eur = accounts.body.results[0].id as string;
    const page1 = await get(`/api/v1/transactions/?account=${eur}&limit=4`, alice.token);
    expect(page1.status).toBe(200);
    expect(page1.body.results.map((l: { amount: { amount: string } }) => l.amount.amount)).toEqual(['5.00', '4.00', '3.00', '2.00']);
    expect(page1.body.results[0]).toMatchObject({ account_id: eur, direction: 'debit', status: 'posted', code: 'transfer', counterparty: bob.username });
    const page2 = await get(`/api/v1/transactions/?account=${eur}&limit=4&cursor=${page1.body.next_cursor}`, alice.token);
    expect(page2.body.results.map((l: { amount: { amount: string } }) => l.amount.amount)).toEqual(['1.00', '100.00']);
    expect(page2.body.next_cursor).toBeNull();
    expect((await get('/api/v1/transactions/?limit=100', alice.token)).body.results).toHaveLength(7);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/api/v1/transactions/?from=${tomorrow}`, alice.token)).body.results).toEqual([]);
    expect((await get(`/api/v1/transactions/?to=${tomorrow}`, alice.token)).body.results).toHaveLength(7);
    // another user's account lists nothing of theirs
    expect((await get(`/api/v1/transactions/?account=${eur}`, bob.token)).body.results).toEqual([]);
    for (const q of ['limit=0', 'limit=201', 'from=yesterday', 'account=nope', 'cursor=bm9wZQ']) {
      const res = await get(`/api/v1/transactions/?${q}`, alice.token);
      expect([q, res.status, res.body.code]).toEqual([q, 400, 'invalid']);
    }
  });
});

describe('GET /api/v1/transactions/ filters', () => {
  it('filters by direction and status on the node (pages stay full and keep the filters); an unknown value is 400', async () => {
    const alice = await verifiedUser('basic', { EUR: 100_00n });
    const bob = await verifiedUser('basic', { EUR: 50_00n });
    for (let i = 1; i <= 3; i++)
      expect((await post('/api/v1/transfers/', alice.token, { recipient: bob.username, amount: `${i}.00`, currency: 'EUR' })).status).toBe(201);
    for (let i = 1; i <= 2; i++)
      expect((await post('/api/v1/transfers/', bob.token, { recipient: alice.username, amount: `0.${i}0`, currency: 'EUR' })).status).toBe(201);
    // a hold that is still pending, and one voided
    const ledger = t.app.services.ledger.ledger;
    const clearing = await ledger.account('system', '00000000-0000-0000-0000-000000000000', 'EUR', 'payments:clearing');
    const wallet = (await ledger.wallet(alice.id, 'EUR')).id;
    const [held, voided] = [randomUUID(), randomUUID()];
    await ledger.createTransfers([{ id: held, debitAccountId: wallet, creditAccountId: clearing.id, amount: 4_00n, code: 'withdrawal', kind: 'pending' }]);
    await ledger.createTransfers([{ id: voided, debitAccountId: wallet, creditAccountId: clearing.id, amount: 5_00n, code: 'withdrawal', kind: 'pending' }]);
    await ledger.voidPending(voided, 'test');

    const amounts = (res: { body: { results: { amount: { amount: string } }[] } }) => res.body.results.map((l) => l.amount.amount);
    // money out, newest first, two per page: each page full, the cursor keeps the filter
    const out1 = await get('/api/v1/transactions/?direction=debit&limit=2', alice.token);
    expect([out1.status, amounts(out1)]).toEqual([200, ['5.00', '4.00']]);
    const out2 = await get(`/api/v1/transactions/?direction=debit&limit=2&cursor=${out1.body.next_cursor}`, alice.token);
    expect(amounts(out2)).toEqual(['3.00', '2.00']);
    const out3 = await get(`/api/v1/transactions/?direction=debit&limit=2&cursor=${out2.body.next_cursor}`, alice.token);
    expect([amounts(out3), out3.body.next_cursor]).toEqual([['1.00'], null]);
    expect(amounts(await get('/api/v1/transactions/?direction=credit', alice.token))).toEqual(['0.20', '0.10', '100.00']);
    expect(amounts(await get('/api/v1/transactions/?status=pending', alice.token))).toEqual(['4.00']);
    expect((await get('/api/v1/transactions/?status=voided', alice.token)).body.results).toMatchObject([{ id: voided, status: 'voided' }]);
    expect(amounts(await get('/api/v1/transactions/?status=posted&direction=debit', alice.token))).toEqual(['3.00', '2.00', '1.00']);
    expect((await get('/api/v1/transactions/?status=expired', alice.token)).body.results).toEqual([]);
    // with the dates too
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/api/v1/transactions/?direction=credit&from=${tomorrow}`, alice.token)).body.results).toEqual([]);
    for (const q of ['direction=out', 'direction=DEBIT', 'status=done', 'status=', 'direction=debit&direction=credit']) {
      const res = await get(`/api/v1/transactions/?${q}`, alice.token);
      expect([q, res.status, res.body.code]).toEqual([q, 400, 'invalid']);
    }
  });
});

describe('FX: POST /api/v1/fx/quotes/ and /api/v1/fx/conversions/', () => {
  it('quotes rate, fee and amounts, converts atomically once (fee to revenue), refuses an expired or used quote', async () => {
    const alice = await verifiedUser('basic', { EUR: 1_000_00n });
    const quote = await post('/api/v1/fx/quotes/', alice.token, { source_currency: 'EUR', target_currency: 'GBP', source_amount: '100.00' });
    expect(quote.status).toBe(201);
    // sandbox rate 0.86; fee 0.5 % of 100.00 = 0.50; (100.00 − 0.50) × 0.86 = 85.57
    expect(quote.body).toEqual({
      id: expect.any(String),
      source_amount: { amount: '100.00', currency: 'EUR' },
      target_amount: { amount: '85.57', currency: 'GBP' },
      fee: { amount: '0.50', currency: 'EUR' },
      rate: '0.86',
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    const key = randomUUID();
    const conversion = await post('/api/v1/fx/conversions/', alice.token, { quote_id: quote.body.id }, { 'idempotency-key': key });
    expect(conversion.status).toBe(201);
    expect(conversion.body).toMatchObject({ quote_id: quote.body.id, status: 'completed', target_amount: { amount: '85.57', currency: 'GBP' } });
    expect((await post('/api/v1/fx/conversions/', alice.token, { quote_id: quote.body.id }, { 'idempotency-key': key })).body).toEqual(conversion.body);
    const reused = await post('/api/v1/fx/conversions/', alice.token, { quote_id: quote.body.id });
    expect([reused.status, reused.body.code]).toEqual([409, 'quote_used']);
    expect(await availableIn(alice.token, 'EUR')).toBe('900.00');
    expect(await availableIn(alice.token, 'GBP')).toBe('85.57');
    const { rows } = await t.app.services.ledger.store.pool.query(
      `SELECT (credits_posted - debits_posted)::text AS balance FROM ledger.account WHERE owner_type = 'system' AND code = 'fx_revenue' AND currency = 'EUR'`,
    );
    expect(BigInt(rows[0].balance) >= 50n).toBe(true);
    for (const c of ['EUR', 'GBP']) await invariants(t.app.services.ledger.store.store, c);

    // expired: refused, nothing moves
    const late = await post('/api/v1/fx/quotes/', alice.token, { source_currency: 'EUR', target_currency: 'USD', source_amount: '10.00' });
    await t.app.services.payments.store.store.pool.query(`UPDATE payments.fx_quote SET expires_at = now() - interval '1 second' WHERE id = $1`, [late.body.id]);
    const expired = await post('/api/v1/fx/conversions/', alice.token, { quote_id: late.body.id });
    expect([expired.status, expired.body.code]).toEqual([422, 'quote_expired']);
    expect(await availableIn(alice.token, 'USD')).toBeUndefined();
    // someone else's quote is not found; insufficient funds leaves the quote usable
    const bob = await verifiedUser('basic');
    expect((await post('/api/v1/fx/conversions/', bob.token, { quote_id: late.body.id })).status).toBe(404);
    const big = await post('/api/v1/fx/quotes/', bob.token, { source_currency: 'EUR', target_currency: 'GBP', source_amount: '10.00' });
    const short = await post('/api/v1/fx/conversions/', bob.token, { quote_id: big.body.id });
    expect([short.status, short.body.code]).toEqual([422, 'insufficient_funds']);
    await t.app.services.ledger.ledger.fund(bob.id, 'EUR', 10_00n, randomUUID());
    expect((await post('/api/v1/fx/conversions/', bob.token, { quote_id: big.body.id })).status).toBe(201);
  });

  it('refuses bad quotes with 400', async () => {
    const alice = await verifiedUser('basic');
    for (const body of [
      { source_currency: 'EUR', target_currency: 'EUR', source_amount: '1' },
      { source_currency: 'EUR', target_currency: 'BTC', source_amount: '1' },
      { source_currency: 'EUR', target_currency: 'GBP', source_amount: '0' },
      { source_currency: 'EUR', target_currency: 'GBP', source_amount: '1.234' },
      { source_currency: 'EUR', target_currency: 'GBP' },
    ]) {
      const res = await post('/api/v1/fx/quotes/', alice.token, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await post('/api/v1/fx/conversions/', alice.token, { quote_id: randomUUID() })).status).toBe(404);
  });
});

describe('HttpRates against a local rates server (Frankfurter protocol)', () => {
  let server: Server;
  let base: string;
  let failures = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const u = new URL(req.url!, 'http://x');
      if (u.pathname !== '/latest') return void res.writeHead(404).end();
      if (failures > 0) {
        failures--;
        return void res.writeHead(502).end();
      }
      const symbol = u.searchParams.get('symbols')!;
      if (symbol === 'XOF') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"amount":1.0,"base":"${u.searchParams.get('base')}","date":"2026-11-20","rates":{"${symbol}":0.1234567890123}}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('reads the rate exactly from the JSON text, retries a fault once, and maps failures to 400 / 503', async () => {
    const rates = new HttpRates(base);
    expect(await rates.rate('EUR', 'GBP')).toBe('0.1234567890123');
    failures = 1;
    expect(await rates.rate('EUR', 'USD')).toBe('0.1234567890123');
    failures = 2;
    await expect(rates.rate('EUR', 'USD')).rejects.toMatchObject({ code: 'RATES_UNAVAILABLE', status: 503 });
    await expect(rates.rate('EUR', 'XOF')).rejects.toMatchObject({ status: 400 });
    await expect(new HttpRates('http://127.0.0.1:1').rate('EUR', 'GBP')).rejects.toMatchObject({ code: 'RATES_UNAVAILABLE' });
  });
});

describe('admin console and finance:reconcile', () => {
  it('lists a stuck pending transfer and voids it once, shows provider events and a reconciliation with zero drift; the CLI agrees', async () => {
    const admin = await createUser(t, `admin_${randomUUID().slice(0, 6)}`, { superuser: true });
    const session = await adminSignIn(t, admin.username);
    const alice = await verifiedUser('basic', { EUR: 20_00n });
    const ledger = t.app.services.ledger.ledger;
    const clearing = await ledger.account('system', '00000000-0000-0000-0000-000000000000', 'EUR', 'payments:clearing');
    const hold = randomUUID();
    await ledger.createTransfers([
      { id: hold, debitAccountId: (await ledger.wallet(alice.id, 'EUR')).id, creditAccountId: clearing.id, amount: 7_00n, code: 'withdrawal', kind: 'pending' },
    ]);
    expect(await availableIn(alice.token, 'EUR')).toBe('13.00');
    const pending = await http(url('/admin/ledger/pending/'), { headers: { cookie: session.cookie } });
    expect(pending.status).toBe(200);
    expect(pending.body).toContain(hold);
    const voided = await adminPost(t, session, `/admin/ledger/pending/${hold}/void/`, {});
    expect([voided.status, voided.headers.get('location')]).toEqual([302, '/admin/ledger/pending/?saved=1']);
    expect(await availableIn(alice.token, 'EUR')).toBe('20.00');
    expect((await http(url('/admin/ledger/pending/'), { headers: { cookie: session.cookie } })).body).not.toContain(hold);
    // a second void changes nothing (the void's id is derived from the pending transfer's)
    expect((await adminPost(t, session, `/admin/ledger/pending/${hold}/void/`, {})).status).toBe(302);
    expect((await get(`/api/v1/transactions/${hold}/receipt/`, alice.token)).body.status).toBe('voided');
    // without a session: the login page, nothing voided
    expect((await http(url('/admin/ledger/reconciliation/'), {})).status).toBe(302);

    const events = t.app.services.payments.store;
    const delivery = { provider: 'sandbox-rail', eventId: `evt_${randomUUID()}`, type: 'credit.received', payload: { amount: '1.00' } };
    expect((await events.recordEvent(delivery)).created).toBe(true);
    expect((await events.recordEvent(delivery)).created).toBe(false);
    const eventsPage = await http(url('/admin/ledger/providerevent/'), { headers: { cookie: session.cookie } });
    expect(eventsPage.status).toBe(200);
    expect((eventsPage.body as string).split(delivery.eventId)).toHaveLength(2);

    const reconciliation = await http(url('/admin/ledger/reconciliation/'), { headers: { cookie: session.cookie } });
    expect(reconciliation.status).toBe(200);
    expect(reconciliation.body).toContain('Every currency reconciles to zero.');
    const cli = await runCli(['finance:reconcile'], { DATABASE_URL: t.databaseUrl, DATA_DIR: mkdtempSync(join(tmpdir(), 'reconcile-')) });
    expect(cli.stdout).toMatch(/^EUR\s+posted 0\.00 {2}pending 0\.00 .* drifting accounts 0 {2}OK$/m);
    expect([cli.code, cli.stdout]).toEqual([0, expect.stringContaining('zero drift')]);
    // drift (a counter changed behind the ledger's back) is found, and the CLI exits 1
    const pool = t.app.services.ledger.store.pool;
    await pool.query('UPDATE ledger.account SET credits_posted = credits_posted + 1 WHERE id = $1', [clearing.id]);
    try {
      const drift = await runCli(['finance:reconcile'], { DATABASE_URL: t.databaseUrl, DATA_DIR: mkdtempSync(join(tmpdir(), 'reconcile-')) });
      expect([drift.code, drift.stdout]).toEqual([1, expect.stringContaining('Drift in EUR.')]);
      expect((await http(url('/admin/ledger/reconciliation/'), { headers: { cookie: session.cookie } })).body).toContain('Drift in EUR.');
    } finally {
      await pool.query('UPDATE ledger.account SET credits_posted = credits_posted - 1 WHERE id = $1', [clearing.id]);
    }
  });
});
