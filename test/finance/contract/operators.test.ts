import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { adminPost, adminSignIn, auditDelivered, createUser, graphql, installValidLicence, PASSWORD, type AdminSession } from '../../support/finance/node';

/**
 * The admin console's authority over accounts, through the gateway and the
 * console over real HTTP: support staff never act on their own account nor on another operator's
 * (the freeze of a superuser and the self-raised KYC level of the confirmed exploit), superusers
 * neither; creating, elevating, demoting, freezing or re-activating an operator is a two-person
 * decision (a superuser proposes, a DIFFERENT one who is not its subject approves), audited; so a
 * superuser cannot mint a second superuser to approve their own credit.
 */
let t: TestApp<'finance'>;
const any = () => t as unknown as TestApp;
let alice: { id: string; username: string; session: AdminSession };
let bob: { id: string; username: string; session: AdminSession };
let staff: { id: string; username: string; session: AdminSession };

async function superuser() {
  const u = await createUser(any(), `su_${randomUUID().slice(0, 8)}`, { superuser: true });
  return { ...u, session: await adminSignIn(any(), u.username) };
}

beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(any());
  // the host's way in (seed, CLI): two superusers and a support agent
  alice = await superuser();
  bob = await superuser();
  const row = await t.app.services.identity.identity.createUser({ username: `staff_${randomUUID().slice(0, 8)}`, password: PASSWORD, staff: true });
  staff = { id: row.id, username: row.username, session: await adminSignIn(any(), row.username) };
}, 120_000);
afterAll(() => t?.stop());

const as = (s: { session: AdminSession }, query: string, variables: Record<string, unknown> = {}) =>
  graphql(any(), query, variables, { cookie: s.session.cookie }).then(
    (r) => r.body as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] },
  );
const code = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code ?? 'OK';
const FREEZE = 'mutation($u: ID!, $a: Boolean!) { setNodeUserActive(user: $u, active: $a) { isActive } }';
const KYC = 'mutation($u: ID!) { setNodeUserKycLevel(user: $u, level: ENHANCED) { kycLevel } }';
const PHONE = 'mutation($u: ID!) { setNodeUserPhone(user: $u, phone: "+447911123499") { phone } }';
const PROPOSE = 'mutation($u: ID!, $c: String!) { proposeNodeOperatorChange(user: $u, change: $c, reason: "test") { id status } }';
const APPROVE = 'mutation($id: ID!) { approveNodeOperatorChange(id: $id) { status } }';
const row = (id: string) => t.app.services.identity.identity.user(id);
const audit = (action: string, key: string, value: string) =>
  t.app.services.ledger.store.pool
    .query<{ actor: string; detail: Record<string, unknown> }>('SELECT actor, detail FROM node.audit_log WHERE action = $1 AND detail->>$2 = $3 ORDER BY at', [
      action,
      key,
      value,
    ])
    .then((r) => r.rows);

describe('no operator acts on their own account, nor directly on another operator', () => {
  it('support staff: not their own KYC level, not a superuser frozen, not another agent; a customer yes; never a dispute resolution', async () => {
    expect(code(await as(staff, KYC, { u: staff.id }))).toBe('OPERATOR_SELF_ACTION');
    expect((await row(staff.id))?.kycLevel).toBe('none');
    expect(code(await as(staff, FREEZE, { u: alice.id, a: false }))).toBe('OPERATOR_TWO_PERSON');
    expect(code(await as(staff, FREEZE, { u: staff.id, a: false }))).toBe('OPERATOR_SELF_ACTION');
    expect((await row(alice.id))?.isActive).toBe(true);
    await adminSignIn(any(), alice.username); // still signs in
    const customer = await createUser(any());
    expect(await as(staff, FREEZE, { u: customer.id, a: false })).toEqual({ data: { setNodeUserActive: { isActive: false } } });
    expect(await as(staff, KYC, { u: customer.id })).toEqual({ data: { setNodeUserKycLevel: { kycLevel: 'ENHANCED' } } });
    expect(code(await as(staff, 'mutation { resolveDispute(id: "00000000-0000-4000-8000-000000000000", note: "x") { id } }'))).toBe('SUPPORT_STAFF_FORBIDDEN');
    expect(code(await as(staff, 'mutation { approveLedgerAdjustment(id: "00000000-0000-4000-8000-000000000000") { id } }'))).toBe('SUPPORT_STAFF_FORBIDDEN');
  });

  it('superusers: not their own account, not another operator (freeze, KYC, phone): those go through the two-person flow', async () => {
    expect(code(await as(alice, KYC, { u: alice.id }))).toBe('OPERATOR_SELF_ACTION');
    expect(code(await as(alice, PHONE, { u: alice.id }))).toBe('OPERATOR_SELF_ACTION');
    expect(code(await as(alice, FREEZE, { u: bob.id, a: false }))).toBe('OPERATOR_TWO_PERSON');
    expect(code(await as(alice, FREEZE, { u: staff.id, a: false }))).toBe('OPERATOR_TWO_PERSON');
    expect(code(await as(alice, PHONE, { u: bob.id }))).toBe('OPERATOR_TWO_PERSON');
    expect(await row(bob.id)).toMatchObject({ isActive: true, kycLevel: 'none', phone: null });
    // the console answers the same, as a page
    const res = await adminPost(any(), alice.session, `/admin/identity/user/${bob.id}/active/`, { active: 'no' });
    expect(res.status).toBe(403);
    expect((await row(bob.id))?.isActive).toBe(true);
  });
});

