import { randomUUID } from 'node:crypto';
import { isValidBIC, isValidIBAN } from 'ibantools';
import { signPayload } from '../../../subgraphs/finance/banking/domain/providers';
import { isValidNuban } from '../../../subgraphs/finance/banking/domain/account-numbers';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminGet, adminPost, adminSignIn, changeNode, createUser, graphql, installValidLicence, login } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';

/**
 * Virtual accounts, inbound credits by signed webhook, bank transfers and mobile money through the
 * REST surface (:8000), the real gateway, the banking and ledger subgraphs and PostgreSQL; the
 * providers are the offline sandbox, their webhooks signed here as the provider would.
 */
const SECRET = 'whsec_test_0123456789abcdef';
let t: TestApp;
const { url, get, post } = surface(() => t.urls.finance, { idempotent: true });

beforeAll(async () => {
  // the test plays the provider: the sandbox sends no callbacks of its own
  t = await startTestApp({ BANKING_WEBHOOK_SECRET: SECRET, BANKING_SANDBOX_CALLBACK_SECONDS: 'off' });
  await installValidLicence(t);
});
afterAll(() => t?.stop());

function webhook(provider: string, event: unknown, opts: { secret?: string; timestamp?: number } = {}) {
  const body = JSON.stringify(event);
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  return http(url(`/api/v1/webhooks/banking/${provider}/`), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-banking-timestamp': timestamp,
      'x-banking-signature': `v1=${signPayload(opts.secret ?? SECRET, timestamp, body)}`,
    },
    body,
  });
}

const credit = (accountNumber: string, amount: string, currency: string, transactionId = randomUUID(), eventId = randomUUID()) => ({
  id: eventId,
  type: 'credit.received',
  data: { account_number: accountNumber, amount, currency, transaction_id: transactionId, sender_name: 'Ada Lovelace' },
});

async function balancesIn(token: string, currency: string) {
  const res = await http(url('/api/balance/'), { key: token });
  const b = (res.body.balances as { currency: string; available: { amount: string }; posted: { amount: string }; pending: { amount: string } }[]).find(
    (x) => x.currency === currency,
  );
  return b ? { available: b.available.amount, posted: b.posted.amount, pending: b.pending.amount } : undefined;
}

/** A user verified at the basic level (the node requires it by default for money movements). */
async function user(level: 'none' | 'basic' = 'basic') {
  const u = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(u.id, level);
  return { ...u, token: await login(t, u.username) };
}

async function openAccount(token: string, currency: string) {
  const res = await post('/api/v1/virtual-accounts/', token, { currency });
  expect([currency, res.status]).toEqual([currency, 201]);
  return res.body as { id: string; account_number: string; bank_code: string };
}

const ledgerStore = () => (t.app.services as unknown as { ledger: { store: { store: Parameters<typeof invariants>[0] } } }).ledger.store.store;

