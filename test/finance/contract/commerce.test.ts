import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminPost, adminSignIn, changeNode, createUser, installValidLicence, login, type AdminSession } from '../../support/finance/node';
import { moneyMoves, type Customer } from '../../support/finance/money';
import { invariants } from '../../support/finance/ledger';

/**
 * Shop, utilities, gift cards, disputes and rewards through the REST surface: the checkout transition exactly, every order and dispute move and each refused one (409
 * with the current state), pending_integration with nothing dispatched, the gift-card catalogue,
 * reversals that conserve the ledger, a referral rewarded once under concurrent first payments, and
 * each module refused when its toggle is off or the node is read-only.
 */
let t: TestApp;
/** The finance tests' shared people and moves (a customer with basic KYC, a deposit, a balance). */
let m: ReturnType<typeof moneyMoves>;
let admin: AdminSession;
/** A second superuser: a refund from the platform's dispute-loss account needs two operators. */
let checker: AdminSession;

beforeAll(async () => {
  t = await startTestApp();
  m = moneyMoves(t);
  await installValidLicence(t);
  admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
  checker = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
});
afterAll(() => t?.stop());

const { url, get, send } = surface(() => t.urls.finance);

async function product(price = '12.50', stock = 5, currency = 'EUR') {
  return t.app.services.commerce.shop.createProduct({ name: `Thing ${randomUUID().slice(0, 6)}`, description: 'A thing', price, currency, stock });
}

const stockOf = async (id: string) => (await t.app.services.commerce.store.product(id))!.stock;

