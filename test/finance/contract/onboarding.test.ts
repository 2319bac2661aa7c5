import { randomUUID } from 'node:crypto';
import { generate as totpGenerate } from 'otplib';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminSignIn, createUser, graphql, installValidLicence, login, PASSWORD, type AdminSession } from '../../support/finance/node';
import { outbox, type ReadMail } from '../../support/platform/mail';

/**
 * Onboarding and account security of the finance node, over real HTTP on the
 * node's REST surface: sign-up (open and invite-only), e-mail verification through the mail outbox,
 * password reset and change, sessions (revocable tokens), 2FA recovery codes, the profile.
 */
let t: TestApp<'finance'>;
let mail: ReturnType<typeof outbox>;
let console_: AdminSession;
beforeAll(async () => {
  t = await startTestApp({ APP_NAME: 'Acme Finance', AUTH_ATTEMPTS_PER_HOUR: '40' }, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
  mail = outbox(t.config.dataDir);
  const operator = await createUser(t as unknown as TestApp, undefined, { superuser: true });
  console_ = await adminSignIn(t as unknown as TestApp, operator.username);
});
afterAll(() => t?.stop());

const { url, post, send } = surface(() => t.urls.finance);
const name = () => `new_${randomUUID().slice(0, 8)}`;
const tokenIn = (m: ReadMail) => /\?token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1];

/** The next mails to `to` (waits for mail sent after the answer, as the reset mail is). */
async function mailsTo(to: string, count = 1): Promise<ReadMail[]> {
  const got: ReadMail[] = [];
  for (let i = 0; i < 100 && got.length < count; i++) {
    got.push(...(await mail.fresh()).filter((m) => m.to === to));
    if (got.length < count) await new Promise((r) => setTimeout(r, 50));
  }
  return got;
}

const fxQuote = (token: string) => post('/api/v1/fx/quotes/', token, { source_currency: 'EUR', target_currency: 'GBP', source_amount: '10.00' });
const profile = async (token: string) => (await http(url('/api/v1/profile/'), { key: token })).body;
/** An operator of the admin console (session cookie), through the gateway. */
const consoleGraphql = (query: string, variables: Record<string, unknown> = {}) =>
  graphql(t as unknown as TestApp, query, variables, { cookie: console_.cookie });
const userCount = async () => (await t.app.services.identity.identity.stats()).total;