describe('virtual accounts', () => {
  it('opens one valid IBAN per currency (EUR, GBP) and a NUBAN (NGN), replays a retried request, refuses a second account and other currencies', async () => {
    const u = await user();
    const key = randomUUID();
    const eur = await post('/api/v1/virtual-accounts/', u.token, { currency: 'EUR' }, { 'idempotency-key': key });
    expect(eur.status).toBe(201);
    expect(eur.body).toEqual({
      id: expect.any(String),
      currency: 'EUR',
      rail: 'iban',
      account_number: expect.stringMatching(/^DE\d{20}$/),
      bank_code: 'SNDBDEB1XXX',
      bank_name: 'Sandbox Bank EU',
      holder_name: u.username,
      created_at: expect.stringMatching(/Z$/),
      sandbox: true,
    });
    expect(isValidIBAN(eur.body.account_number)).toBe(true);
    // the bank's BIC, in ISO 9362 form (not the Bankleitzahl inside the IBAN)
    expect(isValidBIC(eur.body.bank_code)).toBe(true);
    // the same key: the first answer again, no second account
    expect(await post('/api/v1/virtual-accounts/', u.token, { currency: 'EUR' }, { 'idempotency-key': key })).toMatchObject({ status: 201, body: eur.body });
    // the same key for another request: 422
    expect((await post('/api/v1/virtual-accounts/', u.token, { currency: 'GBP' }, { 'idempotency-key': key })).body.code).toBe('idempotency_key_reused');
    const again = await post('/api/v1/virtual-accounts/', u.token, { currency: 'EUR' });
    expect([again.status, again.body.code]).toEqual([409, 'virtual_account_exists']);
    const gbp = await openAccount(u.token, 'GBP');
    expect(gbp.account_number).toMatch(/^GB\d{2}SAND040075\d{8}$/);
    expect(isValidIBAN(gbp.account_number)).toBe(true);
    const ngn = await openAccount(u.token, 'NGN');
    expect(ngn.account_number).toMatch(/^\d{10}$/);
    expect(isValidNuban(ngn.bank_code, ngn.account_number)).toBe(true);
    const usd = await post('/api/v1/virtual-accounts/', u.token, { currency: 'USD' });
    expect([usd.status, usd.body.code, usd.body.errors?.currency]).toEqual([400, 'invalid', ['One of EUR, GBP, NGN.']]);
    const list = await http(url('/api/v1/virtual-accounts/'), { key: u.token });
    expect(list.status).toBe(200);
    expect(list.body.results.map((a: { currency: string }) => a.currency)).toEqual(['EUR', 'GBP', 'NGN']);
    // someone else sees only their own
    const other = await user();
    expect((await http(url('/api/v1/virtual-accounts/'), { key: other.token })).body).toEqual({ results: [] });
    expect((await http(url('/api/v1/virtual-accounts/'))).status).toBe(401);
  });
});