describe('shop', () => {
  it('checkout turns the cart into a pending order with price snapshots: cart emptied, wallet and stock unchanged', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '100.00');
    const a = await product('12.50', 5);
    const b = await product('3.25', 2);
    const list = await get('/api/v1/shop/products/?limit=100', u.token);
    expect(list.status).toBe(200);
    expect(list.body.results).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: a.id, price: { amount: '12.50', currency: 'EUR' }, stock: 5, active: true })]),
    );
    let res = await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: a.id, quantity: 2, expected_price: '12.50' });
    expect(res.status).toBe(201);
    res = await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: b.id, quantity: 1 });
    expect(res.body.total).toEqual({ amount: '28.25', currency: 'EUR' });
    // stock and price are checked when added
    expect((await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: b.id, quantity: 2 })).body).toEqual({
      detail: 'Only 2 left in stock.',
      code: 'out_of_stock',
      available: 2,
    });
    const changed = await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: a.id, quantity: 1, expected_price: '10.00' });
    expect([changed.status, changed.body.code, changed.body.price]).toEqual([409, 'price_changed', { amount: '12.50', currency: 'EUR' }]);
    const line = (await get('/api/v1/shop/cart/', u.token)).body.items.find((i: { product_id: string }) => i.product_id === b.id);
    expect((await send('PATCH', `/api/v1/shop/cart/items/${line.id}/`, u.token, { quantity: 3 })).status).toBe(409);
    expect((await send('PATCH', `/api/v1/shop/cart/items/${line.id}/`, u.token, { quantity: 0 })).status).toBe(400);
    expect((await send('PATCH', `/api/v1/shop/cart/items/${line.id}/`, u.token, { quantity: 2 })).body.total).toEqual({ amount: '31.50', currency: 'EUR' });

    // the price changes after the product went into the cart: the order snapshots the price of checkout
    await t.app.services.commerce.shop.updateProduct(a.id, { name: a.name, description: a.description, price: '13.00', currency: 'EUR', stock: 5 });
    const checkout = await send('POST', '/api/v1/shop/checkout/', u.token, undefined, { 'Idempotency-Key': randomUUID() });
    expect(checkout.status).toBe(201);
    expect(checkout.body).toMatchObject({
      status: 'pending',
      total: { amount: '32.50', currency: 'EUR' },
      payment_transaction_id: null,
      history: [{ from_status: null, to_status: 'pending', actor: `user:${u.id}` }],
    });
    expect(checkout.body.items).toEqual(
      expect.arrayContaining([
        { product_id: a.id, name: a.name, unit_price: { amount: '13.00', currency: 'EUR' }, quantity: 2 },
        { product_id: b.id, name: b.name, unit_price: { amount: '3.25', currency: 'EUR' }, quantity: 2 },
      ]),
    );
    expect((await get('/api/v1/shop/cart/', u.token)).body).toEqual({ items: [], total: null });
    expect(await m.balance(u.token)).toBe('100.00');
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([5, 2]);
    // an empty cart has nothing to check out
    expect((await send('POST', '/api/v1/shop/checkout/', u.token)).body.code).toBe('cart_empty');
    // a later price change leaves the order's snapshot alone
    await t.app.services.commerce.shop.updateProduct(a.id, { name: a.name, description: '', price: '99.00', currency: 'EUR', stock: 5 });
    expect((await get(`/api/v1/shop/orders/${checkout.body.id}/`, u.token)).body.total).toEqual({ amount: '32.50', currency: 'EUR' });
  });

  it('moves an order pending → paid → fulfilled, and refuses every other move with 409 and the current state', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '50.00');
    const p = await product('20.00', 3);
    await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 2 });
    const order = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
    const key = randomUUID();
    const paid = await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token, undefined, { 'Idempotency-Key': key });
    expect([paid.status, paid.body.status]).toEqual([200, 'paid']);
    expect(paid.body.payment_transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    // the replay answers the same, and moves nothing twice
    expect((await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token, undefined, { 'Idempotency-Key': key })).body).toEqual(paid.body);
    expect(await m.balance(u.token)).toBe('10.00');
    expect(await stockOf(p.id)).toBe(1);
    const again = await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token);
    expect([again.status, again.body]).toEqual([409, { detail: 'The order is paid; it cannot be paid.', code: 'invalid_state', status: 'paid' }]);
    expect((await send('POST', `/api/v1/shop/orders/${order.id}/cancel/`, u.token)).body).toMatchObject({ code: 'invalid_state', status: 'paid' });
    const fulfilled = await adminPost(t, admin, `/admin/commerce/order/${order.id}/fulfil/`, {});
    expect(fulfilled.status).toBe(302);
    const detail = (await get(`/api/v1/shop/orders/${order.id}/`, u.token)).body;
    expect(detail.status).toBe('fulfilled');
    expect(detail.history.map((h: { to_status: string }) => h.to_status)).toEqual(['pending', 'paid', 'fulfilled']);
    const refused = await adminPost(t, admin, `/admin/commerce/order/${order.id}/cancel/`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('The order is fulfilled');
    const mine = await get('/api/v1/shop/orders/?limit=1', u.token);
    expect([mine.status, mine.body.results.map((o: { id: string }) => o.id), mine.body.next_cursor]).toEqual([200, [order.id], null]);
    // another user sees no such order
    const stranger = await m.customer();
    expect((await get('/api/v1/shop/orders/', stranger.token)).body).toEqual({ results: [], next_cursor: null });
    expect((await get(`/api/v1/shop/orders/${order.id}/`, stranger.token)).status).toBe(404);
  });

  it('cancels a pending order (user) and refunds a paid one by a reversing transfer (administrator), conserving the ledger', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '30.00');
    const p = await product('7.50', 4);
    await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 });
    const first = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
    const cancelled = await send('POST', `/api/v1/shop/orders/${first.id}/cancel/`, u.token);
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    expect((await send('POST', `/api/v1/shop/orders/${first.id}/pay/`, u.token)).body).toMatchObject({ code: 'invalid_state', status: 'cancelled' });

    await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 2 });
    const second = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
    await send('POST', `/api/v1/shop/orders/${second.id}/pay/`, u.token);
    expect([await m.balance(u.token), await stockOf(p.id)]).toEqual(['15.00', 2]);
    expect((await adminPost(t, admin, `/admin/commerce/order/${second.id}/cancel/`, {})).status).toBe(302);
    const refunded = (await get(`/api/v1/shop/orders/${second.id}/`, u.token)).body;
    expect(refunded.status).toBe('cancelled');
    expect(refunded.refund_transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(refunded.history.map((h: { to_status: string }) => h.to_status)).toEqual(['pending', 'paid', 'cancelled']);
    expect([await m.balance(u.token), await stockOf(p.id)]).toEqual(['30.00', 4]);
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it("refuses a payment the wallet cannot cover (422) or over the per-transaction limit of the customer's KYC level (403), changing nothing", async () => {
    // basic: 2000.00 EUR a transaction
    for (const [funds, price, status, code] of [
      ['5.00', '9.99', 422, 'insufficient_funds'],
      ['3000.00', '2000.01', 403, 'limit_exceeded'],
    ] as const) {
      const u = await m.customer();
      await m.deposit(u.id, funds);
      const p = await product(price, 2);
      await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 });
      const order = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
      const res = await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token);
      expect([res.status, res.body.code]).toEqual([status, code]);
      if (status === 403) expect([res.body.limit, res.body.currency, res.body.period]).toEqual(['2000.00', 'EUR', 'transaction']);
      expect((await get(`/api/v1/shop/orders/${order.id}/`, u.token)).body.status).toBe('pending');
      expect([await m.balance(u.token), await stockOf(p.id)]).toEqual([funds, 2]);
    }
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });
});

