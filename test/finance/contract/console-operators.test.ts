import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminGet, adminPost, adminSignIn, auditDelivered, createUser, installValidLicence, login, type AdminSession } from '../../support/finance/node';

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

/** A second superuser (the host's way in) approves the operator role proposed for `username`. */
async function approveRole(username: string) {
  const second = await createUser(any(), undefined, { superuser: true });
  const session = await adminSignIn(any(), second.username);
  const user = (await t.app.services.identity.identity.findUser(username))!;
  const change = (await t.app.services.identity.operators.list(100, 'pending')).find((c) => c.userId === user.id)!;
  expect((await adminPost(any(), session, `/admin/identity/operator-change/${change.id}/approve/`, {})).status).toBe(302);
}

const NEW_PASSWORD = 'a fine long password';

describe('add user', () => {
  it('the users list links to the form; a valid form creates the user (who can sign in), audited', async () => {
    const list = await adminGet(t, admin, '/admin/identity/user/');
    expect(list.body).toContain('href="/admin/identity/user/add/"');
    const form = await adminGet(t, admin, '/admin/identity/user/add/');
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="csrfmiddlewaretoken"');
    for (const f of ['username', 'email', 'password', 'superuser']) expect(form.body).toContain(`name="${f}"`);

    const name = `added_${randomUUID().slice(0, 6)}`;
    const res = await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: `${name}@example.com`, password: NEW_PASSWORD });
    expect(res.status).toBe(302);
    const user = await t.app.services.identity.identity.findUser(name);
    expect(user).toMatchObject({ username: name, email: `${name}@example.com`, isSuperuser: false });
    expect(res.headers.get('location')).toBe(`/admin/identity/user/${user!.id}/?saved=added`);
    // the page says the user was added, not "changed"
    expect((await adminGet(t, admin, res.headers.get('location')!)).body).toContain(`The user &quot;${name}&quot; was added successfully.`);
    await login(any(), name, NEW_PASSWORD);

    // an operator is a two-person decision: the role is proposed, a second superuser approves it
    const boss = `boss_${randomUUID().slice(0, 6)}`;
    expect(
      (await adminPost(any(), admin, '/admin/identity/user/add/', { username: boss, email: `${boss}@example.com`, password: NEW_PASSWORD, superuser: 'on' }))
        .status,
    ).toBe(302);
    expect((await t.app.services.identity.identity.findUser(boss))?.isSuperuser).toBe(false);
    await approveRole(boss);
    expect((await t.app.services.identity.identity.findUser(boss))?.isSuperuser).toBe(true);
    await adminSignIn(any(), boss, NEW_PASSWORD);
  });

  it('a taken name (any case) is 409 with the form again and its field error; a bad e-mail or password is 400; nothing is created; no CSRF: 403', async () => {
    const taken = await createUser(any());
    const before = await t.app.services.identity.identity.findUser(taken.username);
    const dup = await adminPost(any(), admin, '/admin/identity/user/add/', {
      username: taken.username.toUpperCase(),
      email: 'x@example.com',
      password: NEW_PASSWORD,
    });
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
    expect((await adminGet(t, null, '/admin/identity/user/add/')).status).toBe(302);
  });
});

