import { randomUUID } from 'node:crypto';
import { number as cardNumber } from 'card-validator';
import { signWebhook } from '../../../subgraphs/finance/kernel/provider-http';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { generate as totpGenerate } from 'otplib';
import { adminPost, adminSignIn, changeNode, createUser, installValidLicence, login, PASSWORD } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';
import { balanceOf, fundWallet, postWebhook } from '../../support/finance/money-modules';

/**
 * Virtual cards through the REST surface (:8000), on the real gateway, ledger and database: issue
 * (idempotent, KYC-gated), the number sealed at rest and revealed only on an audited request, freeze
 * and unfreeze, spend limits, and the issuer's signed authorisation webhooks becoming pending
 * ledger transfers that are captured (posted) or released (voided).
 */
let t: TestApp;
let secret: string;
beforeAll(async () => {
  t = await startTestApp();
  await installValidLicence(t);
  secret = (await t.app.services.cards.issuer.webhookSecret())!;
});
afterAll(() => t?.stop());

const { url } = surface(() => t.urls.finance);
const json = (body: unknown, extra: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/json', ...extra },
  body: JSON.stringify(body),
});

async function holder(funds?: string) {
  const user = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(user.id, 'basic');
  if (funds) await fundWallet(t, user.id, funds, 'EUR');
  return { ...user, token: await login(t, user.username) };
}

async function issue(token: string, body: Record<string, unknown> = { currency: 'EUR' }, key = randomUUID()) {
  return http(url('/api/v1/cards/'), { method: 'POST', key: token, ...json(body, { 'idempotency-key': key }) });
}

const nextCode = (secret: string) => totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 } as Parameters<typeof totpGenerate>[0]);

/** POST …/reveal/ with the password given again (and the one-time code with 2FA). */
async function reveal(token: string, cardId: string, body: Record<string, unknown> | null = { password: PASSWORD }) {
  return http(url(`/api/v1/cards/${cardId}/reveal/`), { method: 'POST', key: token, ...(body === null ? {} : json(body)) });
}

async function providerCardId(cardId: string): Promise<string> {
  return (await t.app.services.cards.store.card(cardId))!.providerCardId;
}

const event = (type: string, authorisation: Record<string, unknown>) => ({ id: `evt_${randomUUID()}`, type, data: { authorization: authorisation } });

async function authorise(cardId: string, amount: string, id = `iauth_${randomUUID()}`, currency = 'EUR') {
  const res = await postWebhook(
    t,
    '/api/v1/webhooks/cards/sandbox/',
    event('issuing_authorization.request', {
      id,
      card: await providerCardId(cardId),
      amount,
      currency,
      merchant_data: { name: 'Coffee Shop', category: '5814' },
    }),
    secret,
  );
  return { id, res };
}

/** What the issuer is answered: status, approved, decline_reason and the authorisation's status. */
const decision = ({ res }: Awaited<ReturnType<typeof authorise>>) => [res.status, res.body.approved, res.body.decline_reason, res.body.authorisation.status];

async function settle(type: 'captured' | 'released', cardId: string, id: string, amount: string) {
  return postWebhook(
    t,
    '/api/v1/webhooks/cards/sandbox/',
    event(`issuing_authorization.${type}`, { id, card: await providerCardId(cardId), amount, currency: 'EUR' }),
    secret,
  );
}