describe('utilities', () => {
  it('validates top-ups and stores them pending_integration: nothing dispatched, no debit', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '1000.00', 'NGN');
    const catalogue = (await get('/api/v1/utilities/catalogue/', u.token)).body;
    expect(catalogue.states).toEqual(['pending_integration', 'pending', 'successful', 'failed', 'reversed']);
    expect(catalogue.operators.map((o: { code: string }) => o.code)).toContain('mtn-ng');
    const airtime = await send('POST', '/api/v1/utilities/airtime/', u.token, {
      operator: 'mtn-ng',
      phone_number: '0803 123 4567',
      amount: '500.00',
      currency: 'NGN',
    });
    expect(airtime.status).toBe(202);
    expect(airtime.body).toMatchObject({
      kind: 'airtime',
      status: 'pending_integration',
      phone_number: '+2348031234567',
      amount: { amount: '500.00', currency: 'NGN' },
      dispatched: false,
    });
    const data = await send('POST', '/api/v1/utilities/data/', u.token, { operator: 'mtn-ng', phone_number: '+2348031234567', plan_id: 'mtn-ng-1gb-30d' });
    expect([data.status, data.body.status, data.body.amount]).toEqual([202, 'pending_integration', { amount: '1000.00', currency: 'NGN' }]);
    const bill = await send('POST', '/api/v1/utilities/bills/', u.token, {
      biller: 'ikedc-prepaid',
      account_number: '12345678901',
      amount: '2500.00',
      currency: 'NGN',
    });
    expect([bill.status, bill.body.status, bill.body.dispatched]).toEqual([202, 'pending_integration', false]);
    for (const [path, body, field] of [
      ['/api/v1/utilities/airtime/', { operator: 'mtn-ng', phone_number: '+254712345678', amount: '500.00', currency: 'NGN' }, 'phone_number'],
      ['/api/v1/utilities/airtime/', { operator: 'mtn-ng', phone_number: '12', amount: '500.00', currency: 'NGN' }, 'phone_number'],
      ['/api/v1/utilities/airtime/', { operator: 'nope', phone_number: '+2348031234567', amount: '500.00', currency: 'NGN' }, 'operator'],
      ['/api/v1/utilities/airtime/', { operator: 'mtn-ng', phone_number: '+2348031234567', amount: '50000.01', currency: 'NGN' }, 'amount'],
      ['/api/v1/utilities/data/', { operator: 'mtn-ng', phone_number: '+2348031234567', plan_id: 'safaricom-ke-1gb-7d' }, 'plan_id'],
      ['/api/v1/utilities/bills/', { biller: 'ikedc-prepaid', account_number: '1234', amount: '2500.00', currency: 'NGN' }, 'account_number'],
    ] as const) {
      const res = await send('POST', path, u.token, body);
      expect([path, res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([path, 400, 'invalid', [field]]);
    }
    const requests = (await get('/api/v1/utilities/requests/', u.token)).body.results;
    expect(requests.map((r: { status: string }) => r.status)).toEqual(['pending_integration', 'pending_integration', 'pending_integration']);
    expect(await m.balance(u.token, 'NGN')).toBe('1000.00');
    expect(t.app.services.commerce.utilities.provider).toBeNull();
  });
});

describe('gift cards', () => {
  it('serves the catalogue with search and filters, and records an order with fulfilment pending', async () => {
    const u = await m.customer();
    const catalogue = await get('/api/v1/gift-cards/brands/', u.token);
    expect(catalogue.status).toBe(200);
    const all = catalogue.body;
    expect(all.map((b: { id: string }) => b.id)).toEqual(expect.arrayContaining(['amazon', 'steam', 'netflix']));
    expect((await get('/api/v1/gift-cards/brands/?search=ste', u.token)).body.map((b: { id: string }) => b.id)).toEqual(['steam']);
    const ng = (await get('/api/v1/gift-cards/brands/?country=NG', u.token)).body;
    expect(ng.map((b: { id: string }) => b.id).sort()).toEqual(['jumia-food', 'netflix']);
    expect(ng.every((b: { countries: { country: string }[] }) => b.countries.every((c) => c.country === 'NG'))).toBe(true);
    expect((await get('/api/v1/gift-cards/brands/?category=gaming&currency=EUR', u.token)).body).toEqual([
      {
        id: 'steam',
        name: 'Steam',
        category: 'gaming',
        countries: [
          {
            country: 'DE',
            currency: 'EUR',
            denominations: ['20.00', '50.00'],
          },
        ],
      },
    ]);
    expect((await get('/api/v1/gift-cards/countries/', u.token)).body).toEqual(expect.arrayContaining([{ country: 'US', currencies: ['USD'] }]));
    const order = await send('POST', '/api/v1/gift-cards/orders/', u.token, {
      brand_id: 'amazon',
      country: 'US',
      denomination: '25.00',
      recipient_email: 'a@example.com',
    });
    expect(order.status).toBe(201);
    expect(order.body).toMatchObject({ brand_id: 'amazon', denomination: { amount: '25.00', currency: 'USD' }, quantity: 1, fulfilment: 'pending' });
    expect(order.body).not.toHaveProperty('code');
    const bad = await send('POST', '/api/v1/gift-cards/orders/', u.token, { brand_id: 'amazon', country: 'US', denomination: '30.00' });
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['denomination']]);
    expect((await get('/api/v1/gift-cards/orders/', u.token)).body.results.map((o: { id: string }) => o.id)).toEqual([order.body.id]);
  });
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');

/** A paid order's ledger transfer: a transaction of the user's to dispute. */
async function paidTransaction(u: Customer, price = '15.00') {
  await m.deposit(u.id, price);
  const p = await product(price, 1);
  await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 });
  const order = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
  return (await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token)).body.payment_transaction_id as string;
}

