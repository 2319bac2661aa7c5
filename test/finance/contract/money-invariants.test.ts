import { randomUUID } from 'node:crypto';
import { SYSTEM_OWNER } from '../../../subgraphs/finance/kernel/ledger-client';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { adminPost, auditDelivered, changeNode, createUser, installValidLicence, login } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';
import { moneyMoves, type Customer, type Operator } from '../../support/finance/money';

/**
 * Money invariants (exactly-once reversal, two-person platform credits, refunded orders), through the real REST surface, gateway
 * and database: a transfer is reversed once whoever asks and however concurrently (the ledger keeps one
 * reversal per original in its own table); a credit of a person from a platform account is decided by
 * two people, neither of them a party; support staff never decide money; a refunded order is
 * `refunded` and cannot be fulfilled.
 */
let t: TestApp<'finance'>;
let m: ReturnType<typeof moneyMoves>;
let maker: Operator & { token: string };
let checker: Operator & { token: string };

beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t);
  m = moneyMoves(t);
  maker = await m.operator('superuser');
  checker = await m.operator('superuser');
});
afterAll(() => t?.stop());

/** A service mutation of the ledger as a money module (the `commerce` principal) would send it. */
async function asCommerce(query: string, variables: Record<string, unknown>) {
  const res = await t.app.gateway.execute({ query, variables }, { headers: {} }, 'money-invariants', { kind: 'service', name: 'commerce' });
  return res.body as { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[] };
}
const TRANSFERS = `mutation($transfers: [LedgerTransferInput!]!) { createLedgerTransfers(transfers: $transfers) { id result } }`;

