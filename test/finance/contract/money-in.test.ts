import { randomUUID } from 'node:crypto';
import { isValidBIC } from 'ibantools';
import { signPayload } from '../../../subgraphs/finance/banking/domain/providers';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminPost, adminSignIn, createUser, installValidLicence, login } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';

/**
 * Money in on a sandbox node: the sandbox providers behave as the real
 * providers' sandboxes do — a mobile-money deposit is completed by the provider's signed callback
 * through the webhook receiver within seconds (MoMo's sandbox test numbers fail or stay pending), a
 * sandbox IBAN receives a simulated incoming transfer (API and console) — and what a user brings in is
 * held to deposit limits per user and 24 hours (pending included), pending deposits expire, and one
 * user firing maximal deposits cannot block anyone else's.
 */
let t: TestApp<'finance'>;
const { url, get, post } = surface(() => t.urls.finance, { idempotent: true });

beforeAll(async () => {
  // no BANKING_WEBHOOK_SECRET: the sandbox signs with the node's own secret, as a provider signs with the shared one
  t = await startTestApp({ BANKING_SANDBOX_CALLBACK_SECONDS: '0.3' }, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
}, 120_000);
afterAll(() => t?.stop());

async function user() {
  const u = await createUser(t as unknown as TestApp);
  await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  return { ...u, token: await login(t as unknown as TestApp, u.username) };
}

async function balancesIn(token: string, currency: string) {
  const res = await get('/api/balance/', token);
  const b = (res.body.balances as { currency: string; available: { amount: string }; posted: { amount: string }; pending: { amount: string } }[]).find(
    (x) => x.currency === currency,
  );
  return b ? { available: b.available.amount, posted: b.posted.amount, pending: b.pending.amount } : undefined;
}

/** Polls the movement until it leaves pending (or the time is up). */
async function settled(token: string, id: string, withinMs = 8000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const list = await get('/api/v1/mobile-money/?limit=100', token);
    const m = (list.body.results as { id: string; status: string; failure_reason: string | null }[]).find((x) => x.id === id)!;
    if (m.status !== 'pending' || Date.now() > until) return m;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sandbox mobile money', () => {
  it("completes a deposit by the provider's signed callback within seconds, through the webhook receiver", async () => {
    const u = await user();
    const started = Date.now();
    const deposit = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '50.00', currency: 'GHS', phone_number: '+233241234567' });
    expect([deposit.status, deposit.body.status]).toEqual([201, 'pending']);
    const done = await settled(u.token, deposit.body.id);
    expect(done.status).toBe('posted');
    // the movement is decided, then its ledger transfer posted: the balance follows a moment later
    let after = await balancesIn(u.token, 'GHS');
    while (after?.posted !== '50.00' && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 50));
      after = await balancesIn(u.token, 'GHS');
    }
    expect(after).toEqual({ available: '50.00', posted: '50.00', pending: '50.00' });
    expect(Date.now() - started).toBeLessThan(5000);
    // the callback came as the provider's: recorded once among the webhooks received
    const events = await t.app.services.banking.store.events(500);
    expect(events.filter((e) => e.provider === 'momo' && (e.payload as { data: { externalId: string } }).data.externalId === deposit.body.id)).toEqual([
      expect.objectContaining({ type: 'momo.callback', outcome: 'settled' }),
    ]);
    expect(await invariants(t.app.services.ledger.store.store, 'GHS')).toBeGreaterThan(0);
  });

  it("fails a deposit from MoMo's failing test number and leaves the timeout number pending", async () => {
    const u = await user();
    const failing = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '5.00', currency: 'GHS', phone_number: '+46733123450' });
    expect(await settled(u.token, failing.body.id)).toMatchObject({ status: 'voided', failure_reason: 'PAYER_NOT_FOUND' });
    const silent = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '6.00', currency: 'GHS', phone_number: '+46733123452' });
    expect((await settled(u.token, silent.body.id, 1500)).status).toBe('pending');
    expect(await balancesIn(u.token, 'GHS')).toEqual({ available: '0.00', posted: '0.00', pending: '6.00' });
  });

  it('refuses a webhook that the node did not sign: an outsider cannot complete a sandbox deposit', async () => {
    const u = await user();
    const silent = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '7.00', currency: 'GHS', phone_number: '+46733123454' });
    const body = JSON.stringify({ id: randomUUID(), type: 'momo.callback', data: { externalId: silent.body.id, status: 'SUCCESSFUL' } });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const forged = await http(url('/api/v1/webhooks/banking/momo/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-banking-timestamp': timestamp, 'x-banking-signature': `v1=${signPayload('guessed', timestamp, body)}` },
      body,
    });
    expect([forged.status, forged.body.code]).toEqual([401, 'webhook_signature_invalid']);
    expect((await settled(u.token, silent.body.id, 500)).status).toBe('pending');
  });
});

