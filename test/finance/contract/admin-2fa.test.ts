import { generate as totpGenerate } from 'otplib';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminSignIn, changeNode, createUser, PASSWORD } from '../../support/finance/node';

/**
 * The admin console asks for the one-time code: a superuser enrolled in 2FA signs
 * in with password and code; with "Enforce 2FA on login" on, a superuser not enrolled yet enrols
 * (secret, otpauth URI, a code to confirm) before the console opens anything else.
 */
let t: TestApp<'finance'>;
beforeAll(async () => {
  t = await startTestApp({ APP_NAME: 'Acme Finance' }, { products: ['finance'] });
});
afterAll(() => t?.stop());

const { url, post } = surface(() => t.urls.finance);
const identity = () => t.app.services.identity.identity;
/** The code of the next 30-second step (the current one may have been used by the enrolment). */
const nextCode = (secret: string) => totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 } as Parameters<typeof totpGenerate>[0]);

async function consoleForm(path: string, fields: Record<string, string>) {
  const form = await fetch(url('/admin/login/'));
  const csrf = /csrftoken=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1];
  const res = await http(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}` },
    body: new URLSearchParams({ ...fields, next: '/admin/', csrfmiddlewaretoken: csrf }).toString(),
  });
  const session = /sessionid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  return { ...res, session: session || undefined };
}

async function enrol(userId: string): Promise<string> {
  const { secret } = await identity().startTotpEnrolment(userId);
  await identity().confirmTotpEnrolment(userId, await identity().currentTotp(userId));
  return secret;
}

it('a superuser enrolled in 2FA needs the code: none or a wrong one is 401 without a session, the right one opens the console', async () => {
  const admin = await createUser(t, undefined, { superuser: true });
  const secret = await enrol(admin.id);

  const noCode = await consoleForm('/admin/login/', { username: admin.username, password: PASSWORD });
  expect([noCode.status, noCode.session]).toEqual([401, undefined]);
  expect(noCode.body).toContain('one-time code');
  expect(noCode.body).toContain('name="otp"');

  const wrong = await consoleForm('/admin/login/', { username: admin.username, password: PASSWORD, otp: '000000' });
  expect([wrong.status, wrong.session]).toEqual([401, undefined]);

  const ok = await consoleForm('/admin/login/', { username: admin.username, password: PASSWORD, otp: await nextCode(secret) });
  expect([ok.status, ok.headers.get('location')]).toEqual([302, '/admin/']);
  const home = await http(url('/admin/'), { headers: { cookie: `sessionid=${ok.session}` } });
  expect(home.status).toBe(200);
  // the helper of the other tests signs in with the code too
  await expect(adminSignIn(t, admin.username)).rejects.toThrow(/401/);
});

it('with "Enforce 2FA on login" on, a superuser not enrolled gets the enrolment (secret, otpauth URI) and no session until a code confirms it', async () => {
  const admin = await createUser(t, undefined, { superuser: true });
  await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: true }, 'test'));
  try {
    const first = await consoleForm('/admin/login/', { username: admin.username, password: PASSWORD });
    expect([first.status, first.session]).toEqual([200, undefined]);
    const secret = /data-secret="([A-Z2-7]+)"/.exec(first.body)![1];
    expect(first.body).toContain(`otpauth://totp/Acme%20Finance:${admin.username}?secret=${secret}&amp;issuer=Acme%20Finance`);
    const token = /name="enrolment_token" value="([^"]+)"/.exec(first.body)![1];

    const wrong = await consoleForm('/admin/login/2fa/', { enrolment_token: token, otp: '000000' });
    expect([wrong.status, wrong.session]).toEqual([400, undefined]);
    const forged = await consoleForm('/admin/login/2fa/', { enrolment_token: 'not-a-token', otp: await totpGenerate({ secret }) });
    expect([forged.status, forged.session]).toEqual([401, undefined]);

    const confirmed = await consoleForm('/admin/login/2fa/', { enrolment_token: token, otp: await totpGenerate({ secret }) });
    expect([confirmed.status, confirmed.headers.get('location')]).toEqual([302, '/admin/']);
    expect((await http(url('/admin/'), { headers: { cookie: `sessionid=${confirmed.session}` } })).status).toBe(200);
    expect((await identity().user(admin.id))!.totpConfirmedAt).not.toBeNull();

    // from now on the code is required
    const noCode = await consoleForm('/admin/login/', { username: admin.username, password: PASSWORD });
    expect([noCode.status, noCode.session]).toEqual([401, undefined]);
    const ok = await consoleForm('/admin/login/', { username: admin.username, password: PASSWORD, otp: await nextCode(secret) });
    expect(ok.status).toBe(302);
  } finally {
    await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: false }, 'test'));
  }
});

it('POST /api/login/ asks enrolled users for the code and, with the toggle on, sends the others to enrolment', async () => {
  const user = await createUser(t);
  const secret = await enrol(user.id);
  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }))).body.code).toBe('otp_required');
  expect((await http(url('/api/login/'), json({ username: user.username, password: PASSWORD, otp: await nextCode(secret) }))).status).toBe(200);
  const other = await createUser(t);
  await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: true }, 'test'));
  try {
    const res = await http(url('/api/login/'), json({ username: other.username, password: PASSWORD }));
    expect([res.status, res.body.code]).toEqual([403, 'otp_enrolment_required']);
  } finally {
    await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: false }, 'test'));
  }
});

it('stores the time step that matched: an early code does not block the codes after it; a used code never works again', async () => {
  const user = await createUser(t);
  const { secret } = await identity().startTotpEnrolment(user.id);
  const step = () => Math.floor(Date.now() / 30_000);
  const codeOf = (s: number) => totpGenerate({ secret, epoch: s * 30 + 1 } as Parameters<typeof totpGenerate>[0]);
  const signInWithOtp = async (otp: string) => {
    const res = await post('/api/login/', null, { username: user.username, password: PASSWORD, otp });
    return res.status === 200 ? 200 : (res.body.code as string);
  };
  // keep away from a step boundary
  if (Date.now() % 30_000 > 25_000) await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 500));
  const s = step();
  await identity().confirmTotpEnrolment(user.id, await codeOf(s));
  // the next step's code, early (within the ±30 s tolerance): accepted once
  expect(await signInWithOtp(await codeOf(s + 1))).toBe(200);
  expect(await signInWithOtp(await codeOf(s + 1))).toBe('otp_invalid');
  // a code of an earlier step after a later one: refused
  expect(await signInWithOtp(await codeOf(s))).toBe('otp_invalid');
  // two steps on, that step's own code works (the stored step is s + 1, not s + 1 + delta)
  await new Promise((r) => setTimeout(r, (s + 2) * 30_000 - Date.now() + 500));
  expect(step()).toBe(s + 2);
  expect(await signInWithOtp(await codeOf(s + 2))).toBe(200);
  expect(await signInWithOtp(await codeOf(s + 2))).toBe('otp_invalid');
}, 120_000);