/** A product bought and paid (the wallet funded beforehand): the order and its payment's ledger transfer. */
async function paidOrder(u: Customer, price: string, currency = 'EUR') {
  const p = await product(price, 1, currency);
  await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 });
  const order = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
  const paid = await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token);
  expect([paid.status, paid.body.status]).toEqual([200, 'paid']);
  return { orderId: order.id as string, transactionId: paid.body.payment_transaction_id as string };
}

/**
 * A dispute opened by the user, taken under review and resolved in their favour by an administrator
 * (and, when its refund needs the platform's dispute-loss account, approved by a second one).
 */
async function disputeResolved(u: Customer, transactionId: string) {
  const opened = await send('POST', '/api/v1/disputes/', u.token, { transaction_id: transactionId, reason: 'not_received', description: 'It never came.' });
  expect(opened.status).toBe(201);
  expect((await adminPost(t, admin, `/admin/commerce/dispute/${opened.body.id}/review/`, {})).status).toBe(302);
  const resolved = await adminPost(t, admin, `/admin/commerce/dispute/${opened.body.id}/resolve/`, { note: 'Refunded.' });
  expect(resolved.status).toBe(302);
  const after = (await get(`/api/v1/disputes/${opened.body.id}/`, u.token)).body;
  if (after.status !== 'under_review') return after;
  expect((await adminPost(t, checker, `/admin/commerce/dispute/${opened.body.id}/resolve/`, { note: 'Approved.' })).status).toBe(302);
  return (await get(`/api/v1/disputes/${opened.body.id}/`, u.token)).body;
}

const pointsOf = async (token: string) => (await get('/api/v1/rewards/', token)).body.points as string;

describe('disputes', () => {
  it('opens with evidence, talks, goes under review and is resolved by a reversing transfer that conserves the ledger', async () => {
    const u = await m.customer();
    const transactionId = await paidTransaction(u);
    expect(await m.balance(u.token)).toBe('0.00');
    const opened = await send(
      'POST',
      '/api/v1/disputes/',
      u.token,
      {
        transaction_id: transactionId,
        reason: 'not_received',
        description: 'The parcel never arrived.',
        attachments: [{ filename: 'receipt.png', content_type: 'image/png', content: PNG }],
      },
      { 'Idempotency-Key': randomUUID() },
    );
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      transaction_id: transactionId,
      amount: { amount: '15.00', currency: 'EUR' },
      status: 'open',
      attachments: [{ filename: 'receipt.png', content_type: 'image/png', size: 11 }],
    });
    const id = opened.body.id;
    // the evidence is in the object store
    const [attachment] = await t.app.services.commerce.disputes.attachments(id);
    expect((await t.app.services.commerce.store.store.pool.query('SELECT 1')).rowCount).toBe(1);
    expect(attachment.objectKey).toMatch(/^commerce\/disputes\//);
    // one live dispute per transaction
    expect(
      (await send('POST', '/api/v1/disputes/', u.token, { transaction_id: transactionId, reason: 'duplicate', description: 'Charged twice for it.' })).body
        .code,
    ).toBe('dispute_exists');
    expect((await send('POST', `/api/v1/disputes/${id}/messages/`, u.token, { body: 'Any news?' })).status).toBe(201);
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${id}/resolve/`, { note: 'too early' })).status).toBe(409);
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${id}/review/`, {})).status).toBe(302);
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${id}/message/`, { body: 'We are looking into it.' })).status).toBe(302);
    // the console names the person (their @handle, from identity), never a UUID, on the list and the case
    for (const page of ['/admin/commerce/dispute/', `/admin/commerce/dispute/${id}/`]) {
      const html = (await http(`${t.urls.finance}${page}`, { headers: { cookie: admin.cookie } })).body as string;
      expect(html).toContain(`<a href="/admin/identity/user/${u.id}/">@${u.username}</a>`);
    }
    expect((await send('POST', `/api/v1/disputes/${id}/cancel/`, u.token)).body).toMatchObject({ code: 'invalid_state', status: 'under_review' });
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${id}/resolve/`, { note: 'Refunded: carrier lost it.' })).status).toBe(302);
    const detail = (await get(`/api/v1/disputes/${id}/`, u.token)).body;
    expect(detail.status).toBe('resolved');
    expect(detail.reversal_transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(detail.history.map((h: { to_status: string }) => h.to_status)).toEqual(['open', 'under_review', 'resolved']);
    expect((await get(`/api/v1/disputes/${id}/messages/`, u.token)).body.map((m: { author_role: string; body: string }) => [m.author_role, m.body])).toEqual([
      ['user', 'Any news?'],
      ['admin', 'We are looking into it.'],
    ]);
    expect(await m.balance(u.token)).toBe('15.00');
    // the original transfer stands; the reversal is a new one
    const original = await t.app.services.ledger.ledger.transfer(transactionId);
    const reversal = await t.app.services.ledger.ledger.transfer(detail.reversal_transaction_id);
    expect([reversal!.debitAccountId, reversal!.creditAccountId, reversal!.amount]).toEqual([
      original!.creditAccountId,
      original!.debitAccountId,
      original!.amount,
    ]);
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${id}/reject/`, { note: 'x' })).status).toBe(409);
    // a reversed transaction is not disputed again
    expect(
      (await send('POST', '/api/v1/disputes/', u.token, { transaction_id: transactionId, reason: 'other', description: 'Once more, please.' })).body.code,
    ).toBe('dispute_exists');
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });

  it("lets the user cancel an open dispute, rejects one under review, and refuses others' transactions and bad evidence", async () => {
    const u = await m.customer();
    const transactionId = await paidTransaction(u, '4.00');
    const open = (await send('POST', '/api/v1/disputes/', u.token, { transaction_id: transactionId, reason: 'duplicate', description: 'I was charged twice.' }))
      .body;
    const cancelled = await send('POST', `/api/v1/disputes/${open.id}/cancel/`, u.token);
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    expect((await send('POST', `/api/v1/disputes/${open.id}/cancel/`, u.token)).body).toEqual({
      detail: 'The dispute is cancelled; it cannot be cancelled.',
      code: 'invalid_state',
      status: 'cancelled',
    });
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${open.id}/review/`, {})).status).toBe(409);
    const second = (
      await send('POST', '/api/v1/disputes/', u.token, { transaction_id: transactionId, reason: 'other', description: 'Something else is wrong.' })
    ).body;
    await adminPost(t, admin, `/admin/commerce/dispute/${second.id}/review/`, {});
    expect((await adminPost(t, admin, `/admin/commerce/dispute/${second.id}/reject/`, { note: 'Delivered: signed for.' })).status).toBe(302);
    expect((await get(`/api/v1/disputes/${second.id}/`, u.token)).body).toMatchObject({
      status: 'rejected',
      resolution_note: 'Delivered: signed for.',
      reversal_transaction_id: null,
    });
    expect(await m.balance(u.token)).toBe('0.00');

    const stranger = await m.customer();
    expect(
      (await send('POST', '/api/v1/disputes/', stranger.token, { transaction_id: transactionId, reason: 'other', description: 'Not mine at all.' })).status,
    ).toBe(404);
    expect((await get(`/api/v1/disputes/${second.id}/`, stranger.token)).status).toBe(404);
    const fake = await send('POST', '/api/v1/disputes/', u.token, {
      transaction_id: transactionId,
      reason: 'other',
      description: 'An executable named as a PDF.',
      attachments: [{ filename: 'x.pdf', content_type: 'application/pdf', content: Buffer.from('MZ\x90\x00').toString('base64') }],
    });
    expect([fake.status, Object.keys(fake.body.errors)]).toEqual([400, ['attachments[0]']]);
    const exe = await send('POST', '/api/v1/disputes/', u.token, {
      transaction_id: transactionId,
      reason: 'other',
      description: 'Wrong type of file.',
      attachments: [{ filename: 'x.exe', content_type: 'application/x-msdownload', content: PNG }],
    });
    expect(exe.status).toBe(400);
    expect(
      (await send('POST', '/api/v1/disputes/', u.token, { transaction_id: transactionId, reason: 'because', description: 'No reason given.' })).status,
    ).toBe(400);
  });
});

