import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminPost, adminSignIn, auditDelivered, createUser, installValidLicence, type AdminSession } from '../../support/finance/node';
import { moneyMoves, type Customer } from '../../support/finance/money';

/**
 * Operator decisions audited atomically, through the admin console over real HTTP:
 * each decision's audit entry is written in the decision's own transaction (the subgraph's
 * audit_outbox) and relayed to the node's audit log (/admin/audit/) by the subgraph's job; a decision
 * that loses a race leaves no entry; while the node's log refuses entries the decisions still commit,
 * their entries wait, and arrive exactly once when it takes them again.
 */
let t: TestApp<'finance'>;
/** The finance tests' shared people and moves (a customer with basic KYC, a deposit, a balance). */
let m: ReturnType<typeof moneyMoves>;
let admin: AdminSession;
let adminName: string;

beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  m = moneyMoves(t);
  await installValidLicence(t);
  adminName = (await createUser(t, undefined, { superuser: true })).username;
  admin = await adminSignIn(t, adminName);
});
afterAll(() => t?.stop());

const { url, send } = surface(() => t.urls.finance);
const page = async (path: string) => (await http(url(path), { headers: { cookie: admin.cookie } })).body as string;
/** SQL on the node's database (every subgraph's schema lives in it). */
const sql = <T extends object>(text: string, values: unknown[] = []) => t.app.services.ledger.store.pool.query<T>(text, values).then((r) => r.rows);
/** The node's audit entries whose detail names `id` (under `key`). */
const entries = (key: string, id: string) =>
  sql<{ actor: string; action: string; detail: Record<string, unknown> }>(
    'SELECT actor, action, detail FROM node.audit_log WHERE detail->>$1 = $2 ORDER BY at, id',
    [key, id],
  );
const actor = () => `admin:${adminName}`;

/** A product bought and paid: the order and its payment's ledger transfer. */
async function paidOrder(u: Customer, price = '15.00') {
  await m.deposit(u.id, price);
  const p = await t.app.services.commerce.shop.createProduct({
    name: `Thing ${randomUUID().slice(0, 6)}`,
    description: 'A thing',
    price,
    currency: 'EUR',
    stock: 1,
  });
  await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 });
  const order = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
  const paid = await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token);
  expect([paid.status, paid.body.status]).toEqual([200, 'paid']);
  return { orderId: order.id as string, transactionId: paid.body.payment_transaction_id as string };
}

/** A dispute of a paid order, opened by its buyer and taken under review by the administrator. */
async function disputeUnderReview() {
  const u = await m.customer();
  const { transactionId } = await paidOrder(u);
  const opened = await send('POST', '/api/v1/disputes/', u.token, { transaction_id: transactionId, reason: 'not_received', description: 'It never came.' });
  expect(opened.status).toBe(201);
  expect((await adminPost(t, admin, `/admin/commerce/dispute/${opened.body.id}/review/`, {})).status).toBe(302);
  return { id: opened.body.id as string, transactionId };
}