describe('operators are created, elevated, frozen and re-activated by two people', () => {
  it('a superuser created through the API is a proposal: no console until a different superuser approves; the proposer cannot approve it', async () => {
    const name = `new_${randomUUID().slice(0, 8)}`;
    const created = await as(
      alice,
      'mutation($n: String!) { createNodeUser(username: $n, email: "n@example.com", password: "a fine long password", superuser: true) { id isSuperuser } }',
      { n: name },
    );
    const user = created.data!.createNodeUser as { id: string; isSuperuser: boolean };
    expect(user.isSuperuser).toBe(false);
    await expect(adminSignIn(any(), name, 'a fine long password')).rejects.toThrow(/admin sign-in failed: 401/);
    const pending = (await as(alice, '{ nodeOperatorChanges(status: "pending") { id userId change proposedByName } }')).data!.nodeOperatorChanges as {
      id: string;
      userId: string;
    }[];
    const change = pending.find((c) => c.userId === user.id)!;
    expect(change).toMatchObject({ change: 'superuser', proposedByName: alice.username });

    expect(code(await as(alice, APPROVE, { id: change.id }))).toBe('SAME_PERSON');
    expect(code(await as(staff, APPROVE, { id: change.id }))).toBe('SUPPORT_STAFF_FORBIDDEN');
    expect(await as(bob, APPROVE, { id: change.id })).toEqual({ data: { approveNodeOperatorChange: { status: 'approved' } } });
    expect(code(await as(bob, APPROVE, { id: change.id }))).toBe('INVALID_STATE');
    expect((await row(user.id))?.isSuperuser).toBe(true);
    await adminSignIn(any(), name, 'a fine long password');

    await auditDelivered(any());
    expect((await audit('user.created', 'user', user.id)).map((e) => e.actor)).toEqual([`admin:${alice.username}`]);
    expect((await audit('operator.change_proposed', 'change', change.id)).map((e) => e.actor)).toEqual([`admin:${alice.username}`]);
    expect(await audit('operator.change_approved', 'change', change.id)).toEqual([
      { actor: `admin:${bob.username}`, detail: expect.objectContaining({ user: user.id, to: 'superuser', proposedBy: `admin:${alice.username}` }) },
    ]);
  });

  it('exploit 3 refused: a superuser proposes a credit, mints a second superuser and approves with it — the second one never gets a console', async () => {
    const customer = await createUser(any());
    const reason = `goodwill ${randomUUID()}`;
    const proposed = await as(
      alice,
      'mutation($u: String!, $r: String!) { proposeLedgerAdjustment(user: $u, currency: "EUR", amount: "1000.00", direction: "credit", reason: $r) { id } }',
      {
        u: customer.username,
        r: reason,
      },
    );
    expect(code(proposed)).toBe('OK');
    const puppet = `puppet_${randomUUID().slice(0, 8)}`;
    expect(
      code(
        await as(
          alice,
          'mutation($n: String!) { createNodeUser(username: $n, email: "p@example.com", password: "a fine long password", superuser: true) { id } }',
          { n: puppet },
        ),
      ),
    ).toBe('OK');
    await expect(adminSignIn(any(), puppet, 'a fine long password')).rejects.toThrow(/401/);
    expect((await t.app.services.ledger.ledger.balances(customer.id)).find((b) => b.currency === 'EUR')?.posted.amount ?? '0.00').toBe('0.00');
  });

  it('freezing and re-activating an operator: the subject cannot approve their own change, a third superuser can; nobody proposes about themselves', async () => {
    const carol = await superuser();
    expect(code(await as(alice, PROPOSE, { u: alice.id, c: 'freeze' }))).toBe('OPERATOR_SELF_ACTION');
    const freeze = (await as(alice, PROPOSE, { u: bob.id, c: 'freeze' })).data!.proposeNodeOperatorChange as { id: string };
    expect(code(await as(alice, PROPOSE, { u: bob.id, c: 'remove_role' }))).toBe('CONFLICT'); // one pending change per user
    expect(code(await as(bob, APPROVE, { id: freeze.id }))).toBe('SAME_PERSON');
    expect((await row(bob.id))?.isActive).toBe(true);
    expect(code(await as(carol, APPROVE, { id: freeze.id }))).toBe('OK');
    expect((await row(bob.id))?.isActive).toBe(false);
    await expect(adminSignIn(any(), bob.username)).rejects.toThrow(/401/);

    const back = (await as(carol, PROPOSE, { u: bob.id, c: 'reactivate' })).data!.proposeNodeOperatorChange as { id: string };
    expect(code(await as(carol, APPROVE, { id: back.id }))).toBe('SAME_PERSON');
    expect(code(await as(alice, APPROVE, { id: back.id }))).toBe('OK');
    bob = { ...bob, session: await adminSignIn(any(), bob.username) };
  });

  it('two approvals of one change at once: one applies, the other is 409', async () => {
    const [dave, erin] = [await superuser(), await superuser()];
    const u = await createUser(any());
    const change = (await as(alice, PROPOSE, { u: u.id, c: 'support' })).data!.proposeNodeOperatorChange as { id: string };
    const codes = (await Promise.all([as(dave, APPROVE, { id: change.id }), as(erin, APPROVE, { id: change.id })])).map(code).sort();
    expect(codes).toEqual(['INVALID_STATE', 'OK']);
    expect(await row(u.id)).toMatchObject({ isStaff: true, isSuperuser: false });
    await auditDelivered(any());
    expect(await audit('operator.change_approved', 'change', change.id)).toHaveLength(1);
  });

  it('the console: the add-user form proposes the role, /admin/identity/operator-change/ lists it with approve and reject; support staff may not see it', async () => {
    const name = `console_${randomUUID().slice(0, 8)}`;
    const added = await adminPost(any(), alice.session, '/admin/identity/user/add/', {
      username: name,
      email: `${name}@example.com`,
      password: 'a fine long password',
      staff: 'on',
    });
    expect([added.status, added.headers.get('location')]).toEqual([302, '/admin/identity/operator-change/?saved=proposed']);
    const user = (await t.app.services.identity.identity.findUser(name))!;
    expect([user.isStaff, user.isSuperuser]).toEqual([false, false]);
    const page = await fetch(`${t.urls.finance}/admin/identity/operator-change/?saved=proposed`, { headers: { cookie: bob.session.cookie } });
    const body = await page.text();
    expect(page.status).toBe(200);
    expect(body).toContain(name);
    expect(body).toContain('a different superuser must approve it');
    const change = (await t.app.services.identity.operators.list(50, 'pending')).find((c) => c.userId === user.id)!;
    expect(body).toContain(`/admin/identity/operator-change/${change.id}/approve/`);
    // the proposer's page offers no approve button for it, and a post is refused
    expect(await (await fetch(`${t.urls.finance}/admin/identity/operator-change/`, { headers: { cookie: alice.session.cookie } })).text()).not.toContain(
      `${change.id}/approve/`,
    );
    expect((await adminPost(any(), alice.session, `/admin/identity/operator-change/${change.id}/approve/`, {})).status).toBe(403);
    expect((await adminPost(any(), bob.session, `/admin/identity/operator-change/${change.id}/approve/`, {})).status).toBe(302);
    expect((await t.app.services.identity.identity.findUser(name))?.isStaff).toBe(true);
    // proposing from the page; rejecting
    const other = await createUser(any());
    expect(
      (await adminPost(any(), bob.session, '/admin/identity/operator-change/', { user: other.username, change: 'superuser', reason: 'on call' })).status,
    ).toBe(302);
    const pending = (await t.app.services.identity.operators.list(50, 'pending')).find((c) => c.userId === other.id)!;
    expect((await adminPost(any(), alice.session, `/admin/identity/operator-change/${pending.id}/reject/`, {})).status).toBe(302);
    expect((await t.app.services.identity.identity.user(other.id))?.isSuperuser).toBe(false);
    expect((await fetch(`${t.urls.finance}/admin/identity/operator-change/`, { headers: { cookie: staff.session.cookie } })).status).toBe(403);
  });
});