describe('disputes: what can be disputed, and who pays', () => {
  it('refuses a dispute of a payment refunded already, and of internal legs (FX conversion, fee): only payments to merchants or users', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '60.00');
    const cancelled = await paidOrder(u, '20.00');
    expect((await adminPost(t, admin, `/admin/commerce/order/${cancelled.orderId}/cancel/`, {})).status).toBe(302);
    const refunded = await send('POST', '/api/v1/disputes/', u.token, {
      transaction_id: cancelled.transactionId,
      reason: 'duplicate',
      description: 'Charged for it.',
    });
    expect([refunded.status, refunded.body.code]).toEqual([409, 'already_refunded']);
    // an FX conversion's legs out of the wallet: the sale of the source currency and the fee
    const quote = await send('POST', '/api/v1/fx/quotes/', u.token, { source_currency: 'EUR', target_currency: 'GBP', source_amount: '10.00' });
    expect((await send('POST', '/api/v1/fx/conversions/', u.token, { quote_id: quote.body.id })).status).toBe(201);
    const lines = (await get('/api/v1/transactions/?limit=50', u.token)).body.results as { id: string; code: string; direction: string }[];
    const legs = lines.filter((l) => l.direction === 'debit' && l.code.startsWith('fx_'));
    expect(legs.map((l) => l.code).sort()).toEqual(['fx_fee', 'fx_sell']);
    for (const leg of legs) {
      const res = await send('POST', '/api/v1/disputes/', u.token, { transaction_id: leg.id, reason: 'incorrect_amount', description: 'The rate was wrong.' });
      expect([leg.code, res.status, Object.keys(res.body.errors ?? {})]).toEqual([leg.code, 400, ['transaction_id']]);
    }
    expect((await get('/api/v1/disputes/', u.token)).body.results).toEqual([]);
    expect(await m.balance(u.token)).toBe('50.00');
  });

  it("refunds from the platform's loss account what a payee has spent, once; a refunded order is not refunded again", async () => {
    const alice = await m.customer();
    const bob = await m.customer();
    const carol = await m.customer();
    await m.deposit(alice.id, '80.00');
    const paid = await send('POST', '/api/v1/transfers/', alice.token, { recipient: bob.username, amount: '50.00', currency: 'EUR' });
    expect(paid.status).toBe(201);
    // bob spends 45.00 of it before alice's dispute is resolved
    expect((await send('POST', '/api/v1/transfers/', bob.token, { recipient: carol.username, amount: '45.00', currency: 'EUR' })).status).toBe(201);
    const dispute = await disputeResolved(alice, paid.body.id);
    expect(dispute.status).toBe('resolved');
    expect([await m.balance(alice.token), await m.balance(bob.token), await m.balance(carol.token)]).toEqual(['80.00', '0.00', '45.00']);
    // bob paid back the 5.00 he held; the platform's dispute losses the 45.00
    const reversal = await t.app.services.ledger.ledger.transfer(dispute.reversal_transaction_id);
    expect([reversal!.code, reversal!.amount]).toEqual(['dispute_reversal', 500n]);
    const { rows } = await t.app.services.ledger.store.pool.query(
      `SELECT (credits_posted - debits_posted)::text AS balance FROM ledger.account WHERE owner_type = 'system' AND code = 'commerce:dispute_losses' AND currency = 'EUR'`,
    );
    expect(rows).toEqual([{ balance: '-4500' }]);
    expect(
      (await send('POST', '/api/v1/disputes/', alice.token, { transaction_id: paid.body.id, reason: 'other', description: 'Once more, please.' })).body.code,
    ).toBe('dispute_exists');
    // a shop order whose payment a dispute refunded is not refunded again by a cancellation
    await m.deposit(alice.id, '10.00');
    const order = await paidOrder(alice, '10.00');
    await disputeResolved(alice, order.transactionId);
    expect(await m.balance(alice.token)).toBe('90.00');
    expect((await adminPost(t, admin, `/admin/commerce/order/${order.orderId}/cancel/`, {})).status).toBe(409);
    expect(await m.balance(alice.token)).toBe('90.00');
    await invariants(t.app.services.ledger.store.store, 'EUR');
  });
});