describe('sign-up and e-mail verification', () => {
  it('creates an unverified user, mails a link; the user signs in but moves no money until verified', async () => {
    const username = name();
    const email = `${username}@example.com`;
    const res = await post('/api/auth/signup/', undefined, { username, email, password: 'a long enough password' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), username, email, email_verified: false });
    const [verification] = await mailsTo(email);
    // named after the branding (its organisation name, the default until an operator names it), not APP_NAME
    expect(verification.subject).toBe('Finance Node: verify your e-mail address');
    const token = tokenIn(verification)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const access = await login(t as unknown as TestApp, username, 'a long enough password');
    expect(await profile(access)).toEqual({
      id: res.body.id,
      username,
      email,
      email_verified: false,
      phone: null,
      phone_verified: false,
      twofa_enabled: false,
      kyc_level: 'none',
      created_at: expect.any(String),
    });
    const refused = await fxQuote(access);
    expect([refused.status, refused.body.code]).toEqual([403, 'email_unverified']);

    const verified = await post('/api/auth/email/verify/', undefined, { token });
    expect([verified.status, verified.body]).toEqual([200, { email_verified: true }]);
    expect((await profile(access)).email_verified).toBe(true);
    // the money rule that applies now is the KYC level's, not the address's
    expect((await fxQuote(access)).body.code).toBe('kyc_required');
    const again = await post('/api/auth/email/verify/', undefined, { token });
    expect([again.status, again.body.code, again.body.error]).toEqual([400, 'invalid_token', 'invalid_token']);
  });

  it('refuses bad fields with 400 validation_error, one message per field, and creates nothing', async () => {
    const before = await userCount();
    const bad = await post('/api/auth/signup/', undefined, { username: 'Bad Name!', email: 'not-an-address', password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation_error', code: 'validation_error' });
    expect(bad.body.fields).toEqual({ username: expect.any(String), email: expect.any(String), password: expect.any(String) });
    const asName = await post('/api/auth/signup/', undefined, { username: 'samesame_user', email: 'samesame@example.com', password: 'SAMESAME_USER' });
    expect([asName.status, asName.body.fields.password]).toEqual([400, 'The password must not be your user name.']);
    const missing = await post('/api/auth/signup/', undefined, { username: name() });
    expect([missing.status, missing.body.error, Object.keys(missing.body.fields).sort()]).toEqual([400, 'validation_error', ['email', 'password']]);
    expect(await userCount()).toBe(before);
  });

  it('answers 409 username_taken and creates nothing (a taken address: signup-handles.test.ts)', async () => {
    const existing = await createUser(t as unknown as TestApp);
    const before = await userCount();
    const res = await post('/api/auth/signup/', undefined, {
      username: existing.username.toUpperCase(),
      email: 'someone@example.com',
      password: 'a long enough password',
    });
    expect([res.status, res.body.code, res.body.fields]).toEqual([409, 'username_taken', { username: 'This user name is taken.' }]);
    expect(await userCount()).toBe(before);
  });

  it('user names are case-insensitive: kept once in lower case; any case, with surrounding spaces, names the same user', async () => {
    const typed = `Mixed.${name()}`.toUpperCase().replace('NEW_', 'New_');
    const res = await post('/api/auth/signup/', undefined, { username: typed, email: `${name()}@example.com`, password: 'a long enough password' });
    expect([res.status, res.body.username]).toEqual([201, typed.toLowerCase()]);
    for (const as of [typed, ` ${typed.toUpperCase()} `, typed.toLowerCase()]) {
      expect(await profile(await login(t as unknown as TestApp, as, 'a long enough password'))).toMatchObject({ username: typed.toLowerCase() });
    }
    // a transfer's recipient (the payments module asks identity through the supergraph's nodeRecipient)
    expect((await t.app.services.identity.identity.recipient(` ${typed.toUpperCase()} `))?.username).toBe(typed.toLowerCase());
    // the table itself refuses a name that is not in its one form (the unique index is then case-insensitive)
    const stored = await t.app.services.ledger.store.pool.query(`SELECT count(*)::int AS n FROM identity.node_user WHERE lower(username) = lower($1)`, [typed]);
    expect(stored.rows[0].n).toBe(1);
    await expect(
      t.app.services.ledger.store.pool.query(`UPDATE identity.node_user SET username = $1 WHERE username = $2`, [typed, typed.toLowerCase()]),
    ).rejects.toThrow(/check/);
  });

  it('invite-only: 403 signup_closed without a code, 400 invalid_invite with a bad or used one; a console invite works once', async () => {
    const set = await consoleGraphql('mutation { setNodeSignupMode(mode: "invite_only") }');
    expect(set.body).toEqual({ data: { setNodeSignupMode: 'invite_only' } });
    try {
      expect((await http(url('/api/v1/config/'))).body.auth).toEqual({ enforce_2fa: false, signup: 'invite_only' });
      const before = await userCount();
      const body = (extra: Record<string, unknown> = {}) => {
        const u = name();
        return { username: u, email: `${u}@example.com`, password: 'a long enough password', ...extra };
      };
      const closed = await post('/api/auth/signup/', undefined, body());
      expect([closed.status, closed.body.code, closed.body.error]).toEqual([403, 'signup_closed', 'signup_closed']);
      const unknown = await post('/api/auth/signup/', undefined, body({ invite_code: 'inv_nothing_like_this' }));
      expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid_invite']);
      expect(await userCount()).toBe(before);

      const created = await consoleGraphql('mutation { createNodeInvite(note: "for Ada", expiresInDays: 7) { code invite { hint note usedAt } } }');
      const { code, invite } = created.body.data.createNodeInvite;
      expect(invite).toEqual({ hint: code.slice(-4), note: 'for Ada', usedAt: null });
      expect((await post('/api/auth/signup/', undefined, body({ invite_code: code }))).status).toBe(201);
      const reused = await post('/api/auth/signup/', undefined, body({ invite_code: code }));
      expect([reused.status, reused.body.code]).toEqual([400, 'invalid_invite']);
      expect(await userCount()).toBe(before + 1);
      // a user may not change the policy
      const user = await createUser(t as unknown as TestApp);
      const token = await login(t as unknown as TestApp, user.username);
      const denied = await graphql(t as unknown as TestApp, 'mutation { setNodeSignupMode(mode: "open") }', {}, { authorization: `Bearer ${token}` });
      expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    } finally {
      await consoleGraphql('mutation { setNodeSignupMode(mode: "open") }');
    }
  });

  it('resends the verification mail to an unverified user (202), not to a verified one', async () => {
    const username = name();
    const email = `${username}@example.com`;
    await post('/api/auth/signup/', undefined, { username, email, password: 'a long enough password' });
    await mailsTo(email);
    const access = await login(t as unknown as TestApp, username, 'a long enough password');
    expect((await post('/api/auth/email/resend/', access, {})).status).toBe(202);
    const [again] = await mailsTo(email);
    expect((await post('/api/auth/email/verify/', undefined, { token: tokenIn(again) })).status).toBe(200);
    expect((await post('/api/auth/email/resend/', access, {})).status).toBe(202);
    expect(await mailsTo(email)).toEqual([]);
  });
});

describe('passwords', () => {
  it('reset: 202 whatever the address; one mail with a single-use token; every session ends', async () => {
    const user = await t.app.services.identity.identity.createUser({
      username: name(),
      password: PASSWORD,
      email: `reset_${randomUUID().slice(0, 8)}@example.com`,
    });
    const email = user.email;
    const old = await login(t as unknown as TestApp, user.username);

    const nobody = await post('/api/auth/password/reset/', undefined, { email: 'nobody-here@example.com' });
    const somebody = await post('/api/auth/password/reset/', undefined, { email });
    expect([nobody.status, nobody.body]).toEqual([somebody.status, somebody.body]);
    expect(somebody.status).toBe(202);
    const [reset] = await mailsTo(email);
    expect(reset.subject).toBe('Finance Node: reset your password'); // the branding's name (its default), not APP_NAME
    const token = tokenIn(reset)!;

    const weak = await post('/api/auth/password/reset/confirm/', undefined, { token, password: '123' });
    expect([weak.status, weak.body.error, typeof weak.body.fields.password]).toEqual([400, 'validation_error', 'string']);
    const ok = await post('/api/auth/password/reset/confirm/', undefined, { token, password: 'a brand new password' });
    expect(ok.status).toBe(200);
    expect((await http(url('/api/v1/profile/'), { key: old })).status).toBe(401);
    expect((await post('/api/login/', undefined, { username: user.username, password: PASSWORD })).status).toBe(401);
    await login(t as unknown as TestApp, user.username, 'a brand new password');
    const reused = await post('/api/auth/password/reset/confirm/', undefined, { token, password: 'another new password' });
    expect([reused.status, reused.body.code]).toEqual([400, 'invalid_token']);
  });

  it('change: the current password is checked; a new token for this client, the other sessions end', async () => {
    const user = await createUser(t as unknown as TestApp);
    const here = await login(t as unknown as TestApp, user.username);
    const elsewhere = await login(t as unknown as TestApp, user.username);
    const wrong = await post('/api/auth/password/', here, { current_password: 'not it at all', password: 'a brand new password' });
    expect([wrong.status, wrong.body.error, wrong.body.fields]).toEqual([400, 'validation_error', { current_password: 'Wrong password.' }]);
    const changed = await post('/api/auth/password/', here, { current_password: PASSWORD, password: 'a brand new password' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ access: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    expect((await http(url('/api/v1/profile/'), { key: changed.body.access })).status).toBe(200);
    for (const stale of [here, elsewhere]) expect((await http(url('/api/v1/profile/'), { key: stale })).status).toBe(401);
    await login(t as unknown as TestApp, user.username, 'a brand new password');
  });
});

describe('sessions', () => {
  it('lists the sessions, ends one, signs out and signs out everywhere', async () => {
    const user = await createUser(t as unknown as TestApp);
    const signInFrom = async (agent: string) =>
      (await post('/api/login/', undefined, { username: user.username, password: PASSWORD }, { 'user-agent': agent })).body.access;
    const phone = await signInFrom('Phone/1.0');
    const laptop = await signInFrom('Laptop/2.0');
    const list = await http(url('/api/auth/sessions/'), { key: laptop });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const [newest, oldest] = list.body;
    expect(newest).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      last_seen_at: expect.any(String),
      user_agent: 'Laptop/2.0',
      ip: expect.any(String),
      current: true,
    });
    expect([oldest.user_agent, oldest.current]).toEqual(['Phone/1.0', false]);

    const other = await createUser(t as unknown as TestApp);
    const otherToken = await login(t as unknown as TestApp, other.username);
    expect((await http(url(`/api/auth/sessions/${oldest.id}/`), { method: 'DELETE', key: otherToken })).status).toBe(404);
    const ended = await http(url(`/api/auth/sessions/${oldest.id}/`), { method: 'DELETE', key: laptop });
    expect([ended.status, ended.body]).toEqual([204, '']);
    expect((await http(url('/api/v1/profile/'), { key: phone })).status).toBe(401);
    expect((await http(url(`/api/auth/sessions/${oldest.id}/`), { method: 'DELETE', key: laptop })).status).toBe(404);

    expect((await post('/api/auth/logout/', laptop, {})).status).toBe(204);
    expect((await http(url('/api/v1/profile/'), { key: laptop })).status).toBe(401);

    const a = await signInFrom('A');
    const b = await signInFrom('B');
    expect((await post('/api/auth/logout-all/', a, {})).status).toBe(204);
    for (const token of [a, b]) expect((await http(url('/api/v1/profile/'), { key: token })).status).toBe(401);
    expect((await http(url('/api/v1/profile/'), { key: otherToken })).status).toBe(200);
  });
});

describe('2FA recovery codes', () => {
  it('confirming 2FA answers ten codes; each signs in once; a new set replaces them', async () => {
    const user = await createUser(t as unknown as TestApp);
    const token = await login(t as unknown as TestApp, user.username);
    const enrol = await post('/api/auth/2fa/enrol/', token, { current_password: PASSWORD });
    const secret = enrol.body.secret as string;
    const step = (n: number) => totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * n } as Parameters<typeof totpGenerate>[0]);
    const confirmed = await post('/api/auth/2fa/confirm/', token, { otp: await step(0) });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const signInWith = (extra: Record<string, unknown>) => post('/api/login/', undefined, { username: user.username, password: PASSWORD, ...extra });
    expect((await signInWith({})).body.code).toBe('otp_required');
    expect((await signInWith({ recovery_code: codes[0].toUpperCase() })).status).toBe(200);
    expect([(await signInWith({ recovery_code: codes[0] })).status, (await signInWith({ recovery_code: codes[0] })).body.code]).toEqual([401, 'otp_invalid']);

    const wrong = await post('/api/auth/2fa/recovery-codes/', token, { otp: '000000' });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'otp_invalid']);
    const renewed = await post('/api/auth/2fa/recovery-codes/', token, { otp: await step(1) });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expect((await signInWith({ recovery_code: codes[1] })).status).toBe(401);
    expect((await signInWith({ recovery_code: renewed.body.recovery_codes[0] })).status).toBe(200);
  });

  it('POST /api/auth/2fa/enrol/ with an access token needs the current password (400 current_password without it or when wrong)', async () => {
    const user = await createUser(t as unknown as TestApp);
    const token = await login(t as unknown as TestApp, user.username);
    const none = await post('/api/auth/2fa/enrol/', token, {});
    expect([none.status, none.body.code, none.body.errors]).toEqual([400, 'invalid', { current_password: ['This field is required.'] }]);
    const wrong = await post('/api/auth/2fa/enrol/', token, { current_password: 'not my password' });
    expect([wrong.status, wrong.body.errors]).toEqual([400, { current_password: ['Wrong password.'] }]);
    const right = await post('/api/auth/2fa/enrol/', token, { current_password: PASSWORD });
    expect([right.status, typeof right.body.secret]).toEqual([201, 'string']);
    // the otpauth URI as a QR code to scan: an SVG image as a data: URI
    expect(right.body.qr_code).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/);
    const svg = Buffer.from((right.body.qr_code as string).split(',')[1], 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg).toContain('<path');
  });

  it('DELETE /api/auth/2fa/ switches 2FA off with the current password and a current code (400 without either; 409 when it is off)', async () => {
    const user = await createUser(t as unknown as TestApp);
    const token = await login(t as unknown as TestApp, user.username);
    const secret = (await post('/api/auth/2fa/enrol/', token, { current_password: PASSWORD })).body.secret as string;
    const step = (n: number) => totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * n } as Parameters<typeof totpGenerate>[0]);
    expect((await post('/api/auth/2fa/confirm/', token, { otp: await step(0) })).status).toBe(200);
    const removeTwoFactor = (otp: string, current_password: string | null = PASSWORD) => send('DELETE', '/api/auth/2fa/', token, { otp, current_password });
    // a code alone no longer switches it off: a stolen access token and a code are not enough
    const codeOnly = await removeTwoFactor(await step(1), null);
    expect([codeOnly.status, codeOnly.body.fields]).toEqual([400, { current_password: 'This field is required.' }]);
    const wrongPassword = await removeTwoFactor(await step(1), 'not my password');
    expect([wrongPassword.status, wrongPassword.body.fields]).toEqual([400, { current_password: 'Wrong password.' }]);
    const wrong = await removeTwoFactor('000000');
    expect([wrong.status, wrong.body.code]).toEqual([400, 'otp_invalid']);
    const off = await removeTwoFactor(await step(1));
    expect([off.status, off.body]).toEqual([200, { twofa_enabled: false }]);
    expect((await post('/api/login/', undefined, { username: user.username, password: PASSWORD })).status).toBe(200);
    expect((await profile(token)).twofa_enabled).toBe(false);
    expect([(await removeTwoFactor('000000')).status, (await removeTwoFactor('000000')).body.code]).toEqual([409, 'twofa_not_enabled']);
  });
});

describe('throttles', () => {
  it('limits password reset requests per client address (429 with Retry-After)', async () => {
    let res = await post('/api/auth/password/reset/', undefined, { email: 'flood@example.com' });
    for (let i = 0; i < 45 && res.status === 202; i++) res = await post('/api/auth/password/reset/', undefined, { email: 'flood@example.com' });
    expect([res.status, res.body.code]).toEqual([429, 'throttled']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