describe('every operator decision is in the audit log, with its actor and detail', () => {
  it('disputes: reviewed, rejected, resolved (old → new status, note, refund)', async () => {
    const rejected = await disputeUnderReview();
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${rejected.id}/reject/`, { note: 'Delivered: signed for.' })).status).toBe(302);
    const resolved = await disputeUnderReview();
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${resolved.id}/resolve/`, { note: 'Refunded: lost in transit.' })).status).toBe(302);
    await auditDelivered(t);

    expect(await entries('dispute', rejected.id)).toEqual([
      {
        actor: actor(),
        action: 'dispute.reviewed',
        detail: expect.objectContaining({ from: 'open', to: 'under_review', transaction: rejected.transactionId }),
      },
      {
        actor: actor(),
        action: 'dispute.rejected',
        detail: expect.objectContaining({ from: 'under_review', to: 'rejected', note: 'Delivered: signed for.', amount: '15.00', currency: 'EUR' }),
      },
    ]);
    const [, resolution] = await entries('dispute', resolved.id);
    expect(resolution).toMatchObject({
      actor: actor(),
      action: 'dispute.resolved',
      detail: { from: 'under_review', to: 'resolved', note: 'Refunded: lost in transit.', reversal: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    const log = await page(`/admin/audit/?q=${resolved.id}`);
    for (const text of ['dispute.reviewed', 'dispute.resolved', actor(), '2 rows']) expect(log).toContain(text);
    expect(await page(`/admin/audit/?q=${rejected.id}&action=dispute.rejected`)).toContain('1 row');
  });

  it('shop orders: fulfilled, and a paid order cancelled by an operator with its refund; a buyer cancelling their own is not an operator decision', async () => {
    const u = await m.customer();
    const fulfilled = await paidOrder(u);
    expect((await adminPost(t, admin, `/admin/commerce/order/${fulfilled.orderId}/fulfil/`, {})).status).toBe(302);
    const cancelled = await paidOrder(u, '7.25');
    expect((await adminPost(t, admin, `/admin/commerce/order/${cancelled.orderId}/cancel/`, {})).status).toBe(302);
    const p = await t.app.services.commerce.shop.createProduct({ name: 'Own', description: 'x', price: '1.00', currency: 'EUR', stock: 1 });
    await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 });
    const own = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
    expect((await send('POST', `/api/v1/shop/orders/${own.id}/cancel/`, u.token)).status).toBe(200);
    await auditDelivered(t);

    expect(await entries('order', fulfilled.orderId)).toEqual([
      {
        actor: actor(),
        action: 'order.fulfilled',
        detail: { order: fulfilled.orderId, user: u.id, total: '15.00', currency: 'EUR', from: 'paid', to: 'fulfilled' },
      },
    ]);
    expect(await entries('order', cancelled.orderId)).toEqual([
      {
        actor: actor(),
        action: 'order.cancelled',
        detail: expect.objectContaining({ total: '7.25', from: 'paid', to: 'cancelled', refund: expect.stringMatching(/^[0-9a-f-]{36}$/) }),
      },
    ]);
    expect(await entries('order', own.id)).toEqual([]);
    expect(await page(`/admin/audit/?q=${cancelled.orderId}`)).toContain('order.cancelled');
  });

  it('a KYC review: the verification, its level, old → new state and the reason', async () => {
    const u = await m.customer();
    const created = await send('POST', '/api/v1/kyc/verifications/', u.token, { level: 'basic', first_name: 'Ada', last_name: 'Review' });
    expect(created.status).toBe(201);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR passport scan')]);
    expect(
      (await send('POST', `/api/v1/kyc/verifications/${created.body.id}/documents/`, u.token, { kind: 'passport', content_base64: png.toString('base64') }))
        .status,
    ).toBe(201);
    expect((await send('POST', `/api/v1/kyc/verifications/${created.body.id}/submit/`, u.token)).body.state).toBe('in_review');
    const review = await adminPost(t, admin, `/admin/compliance/verification/${created.body.id}/review/`, { decision: 'rejected', reason: 'Document forged.' });
    expect(review.status).toBe(302);
    // deciding it again is refused (409), and audited once
    expect((await adminPost(t, admin, `/admin/compliance/verification/${created.body.id}/review/`, { decision: 'verified', reason: '' })).status).toBe(409);
    await auditDelivered(t);
    expect(await entries('verification', created.body.id)).toEqual([
      {
        actor: actor(),
        action: 'kyc.reviewed',
        detail: { verification: created.body.id, user: u.id, level: 'basic', from: 'in_review', to: 'rejected', reason: 'Document forged.' },
      },
    ]);
    expect(await page(`/admin/audit/?q=${created.body.id}`)).toContain('kyc.reviewed');
  });

  it('a void of a pending transfer: once (a second void is not audited again)', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '20.00');
    const ledger = t.app.services.ledger.ledger;
    const clearing = await ledger.account('system', '00000000-0000-0000-0000-000000000000', 'EUR', 'payments:clearing');
    const hold = randomUUID();
    await ledger.createTransfers([
      { id: hold, debitAccountId: (await ledger.wallet(u.id, 'EUR')).id, creditAccountId: clearing.id, amount: 7_00n, code: 'withdrawal', kind: 'pending' },
    ]);
    expect((await adminPost(t, admin, `/admin/ledger/pending/${hold}/void/`, {})).status).toBe(302);
    expect((await adminPost(t, admin, `/admin/ledger/pending/${hold}/void/`, {})).status).toBe(302);
    await auditDelivered(t);
    expect(await entries('transfer', hold)).toEqual([
      {
        actor: actor(),
        action: 'transfer.voided',
        detail: expect.objectContaining({ transfer: hold, amount: '7.00', currency: 'EUR', reason: expect.any(String) }),
      },
    ]);
    expect(await page(`/admin/audit/?q=${hold}`)).toContain('transfer.voided');
  });

  it("a user's freeze, unfreeze and KYC level: old → new", async () => {
    const u = await createUser(t);
    expect((await adminPost(t, admin, `/admin/identity/user/${u.id}/active/`, { active: 'no' })).status).toBe(302);
    expect((await adminPost(t, admin, `/admin/identity/user/${u.id}/active/`, { active: 'yes' })).status).toBe(302);
    expect((await adminPost(t, admin, `/admin/identity/user/${u.id}/kyc/`, { level: 'enhanced' })).status).toBe(302);
    await auditDelivered(t);
    expect((await entries('user', u.id)).map((e) => [e.actor, e.action, e.detail.from, e.detail.to])).toEqual([
      [actor(), 'user.frozen', true, false],
      [actor(), 'user.unfrozen', false, true],
      [actor(), 'user.kyc_level_set', 'none', 'enhanced'],
    ]);
  });
});

