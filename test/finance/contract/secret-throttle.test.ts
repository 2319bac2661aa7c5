import { randomBytes, randomUUID } from 'node:crypto';
import { generate as totpGenerate } from 'otplib';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { createUser, installValidLicence, login, PASSWORD } from '../../support/finance/node';
import { smsCodeTo } from '../../support/finance/phone';
import { endpointsUnder } from '../../support/platform/secret-sites';

/**
 * One attempt throttle for every secret of the finance node: at each endpoint that checks
 * a secret — passwords (sign-in, console, card reveal, and the current password before a change to
 * the account's security), one-time codes, recovery codes, mailed tokens, phone codes — 40
 * concurrent wrong guesses get at most the allowance evaluated, the rest 429 with Retry-After. The
 * rows are the endpoints test/support/platform/secret-sites.ts lists for the sites the code scan finds
 * (test/platform/lint/secret-sites.test.ts): a new site without a row here fails.
 * Before the fix, POST /api/auth/password/ evaluated 40 of 40.
 */
let t: TestApp<'finance'>;
beforeAll(async () => {
  // X-Forwarded-For from the test (loopback) names the client's address
  t = await startTestApp({ TRUST_PROXY: 'loopback' }, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
});
afterAll(() => t?.stop());

const app = () => t as unknown as TestApp;
const { url, send } = surface(() => t.urls.finance);
let addressCount = 0;
const newAddress = () => `203.0.113.${++addressCount}`;
type Answer = { status: number; body: { code?: string } & Record<string, unknown>; headers: Headers };

/** A signed-in user (e-mail verified: created by the operator's path) and, with `twoFactor`, enrolled in 2FA with recovery codes. */
async function person(opts: { twoFactor?: boolean; kyc?: boolean } = {}) {
  const u = await createUser(app());
  if (opts.kyc) await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  let secret = '';
  if (opts.twoFactor) {
    secret = (await t.app.services.identity.identity.startTotpEnrolment(u.id)).secret;
    await t.app.services.identity.onboarding.confirmTotp(u.id, await totpGenerate({ secret }));
  }
  const access = opts.twoFactor ? await signInWithCode(u.username, secret) : await login(app(), u.username);
  return { ...u, access, secret };
}

async function signInWithCode(username: string, secret: string): Promise<string> {
  // the next time step's code (the enrolment used this step's: a code works once)
  const otp = await totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 } as Parameters<typeof totpGenerate>[0]);
  const res = await send('POST', '/api/login/', undefined, { username, password: PASSWORD, otp }, { 'x-forwarded-for': newAddress() });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access as string;
}

/** One row: prepares what the guesses need (once), then one wrong guess from `address`; `evaluated` tells a checked answer. */
interface Row {
  limit: number;
  prepare: () => Promise<(address: string, i: number) => Promise<Answer>>;
  evaluated: (a: Answer) => boolean;
  /** One address for all 40 (default), or one each (a secret limited per code, whatever the address). */
  addresses?: 'one' | 'each';
}

const is = (status: number, code?: string) => (a: Answer) => a.status === status && (code === undefined || a.body.code === code);