describe('audit log', () => {
  it('lists the console writes (user added, frozen, unfrozen, KYC level), searches, filters by action, pages and exports CSV', async () => {
    const name = `audited_${randomUUID().slice(0, 6)}`;
    expect((await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: `${name}@example.com`, password: NEW_PASSWORD })).status).toBe(
      302,
    );
    const user = (await t.app.services.identity.identity.findUser(name))!;
    expect((await adminPost(any(), admin, `/admin/identity/user/${user.id}/active/`, { active: 'no' })).status).toBe(302);
    expect((await adminPost(any(), admin, `/admin/identity/user/${user.id}/active/`, { active: 'yes' })).status).toBe(302);
    expect((await adminPost(any(), admin, `/admin/identity/user/${user.id}/kyc/`, { level: 'basic' })).status).toBe(302);

    await auditDelivered(any());
    const page = await adminGet(t, admin, `/admin/audit/?q=${name}`);
    expect(page.status).toBe(200);
    for (const action of ['user.created', 'user.frozen', 'user.unfrozen', 'user.kyc_level_set']) expect(page.body).toContain(action);
    expect(page.body).toContain(`admin:${adminName}`);
    expect(page.body).toContain('4 rows · page 1 of 1');

    const frozen = await adminGet(t, admin, `/admin/audit/?q=${name}&action=user.frozen`);
    expect(frozen.body).toContain('1 row · page 1 of 1');
    expect(frozen.body).not.toContain('user.kyc_level_set</code>');
    // search by actor
    expect((await adminGet(t, admin, `/admin/audit/?q=admin:${adminName}+${name}`)).body).toContain('4 rows');

    const csv = await adminGet(t, admin, `/admin/audit/?q=${name}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('audit-log.csv');
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe('When,Actor,Action,Detail');
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['user.kyc_level_set', 'user.unfrozen', 'user.frozen', 'user.created']);

    // paging: 60 entries of a search
    const tag = randomUUID().slice(0, 6);
    for (let i = 0; i < 60; i++) await t.app.services.node.node.audit(`admin:${adminName}`, 'user.frozen', { tag });
    const first = await adminGet(t, admin, `/admin/audit/?q=${tag}`);
    expect(first.body).toContain('60 rows · page 1 of 2');
    expect((await adminGet(t, admin, `/admin/audit/?q=${tag}&page=2`)).body).toContain('60 rows · page 2 of 2');
    expect((await adminGet(t, admin, '/admin/audit/?page=nope')).status).toBe(400);

    // the dashboard and the node app link to it; anonymous: to the sign-in page
    expect((await adminGet(t, admin, '/admin/')).body).toContain('href="/admin/audit/"');
    expect((await adminGet(t, admin, '/admin/node/')).body).toContain('href="/admin/audit/"');
    expect((await adminGet(t, null, '/admin/audit/')).status).toBe(302);
  });
});

describe('maker-checker manual adjustments', () => {
  let checker: AdminSession;
  beforeAll(async () => {
    const b = await createUser(any(), undefined, { superuser: true });
    checker = await adminSignIn(any(), b.username);
  });

  const ledgerBalance = async (userId: string, currency = 'EUR') =>
    (await t.app.services.ledger.ledger.balances(userId)).find((b) => b.currency === currency)?.posted.amount ?? '0.00';
  /** Per currency: the sum of every account's ledgerBalance (credits − debits), and of every account but the adjustments ones. */
  const sums = async () => {
    const { rows } = await t.app.services.ledger.store.pool.query<{ currency: string; total: string; others: string }>(
      `SELECT currency, sum(credits_posted - debits_posted)::text AS total,
              sum(credits_posted - debits_posted) FILTER (WHERE code <> 'adjustments')::text AS others
         FROM ledger.account GROUP BY currency ORDER BY currency`,
    );
    return Object.fromEntries(rows.map((r) => [r.currency, { total: r.total, others: r.others }]));
  };
  const pendingId = async (reason: string) => {
    const { rows } = await t.app.services.ledger.store.pool.query<{ id: string }>('SELECT id FROM ledger.adjustment WHERE reason = $1', [reason]);
    return rows[0].id;
  };

  it('A proposes, A cannot approve (403), B approves: posted exactly once under 10 concurrent approvals, the ledger balanced; all audited', async () => {
    const user = await createUser(any());
    const before = await sums();
    const reason = `goodwill ${randomUUID()}`;
    const proposed = await adminPost(any(), admin, '/admin/adjustments/', {
      user: user.username,
      direction: 'credit',
      currency: 'EUR',
      amount: '12.34',
      reason,
    });
    expect([proposed.status, proposed.headers.get('location')]).toEqual([302, '/admin/adjustments/?saved=proposed']);
    const id = await pendingId(reason);
    const page = await adminGet(t, admin, '/admin/adjustments/');
    expect(page.status).toBe(200);
    expect(page.body).toContain(reason);
    // the proposer's page offers no approval of their own proposal; the checker's does
    expect(page.body).not.toContain(`action="/admin/adjustments/${id}/approve/"`);
    expect((await adminGet(t, checker, '/admin/adjustments/')).body).toContain(`action="/admin/adjustments/${id}/approve/"`);
    expect(await ledgerBalance(user.id)).toBe('0.00');

    const own = await adminPost(any(), admin, `/admin/adjustments/${id}/approve/`, {});
    expect(own.status).toBe(403);
    expect(own.body).toContain('a different administrator must approve it');
    expect(await ledgerBalance(user.id)).toBe('0.00');

    const approvals = await Promise.all(Array.from({ length: 10 }, () => adminPost(any(), checker, `/admin/adjustments/${id}/approve/`, {})));
    expect(approvals.map((r) => r.status).sort()).toEqual([302, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await ledgerBalance(user.id)).toBe('12.34');
    const { rows } = await t.app.services.ledger.store.pool.query('SELECT id FROM ledger.transfer WHERE id = $1', [id]);
    expect(rows).toHaveLength(1);

    const after = await sums();
    expect(after.EUR.total).toBe('0');
    expect(BigInt(after.EUR.others) - BigInt(before.EUR?.others ?? '0')).toBe(1234n);

    await auditDelivered(any());
    const audit = await adminGet(t, admin, `/admin/audit/?q=${id}`);
    expect(audit.body).toContain('adjustment.proposed');
    expect(audit.body).toContain('adjustment.approved');
    expect(audit.body).toContain('2 rows');
  });

  it('a debit below zero is refused (422, still pending); reject; a decided adjustment is 409; bad input is 400 and nothing is proposed', async () => {
    const user = await createUser(any());
    const credit = `credit ${randomUUID()}`;
    await adminPost(any(), admin, '/admin/adjustments/', { user: user.username, direction: 'credit', currency: 'EUR', amount: '5.00', reason: credit });
    expect((await adminPost(any(), checker, `/admin/adjustments/${await pendingId(credit)}/approve/`, {})).status).toBe(302);

    const debit = `chargeback ${randomUUID()}`;
    await adminPost(any(), admin, '/admin/adjustments/', { user: user.username, direction: 'debit', currency: 'EUR', amount: '5.01', reason: debit });
    const id = await pendingId(debit);
    const refused = await adminPost(any(), checker, `/admin/adjustments/${id}/approve/`, {});
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('below zero');
    expect(await ledgerBalance(user.id)).toBe('5.00');
    expect((await adminGet(t, admin, '/admin/adjustments/')).body).toContain(debit);

    const rejected = await adminPost(any(), checker, `/admin/adjustments/${id}/reject/`, {});
    expect([rejected.status, rejected.headers.get('location')]).toEqual([302, '/admin/adjustments/?saved=rejected']);
    expect((await adminPost(any(), checker, `/admin/adjustments/${id}/approve/`, {})).status).toBe(409);
    expect((await adminPost(any(), admin, `/admin/adjustments/${id}/reject/`, {})).status).toBe(409);
    expect(await ledgerBalance(user.id)).toBe('5.00');
    await auditDelivered(any());
    expect((await adminGet(t, admin, `/admin/audit/?q=${id}&action=adjustment.rejected`)).body).toContain('1 row');

    // a debit within the wallet is posted
    const fine = `fee ${randomUUID()}`;
    await adminPost(any(), checker, '/admin/adjustments/', { user: user.username, direction: 'debit', currency: 'EUR', amount: '1.50', reason: fine });
    expect((await adminPost(any(), admin, `/admin/adjustments/${await pendingId(fine)}/approve/`, {})).status).toBe(302);
    expect(await ledgerBalance(user.id)).toBe('3.50');

    const {
      rows: [{ count: n }],
    } = await t.app.services.ledger.store.pool.query<{ count: string }>('SELECT count(*) FROM ledger.adjustment');
    for (const bad of [
      { user: user.username, direction: 'credit', currency: 'EUR', amount: '1.001', reason: 'x' },
      { user: user.username, direction: 'credit', currency: 'EUR', amount: '1000000000000000', reason: 'x' },
      { user: user.username, direction: 'debit', currency: 'EUR', amount: '92233720368547758.07', reason: 'x' },
      { user: user.username, direction: 'credit', currency: 'EUR', amount: '1e3', reason: 'x' },
      { user: user.username, direction: 'credit', currency: 'EUR', amount: '-3', reason: 'x' },
      { user: user.username, direction: 'sideways', currency: 'EUR', amount: '1', reason: 'x' },
      { user: 'nobody_here', direction: 'credit', currency: 'EUR', amount: '1', reason: 'x' },
      { user: user.username, direction: 'credit', currency: 'XXX', amount: '1', reason: 'x' },
      { user: user.username, direction: 'credit', currency: 'EUR', amount: '1', reason: ' ' },
    ]) {
      const res = await adminPost(any(), admin, '/admin/adjustments/', bad);
      expect([bad, res.status]).toEqual([bad, 400]);
    }
    const {
      rows: [{ count: m }],
    } = await t.app.services.ledger.store.pool.query<{ count: string }>('SELECT count(*) FROM ledger.adjustment');
    expect(m).toBe(n);
    expect((await adminPost(any(), checker, '/admin/adjustments/00000000-0000-4000-8000-000000000000/approve/', {})).status).toBe(404);
  });
});

describe('every model list is a console list', () => {
  it('ledger accounts: search over the cells, a filter from a status-like column, paging, CSV without the form columns; odd values are ignored, never a 5xx', async () => {
    const a = await createUser(any());
    const b = await createUser(any());
    for (const [user, currency] of [
      [a, 'EUR'],
      [a, 'USD'],
      [b, 'EUR'],
    ] as const)
      await t.app.services.ledger.ledger.fund(user.id, currency, 100n, randomUUID());

    const page = await adminGet(t, admin, '/admin/ledger/account/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('role="search"');
    expect(page.body).toContain('<select name="currency" id="id_currency">');
    expect(page.body).toContain('href="/admin/ledger/account/?format=csv"');

    const mine = await adminGet(t, admin, `/admin/ledger/account/?q=${a.id}`);
    expect(mine.body).toMatch(/2 rows · page 1 of 1/);
    const mineInEur = await adminGet(t, admin, `/admin/ledger/account/?q=${a.id}&currency=EUR`);
    expect(mineInEur.body).toMatch(/1 row · page 1 of 1/);

    const csv = await adminGet(t, admin, `/admin/ledger/account/?q=${a.id}&format=csv`);
    expect([csv.status, csv.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe('Account,Owner,Currency,Code,Debits posted,Credits posted,Debits pending,Credits pending');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[2])
        .sort(),
    ).toEqual(['EUR', 'USD']);

    // what a hand-edited URL holds: an unknown currency, a page beyond the last, a repeated parameter
    for (const odd of ['currency=XXX', 'page=999', 'page=-1', 'page=abc', `q=${a.id}&q=x`, 'format=pdf']) {
      const res = await adminGet(t, admin, `/admin/ledger/account/?${odd}`);
      expect([odd, res.status]).toEqual([odd, 200]);
    }
  });
});

describe('support staff', () => {
  it('signs in below a superuser: users, disputes, KYC reviews and proposing adjustments; never settings, credentials, licence, adding users, the audit log or approvals', async () => {
    const name = `support_${randomUUID().slice(0, 6)}`;
    expect(
      (await adminPost(any(), admin, '/admin/identity/user/add/', { username: name, email: `${name}@example.com`, password: NEW_PASSWORD, staff: 'on' }))
        .status,
    ).toBe(302);
    await approveRole(name);
    const row = (await t.app.services.identity.identity.findUser(name))!;
    expect([row.isStaff, row.isSuperuser]).toEqual([true, false]);
    expect((await adminGet(t, admin, `/admin/identity/user/${row.id}/`)).body).toContain('Support staff');
    const staff = await adminSignIn(any(), name, NEW_PASSWORD);

    const home = await adminGet(t, staff, '/admin/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('What support staff can do');
    const customer = await createUser(any());
    for (const path of [
      '/admin/identity/user/',
      `/admin/identity/user/${customer.id}/`,
      '/admin/commerce/dispute/',
      '/admin/compliance/verification/',
      '/admin/adjustments/',
    ]) {
      expect([path, (await adminGet(t, staff, path)).status]).toEqual([path, 200]);
    }
    expect((await adminPost(any(), staff, `/admin/identity/user/${customer.id}/active/`, { active: 'no' })).status).toBe(302);
    expect((await adminPost(any(), staff, `/admin/identity/user/${customer.id}/active/`, { active: 'yes' })).status).toBe(302);

    for (const path of [
      '/admin/node/settings/',
      '/admin/node/providercredential/',
      '/admin/node/licence/',
      '/admin/identity/user/add/',
      '/admin/audit/',
      '/admin/ledger/account/',
    ]) {
      const res = await adminGet(t, staff, path);
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.body).toContain('Support staff may not do this');
    }
    const other = `other_${randomUUID().slice(0, 6)}`;
    expect(
      (await adminPost(any(), staff, '/admin/identity/user/add/', { username: other, email: `${other}@example.com`, password: NEW_PASSWORD, superuser: 'on' }))
        .status,
    ).toBe(403);
    expect(await t.app.services.identity.identity.findUser(other)).toBeUndefined();

    // support proposes, a superuser approves; support may not approve one
    const reason = `support goodwill ${randomUUID()}`;
    expect(
      (await adminPost(any(), staff, '/admin/adjustments/', { user: customer.username, direction: 'credit', currency: 'EUR', amount: '2.00', reason })).status,
    ).toBe(302);
    const { rows } = await t.app.services.ledger.store.pool.query<{ id: string }>('SELECT id FROM ledger.adjustment WHERE reason = $1', [reason]);
    expect((await adminPost(any(), staff, `/admin/adjustments/${rows[0].id}/approve/`, {})).status).toBe(403);
    expect((await adminPost(any(), admin, `/admin/adjustments/${rows[0].id}/approve/`, {})).status).toBe(302);
    await auditDelivered(any());
    expect((await adminGet(t, admin, `/admin/audit/?q=${rows[0].id}`)).body).toContain(`admin:${name}`);
  });
});