describe('sandbox IBAN', () => {
  it('shows a BIC and receives a simulated incoming transfer (API and console), each as the credit webhook of the rail', async () => {
    const u = await user();
    const eur = await post('/api/v1/virtual-accounts/', u.token, { currency: 'EUR' });
    expect(eur.status).toBe(201);
    expect([isValidBIC(eur.body.bank_code), eur.body.sandbox]).toEqual([true, true]);
    const credit = await post(`/api/v1/virtual-accounts/${eur.body.id}/simulate-incoming-transfer/`, u.token, { amount: '25.00' });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({ type: 'inbound_credit', status: 'posted', amount: { amount: '25.00', currency: 'EUR' }, provider: 'iban' });
    expect(await balancesIn(u.token, 'EUR')).toMatchObject({ available: '25.00' });
    const credits = await get('/api/v1/virtual-accounts/credits/', u.token);
    expect(credits.body.results.map((m: { id: string }) => m.id)).toEqual([credit.body.id]);
    // another user's account is not theirs to credit; a bad amount is the client's mistake
    const other = await user();
    expect((await post(`/api/v1/virtual-accounts/${eur.body.id}/simulate-incoming-transfer/`, other.token, { amount: '1.00' })).status).toBe(404);
    expect((await post(`/api/v1/virtual-accounts/${eur.body.id}/simulate-incoming-transfer/`, u.token, { amount: '-1' })).status).toBe(400);

    // the console: the account's row has the button, and it works
    const operator = await createUser(t as unknown as TestApp, undefined, { superuser: true });
    const admin = await adminSignIn(t as unknown as TestApp, operator.username);
    const list = await http(url('/admin/banking/virtualaccount/'), { headers: { cookie: admin.cookie } });
    expect(list.body).toContain(`action="/admin/banking/virtualaccount/${eur.body.id}/simulate/"`);
    const sent = await adminPost(t as unknown as TestApp, admin, `/admin/banking/virtualaccount/${eur.body.id}/simulate/`, { amount: '10.00' });
    expect([sent.status, sent.headers.get('location')]).toEqual([302, '/admin/banking/virtualaccount/?simulated=1']);
    expect(await balancesIn(u.token, 'EUR')).toMatchObject({ available: '35.00' });
  });
});

describe('deposit limits', () => {
  it('expires a deposit the provider never confirmed: voided, its amount released', async () => {
    const u = await user();
    const silent = await post('/api/v1/mobile-money/deposits/', u.token, { amount: '9.00', currency: 'UGX', phone_number: '+46733123452' });
    expect(silent.status).toBe(201);
    expect(await t.app.services.banking.banking.expireStaleDeposits(60)).toBe(0);
    expect(await t.app.services.banking.banking.expireStaleDeposits(0)).toBeGreaterThanOrEqual(1);
    const m = await settled(u.token, silent.body.id, 0);
    expect(m).toMatchObject({ status: 'voided', failure_reason: expect.stringMatching(/^Expired/) });
    expect(await balancesIn(u.token, 'UGX')).toMatchObject({ pending: '0' });
  });

  it('refuses a user firing maximal deposits after the cumulative limit (pending included), and never blocks another user', async () => {
    const [mallory, alice] = [await user(), await user()];
    // basic level in GHS: 30,000.00 per deposit, 75,000.00 per 24 hours; the timeout number keeps them pending
    const over = await post('/api/v1/mobile-money/deposits/', mallory.token, { amount: '30000.01', currency: 'GHS', phone_number: '+46733123452' });
    expect([over.status, over.body.code, over.body.period]).toEqual([403, 'limit_exceeded', 'deposit']);
    const flood = Array.from({ length: 40 }, () =>
      post('/api/v1/mobile-money/deposits/', mallory.token, { amount: '30000.00', currency: 'GHS', phone_number: '+46733123452' }),
    );
    const aliceDeposit = post('/api/v1/mobile-money/deposits/', alice.token, { amount: '30000.00', currency: 'GHS', phone_number: '+46733123452' });
    const results = await Promise.all(flood);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 403)).toHaveLength(38);
    for (const r of results.filter((x) => x.status === 403))
      expect(r.body).toMatchObject({ code: 'limit_exceeded', period: 'deposits_24h', limit: '75000.00', currency: 'GHS', remaining: '15000.00' });
    expect(await balancesIn(mallory.token, 'GHS')).toEqual({ available: '0.00', posted: '0.00', pending: '60000.00' });
    // alice's deposit in the same currency went through, without waiting for mallory's queue
    expect((await aliceDeposit).status).toBe(201);
    // a deposit refused, then one that fits what is left
    expect((await post('/api/v1/mobile-money/deposits/', mallory.token, { amount: '15000.00', currency: 'GHS', phone_number: '+46733123452' })).status).toBe(
      201,
    );
    expect((await post('/api/v1/mobile-money/deposits/', mallory.token, { amount: '0.01', currency: 'GHS', phone_number: '+46733123452' })).status).toBe(403);
    // simulated transfers count too: the same limit, another rail
    const eur = await post('/api/v1/virtual-accounts/', mallory.token, { currency: 'EUR' });
    expect((await post(`/api/v1/virtual-accounts/${eur.body.id}/simulate-incoming-transfer/`, mallory.token, { amount: '2000.00' })).status).toBe(201);
    const sim = await post(`/api/v1/virtual-accounts/${eur.body.id}/simulate-incoming-transfer/`, mallory.token, { amount: '2000.01' });
    expect([sim.status, sim.body.code]).toEqual([403, 'limit_exceeded']);
    expect(await invariants(t.app.services.ledger.store.store, 'GHS')).toBeGreaterThan(0);
  });
});