describe('inbound credits by signed webhook', () => {
  it('credits once: a delivery twice, a redelivery under a new event id, deliveries out of order', async () => {
    const u = await user();
    const eur = await openAccount(u.token, 'EUR');
    const first = credit(eur.account_number, '100.25', 'EUR');
    const ok = await webhook('iban', first);
    expect([ok.status, ok.body]).toEqual([200, { received: true, outcome: 'processed' }]);
    expect((await webhook('iban', first)).body).toEqual({ received: true, outcome: 'duplicate' });
    // the rail sends the same transaction again under a new event id: no second credit
    expect((await webhook('iban', { ...first, id: randomUUID() })).body.outcome).toBe('processed');
    expect(await balancesIn(u.token, 'EUR')).toEqual({ available: '100.25', posted: '100.25', pending: '100.25' });
    // two later credits delivered in reverse order, the older one twice, concurrently
    const second = credit(eur.account_number, '10.00', 'EUR');
    const third = credit(eur.account_number, '0.75', 'EUR');
    const results = await Promise.all([webhook('iban', third), webhook('iban', second), webhook('iban', second)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await balancesIn(u.token, 'EUR')).toEqual({ available: '111.00', posted: '111.00', pending: '111.00' });
    const credits = await http(url('/api/v1/virtual-accounts/credits/?limit=2'), { key: u.token });
    expect(credits.status).toBe(200);
    expect(credits.body.results).toHaveLength(2);
    expect(credits.body.results[0]).toMatchObject({ type: 'inbound_credit', status: 'posted', counterparty: { sender_name: 'Ada Lovelace' } });
    const rest = await http(url(`/api/v1/virtual-accounts/credits/?cursor=${credits.body.next_cursor}`), { key: u.token });
    expect([rest.body.results.length, rest.body.next_cursor]).toEqual([1, null]);
    const amounts = [...credits.body.results, ...rest.body.results].map((m: { amount: { amount: string } }) => m.amount.amount).sort();
    expect(amounts).toEqual(['0.75', '10.00', '100.25']);
    expect(await invariants(ledgerStore(), 'EUR')).toBeGreaterThan(0);
  });

  it('applies each credit once under concurrent redeliveries (same and new event ids), conserving the ledger', async () => {
    const u = await user();
    const gbp = await openAccount(u.token, 'GBP');
    const credits = Array.from({ length: 6 }, (_, i) => credit(gbp.account_number, `${i + 1}.01`, 'GBP'));
    // each credit four times: twice under its event id, twice under new event ids, all at once
    const deliveries = credits.flatMap((c) => [c, c, { ...c, id: randomUUID() }, { ...c, id: randomUUID() }]);
    // as a provider does: a delivery answered 5xx (the shared database momentarily out of connections) is retried
    const deliver = async (event: unknown) => {
      for (let attempt = 1; ; attempt++) {
        const res = await webhook('iban', event);
        if (res.status < 500 || attempt === 5) return res;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    };
    const results = await Promise.all(deliveries.map(deliver));
    expect(results.map((r) => r.status)).toEqual(deliveries.map(() => 200));
    // 1.01 + 2.01 + … + 6.01
    expect(await balancesIn(u.token, 'GBP')).toEqual({ available: '21.06', posted: '21.06', pending: '21.06' });
    const list = await http(url('/api/v1/virtual-accounts/credits/?limit=100'), { key: u.token });
    expect(list.body.results).toHaveLength(6);
    expect(await invariants(ledgerStore(), 'GBP')).toBeGreaterThan(0);
  });

  it('refuses a bad signature, a stale timestamp, a missing signature and malformed events, changing nothing', async () => {
    const u = await user();
    const gbp = await openAccount(u.token, 'GBP');
    const event = credit(gbp.account_number, '5.00', 'GBP');
    const bad = await webhook('iban', event, { secret: 'not-the-secret' });
    expect([bad.status, bad.body.code]).toEqual([401, 'webhook_signature_invalid']);
    const stale = await webhook('iban', event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect([stale.status, stale.body.code]).toEqual([401, 'webhook_signature_invalid']);
    const unsigned = await http(url('/api/v1/webhooks/banking/iban/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect([unsigned.status, unsigned.body.code]).toEqual([401, 'webhook_signature_invalid']);
    // a valid signature over a body that is then altered
    const timestamp = String(Math.floor(Date.now() / 1000));
    const tampered = await http(url('/api/v1/webhooks/banking/iban/'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-banking-timestamp': timestamp,
        'x-banking-signature': `v1=${signPayload(SECRET, timestamp, JSON.stringify(event))}`,
      },
      body: JSON.stringify({ ...event, data: { ...event.data, amount: '5000.00' } }),
    });
    expect([tampered.status, tampered.body.code]).toEqual([401, 'webhook_signature_invalid']);
    expect((await webhook('unknown', event)).status).toBe(404);
    const malformed = await webhook('iban', { id: randomUUID(), type: 'credit.received', data: { account_number: gbp.account_number } });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'invalid']);
    expect(await balancesIn(u.token, 'GBP')).toBeUndefined();
    // then the genuine delivery credits
    expect((await webhook('iban', event)).body.outcome).toBe('processed');
    expect(await balancesIn(u.token, 'GBP')).toMatchObject({ posted: '5.00' });
  });
});

describe('bank transfers (Nigerian rail)', () => {
  const transferBody = (amount: string, accountNumber = '0000014579') => ({
    amount,
    currency: 'NGN',
    bank_code: '011',
    account_number: accountNumber,
    narration: 'rent',
  });

  it('holds the amount, then posts or releases it by the rail callback; a late contradicting callback changes nothing', async () => {
    const u = await user();
    const ngn = await openAccount(u.token, 'NGN');
    const poor = await post('/api/v1/bank-transfers/', u.token, transferBody('10.00'));
    expect([poor.status, poor.body.code]).toEqual([422, 'insufficient_funds']);
    await webhook('nuban', credit(ngn.account_number, '5000.00', 'NGN'));
    const badNuban = await post('/api/v1/bank-transfers/', u.token, transferBody('10.00', '0000014578'));
    expect([badNuban.status, badNuban.body.errors?.account_number]).toEqual([400, ['Not a valid NUBAN for the bank code.']]);
    const sent = await post('/api/v1/bank-transfers/', u.token, transferBody('2000.00'));
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      type: 'bank_transfer',
      status: 'pending',
      amount: { amount: '2000.00', currency: 'NGN' },
      converted_amount: null,
      provider: 'nuban',
      counterparty: { bank_code: '011', account_number: '0000014579', account_name: null, narration: 'rent' },
      failure_reason: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await balancesIn(u.token, 'NGN')).toEqual({ available: '3000.00', posted: '5000.00', pending: '3000.00' });
    const failed = { id: randomUUID(), type: 'transfer.failed', data: { reference: sent.body.id, reason: 'Beneficiary account closed' } };
    expect((await webhook('nuban', failed)).body.outcome).toBe('processed');
    const shown = await http(url(`/api/v1/banking/transfers/${sent.body.id}/`), { key: u.token });
    expect(shown.body).toMatchObject({ status: 'voided', failure_reason: 'Beneficiary account closed' });
    expect(await balancesIn(u.token, 'NGN')).toEqual({ available: '5000.00', posted: '5000.00', pending: '5000.00' });
    // out of order: a stale "succeeded" after the failure
    await webhook('nuban', { id: randomUUID(), type: 'transfer.succeeded', data: { reference: sent.body.id } });
    expect((await http(url(`/api/v1/banking/transfers/${sent.body.id}/`), { key: u.token })).body.status).toBe('voided');
    expect(await balancesIn(u.token, 'NGN')).toMatchObject({ posted: '5000.00' });
    const second = await post('/api/v1/bank-transfers/', u.token, transferBody('1500.50'));
    await webhook('nuban', { id: randomUUID(), type: 'transfer.succeeded', data: { reference: second.body.id } });
    await webhook('nuban', { id: randomUUID(), type: 'transfer.failed', data: { reference: second.body.id } });
    expect(await balancesIn(u.token, 'NGN')).toEqual({ available: '3499.50', posted: '3499.50', pending: '3499.50' });
    const list = await http(url('/api/v1/bank-transfers/'), { key: u.token });
    expect(list.body.results.map((m: { status: string }) => m.status)).toEqual(['posted', 'voided']);
    // another user cannot see it
    const other = await user();
    expect((await http(url(`/api/v1/banking/transfers/${sent.body.id}/`), { key: other.token })).status).toBe(404);
    expect(await invariants(ledgerStore(), 'NGN')).toBeGreaterThan(0);
  });
});

describe('mobile money', () => {
  it('deposits and withdrawals are pending until the MoMo callback: SUCCESSFUL posts, FAILED releases', async () => {
    const u = await user();
    const badPhone = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '50.00', currency: 'GHS', phone_number: '12345' });
    expect([badPhone.status, badPhone.body.code, Object.keys(badPhone.body.errors ?? {})]).toEqual([400, 'invalid', ['phone_number']]);
    const badCurrency = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '50.00', currency: 'EUR', phone_number: '+233241234567' });
    expect(badCurrency.status).toBe(400);
    const deposit = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '50.00', currency: 'GHS', phone_number: '+233 24 123 4567' });
    expect(deposit.status).toBe(201);
    expect(deposit.body).toMatchObject({
      type: 'mobile_money_deposit',
      status: 'pending',
      amount: { amount: '50.00', currency: 'GHS' },
      counterparty: { phone_number: '+233241234567' },
    });
    // not spendable yet
    expect(await balancesIn(u.token, 'GHS')).toEqual({ available: '0.00', posted: '0.00', pending: '50.00' });
    const early = await post('/api/v1/mobile-money/withdrawals/', u.token, { amount: '20.00', currency: 'GHS', phone_number: '+233241234567' });
    expect([early.status, early.body.code]).toEqual([422, 'insufficient_funds']);
    const callback = { id: randomUUID(), type: 'requesttopay', data: { externalId: deposit.body.id, status: 'SUCCESSFUL', financialTransactionId: '123456' } };
    expect((await webhook('momo', callback)).body.outcome).toBe('processed');
    expect((await webhook('momo', callback)).body.outcome).toBe('duplicate');
    expect(await balancesIn(u.token, 'GHS')).toEqual({ available: '50.00', posted: '50.00', pending: '50.00' });
    const withdrawal = await post('/api/v1/mobile-money/withdrawals/', u.token, { amount: '20.00', currency: 'GHS', phone_number: '+233241234567' });
    expect(withdrawal.body).toMatchObject({ type: 'mobile_money_withdrawal', status: 'pending' });
    expect(await balancesIn(u.token, 'GHS')).toMatchObject({ available: '30.00', posted: '50.00' });
    await webhook('momo', { id: randomUUID(), type: 'transfer', data: { externalId: withdrawal.body.id, status: 'FAILED', reason: 'PAYEE_NOT_FOUND' } });
    expect(await balancesIn(u.token, 'GHS')).toEqual({ available: '50.00', posted: '50.00', pending: '50.00' });
    const list = await http(url('/api/v1/mobile-money/'), { key: u.token });
    expect(list.body.results.map((m: { type: string; status: string; failure_reason: string | null }) => [m.type, m.status, m.failure_reason])).toEqual([
      ['mobile_money_withdrawal', 'voided', 'PAYEE_NOT_FOUND'],
      ['mobile_money_deposit', 'posted', null],
    ]);
    expect(await invariants(ledgerStore(), 'GHS')).toBeGreaterThan(0);
  });

  it('lets an administrator void a stuck pending movement, once', async () => {
    const u = await user();
    const deposit = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '1000', currency: 'UGX', phone_number: '+256772123456' });
    expect(deposit.status).toBe(201);
    const admin = await createUser(t, undefined, { superuser: true });
    const session = await adminSignIn(t, admin.username);
    const voidIt = () =>
      graphql(t, 'mutation($id: ID!) { adminVoidBankingMovement(id: $id) { status failureReason } }', { id: deposit.body.id }, { cookie: session.cookie });
    expect((await voidIt()).body.data).toEqual({ adminVoidBankingMovement: { status: 'voided', failureReason: 'Voided by an administrator.' } });
    expect((await voidIt()).body.errors?.[0]?.extensions?.code).toBe('TRANSFER_NOT_PENDING');
    // a user may not
    const asUser = await graphql(
      t,
      'mutation($id: ID!) { adminVoidBankingMovement(id: $id) { status } }',
      { id: deposit.body.id },
      { authorization: `Bearer ${u.token}` },
    );
    expect(['FORBIDDEN', 'UNAUTHENTICATED']).toContain(asUser.body.errors?.[0]?.extensions?.code);
    expect(await balancesIn(u.token, 'UGX')).toEqual({ available: '0', posted: '0', pending: '0' });
    // a callback after the void changes nothing
    await webhook('momo', { id: randomUUID(), type: 'requesttopay', data: { externalId: deposit.body.id, status: 'SUCCESSFUL' } });
    expect(await balancesIn(u.token, 'UGX')).toMatchObject({ posted: '0' });
    expect(await invariants(ledgerStore(), 'UGX')).toBeGreaterThan(0);
  });
});