/** alice pays bob `amount`: the transfer's id. */
async function paid(alice: Customer, bob: Customer, amount: string) {
  const res = await m.transfer(alice, bob, amount);
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** A console page as the operator's browser reads it. */
const page = async (op: Operator, path: string) => (await fetch(`${t.urls.finance}${path}`, { headers: { cookie: op.session.cookie } })).text();

const noServerError = (statuses: number[]) => expect(statuses.filter((s) => s >= 500)).toEqual([]);

describe('exactly-once reversal, in the ledger', () => {
  it('refuses a second reversal of a transfer whoever posts it (409 ALREADY_REVERSED), and one that names no original or pays someone else', async () => {
    const [alice, bob] = [await m.customer(), await m.customer()];
    await m.deposit(alice.id, '10.00');
    const original = await paid(alice, bob, '10.00');
    const view = (await t.app.services.ledger.ledger.transfer(original))!;
    const back = (amount: string, extra: Record<string, unknown> = {}) => ({
      id: randomUUID(),
      debitAccountId: view.creditAccountId,
      creditAccountId: view.debitAccountId,
      amount,
      code: 'dispute_reversal',
      reverses: original,
      ...extra,
    });
    // a reversal code without its original, and a "reversal" that pays a third party: refused
    expect((await asCommerce(TRANSFERS, { transfers: [back('1.00', { reverses: null })] })).errors?.[0].extensions?.code).toBe('INVALID_REVERSAL');
    const carol = await t.app.services.ledger.ledger.wallet((await m.customer()).id, 'EUR');
    expect((await asCommerce(TRANSFERS, { transfers: [back('1.00', { creditAccountId: carol.id })] })).errors?.[0].extensions?.code).toBe('INVALID_REVERSAL');
    // more than the original moved, even from an account that could pay it
    const sales = (await t.app.services.ledger.ledger.account('system', SYSTEM_OWNER, 'EUR', 'commerce:sales')).id;
    expect((await asCommerce(TRANSFERS, { transfers: [back('10.01', { debitAccountId: sales })] })).errors?.[0].extensions?.code).toBe('INVALID_REVERSAL');
    // the first reversal posts; a second one (another dispute's ids, a cancellation's) is refused and moves nothing
    const first = back('4.00');
    expect((await asCommerce(TRANSFERS, { transfers: [first] })).errors).toBeUndefined();
    // its replay is the same reversal: `exists`
    expect((await asCommerce(TRANSFERS, { transfers: [first] })).data).toEqual({ createLedgerTransfers: [{ id: first.id, result: 'exists' }] });
    const again = await asCommerce(TRANSFERS, { transfers: [back('4.00')] });
    expect(again.errors?.[0].extensions?.code).toBe('ALREADY_REVERSED');
    // concurrently, many reversals of one original: one posts
    const other = await paid(bob, alice, '2.00');
    const otherView = (await t.app.services.ledger.ledger.transfer(other))!;
    const racing = await Promise.all(
      Array.from({ length: 12 }, () =>
        asCommerce(TRANSFERS, {
          transfers: [
            {
              id: randomUUID(),
              debitAccountId: otherView.creditAccountId,
              creditAccountId: otherView.debitAccountId,
              amount: '2.00',
              code: 'dispute_reversal',
              reverses: other,
            },
          ],
        }),
      ),
    );
    expect(racing.filter((r) => !r.errors).length).toBe(1);
    expect(new Set(racing.flatMap((r) => (r.errors ? [r.errors[0].extensions?.code] : [])))).toEqual(new Set(['ALREADY_REVERSED']));
    expect([await m.balance(alice.token), await m.balance(bob.token)]).toEqual(['4.00', '6.00']);
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it('a dispute raised while another is resolved, and concurrent resolutions: the payer is refunded once, the others get 409, never a 5xx', async () => {
    const alice = await m.customer();
    const bob = await m.customer();
    const rounds = 10;
    const statuses: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await m.deposit(alice.id, '10.00');
      const original = await paid(alice, bob, '10.00');
      const a = (await m.openDispute(alice, original)).body.id as string;
      expect((await m.review(maker, a)).status).toBe(302);
      // dispute B raised again and again while A is resolved (twice, concurrently, by two operators)
      let resolving = true;
      const raised: Promise<{ status: number; body: { id?: string } }>[] = [];
      const raising = (async () => {
        while (resolving) {
          raised.push(m.openDispute(alice, original, true));
          await new Promise((r) => setTimeout(r, 2));
        }
        for (let i = 0; i < 3; i++) raised.push(m.openDispute(alice, original, true));
      })();
      const resolutions = await Promise.all([m.resolve(maker, a), m.resolve(checker, a)]);
      resolving = false;
      await raising;
      const opened = await Promise.all(raised);
      statuses.push(...resolutions.map((r) => r.status), ...opened.map((r) => r.status));
      expect(resolutions.map((r) => r.status).sort()).toEqual([302, 409]);
      // any dispute B that got in is resolved by both operators at once: refused, nothing moves
      for (const b of opened.filter((r) => r.status === 201)) {
        statuses.push((await m.review(maker, b.body.id!)).status);
        const again = await Promise.all([m.resolve(maker, b.body.id!), m.resolve(checker, b.body.id!)]);
        statuses.push(...again.map((r) => r.status));
        expect(again.map((r) => r.status)).toEqual([409, 409]);
      }
      expect(opened.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
    }
    noServerError(statuses);
    // every payment refunded once: alice holds what she deposited, bob nothing
    expect([await m.balance(alice.token), await m.balance(bob.token)]).toEqual([`${rounds * 10}.00`, '0.00']);
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });
});

describe('separation of duties for platform credits', () => {
  it('support staff S who disputes their own payment to an accomplice who spent it cannot resolve it; the platform pays only on two other people', async () => {
    const staff = await m.operator('support');
    const accomplice = await m.customer();
    const shopkeeper = await m.customer();
    await m.deposit(staff.id, '100.00');
    const original = await paid(staff, accomplice, '100.00');
    await paid(accomplice, shopkeeper, '100.00');
    const id = (await m.openDispute(staff, original)).body.id as string;
    expect((await m.review(staff, id)).status).toBe(302);
    // support never decides money, and never on its own transfer
    expect((await m.resolve(staff, id)).status).toBe(403);
    expect(await m.balance(staff.token)).toBe('0.00');
    // a superuser who is a party (here: the payee) may not decide either
    const partySuperuser = await m.operator('superuser');
    await m.deposit(partySuperuser.id, '5.00');
    const own = await paid(partySuperuser, accomplice, '5.00');
    const ownDispute = (await m.openDispute(partySuperuser, own)).body.id as string;
    await m.review(maker, ownDispute);
    expect((await m.resolve(partySuperuser, ownDispute)).status).toBe(403);
    // a superuser alone only proposes a refund from the dispute-loss account; proposing twice does not approve it
    expect((await m.resolve(maker, id)).status).toBe(302);
    expect(await m.dispute(staff, id)).toMatchObject({ status: 'under_review' });
    expect((await m.resolve(maker, id)).status).toBe(403);
    expect(await m.balance(staff.token)).toBe('0.00');
    // the console shows the proposal, and the second operator's button
    expect(await page(checker, `/admin/commerce/dispute/${id}/`)).toContain('Approve the refund (second operator)');
    // a second superuser approves: refunded once, the decision of two people recorded beside the transfer
    expect((await m.resolve(checker, id)).status).toBe(302);
    const resolved = await m.dispute(staff, id);
    expect(resolved.status).toBe('resolved');
    expect(await m.balance(staff.token)).toBe('100.00');
    const { rows } = await t.app.services.ledger.store.pool.query(
      `SELECT p.proposed_by, p.approved_by, t.code FROM ledger.platform_credit p JOIN ledger.transfer t ON t.id = p.transfer_id
        WHERE t.metadata->>'disputeId' = $1`,
      [id],
    );
    expect(rows).toEqual([{ proposed_by: maker.id, approved_by: checker.id, code: 'dispute_loss' }]);
    await auditDelivered(t);
    const audit = await t.app.services.ledger.store.pool.query(`SELECT action FROM node.audit_log WHERE detail->>'dispute' = $1 ORDER BY at, id`, [id]);
    expect(audit.rows.map((r: { action: string }) => r.action)).toEqual(['dispute.reviewed', 'dispute.refund_proposed', 'dispute.resolved']);
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it('the ledger refuses a credit from a platform account without two people who are not parties, whoever sends it', async () => {
    const u = await m.customer();
    const losses = (await t.app.services.ledger.ledger.account('system', SYSTEM_OWNER, 'EUR', 'commerce:dispute_losses')).id;
    const adjustments = (await t.app.services.ledger.ledger.account('system', SYSTEM_OWNER, 'EUR', 'adjustments')).id;
    const wallet = (await t.app.services.ledger.ledger.wallet(u.id, 'EUR')).id;
    const credit = (from: string, approval?: Record<string, unknown>) => ({
      transfers: [{ id: randomUUID(), debitAccountId: from, creditAccountId: wallet, amount: '50.00', code: 'goodwill', ...(approval ? { approval } : {}) }],
    });
    const codeOf = async (v: Record<string, unknown>) => (await asCommerce(TRANSFERS, v)).errors?.[0].extensions?.code;
    for (const from of [losses, adjustments]) {
      expect(await codeOf(credit(from))).toBe('APPROVAL_REQUIRED');
      expect(await codeOf(credit(from, { proposedBy: maker.id, approvedBy: maker.id, parties: [] }))).toBe('SEPARATION_OF_DUTIES');
      expect(await codeOf(credit(from, { proposedBy: maker.id, approvedBy: u.id, parties: [] }))).toBe('SEPARATION_OF_DUTIES');
      expect(await codeOf(credit(from, { proposedBy: u.id, approvedBy: checker.id, parties: [] }))).toBe('SEPARATION_OF_DUTIES');
      expect(await codeOf(credit(from, { proposedBy: maker.id, approvedBy: checker.id, parties: [checker.id] }))).toBe('SEPARATION_OF_DUTIES');
    }
    expect(await m.balance(u.token)).toBe('0.00');
    expect(await codeOf(credit(losses, { proposedBy: maker.id, approvedBy: checker.id, parties: [] }))).toBeUndefined();
    expect(await m.balance(u.token)).toBe('50.00');
  });

  it('adjustments: an operator never credits their own wallet, support staff never approve, the proposer never approves', async () => {
    const support = await m.operator('support');
    const u = await m.customer();
    const propose = (op: Operator, user: string) =>
      adminPost(t, op.session, '/admin/adjustments/', { user, currency: 'EUR', amount: '25.00', direction: 'credit', reason: 'goodwill' });
    expect((await propose(maker, maker.username)).status).toBe(403);
    const proposed = await t.app.services.ledger.adjustments.propose(
      { user: u.username, currency: 'EUR', amount: '25.00', direction: 'credit', reason: 'goodwill' },
      { id: maker.id, name: maker.username, role: 'superuser' },
    );
    const approve = (op: Operator) => adminPost(t, op.session, `/admin/adjustments/${proposed.id}/approve/`, {});
    expect((await approve(support)).status).toBe(403);
    expect((await approve(maker)).status).toBe(403);
    expect(await m.balance(u.token)).toBe('0.00');
    expect((await approve(checker)).status).toBe(302);
    expect(await m.balance(u.token)).toBe('25.00');
    // the operator proposing a credit to a user who then approves it themselves: refused in the domain and by the ledger
    const toChecker = await t.app.services.ledger.adjustments.propose(
      { user: checker.username, currency: 'EUR', amount: '25.00', direction: 'credit', reason: 'goodwill' },
      { id: maker.id, name: maker.username, role: 'superuser' },
    );
    expect((await adminPost(t, checker.session, `/admin/adjustments/${toChecker.id}/approve/`, {})).status).toBe(403);
    expect(await m.balance(checker.token)).toBe('0.00');
  });
});

describe('a refunded order', () => {
  /** A paid order of `u` for 20.00: its id and its payment's transaction. */
  async function paidOrder(u: Customer) {
    const product = await t.app.services.commerce.shop.createProduct({
      name: `Lamp ${randomUUID().slice(0, 6)}`,
      description: 'A lamp',
      price: '20.00',
      currency: 'EUR',
      stock: 3,
    });
    await m.send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: product.id, quantity: 1 });
    const order = (await m.send('POST', '/api/v1/shop/checkout/', u.token)).body;
    const payment = (await m.send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token)).body.payment_transaction_id as string;
    return { id: order.id as string, payment };
  }

  it('a dispute refund moves the order to refunded: fulfilment is refused (409) and the console offers no Fulfil', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '20.00');
    const order = await paidOrder(u);
    const id = (await m.openDispute(u, order.payment)).body.id as string;
    await m.review(maker, id);
    expect((await m.resolve(maker, id)).status).toBe(302);
    expect(await m.balance(u.token)).toBe('20.00');
    expect((await m.get(`/api/v1/shop/orders/${order.id}/`, u.token)).body.status).toBe('refunded');
    expect((await adminPost(t, maker.session, `/admin/commerce/order/${order.id}/fulfil/`, {})).status).toBe(409);
    const list = await page(maker, '/admin/commerce/order/');
    expect(list).toContain(order.id.slice(0, 8));
    expect(list).not.toContain(`/admin/commerce/order/${order.id}/fulfil/`);
    expect((await adminPost(t, checker.session, `/admin/commerce/order/${order.id}/cancel/`, {})).status).toBe(409);
    expect(await m.balance(u.token)).toBe('20.00');
  });

  it('a cancellation racing a dispute resolution refunds the payment once', async () => {
    const u = await m.customer();
    for (let round = 0; round < 4; round++) {
      await m.deposit(u.id, '20.00');
      const order = await paidOrder(u);
      const id = (await m.openDispute(u, order.payment)).body.id as string;
      await m.review(maker, id);
      const [resolved, cancelled] = await Promise.all([m.resolve(maker, id), adminPost(t, checker.session, `/admin/commerce/order/${order.id}/cancel/`, {})]);
      expect([resolved.status, cancelled.status].sort()).toEqual([302, 409]);
      const status = (await m.get(`/api/v1/shop/orders/${order.id}/`, u.token)).body.status as string;
      expect(status).toBe(resolved.status === 302 ? 'refunded' : 'cancelled');
    }
    expect(await m.balance(u.token)).toBe('80.00');
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it('a refund of an order whose points were redeemed takes back the cash they were redeemed for: never a net gain', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '100.00');
    const product = await t.app.services.commerce.shop.createProduct({
      name: `Desk ${randomUUID().slice(0, 6)}`,
      description: 'A desk',
      price: '100.00',
      currency: 'EUR',
      stock: 3,
    });
    await m.send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: product.id, quantity: 1 });
    const order = (await m.send('POST', '/api/v1/shop/checkout/', u.token)).body;
    expect((await m.send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token)).status).toBe(200);
    expect((await m.send('POST', '/api/v1/rewards/redeem/', u.token, { points: 100, currency: 'EUR' })).status).toBe(200);
    expect(await m.balance(u.token)).toBe('1.00');
    expect((await adminPost(t, maker.session, `/admin/commerce/order/${order.id}/cancel/`, {})).status).toBe(302);
    // what was paid comes back, the 1.00 of redeemed points goes back: where the user started, with no points owed
    expect(await m.balance(u.token)).toBe('100.00');
    expect((await m.get('/api/v1/rewards/', u.token)).body.points).toBe('0');
    for (const currency of ['EUR', 'POINTS']) await invariants(t.app.services.ledger.store.store, currency);
  });

  it('pays the referral bonuses only once the referred user passed KYC: an order paid before it pays none, the first one after it pays them', async () => {
    await changeNode(t, () => t.app.services.node.node.updateSettings({ kyc_required: false }, 'test'));
    try {
      const referrer = await m.customer();
      const newcomer = await createUser(t);
      let token = await login(t, newcomer.username);
      const code = (await m.get('/api/v1/rewards/', referrer.token)).body.referral_code as string;
      expect((await m.send('POST', '/api/v1/rewards/referral/', token, { code })).status).toBe(200);
      await m.deposit(newcomer.id, '50.00');
      const buy = async () => {
        const product = await t.app.services.commerce.shop.createProduct({
          name: `Pen ${randomUUID().slice(0, 6)}`,
          description: 'A pen',
          price: '10.00',
          currency: 'EUR',
          stock: 3,
        });
        await m.send('POST', '/api/v1/shop/cart/items/', token, { product_id: product.id, quantity: 1 });
        const order = (await m.send('POST', '/api/v1/shop/checkout/', token)).body;
        expect((await m.send('POST', `/api/v1/shop/orders/${order.id}/pay/`, token)).status).toBe(200);
      };
      const points = async () => [(await m.get('/api/v1/rewards/', referrer.token)).body.points, (await m.get('/api/v1/rewards/', token)).body.points];
      await buy();
      expect(await points()).toEqual(['0', '10']);
      await t.app.services.identity.identity.setKycLevel(newcomer.id, 'basic');
      token = await login(t, newcomer.username);
      await buy();
      expect(await points()).toEqual(['500', '270']);
    } finally {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ kyc_required: true }, 'test'));
    }
  });
});
