import { randomUUID } from 'node:crypto';
import { http, startTestApp, type TestApp } from '../../support/app';
import { adminPost, adminSignIn, createUser, installValidLicence, login, type AdminSession } from '../../support/finance';

/**
 * The admin console's operator features, through real HTTP with the CSRF token: adding a user, the
 * audit log (search, filter, paging, CSV) that every console write feeds, and maker-checker manual
 * adjustments of a wallet (a second administrator approves; posted once; the ledger stays balanced).
 */
let t: TestApp<'finance'>;
let admin: AdminSession;
let adminName: string;
const any = () => t as unknown as TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(any());
  const operator = await createUser(any(), undefined, { superuser: true });
  adminName = operator.username;
  admin = await adminSignIn(any(), operator.username);
});
afterAll(() => t?.stop());

const get = (path: string, session: AdminSession | null = admin) => http(`${t.urls.finance}${path}`, { headers: session ? { cookie: session.cookie } : {} });
const NEW_PASSWORD = 'a fine long password';

describe('add user', () => {
  it('the users list links to the form; a valid form creates the user (who can sign in), audited', async () => {
    const list = await get('/admin/identity/user/');
    expect(list.body).toContain('href="/admin/identity/user/add/"');
    const form = await get('/admin/identity/user/add/');
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="csrfmiddlewaretoken"');
    for (const f of ['username', 'email', 'password', 'superuser']) expect(form.body).toContain(`name="${f}"`);

    const name = `added_${randomUUID().slice(0, 6)}`;
    const res = await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: `${name}@example.com`, password: NEW_PASSWORD });
    expect(res.status).toBe(302);
    const user = await t.app.services.identity.identity.findUser(name);
    expect(user).toMatchObject({ username: name, email: `${name}@example.com`, isSuperuser: false });
    expect(res.headers.get('location')).toBe(`/admin/identity/user/${user!.id}/?saved=1`);
    await login(any(), name, NEW_PASSWORD);

    const boss = `boss_${randomUUID().slice(0, 6)}`;
    expect((await adminPost(any(), admin, '/admin/identity/user/add/', { username: boss, email: `${boss}@example.com`, password: NEW_PASSWORD, superuser: 'on' })).status).toBe(302);
    expect((await t.app.services.identity.identity.findUser(boss))?.isSuperuser).toBe(true);
    await adminSignIn(any(), boss, NEW_PASSWORD);
  });

  it('a taken name (any case) is 409 with the form again and its field error; a bad e-mail or password is 400; nothing is created; no CSRF: 403', async () => {
    const taken = await createUser(any());
    const before = await t.app.services.identity.identity.findUser(taken.username);
    const dup = await adminPost(any(), admin, '/admin/identity/user/add/', { username: taken.username.toUpperCase(), email: 'x@example.com', password: NEW_PASSWORD });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toContain('text/html');
    expect(dup.body).toContain('id="id_username_errors"');
    expect(dup.body).toContain('already exists');
    expect(dup.body).toContain('value="x@example.com"');
    expect(await t.app.services.identity.identity.findUser(taken.username)).toEqual(before);

    const name = `bad_${randomUUID().slice(0, 6)}`;
    const bad = await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: 'not-an-address', password: NEW_PASSWORD });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('id="id_email_errors"');
    expect(bad.body).toContain('Enter a valid email address.');
    expect(bad.body).toContain(`value="${name}"`);
    const short = await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: `${name}@example.com`, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toContain('id="id_password_errors"');
    expect(short.body).not.toContain('value="short"');
    const missing = await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: '', password: NEW_PASSWORD });
    expect([missing.status, missing.body.includes('id="id_email_errors"')]).toEqual([400, true]);
    const forged = await http(`${t.urls.finance}/admin/identity/user/add/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: admin.cookie },
      body: new URLSearchParams({ username: name, email: `${name}@example.com`, password: NEW_PASSWORD }).toString(),
    });
    expect(forged.status).toBe(403);
    expect(await t.app.services.identity.identity.findUser(name)).toBeUndefined();
    expect((await get('/admin/identity/user/add/', null)).status).toBe(302);
  });
});

describe('audit log', () => {
  it('lists the console writes (user added, frozen, unfrozen, KYC level), searches, filters by action, pages and exports CSV', async () => {
    const name = `audited_${randomUUID().slice(0, 6)}`;
    expect((await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: `${name}@example.com`, password: NEW_PASSWORD })).status).toBe(302);
    const user = (await t.app.services.identity.identity.findUser(name))!;
    expect((await adminPost(any(), admin, `/admin/identity/user/${user.id}/active/`, { active: 'no' })).status).toBe(302);
    expect((await adminPost(any(), admin, `/admin/identity/user/${user.id}/active/`, { active: 'yes' })).status).toBe(302);
    expect((await adminPost(any(), admin, `/admin/identity/user/${user.id}/kyc/`, { level: 'basic' })).status).toBe(302);

    const page = await get(`/admin/audit/?q=${name}`);
    expect(page.status).toBe(200);
    for (const action of ['user.created', 'user.frozen', 'user.unfrozen', 'user.kyc_level_set']) expect(page.body).toContain(action);
    expect(page.body).toContain(`admin:${adminName}`);
    expect(page.body).toContain('4 rows · page 1 of 1');

    const frozen = await get(`/admin/audit/?q=${name}&action=user.frozen`);
    expect(frozen.body).toContain('1 row · page 1 of 1');
    expect(frozen.body).not.toContain('user.kyc_level_set</code>');
    // search by actor
    expect((await get(`/admin/audit/?q=admin:${adminName}+${name}`)).body).toContain('4 rows');

    const csv = await get(`/admin/audit/?q=${name}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('audit-log.csv');
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe('When,Actor,Action,Detail');
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['user.kyc_level_set', 'user.unfrozen', 'user.frozen', 'user.created']);

    // paging: 60 entries of a search
    const tag = randomUUID().slice(0, 6);
    for (let i = 0; i < 60; i++) await t.app.services.node.node.audit(`admin:${adminName}`, 'user.frozen', { tag });
    const first = await get(`/admin/audit/?q=${tag}`);
    expect(first.body).toContain('60 rows · page 1 of 2');
    expect((await get(`/admin/audit/?q=${tag}&page=2`)).body).toContain('60 rows · page 2 of 2');
    expect((await get('/admin/audit/?page=nope')).status).toBe(400);

    // the dashboard and the node app link to it; anonymous: to the sign-in page
    expect((await get('/admin/')).body).toContain('href="/admin/audit/"');
    expect((await get('/admin/node/')).body).toContain('href="/admin/audit/"');
    expect((await get('/admin/audit/', null)).status).toBe(302);
  });
});