describe('rewards', () => {
  it("values a point at 0.01 of the node's reference currency whatever it is redeemed into: other fiat currencies at the node's rate, never crypto", async () => {
    const u = await m.customer();
    await m.deposit(u.id, '100.00');
    await paidOrder(u, '100.00');
    expect(await pointsOf(u.token)).toBe('100');
    const crypto = await send('POST', '/api/v1/rewards/redeem/', u.token, { points: 100, currency: 'BTC' });
    expect([crypto.status, crypto.body.code, Object.keys(crypto.body.errors ?? {})]).toEqual([400, 'invalid', ['currency']]);
    expect((await get('/api/v1/rewards/', u.token)).body.rules.point_value).toEqual({ amount: '0.01', currency: 'EUR' });
    // 1.00 EUR at the node's rate (sandbox: 0.86 GBP per EUR)
    const gbp = await send('POST', '/api/v1/rewards/redeem/', u.token, { points: 100, currency: 'GBP' });
    expect([gbp.status, gbp.body]).toEqual([200, { points: '100', credited: { amount: '0.86', currency: 'GBP' } }]);
    // a purchase in GBP earns by its value in EUR: 43.00 GBP = 50.00 EUR
    await m.deposit(u.id, '43.00', 'GBP');
    await paidOrder(u, '43.00', 'GBP');
    expect(await pointsOf(u.token)).toBe('50');
    expect(await m.balance(u.token, 'BTC')).toBe('0.00');
    for (const currency of ['EUR', 'GBP', 'POINTS']) await invariants(t.app.services.ledger.store.store, currency);
  });

  it('takes back the points of a payment refunded by a cancellation or reversed by a dispute; points redeemed already take back the cash they were redeemed for', async () => {
    const u = await m.customer();
    await m.deposit(u.id, '300.00');
    const first = await paidOrder(u, '100.00');
    expect((await send('POST', '/api/v1/rewards/redeem/', u.token, { points: 100, currency: 'EUR' })).status).toBe(200);
    expect([await pointsOf(u.token), await m.balance(u.token)]).toEqual(['0', '201.00']);
    // the order is cancelled and refunded: its 100 points, spent already, are taken back with the 1.00 they were redeemed for (never a net gain)
    expect((await adminPost(t, admin, `/admin/commerce/order/${first.orderId}/cancel/`, {})).status).toBe(302);
    expect([await pointsOf(u.token), await m.balance(u.token)]).toEqual(['0', '300.00']);
    const refused = await send('POST', '/api/v1/rewards/redeem/', u.token, { points: 100, currency: 'EUR' });
    expect([refused.status, refused.body.code]).toEqual([422, 'insufficient_points']);
    await paidOrder(u, '60.00');
    expect(await pointsOf(u.token)).toBe('60');
    const third = await paidOrder(u, '150.00');
    expect(await pointsOf(u.token)).toBe('210');
    // a dispute resolved for the user reverses the payment and its points
    await disputeResolved(u, third.transactionId);
    expect([await pointsOf(u.token), await m.balance(u.token)]).toEqual(['60', '240.00']);
    expect((await get('/api/v1/rewards/', u.token)).body.history.map((h: { rule: string; points: string }) => `${h.rule} ${h.points}`).sort()).toEqual([
      'cash_back 100',
      'purchase 100',
      'purchase 150',
      'purchase 60',
      'redemption -100',
      'reversal -100',
      'reversal -150',
    ]);
    // nothing left to redeem, and the points ledger balances
    expect((await send('POST', '/api/v1/rewards/redeem/', u.token, { points: 100, currency: 'EUR' })).body.code).toBe('insufficient_points');
    for (const currency of ['EUR', 'POINTS']) await invariants(t.app.services.ledger.store.store, currency);
  });

  it('takes back the referral bonuses with the first paid order when it is refunded, and pays them again at the next one', async () => {
    const referrer = await m.customer();
    const referred = await m.customer();
    const code = (await get('/api/v1/rewards/', referrer.token)).body.referral_code;
    expect((await send('POST', '/api/v1/rewards/referral/', referred.token, { code })).status).toBe(200);
    await m.deposit(referred.id, '100.00');
    const first = await paidOrder(referred, '10.00');
    expect([await pointsOf(referrer.token), await pointsOf(referred.token)]).toEqual(['500', '260']);
    expect((await adminPost(t, admin, `/admin/commerce/order/${first.orderId}/cancel/`, {})).status).toBe(302);
    expect([await pointsOf(referrer.token), await pointsOf(referred.token)]).toEqual(['0', '0']);
    expect((await get('/api/v1/rewards/', referred.token)).body.referral_rewarded).toBe(false);
    await paidOrder(referred, '20.00');
    expect([await pointsOf(referrer.token), await pointsOf(referred.token)]).toEqual(['500', '270']);
    expect((await get('/api/v1/rewards/', referred.token)).body.referral_rewarded).toBe(true);
    await invariants(t.app.services.ledger.store.store, 'POINTS');
  });

  it('grants the referral to both sides once under concurrent first payments, earns per purchase, and redeems into the wallet', async () => {
    const referrer = await m.customer();
    const referred = await m.customer();
    const code = (await get('/api/v1/rewards/', referrer.token)).body.referral_code;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await send('POST', '/api/v1/rewards/referral/', referrer.token, { code })).status).toBe(400);
    const claimed = await send('POST', '/api/v1/rewards/referral/', referred.token, { code: code.toLowerCase() });
    expect([claimed.status, claimed.body.referred_by]).toEqual([200, referrer.id]);
    expect((await send('POST', '/api/v1/rewards/referral/', referred.token, { code })).body.code).toBe('already_referred');

    // two first orders paid at once
    await m.deposit(referred.id, '100.00');
    const orders = [];
    for (const price of ['10.00', '20.00']) {
      const p = await product(price, 1);
      await send('POST', '/api/v1/shop/cart/items/', referred.token, { product_id: p.id, quantity: 1 });
      orders.push((await send('POST', '/api/v1/shop/checkout/', referred.token)).body.id);
    }
    const paid = await Promise.all(orders.map((id) => send('POST', `/api/v1/shop/orders/${id}/pay/`, referred.token)));
    expect(paid.map((r) => r.status)).toEqual([200, 200]);
    const mine = (await get('/api/v1/rewards/', referred.token)).body;
    expect(mine.points).toBe(String(10 + 20 + 250));
    expect(mine.referral_rewarded).toBe(true);
    expect(mine.history.filter((h: { rule: string }) => h.rule === 'referral_referred')).toHaveLength(1);
    const theirs = (await get('/api/v1/rewards/', referrer.token)).body;
    expect([theirs.points, theirs.history.map((h: { rule: string }) => h.rule)]).toEqual(['500', ['referral_referrer']]);
    // a later order earns its points but no second referral reward
    const p = await product('5.00', 1);
    await send('POST', '/api/v1/shop/cart/items/', referred.token, { product_id: p.id, quantity: 1 });
    const third = (await send('POST', '/api/v1/shop/checkout/', referred.token)).body.id;
    await send('POST', `/api/v1/shop/orders/${third}/pay/`, referred.token);
    expect((await get('/api/v1/rewards/', referrer.token)).body.points).toBe('500');
    expect((await get('/api/v1/rewards/', referred.token)).body.points).toBe('285');
    // a referral comes too late once a qualifying transaction happened, and never goes both ways
    const latecomer = await m.customer();
    await paidTransaction(latecomer, '2.00');
    expect((await send('POST', '/api/v1/rewards/referral/', latecomer.token, { code })).body.code).toBe('referral_too_late');
    const back = await send('POST', '/api/v1/rewards/referral/', referrer.token, { code: mine.referral_code });
    expect([back.status, Object.keys(back.body.errors)]).toEqual([400, ['code']]);

    // redemption: 100 points → 1.00 EUR, never below zero points
    const key = randomUUID();
    const redeemed = await send('POST', '/api/v1/rewards/redeem/', referrer.token, { points: 300, currency: 'EUR' }, { 'Idempotency-Key': key });
    expect([redeemed.status, redeemed.body]).toEqual([200, { points: '300', credited: { amount: '3.00', currency: 'EUR' } }]);
    expect((await send('POST', '/api/v1/rewards/redeem/', referrer.token, { points: 300, currency: 'EUR' }, { 'Idempotency-Key': key })).body).toEqual(
      redeemed.body,
    );
    expect(await m.balance(referrer.token)).toBe('3.00');
    const over = await send('POST', '/api/v1/rewards/redeem/', referrer.token, { points: 300, currency: 'EUR' });
    expect([over.status, over.body.code]).toEqual([422, 'insufficient_points']);
    expect((await send('POST', '/api/v1/rewards/redeem/', referrer.token, { points: 150, currency: 'EUR' })).status).toBe(400);
    expect((await get('/api/v1/rewards/', referrer.token)).body.points).toBe('200');
    await invariants(t.app.services.ledger.store.store, 'EUR');
    await invariants(t.app.services.ledger.store.store, 'POINTS');
  });
});

