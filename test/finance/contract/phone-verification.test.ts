import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminSignIn, createUser, graphql, installValidLicence, login } from '../../support/finance/node';
import { lastSmsTo, smsCodeTo } from '../../support/finance/phone';

/**
 * Phone numbers verified by a one-time code before they receive transfers, through
 * the REST surface: PUT /api/v1/profile/phone/ makes the number pending and sends a code by SMS (the
 * offline sandbox keeps it in identity.sms_outbox), POST …/verify/ verifies it; an unverified number is
 * "no such recipient"; pending claims block nobody; wrong codes are reserved before they are checked,
 * per code (40 concurrent guesses from one address or forty: 5 evaluated, the fifth wrong one ends the
 * code); codes expire after 10 minutes and work once.
 */
let t: TestApp;
beforeAll(async () => {
  // X-Forwarded-For from the test (loopback) names the client's address
  t = await startTestApp({ TRUST_PROXY: 'loopback' });
  await installValidLicence(t);
});
afterAll(() => t?.stop());

const { url, send } = surface(() => t.urls.finance);
const setPhone = (token: string, phone: string | null) => send('PUT', '/api/v1/profile/phone/', token, { phone });
const verify = (token: string, code: string) => send('POST', '/api/v1/profile/phone/verify/', token, { code });
const transferOneEuro = (token: string, recipient: string) => send('POST', '/api/v1/transfers/', token, { recipient, amount: '1.00', currency: 'EUR' });
const profile = async (token: string) => (await http(url('/api/v1/profile/'), { key: token })).body as { phone: string | null; phone_verified: boolean };

/** A fresh UK mobile number (every 07400 xxxxxx is valid to libphonenumber-js). */
const freshPhone = () => `+447400${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

async function user(fundEur = 0n) {
  const u = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  if (fundEur) await t.app.services.ledger.ledger.fund(u.id, 'EUR', fundEur, randomUUID());
  return { ...u, token: await login(t, u.username) };
}

describe('PUT /api/v1/profile/phone/ and POST /api/v1/profile/phone/verify/', () => {
  it('sends a code to a pending number, which receives no transfer until the code verifies it', async () => {
    const alice = await user(100_00n);
    const bob = await user();
    const phone = freshPhone();
    const before = Date.now();
    const set = await setPhone(bob.token, `${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`);
    expect([set.status, set.body]).toEqual([202, { username: bob.username, phone, verified: false, code_expires_at: expect.any(String) }]);
    const expiresIn = Date.parse(set.body.code_expires_at as string) - before;
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThan(11 * 60_000);
    expect(await profile(bob.token)).toMatchObject({ phone, phone_verified: false });
    const sms = await lastSmsTo(t, phone);
    expect(sms?.body).toMatch(/^Finance Node: your verification code is \d{6}\. It expires in 10 minutes\.$/);
    // only its hash is kept
    const { rows } = await t.app.services.identity.store.pool.query<{ hash: Buffer }>('SELECT code_hash AS hash FROM identity.phone_code WHERE user_id = $1', [
      bob.id,
    ]);
    const code = await smsCodeTo(t, phone);
    expect(rows[0].hash.toString('hex')).not.toContain(Buffer.from(code).toString('hex'));

    // unverified: the same answer as a number nobody has
    const refused = await transferOneEuro(alice.token, phone);
    const unknown = await transferOneEuro(alice.token, freshPhone());
    expect([refused.status, refused.body.code]).toEqual([404, 'recipient_not_found']);
    expect([unknown.status, unknown.body]).toEqual([refused.status, refused.body]);

    const wrong = await verify(bob.token, otherThan(code));
    expect([wrong.status, wrong.body.code, Object.keys(wrong.body.errors ?? {})]).toEqual([400, 'invalid', ['code']]);
    const right = await verify(bob.token, code);
    expect([right.status, right.body]).toEqual([200, { username: bob.username, phone, verified: true }]);
    // single use
    expect((await verify(bob.token, code)).status).toBe(400);
    expect(await profile(bob.token)).toMatchObject({ phone, phone_verified: true });

    const sent = await transferOneEuro(alice.token, phone);
    expect([sent.status, sent.body.recipient]).toEqual([201, bob.username]);

    // verified: nobody else can claim it; the same number again changes nothing and sends nothing
    const carol = await user();
    const taken = await setPhone(carol.token, phone);
    expect([taken.status, taken.body.code]).toEqual([409, 'conflict']);
    const same = await setPhone(bob.token, phone);
    expect([same.status, same.body]).toEqual([200, { username: bob.username, phone, verified: true, code_expires_at: null }]);
    expect((await lastSmsTo(t, phone))?.body).toBe(sms?.body);

    // cleared: no longer a recipient
    const cleared = await setPhone(bob.token, null);
    expect([cleared.status, cleared.body]).toEqual([200, { username: bob.username, phone: null, verified: false, code_expires_at: null }]);
    expect((await transferOneEuro(alice.token, phone)).status).toBe(404);
    expect(await profile(bob.token)).toMatchObject({ phone: null, phone_verified: false });
  });

  it('refuses bad input with 400, and a code asked for without a number', async () => {
    const dan = await user();
    const bad = await setPhone(dan.token, '12');
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid']);
    const noCode = await verify(dan.token, '123456');
    expect([noCode.status, Object.keys(noCode.body.errors ?? {})]).toEqual([400, ['code']]);
    expect((await send('POST', '/api/v1/profile/phone/verify/', dan.token, {})).status).toBe(400);
    expect((await send('POST', '/api/v1/profile/phone/verify/', '', { code: '123456' })).status).toBe(401);
  });

  it("a pending claim blocks nobody; verifying the number drops other users' pending claims of it", async () => {
    const dave = await user();
    const erin = await user();
    const phone = freshPhone();
    expect((await setPhone(dave.token, phone)).status).toBe(202);
    const davesCode = await smsCodeTo(t, phone);
    expect((await setPhone(erin.token, phone)).status).toBe(202);
    const erinsCode = await smsCodeTo(t, phone);
    const verified = await verify(erin.token, erinsCode);
    expect([verified.status, verified.body.verified]).toEqual([200, true]);
    // dave's claim is gone, and his code with it
    expect(await profile(dave.token)).toMatchObject({ phone: null, phone_verified: false });
    expect((await verify(dave.token, davesCode)).status).toBe(400);
  });

  it('sends at most one code a minute per user (429 with Retry-After)', async () => {
    const fay = await user();
    expect((await setPhone(fay.token, freshPhone())).status).toBe(202);
    const again = await setPhone(fay.token, freshPhone());
    expect([again.status, again.body.code]).toEqual([429, 'throttled']);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sends at most five codes a day per user', async () => {
    const ida = await user();
    const nextMinute = () => t.app.services.identity.store.pool.query('DELETE FROM identity.rate_limit WHERE key = $1', [`phone-send-min:${ida.id}`]);
    for (let i = 0; i < 5; i++) {
      expect((await setPhone(ida.token, freshPhone())).status).toBe(202);
      await nextMinute();
    }
    const sixth = await setPhone(ida.token, freshPhone());
    expect([sixth.status, sixth.body.code]).toEqual([429, 'throttled']);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3600);
  });

  it('evaluates at most 5 of 40 concurrent wrong codes, one address or forty (one rule, per code); the fifth wrong one ends the code', async () => {
    for (const addresses of ['one', 'forty'] as const) {
      const gil = await user();
      const phone = freshPhone();
      expect((await setPhone(gil.token, phone)).status).toBe(202);
      const code = await smsCodeTo(t, phone);
      const from = (i: number) => ({ 'x-forwarded-for': addresses === 'one' ? '198.51.100.77' : `198.51.100.${100 + i}` });
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          http(url('/api/v1/profile/phone/verify/'), {
            method: 'POST',
            key: gil.token,
            headers: { 'content-type': 'application/json', ...from(i) },
            body: JSON.stringify({ code: otherThan(code) }),
          }),
        ),
      );
      const evaluated = answers.filter((a) => a.status === 400 && /not valid/.test(JSON.stringify(a.body)));
      expect(evaluated.length).toBeLessThanOrEqual(5);
      expect(answers.filter((a) => !evaluated.includes(a)).every((a) => a.status === 429)).toBe(true);
      const throttled = answers.find((a) => a.status === 429)!;
      expect([throttled.body.code, Number(throttled.headers.get('retry-after')) > 0]).toEqual(['throttled', true]);
      // the code has ended: even the right one is refused (429) until a new code is asked for
      const right = await verify(gil.token, code);
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await profile(gil.token)).toMatchObject({ phone, phone_verified: false });
    }
  });

  it('refuses an expired code with 400 code_expired', async () => {
    const hal = await user();
    const phone = freshPhone();
    expect((await setPhone(hal.token, phone)).status).toBe(202);
    const code = await smsCodeTo(t, phone);
    await t.app.services.identity.store.pool.query(`UPDATE identity.phone_code SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [hal.id]);
    const expired = await verify(hal.token, code);
    expect([expired.status, expired.body.code]).toEqual([400, 'code_expired']);
    expect(await profile(hal.token)).toMatchObject({ phone, phone_verified: false });
  });
});

