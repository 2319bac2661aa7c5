import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminGet, adminPost, adminSignIn, createUser, installValidLicence, login, PASSWORD, type AdminSession } from '../../support/finance/node';

/**
 * The finance admin console on the console kit (rest-adapter/console/): every app answers its index
 * and is on the dashboard, the /admin/<app>/ pattern shadows no page, the users list searches,
 * filters, pages and exports CSV.
 */
let t: TestApp<'finance'>;
let admin: AdminSession;
beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
  const operator = await createUser(t as unknown as TestApp, undefined, { superuser: true });
  admin = await adminSignIn(t as unknown as TestApp, operator.username);
});
afterAll(() => t?.stop());

it('answers the index of every app (banking, cards, crypto, investing included) and lists each app on the dashboard', async () => {
  const apps: Record<string, string[]> = {
    banking: ['/admin/banking/virtualaccount/', '/admin/banking/movement/', '/admin/banking/event/'],
    cards: ['/admin/cards/card/', '/admin/cards/authorisation/'],
    crypto: ['/admin/crypto/address/', '/admin/crypto/deposit/', '/admin/crypto/swap/'],
    investing: ['/admin/investing/instrument/', '/admin/investing/order/', '/admin/investing/run/'],
    identity: ['/admin/identity/user/'],
  };
  const dashboard = await adminGet(t, admin, '/admin/');
  expect(dashboard.status).toBe(200);
  for (const [app, models] of Object.entries(apps)) {
    const index = await adminGet(t, admin, `/admin/${app}/`);
    expect([app, index.status, index.headers.get('content-type')]).toEqual([app, 200, expect.stringContaining('text/html')]);
    for (const href of models) {
      expect(index.body).toContain(`href="${href}"`);
      // each model's page is its own, never the app index's pattern
      const page = await adminGet(t, admin, href);
      expect([href, page.status]).toEqual([href, 200]);
      expect(page.body).toContain(`href="/admin/${app}/"`);
    }
    expect(dashboard.body).toContain(`href="/admin/${app}/"`);
  }
  expect((await adminGet(t, admin, '/admin/nothing-here/')).status).toBe(404);
  expect((await adminGet(t, null, '/admin/banking/')).status).toBe(302);
});

it('users: search, filters, paging and CSV export', async () => {
  const tag = randomUUID().slice(0, 6);
  const users = [];
  for (let i = 0; i < 3; i++) users.push(await createUser(t as unknown as TestApp, `find_${tag}_${i}`));
  await t.app.services.identity.identity.setKycLevel(users[1].id, 'basic');

  const found = await adminGet(t, admin, `/admin/identity/user/?q=find_${tag}`);
  expect(found.status).toBe(200);
  for (const u of users) expect(found.body).toContain(u.username);
  expect(found.body).toContain('3 rows · page 1 of 1');
  const basic = await adminGet(t, admin, `/admin/identity/user/?q=find_${tag}&kyc=basic`);
  expect(basic.body).toContain(users[1].username);
  expect(basic.body).not.toContain(users[0].username);
  expect(basic.body).toContain('1 row · page 1 of 1');

  const csv = await adminGet(t, admin, `/admin/identity/user/?q=find_${tag}&format=csv`);
  expect(csv.status).toBe(200);
  expect(csv.headers.get('content-type')).toContain('text/csv');
  expect(csv.headers.get('content-disposition')).toContain('users.csv');
  const lines = String(csv.body).trim().split('\r\n');
  expect(lines[0]).toBe('Username,E-mail,Verified,Phone,KYC,Superuser,Active,2FA,Joined,Last login,Id');
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[0])
      .sort(),
  ).toEqual(users.map((u) => u.username).sort());

  for (let i = 0; i < 60; i++) await createUser(t as unknown as TestApp, `many_${tag}_${String(i).padStart(2, '0')}`);
  const first = await adminGet(t, admin, `/admin/identity/user/?q=many_${tag}`);
  expect(first.body).toContain('60 rows · page 1 of 2');
  expect(first.body).toContain(`page=2`);
  const second = await adminGet(t, admin, `/admin/identity/user/?q=many_${tag}&page=2`);
  expect(second.body).toContain('60 rows · page 2 of 2');
  expect((await adminGet(t, admin, '/admin/identity/user/?page=nope')).status).toBe(400);
});

it("a user's page: freeze (no sign-in, every token ends, no money moves), unfreeze, set the KYC level", async () => {
  const user = await createUser(t as unknown as TestApp);
  const token = await login(t as unknown as TestApp, user.username);
  const list = await adminGet(t, admin, `/admin/identity/user/?q=${user.username}`);
  expect(list.body).toContain(`href="/admin/identity/user/${user.id}/"`);
  const page = await adminGet(t, admin, `/admin/identity/user/${user.id}/`);
  expect(page.status).toBe(200);
  expect(page.body).toContain('Freeze');

  const frozen = await adminPost(t as unknown as TestApp, admin, `/admin/identity/user/${user.id}/active/`, { active: 'no' });
  expect([frozen.status, frozen.headers.get('location')]).toEqual([302, `/admin/identity/user/${user.id}/?saved=1`]);
  expect((await adminGet(t, admin, `/admin/identity/user/${user.id}/`)).body).toContain('frozen');
  const balance = await http(`${t.urls.finance}/api/balance/`, { key: token });
  expect(balance.status).toBe(401);
  const transfer = await http(`${t.urls.finance}/api/v1/transfers/`, {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ recipient: 'anyone', amount: '1.00', currency: 'EUR' }),
  });
  expect(transfer.status).toBe(401);
  const signIn = await http(`${t.urls.finance}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: PASSWORD }),
  });
  expect([signIn.status, signIn.body.code]).toEqual([401, 'no_active_account']);

  expect((await adminPost(t as unknown as TestApp, admin, `/admin/identity/user/${user.id}/active/`, { active: 'yes' })).status).toBe(302);
  await login(t as unknown as TestApp, user.username);

  expect((await adminPost(t as unknown as TestApp, admin, `/admin/identity/user/${user.id}/kyc/`, { level: 'enhanced' })).status).toBe(302);
  expect((await t.app.services.identity.identity.user(user.id))?.kycLevel).toBe('enhanced');
  expect((await adminGet(t, admin, '/admin/identity/user/00000000-0000-4000-8000-000000000000/')).status).toBe(404);
  // without the CSRF token: refused, nothing changed
  const forged = await http(`${t.urls.finance}/admin/identity/user/${user.id}/active/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: admin.cookie },
    body: 'active=no',
  });
  expect(forged.status).toBe(403);
  expect((await t.app.services.identity.identity.user(user.id))?.isActive).toBe(true);
});