const ROWS: Record<string, Row> = {
  'POST /api/login/ (password)': {
    limit: 5,
    prepare: async () => {
      const u = await createUser(app());
      return (address) => send('POST', '/api/login/', undefined, { username: u.username, password: 'wrong password' }, { 'x-forwarded-for': address });
    },
    evaluated: is(401),
  },
  'POST /admin/login/ (password)': {
    limit: 5,
    prepare: async () => {
      const admin = await createUser(app(), undefined, { superuser: true });
      const form = await fetch(url('/admin/login/'));
      const csrf = /csrftoken=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1];
      return (address) =>
        http(url('/admin/login/'), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}`, 'x-forwarded-for': address },
          body: new URLSearchParams({ username: admin.username, password: 'wrong password', csrfmiddlewaretoken: csrf }).toString(),
        });
    },
    evaluated: is(401),
  },
  'POST /api/v1/cards/<id>/reveal/ (password)': {
    limit: 5,
    prepare: async () => {
      const u = await person({ kyc: true });
      const card = await http(url('/api/v1/cards/'), {
        method: 'POST',
        key: u.access,
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ currency: 'EUR' }),
      });
      if (card.status !== 201) throw new Error(`card: ${card.status} ${JSON.stringify(card.body)}`);
      return (address) =>
        send('POST', `/api/v1/cards/${card.body.id as string}/reveal/`, u.access, { password: 'wrong password' }, { 'x-forwarded-for': address });
    },
    evaluated: is(403, 'reauthentication_failed'),
  },
  'POST /api/auth/password/ (current_password)': {
    limit: 5,
    prepare: async () => {
      const u = await person();
      return (address) =>
        send('POST', '/api/auth/password/', u.access, { current_password: 'wrong password', password: 'a brand new password' }, { 'x-forwarded-for': address });
    },
    evaluated: is(400),
  },
  'POST /api/auth/2fa/enrol/ (current_password)': {
    limit: 5,
    prepare: async () => {
      const u = await person();
      return (address) => send('POST', '/api/auth/2fa/enrol/', u.access, { current_password: 'wrong password' }, { 'x-forwarded-for': address });
    },
    evaluated: is(400),
  },
  'DELETE /api/auth/2fa/ (current_password)': {
    limit: 5,
    prepare: async () => {
      const u = await person({ twoFactor: true });
      const otp = await totpGenerate({ secret: u.secret });
      return (address) => send('DELETE', '/api/auth/2fa/', u.access, { current_password: 'wrong password', otp }, { 'x-forwarded-for': address });
    },
    evaluated: (a) => a.status === 400 && a.body.code !== 'otp_invalid',
  },
  'POST /api/login/ (otp)': {
    limit: 5,
    prepare: async () => {
      const u = await person({ twoFactor: true });
      return (address) => send('POST', '/api/login/', undefined, { username: u.username, password: PASSWORD, otp: '000000' }, { 'x-forwarded-for': address });
    },
    evaluated: is(401, 'otp_invalid'),
  },
  'DELETE /api/auth/2fa/ (otp)': {
    limit: 5,
    prepare: async () => {
      const u = await person({ twoFactor: true });
      return (address) => send('DELETE', '/api/auth/2fa/', u.access, { current_password: PASSWORD, otp: '000000' }, { 'x-forwarded-for': address });
    },
    evaluated: is(400, 'otp_invalid'),
  },
  'POST /api/auth/2fa/recovery-codes/ (otp)': {
    limit: 5,
    prepare: async () => {
      const u = await person({ twoFactor: true });
      return (address) => send('POST', '/api/auth/2fa/recovery-codes/', u.access, { otp: '000000' }, { 'x-forwarded-for': address });
    },
    evaluated: is(400, 'otp_invalid'),
  },
  'POST /api/login/ (recovery_code)': {
    limit: 5,
    prepare: async () => {
      const u = await person({ twoFactor: true });
      return (address) =>
        send('POST', '/api/login/', undefined, { username: u.username, password: PASSWORD, recovery_code: 'aaaaa-bbbbb' }, { 'x-forwarded-for': address });
    },
    evaluated: is(401, 'otp_invalid'),
  },
  'POST /api/auth/2fa/confirm/ (otp)': {
    limit: 5,
    prepare: async () => {
      const u = await person();
      const start = await send('POST', '/api/auth/2fa/enrol/', u.access, { current_password: PASSWORD }, { 'x-forwarded-for': newAddress() });
      if (start.status !== 201) throw new Error(`enrol: ${start.status} ${JSON.stringify(start.body)}`);
      return (address) => send('POST', '/api/auth/2fa/confirm/', u.access, { otp: '000000' }, { 'x-forwarded-for': address });
    },
    evaluated: is(400),
  },
  'POST /api/auth/email/verify/ (token)': {
    limit: 10,
    prepare: async () => (address) =>
      send('POST', '/api/auth/email/verify/', undefined, { token: randomBytes(32).toString('base64url') }, { 'x-forwarded-for': address }),
    evaluated: is(400, 'invalid_token'),
  },
  'POST /api/auth/password/reset/confirm/ (token)': {
    limit: 10,
    prepare: async () => (address) =>
      send(
        'POST',
        '/api/auth/password/reset/confirm/',
        undefined,
        { token: randomBytes(32).toString('base64url'), password: 'a brand new password' },
        { 'x-forwarded-for': address },
      ),
    evaluated: is(400, 'invalid_token'),
  },
  'POST /api/v1/profile/phone/verify/ (code, from 40 addresses)': {
    limit: 5,
    addresses: 'each',
    prepare: async () => {
      const u = await person();
      const phone = `+447400${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
      const set = await send('PUT', '/api/v1/profile/phone/', u.access, { phone }, { 'x-forwarded-for': newAddress() });
      if (set.status !== 202) throw new Error(`phone: ${set.status} ${JSON.stringify(set.body)}`);
      const code = await smsCodeTo(app(), phone);
      const wrong = code === '000000' ? '111111' : '000000';
      return (address) => send('POST', '/api/v1/profile/phone/verify/', u.access, { code: wrong }, { 'x-forwarded-for': address });
    },
    evaluated: (a) => a.status === 400 && /not valid/.test(JSON.stringify(a.body)),
  },
};

const endpoints = endpointsUnder('subgraphs/finance/');

it('has a row for every endpoint of the finance node that checks a secret (from the code scan), and no other', () => {
  expect(Object.keys(ROWS).sort()).toEqual([...endpoints].sort());
});

describe.each(endpoints)('%s', (endpoint) => {
  it('40 concurrent wrong guesses: at most the allowance evaluated, the rest 429 with Retry-After', async () => {
    const row = ROWS[endpoint];
    expect(row).toBeDefined();
    const guess = await row.prepare();
    const one = newAddress();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => guess(row.addresses === 'each' ? newAddress() : one, i)));
    const evaluated = answers.filter(row.evaluated);
    const throttled = answers.filter((a) => a.status === 429);
    // a guess that is neither is a failure of the test's own setup: show it
    expect(answers.filter((a) => !row.evaluated(a) && a.status !== 429).map((a) => [a.status, a.body])).toEqual([]);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluated.length).toBeLessThanOrEqual(row.limit);
    expect(Number(throttled[0].headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
