import { generate as totpGenerate } from 'otplib';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { changeNode, createUser, installValidLicence, login, PASSWORD } from '../../support/finance/node';

/**
 * Sign-in throttles hold under concurrency: each attempt is reserved before the
 * password or code is verified, so 40 concurrent guesses get at most the allowance (5) evaluated, the
 * rest 429. Limits are per address, per account and both: five bad attempts from one address do not
 * lock the account for another address.
 */
let t: TestApp<'finance'>;
beforeAll(async () => {
  // X-Forwarded-For from the test (loopback) names the client's address
  t = await startTestApp({ TRUST_PROXY: 'loopback' }, { products: ['finance'] });
  await installValidLicence(t);
});
afterAll(() => t?.stop());

const { url } = surface(() => t.urls.finance);
let addressCount = 0;
/** A client address of its own per test (the per-address limit is shared by every account). */
const newAddress = () => `198.51.100.${++addressCount}`;
const json = (body: unknown, address: string, key?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
  body: JSON.stringify(body),
  key,
});
const statuses = (answers: { status: number }[]) => answers.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {});

it('POST /api/login/: 40 concurrent wrong passwords from one address, at most 5 evaluated (401), the rest 429 with Retry-After', async () => {
  const user = await createUser(t);
  const address = newAddress();
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => http(url('/api/login/'), json({ username: user.username, password: 'wrong password' }, address))),
  );
  const counts = statuses(answers);
  expect(counts[401]).toBeLessThanOrEqual(5);
  expect(counts[401] + counts[429]).toBe(40);
  expect(Number(answers.find((a) => a.status === 429)!.headers.get('retry-after'))).toBeGreaterThan(0);
  // the right password from the same address is throttled too; from another address it works
  expect((await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }, address))).status).toBe(429);
  expect((await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }, newAddress()))).status).toBe(200);
});

it('the account has its own, higher limit: guesses spread over many addresses stop at it', async () => {
  const user = await createUser(t);
  const answers = [];
  for (let i = 0; i < 6; i++) {
    const address = newAddress();
    answers.push(
      ...(await Promise.all(Array.from({ length: 5 }, () => http(url('/api/login/'), json({ username: user.username, password: 'wrong' }, address))))),
    );
  }
  const counts = statuses(answers);
  expect(counts[401]).toBe(20);
  expect(counts[429]).toBe(10);
  expect((await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }, newAddress()))).status).toBe(429);
});

it('POST /admin/login/: 40 concurrent wrong passwords, at most 5 evaluated', async () => {
  const admin = await createUser(t, undefined, { superuser: true });
  const address = newAddress();
  const form = await fetch(url('/admin/login/'));
  const csrf = /csrftoken=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1];
  const answers = await Promise.all(
    Array.from({ length: 40 }, () =>
      http(url('/admin/login/'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}`, 'x-forwarded-for': address },
        body: new URLSearchParams({ username: admin.username, password: 'wrong password', csrfmiddlewaretoken: csrf }).toString(),
      }),
    ),
  );
  const counts = statuses(answers);
  expect(counts[401]).toBeLessThanOrEqual(5);
  expect(counts[401] + counts[429]).toBe(40);
});

it('one-time codes: 40 concurrent wrong codes at enrolment, or at sign-in with the right password, at most 5 evaluated', async () => {
  const user = await createUser(t);
  await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: true }, 'test'));
  let enrolmentToken: string;
  try {
    enrolmentToken = (await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }, newAddress()))).body.enrolment_token;
  } finally {
    await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: false }, 'test'));
  }
  const address = newAddress();
  const { secret } = (await http(url('/api/auth/2fa/enrol/'), { method: 'POST', key: enrolmentToken, headers: { 'x-forwarded-for': address } })).body;
  const confirmations = await Promise.all(
    Array.from({ length: 40 }, () => http(url('/api/auth/2fa/confirm/'), json({ otp: '000000' }, address, enrolmentToken))),
  );
  const counts = statuses(confirmations);
  expect(counts[400]).toBeLessThanOrEqual(5);
  expect(counts[400] + counts[429]).toBe(40);
  // from another address the enrolment completes
  expect((await http(url('/api/auth/2fa/confirm/'), json({ otp: await totpGenerate({ secret }) }, newAddress(), enrolmentToken))).status).toBe(200);

  const other = newAddress();
  const signIns = await Promise.all(
    Array.from({ length: 40 }, () => http(url('/api/login/'), json({ username: user.username, password: PASSWORD, otp: '000000' }, other))),
  );
  const invalid = signIns.filter((a) => a.status === 401);
  expect(invalid.length).toBeLessThanOrEqual(5);
  expect(invalid.every((a) => a.body.code === 'otp_invalid')).toBe(true);
  expect(invalid.length + signIns.filter((a) => a.status === 429).length).toBe(40);
});

it('a success gives the attempt back: wrong, right, wrong… never locks the owner out', async () => {
  const user = await createUser(t);
  const address = newAddress();
  for (let i = 0; i < 8; i++) {
    expect((await http(url('/api/login/'), json({ username: user.username, password: 'wrong' }, address))).status).toBe(401);
    expect((await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }, address))).status).toBe(200);
  }
  await expect(login(t, user.username)).resolves.toEqual(expect.any(String));
});