describe('fiat on/off-ramps', () => {
  it('holds both legs at the quoted price, posts them together on ramp.completed and voids them together on ramp.failed', async () => {
    const u = await user();
    const eur = await openAccount(u.token, 'EUR');
    await webhook('iban', credit(eur.account_number, '1000.00', 'EUR'));
    const on = await post('/api/v1/ramps/', u.token, { direction: 'on', fiat_currency: 'EUR', asset: 'BTC', amount: '600.00' });
    expect(on.status).toBe(201);
    expect(on.body).toMatchObject({
      type: 'ramp_on',
      status: 'pending',
      amount: { amount: '600.00', currency: 'EUR' },
      converted_amount: { amount: '0.01000000', currency: 'BTC' },
      provider: 'ramp',
      counterparty: { price: '60000', price_currency: 'EUR', asset: 'BTC' },
    });
    expect(await balancesIn(u.token, 'EUR')).toMatchObject({ available: '400.00', posted: '1000.00' });
    expect(await balancesIn(u.token, 'BTC')).toEqual({ available: '0.00000000', posted: '0.00000000', pending: '0.01000000' });
    // a rail's event naming the ramp's reference settles nothing: only the ramp reports its orders
    expect((await webhook('nuban', { id: randomUUID(), type: 'transfer.failed', data: { reference: on.body.id } })).body.outcome).toBe('ignored');
    expect((await webhook('ramp', { id: randomUUID(), type: 'ramp.completed', data: { reference: on.body.id } })).body.outcome).toBe('processed');
    expect(await balancesIn(u.token, 'EUR')).toEqual({ available: '400.00', posted: '400.00', pending: '400.00' });
    expect(await balancesIn(u.token, 'BTC')).toEqual({ available: '0.01000000', posted: '0.01000000', pending: '0.01000000' });
    const tooMuch = await post('/api/v1/ramps/', u.token, { direction: 'off', fiat_currency: 'EUR', asset: 'BTC', amount: '1.00000000' });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([422, 'insufficient_funds']);
    const off = await post('/api/v1/ramps/', u.token, { direction: 'off', fiat_currency: 'EUR', asset: 'BTC', amount: '0.004' });
    expect(off.body).toMatchObject({
      type: 'ramp_off',
      amount: { amount: '0.00400000', currency: 'BTC' },
      converted_amount: { amount: '240.00', currency: 'EUR' },
    });
    expect(await balancesIn(u.token, 'BTC')).toMatchObject({ available: '0.00600000' });
    await webhook('ramp', { id: randomUUID(), type: 'ramp.failed', data: { reference: off.body.id, reason: 'Price moved' } });
    expect(await balancesIn(u.token, 'BTC')).toEqual({ available: '0.01000000', posted: '0.01000000', pending: '0.01000000' });
    expect(await balancesIn(u.token, 'EUR')).toEqual({ available: '400.00', posted: '400.00', pending: '400.00' });
    const list = await http(url('/api/v1/ramps/'), { key: u.token });
    expect(list.body.results.map((m: { type: string; status: string }) => [m.type, m.status])).toEqual([
      ['ramp_off', 'voided'],
      ['ramp_on', 'posted'],
    ]);
    for (const [body, field] of [
      [{ direction: 'sideways', fiat_currency: 'EUR', asset: 'BTC', amount: '1' }, 'direction'],
      [{ direction: 'on', fiat_currency: 'JPY', asset: 'BTC', amount: '1' }, 'fiat_currency'],
      [{ direction: 'on', fiat_currency: 'EUR', asset: 'DOGE', amount: '1' }, 'asset'],
      [{ direction: 'on', fiat_currency: 'EUR', asset: 'BTC', amount: '0.000001' }, 'amount'],
    ] as const) {
      const res = await post('/api/v1/ramps/', u.token, body);
      expect([field, res.status, Object.keys(res.body.errors ?? {})]).toEqual([field, 400, [field]]);
    }
    for (const currency of ['EUR', 'BTC']) expect(await invariants(ledgerStore(), currency)).toBeGreaterThan(0);
  });
});