describe('POST /api/v1/cards/', () => {
  it('issues a card with a Luhn-valid number, shown masked and stored only sealed; a replayed key answers the same card', async () => {
    const h = await holder();
    const key = randomUUID();
    const res = await issue(h.token, { currency: 'EUR', spending_limits: { per_authorisation: '100.00', daily: '250.00' } }, key);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      brand: 'visa',
      last4: expect.stringMatching(/^\d{4}$/),
      masked_number: `•••• •••• •••• ${res.body.last4}`,
      exp_month: expect.any(Number),
      exp_year: expect.any(Number),
      currency: 'EUR',
      status: 'active',
      spending_limits: { per_authorisation: { amount: '100.00', currency: 'EUR' }, daily: { amount: '250.00', currency: 'EUR' } },
      created_at: expect.stringMatching(/Z$/),
    });
    const again = await issue(h.token, { currency: 'EUR', spending_limits: { per_authorisation: '100.00', daily: '250.00' } }, key);
    expect([again.status, again.body.id]).toEqual([201, res.body.id]);
    const reused = await issue(h.token, { currency: 'GBP' }, key);
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
    // at rest: sealed, no trace of the number
    const { rows } = await t.app.services.cards.store.store.pool.query('SELECT * FROM cards.card WHERE user_id = $1', [h.id]);
    expect(rows).toHaveLength(1);
    const revealed = await reveal(h.token, res.body.id as string);
    expect(JSON.stringify(rows[0])).not.toContain(revealed.body.number);
    expect(rows[0].pan_sealed).toMatch(/^sb1\./);
  });

  it('refuses bad input with 400 and no card, a user below the KYC level with 403 kyc_required, and no token with 401', async () => {
    const h = await holder();
    for (const body of [
      { currency: 'XYZ' },
      { currency: 'EUR', spending_limits: { daily: '-5' } },
      { currency: 'EUR', spending_limits: { daily: '1.001' } },
      {},
    ]) {
      const res = await issue(h.token, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'invalid']);
    }
    const unverified = await createUser(t);
    const token = await login(t, unverified.username);
    const refused = await issue(token);
    expect([refused.status, refused.body.code, refused.body.required, refused.body.level]).toEqual([403, 'kyc_required', 'basic', 'none']);
    expect((await http(url('/api/v1/cards/'), { key: h.token })).body.results).toEqual([]);
    expect((await http(url('/api/v1/cards/'), { method: 'POST', ...json({ currency: 'EUR' }) })).status).toBe(401);
  });
});

describe('GET /api/v1/cards/, GET /api/v1/cards/<id>/, POST …/reveal/', () => {
  it("lists the caller's cards newest first with a cursor, and reveals a number only to its holder, auditing each reveal", async () => {
    const h = await holder();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await issue(h.token)).body.id as string);
    const first = await http(url('/api/v1/cards/?limit=2'), { key: h.token });
    expect(first.status).toBe(200);
    expect(first.body.results.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    const second = await http(url(`/api/v1/cards/?limit=2&cursor=${first.body.next_cursor}`), { key: h.token });
    expect([second.body.results.map((c: { id: string }) => c.id), second.body.next_cursor]).toEqual([[ids[0]], null]);
    expect((await http(url('/api/v1/cards/?limit=0'), { key: h.token })).status).toBe(400);

    const one = await http(url(`/api/v1/cards/${ids[0]}/`), { key: h.token });
    expect([one.status, one.body.id]).toEqual([200, ids[0]]);
    const revealed = await reveal(h.token, ids[0]);
    expect(revealed.status).toBe(200);
    expect(revealed.headers.get('cache-control')).toBe('no-store');
    expect(cardNumber(revealed.body.number).isValid).toBe(true);
    expect(revealed.body.number.slice(-4)).toBe(one.body.last4);
    expect(await t.app.services.cards.store.reveals(ids[0])).toBe(1);
    // the security code comes from the issuer at each reveal (the same code each time) and is never stored
    expect(revealed.body.cvc).toMatch(/^[0-9]{3}$/);
    expect((await reveal(h.token, ids[0])).body.cvc).toBe(revealed.body.cvc); // a second reveal, audited too
    const { rows: stored } = await t.app.services.cards.store.store.pool.query('SELECT * FROM cards.card WHERE id = $1', [ids[0]]);
    expect(Object.keys(stored[0]).filter((column) => /cvc|cvv|security/i.test(column))).toEqual([]);

    const stranger = await holder();
    for (const res of [
      await http(url(`/api/v1/cards/${ids[0]}/`), { key: stranger.token }),
      await reveal(stranger.token, ids[0], { password: PASSWORD }),
      await http(url(`/api/v1/cards/${ids[0]}/freeze/`), { method: 'POST', key: stranger.token }),
      await http(url('/api/v1/cards/not-a-uuid/'), { key: h.token }),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    expect(await t.app.services.cards.store.reveals(ids[0])).toBe(2);
  });
});

describe('POST …/reveal/ re-authenticates the holder on the server', () => {
  it('needs the password in the request: none 400, a wrong one 403 reauthentication_failed (nothing revealed, nothing audited)', async () => {
    const h = await holder();
    const cardId = (await issue(h.token)).body.id as string;
    for (const body of [null, {}, { password: '' }, { password: 42 }]) {
      const res = await reveal(h.token, cardId, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'invalid']);
    }
    const wrong = await reveal(h.token, cardId, { password: 'not my password' });
    expect([wrong.status, wrong.body.code, wrong.body.number]).toEqual([403, 'reauthentication_failed', undefined]);
    expect(await t.app.services.cards.store.reveals(cardId)).toBe(0);
    // the token still works: a wrong password is not a sign-out
    expect((await http(url(`/api/v1/cards/${cardId}/`), { key: h.token })).status).toBe(200);
    expect((await reveal(h.token, cardId)).status).toBe(200);
    expect(await t.app.services.cards.store.reveals(cardId)).toBe(1);
  });

  it('with 2FA on, the one-time code is required too (403 otp_required, a wrong one 403 reauthentication_failed)', async () => {
    const h = await holder();
    const cardId = (await issue(h.token)).body.id as string;
    const identity = t.app.services.identity.identity;
    const { secret } = await identity.startTotpEnrolment(h.id);
    await identity.confirmTotpEnrolment(h.id, await identity.currentTotp(h.id));
    const noCode = await reveal(h.token, cardId, { password: PASSWORD });
    expect([noCode.status, noCode.body.code]).toEqual([403, 'otp_required']);
    const wrongCode = await reveal(h.token, cardId, { password: PASSWORD, otp: '000000' });
    expect([wrongCode.status, wrongCode.body.code]).toEqual([403, 'reauthentication_failed']);
    const wrongPassword = await reveal(h.token, cardId, { password: 'not my password', otp: await nextCode(secret) });
    expect([wrongPassword.status, wrongPassword.body.code]).toEqual([403, 'reauthentication_failed']);
    expect(await t.app.services.cards.store.reveals(cardId)).toBe(0);
    // the enrolment used the current step: the next one works
    const ok = await reveal(h.token, cardId, { password: PASSWORD, otp: await nextCode(secret) });
    expect(ok.status).toBe(200);
    expect(await t.app.services.cards.store.reveals(cardId)).toBe(1);
  });

  it('wrong passwords are throttled like sign-in: 429 with Retry-After, even for the right password afterwards', async () => {
    const h = await holder();
    const cardId = (await issue(h.token)).body.id as string;
    const answers = await Promise.all(Array.from({ length: 8 }, () => reveal(h.token, cardId, { password: 'wrong password' })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 403).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 403 || s === 429)).toHaveLength(8);
    const throttled = await reveal(h.token, cardId);
    expect([throttled.status, throttled.body.code]).toEqual([429, 'throttled']);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await t.app.services.cards.store.reveals(cardId)).toBe(0);
  });
});