describe('atomic with the decision', () => {
  it('a dispute decided twice at once: one wins, the other is 409, and there is exactly one entry', async () => {
    const d = await disputeUnderReview();
    const outcomes = await Promise.all([
      adminPost(t, admin, `/admin/commerce/dispute/${d.id}/reject/`, { note: 'First.' }),
      adminPost(t, admin, `/admin/commerce/dispute/${d.id}/reject/`, { note: 'Second.' }),
      adminPost(t, admin, `/admin/commerce/dispute/${d.id}/reject/`, { note: 'Third.' }),
    ]);
    expect(outcomes.map((r) => r.status).sort()).toEqual([302, 409, 409]);
    await auditDelivered(t);
    const decisions = (await entries('dispute', d.id)).filter((e) => e.action === 'dispute.rejected');
    expect(decisions).toHaveLength(1);
    expect((await sql('SELECT 1 FROM commerce.audit_outbox WHERE action = $1 AND detail->>$2 = $3', ['dispute.rejected', 'dispute', d.id])).length).toBe(1);
  });

  it('while the node refuses audit entries, decisions still commit and their entries wait; they arrive exactly once when it takes them again', async () => {
    const u = await m.customer();
    const { orderId } = await paidOrder(u);
    // the node's audit log refuses every relayed entry (its database says no: nothing of ours is replaced)
    await sql(`CREATE FUNCTION node.audit_spec_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable (test)'; END $$`);
    await sql(
      'CREATE TRIGGER audit_spec_refuse BEFORE INSERT ON node.audit_log FOR EACH ROW WHEN (NEW.outbox_id IS NOT NULL) EXECUTE FUNCTION node.audit_spec_refuse()',
    );
    try {
      expect((await adminPost(t, admin, `/admin/commerce/order/${orderId}/fulfil/`, {})).status).toBe(302);
      expect((await t.app.services.commerce.shop.order(orderId)).status).toBe('fulfilled');
      // the relay tried, failed, and keeps the entry
      const deadline = Date.now() + 15_000;
      let row: { attempts: number; sentAt: Date | null; lastError: string | null } | undefined;
      while (Date.now() < deadline) {
        [row] = await sql<{ attempts: number; sentAt: Date | null; lastError: string | null }>(
          `SELECT attempts, sent_at AS "sentAt", last_error AS "lastError" FROM commerce.audit_outbox WHERE detail->>'order' = $1`,
          [orderId],
        );
        if (row && row.attempts > 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(row).toMatchObject({ sentAt: null, lastError: expect.any(String) });
      expect(row!.attempts).toBeGreaterThan(0);
      expect(await entries('order', orderId)).toEqual([]);
      expect(await t.app.services.commerce.audit.pendingCount()).toBeGreaterThan(0);
    } finally {
      await sql('DROP TRIGGER audit_spec_refuse ON node.audit_log');
      await sql('DROP FUNCTION node.audit_spec_refuse()');
    }
    // the job retries with back-off: the entry arrives, once
    await auditDelivered(t, 40_000);
    expect(await entries('order', orderId)).toEqual([
      { actor: actor(), action: 'order.fulfilled', detail: expect.objectContaining({ order: orderId, to: 'fulfilled' }) },
    ]);
    // a re-send (as after a crash between delivery and sent_at) is not recorded twice
    await sql(`UPDATE commerce.audit_outbox SET sent_at = NULL WHERE detail->>'order' = $1`, [orderId]);
    expect((await t.app.services.commerce.audit.relay()).sent).toBeGreaterThan(0);
    expect(await entries('order', orderId)).toHaveLength(1);
    expect(await page(`/admin/audit/?q=${orderId}`)).toContain('1 row');
  });
});