describe('the administrator', () => {
  it('sets a number verified at once (setNodeUserPhone), dropping pending claims, and reads the sandbox outbox', async () => {
    const ivy = await user();
    const jon = await user();
    const sender = await user(10_00n);
    const phone = freshPhone();
    expect((await setPhone(jon.token, phone)).status).toBe(202);
    const admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
    const set = await graphql(
      t,
      'mutation($user: ID!, $phone: String) { setNodeUserPhone(user: $user, phone: $phone) { username phone phoneVerified } }',
      { user: ivy.username, phone },
      { cookie: admin.cookie },
    );
    expect(set.body).toEqual({ data: { setNodeUserPhone: { username: ivy.username, phone, phoneVerified: true } } });
    expect(await profile(jon.token)).toMatchObject({ phone: null });
    expect((await transferOneEuro(sender.token, phone)).body.recipient).toBe(ivy.username);

    const outbox = await graphql(t, 'query($to: String) { nodeSandboxSms(to: $to) { to body } }', { to: phone }, { cookie: admin.cookie });
    expect(outbox.body.data.nodeSandboxSms).toEqual([{ to: phone, body: expect.stringMatching(/verification code is \d{6}/) }]);
    // the console's user page tells a pending number from a verified one
    const other = freshPhone();
    const kim = await user();
    expect((await setPhone(kim.token, other)).status).toBe(202);
    const page = async (id: string) => (await http(url(`/admin/identity/user/${id}/`), { headers: { cookie: admin.cookie } })).body as string;
    expect(await page(kim.id)).toContain(`${other} (not verified)`);
    expect(await page(ivy.id)).toContain(phone);
    expect(await page(ivy.id)).not.toContain(`${phone} (not verified)`);
    // a user may not read it
    const asUser = await graphql(t, '{ nodeSandboxSms { body } }', {}, { authorization: `Bearer ${jon.token}` });
    expect(asUser.body.errors?.[0]?.extensions?.code).toMatch(/FORBIDDEN|UNAUTHENTICATED/);
  });
});