describe("a card's life", () => {
  it('freeze → declined card_frozen; unfreeze → authorised (held) → captured (posted); another authorised → released (voided)', async () => {
    const h = await holder('100.00');
    const cardId = (await issue(h.token)).body.id as string;

    const frozen = await http(url(`/api/v1/cards/${cardId}/freeze/`), { method: 'POST', key: h.token });
    expect([frozen.status, frozen.body.status]).toEqual([200, 'frozen']);
    expect(decision(await authorise(cardId, '10.00'))).toEqual([200, false, 'card_frozen', 'declined']);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('100.00');

    const active = await http(url(`/api/v1/cards/${cardId}/unfreeze/`), { method: 'POST', key: h.token });
    expect([active.status, active.body.status]).toEqual([200, 'active']);
    const approved = await authorise(cardId, '30.00');
    expect([approved.res.status, approved.res.body.approved, approved.res.body.decline_reason]).toEqual([200, true, null]);
    expect(approved.res.body.authorisation).toEqual({
      id: expect.any(String),
      card_id: cardId,
      issuer_authorisation_id: approved.id,
      amount: { amount: '30.00', currency: 'EUR' },
      merchant: { name: 'Coffee Shop', category: '5814' },
      status: 'pending',
      decline_reason: null,
      captured_amount: null,
      created_at: expect.any(String),
    });
    expect(await balanceOf(t, h.token, 'EUR')).toMatchObject({ available: { amount: '70.00' }, posted: { amount: '100.00' } });
    // the issuer redelivers the request: the same decision, one hold
    const redelivered = await authorise(cardId, '30.00', approved.id);
    expect([redelivered.res.body.approved, redelivered.res.body.authorisation.id]).toEqual([true, approved.res.body.authorisation.id]);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('70.00');

    const captured = await settle('captured', cardId, approved.id, '25.00');
    expect([captured.status, captured.body.authorisation.status, captured.body.authorisation.captured_amount]).toEqual([
      200,
      'captured',
      { amount: '25.00', currency: 'EUR' },
    ]);
    expect((await settle('captured', cardId, approved.id, '25.00')).body.authorisation.status).toBe('captured');
    expect(await balanceOf(t, h.token, 'EUR')).toMatchObject({ available: { amount: '75.00' }, posted: { amount: '75.00' } });

    const second = await authorise(cardId, '40.00');
    expect(second.res.body.approved).toBe(true);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('35.00');
    const released = await settle('released', cardId, second.id, '40.00');
    expect([released.status, released.body.authorisation.status]).toEqual([200, 'released']);
    expect((await settle('captured', cardId, second.id, '40.00')).status).toBe(409);
    expect(await balanceOf(t, h.token, 'EUR')).toMatchObject({ available: { amount: '75.00' }, posted: { amount: '75.00' } });

    const list = await http(url(`/api/v1/cards/${cardId}/authorisations/`), { key: h.token });
    expect(list.body.results.map((a: { status: string }) => a.status)).toEqual(['released', 'captured', 'declined']);
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it('declines past the per-authorisation and daily limits, on insufficient funds, in another currency and below the KYC level', async () => {
    const h = await holder('50.00');
    const cardId = (await issue(h.token)).body.id as string;
    const patched = await http(url(`/api/v1/cards/${cardId}/`), {
      method: 'PATCH',
      key: h.token,
      ...json({ spending_limits: { per_authorisation: '10.00', daily: '20.00' } }),
    });
    expect([patched.status, patched.body.spending_limits]).toEqual([
      200,
      { per_authorisation: { amount: '10.00', currency: 'EUR' }, daily: { amount: '20.00', currency: 'EUR' } },
    ]);
    expect((await authorise(cardId, '15.00')).res.body.decline_reason).toBe('authorisation_limit');
    expect((await authorise(cardId, '8.00')).res.body.approved).toBe(true);
    expect((await authorise(cardId, '8.00')).res.body.approved).toBe(true);
    expect((await authorise(cardId, '8.00')).res.body.decline_reason).toBe('daily_limit');
    expect((await authorise(cardId, '5.00', undefined, 'GBP')).res.body.decline_reason).toBe('currency_mismatch');

    const cleared = await http(url(`/api/v1/cards/${cardId}/`), {
      method: 'PATCH',
      key: h.token,
      ...json({ spending_limits: { per_authorisation: null, daily: null } }),
    });
    expect(cleared.body.spending_limits).toEqual({ per_authorisation: null, daily: null });
    expect((await http(url(`/api/v1/cards/${cardId}/`), { method: 'PATCH', key: h.token, ...json({ spending_limits: { daily: 'ten' } }) })).status).toBe(400);
    // 50 − 16 held: 34 left
    const broke = await authorise(cardId, '35.00');
    expect([broke.res.body.approved, broke.res.body.decline_reason, broke.res.body.authorisation.status]).toEqual([false, 'insufficient_funds', 'declined']);
    expect((await authorise(cardId, '34.00')).res.body.approved).toBe(true);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('0.00');

    // the holder's level drops below what the node requires: seen at their next card request
    await t.app.services.identity.identity.setKycLevel(h.id, 'none');
    expect((await http(url(`/api/v1/cards/${cardId}/`), { key: h.token })).status).toBe(200);
    expect((await authorise(cardId, '1.00')).res.body.decline_reason).toBe('kyc_required');
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it("declines an authorisation over the per-transaction limit of the holder's KYC level with limit_exceeded, holding nothing", async () => {
    const h = await holder('3000.00');
    const cardId = (await issue(h.token)).body.id as string;
    // basic: 2000.00 EUR a transaction, whatever the card's own limits
    expect(decision(await authorise(cardId, '2000.01'))).toEqual([200, false, 'limit_exceeded', 'declined']);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('3000.00');
    expect((await authorise(cardId, '2000.00')).res.body.approved).toBe(true);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('1000.00');
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });
});

describe('POST /api/v1/webhooks/cards/<provider>/', () => {
  it('refuses a missing, wrong or stale signature with 401 webhook_signature_invalid, an unknown provider or card with 404, and changes nothing', async () => {
    const h = await holder('10.00');
    const cardId = (await issue(h.token)).body.id as string;
    const body = event('issuing_authorization.request', { id: 'iauth_x', card: await providerCardId(cardId), amount: '5.00', currency: 'EUR' });
    for (const signature of ['', 't=1,v1=00', signWebhook('another secret', body), signWebhook(secret, body, new Date(Date.now() - 3600_000))]) {
      const res = await postWebhook(t, '/api/v1/webhooks/cards/sandbox/', body, secret, { signature });
      expect([res.status, res.body.code]).toEqual([401, 'webhook_signature_invalid']);
    }
    expect((await postWebhook(t, '/api/v1/webhooks/cards/other/', body, secret)).status).toBe(404);
    const unknownCard = { ...body, data: { authorization: { ...body.data.authorization, card: 'ic_unknown' } } };
    expect((await postWebhook(t, '/api/v1/webhooks/cards/sandbox/', unknownCard, secret)).status).toBe(404);
    const badType = { ...body, type: 'issuing_card.created' };
    expect((await postWebhook(t, '/api/v1/webhooks/cards/sandbox/', badType, secret)).status).toBe(400);
    expect((await http(url(`/api/v1/cards/${cardId}/authorisations/`), { key: h.token })).body.results).toEqual([]);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('10.00');
  });

  it('holds once under concurrent deliveries of one request and decides concurrent requests of one card against its daily limit', async () => {
    const h = await holder('100.00');
    const cardId = (await issue(h.token, { currency: 'EUR', spending_limits: { daily: '30.00' } })).body.id as string;
    const id = `iauth_${randomUUID()}`;
    const same = await Promise.all(Array.from({ length: 5 }, () => authorise(cardId, '10.00', id)));
    expect(new Set(same.map((s) => s.res.body.authorisation.id)).size).toBe(1);
    const others = await Promise.all(Array.from({ length: 6 }, () => authorise(cardId, '10.00')));
    // 30.00 a day: the first 10.00 and two more
    expect(others.filter((o) => o.res.body.approved)).toHaveLength(2);
    expect((await balanceOf(t, h.token, 'EUR'))!.available.amount).toBe('70.00');
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });
});

describe('maintenance', () => {
  it("answers every card route with 503 maintenance while the node is in maintenance, the issuer's webhook included", async () => {
    const h = await holder('10.00');
    const cardId = (await issue(h.token)).body.id as string;
    const session = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
    const settings = (fields: Record<string, string>) =>
      changeNode(t, () =>
        adminPost(t, session, '/admin/node/settings/', { kycRequired: 'on', cryptoEnabled: 'on', brokerageProvider: 'equities_brokerage', ...fields }),
      );
    expect((await settings({ maintenanceMode: 'on', maintenanceMessage: 'Card upgrade.' })).status).toBe(302);
    try {
      for (const [method, path] of [
        ['POST', '/api/v1/cards/'],
        ['GET', '/api/v1/cards/'],
        ['POST', `/api/v1/cards/${cardId}/freeze/`],
        ['POST', `/api/v1/cards/${cardId}/reveal/`],
      ] as const) {
        const res = await http(url(path), { method, key: h.token, ...(method === 'POST' ? json({ currency: 'EUR', password: PASSWORD }) : {}) });
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 503, 'maintenance']);
      }
      expect((await authorise(cardId, '1.00')).res.status).toBe(503);
    } finally {
      await settings({});
    }
    expect((await authorise(cardId, '1.00')).res.body.approved).toBe(true);
  });
});

describe('admin console', () => {
  it('lists cards masked and their authorisations', async () => {
    const h = await holder('10.00');
    const cardId = (await issue(h.token)).body.id as string;
    const number = (await reveal(h.token, cardId)).body.number as string;
    const { id } = await authorise(cardId, '2.50');
    const admin = await createUser(t, undefined, { superuser: true });
    const session = await adminSignIn(t, admin.username);
    const cards = await http(url('/admin/cards/card/'), { headers: { cookie: session.cookie } });
    expect(cards.status).toBe(200);
    expect(cards.body).toContain(cardId);
    expect(cards.body).toContain(`•••• •••• •••• ${number.slice(-4)}`);
    expect(cards.body).not.toContain(number);
    const authorisations = await http(url('/admin/cards/authorisation/'), { headers: { cookie: session.cookie } });
    expect([authorisations.status, authorisations.body.includes(id)]).toEqual([200, true]);
    expect((await http(url('/admin/cards/card/'), { redirect: 'manual' })).status).toBe(302);
  });
});