describe('admin console', () => {
  it('lists every commerce model with a back link, and adds a product', async () => {
    const cookie = { cookie: admin.cookie };
    const index = await http(url('/admin/commerce/'), { headers: cookie });
    expect(index.status).toBe(200);
    for (const path of ['product', 'order', 'utilityrequest', 'giftcardorder', 'dispute', 'reward']) {
      expect(index.body).toContain(`/admin/commerce/${path}/`);
      const res = await http(url(`/admin/commerce/${path}/`), { headers: cookie });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.body).toContain('href="/admin/commerce/"');
    }
    const name = `Lamp ${randomUUID().slice(0, 6)}`;
    const added = await adminPost(t, admin, '/admin/commerce/product/', {
      name,
      description: 'Desk lamp',
      price: '24.00',
      currency: 'eur',
      stock: '7',
      active: 'on',
    });
    expect([added.status, added.headers.get('location')]).toEqual([302, '/admin/commerce/product/?saved=1']);
    expect((await http(url('/admin/commerce/product/'), { headers: cookie })).body).toContain(name);
    const bad = await adminPost(t, admin, '/admin/commerce/product/', { name: 'Broken', price: '1.001', currency: 'EUR', stock: 'many' });
    expect(bad.status).toBe(400);
    // without a session: the sign-in page
    expect((await http(url('/admin/commerce/dispute/'))).status).toBe(302);
  });
});