describe('admin console', () => {
  it('lists virtual accounts, transfers by status and provider events, and voids a stuck pending transfer by its form', async () => {
    const u = await user();
    const eur = await openAccount(u.token, 'EUR');
    const event = credit(eur.account_number, '12.00', 'EUR');
    await webhook('iban', event);
    const withdrawal = await post('/api/v1/mobile-money/withdrawals/', u.token, { amount: '1.00', currency: 'KES', phone_number: '+254712345678' });
    expect([withdrawal.status, withdrawal.body.code]).toEqual([422, 'insufficient_funds']);
    const deposit = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '7.00', currency: 'KES', phone_number: '+254712345678' });
    const admin = await createUser(t, undefined, { superuser: true });
    const session = await adminSignIn(t, admin.username);
    const accounts = await adminGet(t, session, '/admin/banking/virtualaccount/');
    expect([accounts.status, accounts.body]).toEqual([200, expect.stringContaining(eur.account_number)]);
    expect((await adminGet(t, session, '/admin/banking/event/')).body).toContain(event.id);
    const pending = await adminGet(t, session, '/admin/banking/movement/?status=pending');
    expect(pending.body).toContain(`/admin/banking/movement/${deposit.body.id}/void/`);
    expect((await adminGet(t, session, '/admin/banking/movement/?status=posted')).body).not.toContain(deposit.body.id);
    expect((await adminGet(t, session, '/admin/banking/movement/?status=bogus')).status).toBe(400);
    const voided = await adminPost(t, session, `/admin/banking/movement/${deposit.body.id}/void/`, {});
    expect([voided.status, voided.headers.get('location')]).toEqual([302, '/admin/banking/movement/?voided=1']);
    const again = await adminPost(t, session, `/admin/banking/movement/${deposit.body.id}/void/`, {});
    expect([again.status, again.body]).toEqual([409, expect.stringContaining('voided already')]);
    expect((await http(url(`/api/v1/banking/transfers/${deposit.body.id}/`), { key: u.token })).body.status).toBe('voided');
    expect(await balancesIn(u.token, 'KES')).toEqual({ available: '0.00', posted: '0.00', pending: '0.00' });
    // without a session: the sign-in page
    expect((await http(url('/admin/banking/movement/'))).status).toBe(302);
  });
});