describe('toggles and read-only mode', () => {
  const probes = (token: string, ids: { product: string }, app: TestApp = t) => {
    const { get, send } = surface(() => app.urls.finance);
    return {
      shop: [
        () => get('/api/v1/shop/products/', token),
        () => send('POST', '/api/v1/shop/cart/items/', token, { product_id: ids.product, quantity: 1 }),
        () => send('POST', '/api/v1/utilities/airtime/', token, { operator: 'mtn-ng', phone_number: '+2348031234567', amount: '500.00', currency: 'NGN' }),
        () => get('/api/v1/gift-cards/brands/', token),
      ],
      disputes: [
        () => get('/api/v1/disputes/', token),
        () => send('POST', '/api/v1/disputes/', token, { transaction_id: randomUUID(), reason: 'other', description: 'Switched off?' }),
      ],
      rewards: [() => get('/api/v1/rewards/', token), () => send('POST', '/api/v1/rewards/redeem/', token, { points: 100, currency: 'EUR' })],
    };
  };

  it('refuses each module with 403 module_disabled while its toggle is off', async () => {
    const u = await m.customer();
    const p = await product();
    for (const [module, calls] of Object.entries(probes(u.token, { product: p.id }))) {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ [`${module}_enabled`]: false }, 'test'));
      try {
        for (const call of calls) {
          const res = await call();
          expect([module, res.status, res.body]).toEqual([module, 403, expect.objectContaining({ code: 'module_disabled', module })]);
        }
      } finally {
        await changeNode(t, () => t.app.services.node.node.updateSettings({ [`${module}_enabled`]: true }, 'test'));
      }
      expect((await calls[0]()).status).toBe(200);
    }
  });

  it('refuses every write of every module with 403 licence_read_only and changes nothing; reads go on', async () => {
    // a node without a licence is read-only
    const bare = await startTestApp();
    try {
      const user = await createUser(bare);
      const token = await login(bare, user.username);
      const p = await bare.app.services.commerce.shop.createProduct({ name: 'Lamp', price: '5.00', currency: 'EUR', stock: 3 });
      const calls = probes(token, { product: p.id }, bare);
      for (const [module, [read, write]] of Object.entries(calls)) {
        expect([module, (await read()).status]).toEqual([module, 200]);
        const res = await write();
        expect([module, res.status, res.body.code]).toEqual([module, 403, 'licence_read_only']);
      }
      expect((await http(`${bare.urls.finance}/api/v1/shop/cart/`, { key: token })).body.items).toEqual([]);
    } finally {
      await bare.stop();
    }
  });
});