describe('toggles and KYC', () => {
  it('refuses each module while its toggle is off (403 module_disabled) and every money movement below the KYC level (403 kyc_required)', async () => {
    const u = await user();
    const calls = {
      virtual_iban: () => post('/api/v1/virtual-accounts/', u.token, { currency: 'GBP' }),
      african_accounts: () => post('/api/v1/bank-transfers/', u.token, { amount: '1.00', currency: 'NGN', bank_code: '011', account_number: '0000014579' }),
      mobile_money: () => post('/api/v1/mobile-money/deposits/', u.token, { amount: '1.00', currency: 'GHS', phone_number: '+233241234567' }),
      fiat_ramps: () => post('/api/v1/ramps/', u.token, { direction: 'on', fiat_currency: 'EUR', asset: 'USDC', amount: '1.00' }),
    };
    const toggles = {
      virtual_iban: 'virtual_iban_enabled',
      african_accounts: 'african_accounts_enabled',
      mobile_money: 'mobile_money_enabled',
      fiat_ramps: 'fiat_ramps_enabled',
    } as const;
    for (const [module, call] of Object.entries(calls) as [keyof typeof calls, () => ReturnType<typeof post>][]) {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ [toggles[module]]: false }, 'test'));
      try {
        const res = await call();
        expect([module, res.status, res.body.code, res.body.module]).toEqual([module, 403, 'module_disabled', module]);
      } finally {
        await changeNode(t, () => t.app.services.node.node.updateSettings({ [toggles[module]]: true }, 'test'));
      }
    }
    // NGN accounts are the African accounts module's
    await changeNode(t, () => t.app.services.node.node.updateSettings({ african_accounts_enabled: false }, 'test'));
    try {
      expect((await post('/api/v1/virtual-accounts/', u.token, { currency: 'NGN' })).body).toMatchObject({
        code: 'module_disabled',
        module: 'african_accounts',
      });
      expect((await post('/api/v1/virtual-accounts/', u.token, { currency: 'EUR' })).status).toBe(201);
    } finally {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ african_accounts_enabled: true }, 'test'));
    }
    expect((await http(url('/api/v1/virtual-accounts/'), { key: u.token })).body.results.map((a: { currency: string }) => a.currency)).toEqual(['EUR']);
    // "KYC requirements" is on (the default): an unverified user moves no money
    const unverified = await user('none');
    const asUnverified = {
      virtual_iban: () => post('/api/v1/virtual-accounts/', unverified.token, { currency: 'GBP' }),
      african_accounts: () =>
        post('/api/v1/bank-transfers/', unverified.token, { amount: '1.00', currency: 'NGN', bank_code: '011', account_number: '0000014579' }),
      mobile_money: () => post('/api/v1/mobile-money/withdrawals/', unverified.token, { amount: '1.00', currency: 'GHS', phone_number: '+233241234567' }),
      fiat_ramps: () => post('/api/v1/ramps/', unverified.token, { direction: 'off', fiat_currency: 'EUR', asset: 'USDC', amount: '1.00' }),
    };
    for (const [module, call] of Object.entries(asUnverified)) {
      const res = await call();
      expect([module, res.status, res.body.code, res.body.required, res.body.level]).toEqual([module, 403, 'kyc_required', 'basic', 'none']);
    }
    expect((await http(url('/api/v1/virtual-accounts/'), { key: unverified.token })).body.results).toEqual([]);
  });

  it('refuses the reads of a module whose toggle is off as it refuses its writes (403 module_disabled); a list of two modules shows the one still on', async () => {
    const u = await user();
    const eur = await openAccount(u.token, 'EUR');
    const ngn = await openAccount(u.token, 'NGN');
    expect((await webhook('iban', credit(eur.account_number, '50.00', 'EUR'))).status).toBe(200);
    expect((await webhook('nuban', credit(ngn.account_number, '5000.00', 'NGN'))).status).toBe(200);
    const sent = await post('/api/v1/bank-transfers/', u.token, { amount: '1.00', currency: 'NGN', bank_code: '011', account_number: '0000014579' });
    const deposit = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '10.00', currency: 'GHS', phone_number: '+233241234567' });
    const ramp = await post('/api/v1/ramps/', u.token, { direction: 'on', fiat_currency: 'EUR', asset: 'USDC', amount: '5.00' });
    expect([sent.status, deposit.status, ramp.status]).toEqual([201, 201, 201]);
    const toggle = (change: Record<string, boolean>) => changeNode(t, () => t.app.services.node.node.updateSettings(change, 'test'));
    const reads = {
      african_accounts: ['/api/v1/bank-transfers/', `/api/v1/banking/transfers/${sent.body.id}/`],
      mobile_money: ['/api/v1/mobile-money/', `/api/v1/banking/transfers/${deposit.body.id}/`],
      fiat_ramps: ['/api/v1/ramps/', `/api/v1/banking/transfers/${ramp.body.id}/`],
    };
    for (const [module, paths] of Object.entries(reads)) {
      await toggle({ [`${module}_enabled`]: false });
      try {
        for (const path of paths) {
          const res = await get(path, u.token);
          expect([path, res.status, res.body.code, res.body.module]).toEqual([path, 403, 'module_disabled', module]);
        }
      } finally {
        await toggle({ [`${module}_enabled`]: true });
      }
      for (const path of paths) expect([path, (await get(path, u.token)).status]).toEqual([path, 200]);
    }
    // the virtual accounts and their credits belong to two modules: the rows of the one switched off go, and both off is 403
    const currencies = async (path: string) =>
      ((await get(path, u.token)).body.results as { currency?: string; amount?: { currency: string } }[]).map((r) => r.currency ?? r.amount!.currency);
    expect(await currencies('/api/v1/virtual-accounts/')).toEqual(['EUR', 'NGN']);
    expect((await currencies('/api/v1/virtual-accounts/credits/')).sort()).toEqual(['EUR', 'NGN']);
    await toggle({ virtual_iban_enabled: false });
    try {
      expect(await currencies('/api/v1/virtual-accounts/')).toEqual(['NGN']);
      expect(await currencies('/api/v1/virtual-accounts/credits/')).toEqual(['NGN']);
      await toggle({ african_accounts_enabled: false });
      for (const path of ['/api/v1/virtual-accounts/', '/api/v1/virtual-accounts/credits/']) {
        const res = await get(path, u.token);
        expect([path, res.status, res.body.code]).toEqual([path, 403, 'module_disabled']);
      }
    } finally {
      await toggle({ virtual_iban_enabled: true, african_accounts_enabled: true });
    }
  });
});
