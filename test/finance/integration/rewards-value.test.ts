import Decimal from 'decimal.js';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { CRYPTO_ASSETS, type CryptoAsset } from '../../../subgraphs/finance/crypto/vocabulary';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { surface } from '../../support/platform/http';
import { adminPost, adminSignIn, createUser, installValidLicence, login, type AdminSession } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';

/**
 * Property (fast-check, the whole node: REST surface, gateway, commerce, payments and ledger
 * subgraphs, PostgreSQL): whatever a user does with purchases, cancellations (refunds), disputes and
 * points redemptions, in any order, they never end up with more value than they paid for. At the end
 * their wallets (valued at the node's own rates) and their points (at a point's value, negative while
 * owed), plus the goods they kept at the price paid, are at most what they were funded with plus the
 * points those kept goods earned; and every ledger currency balances.
 */
let t: TestApp;
let admin: AdminSession;
const products: { id: string; price: string; currency: string }[] = [];
const FUNDING = { EUR: '400.00', GBP: '100.00' } as const;
const POINT_VALUE = new Decimal('0.01');

beforeAll(async () => {
  t = await startTestApp();
  await installValidLicence(t);
  admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
  for (const [price, currency] of [
    ['7.50', 'EUR'],
    ['20.00', 'EUR'],
    ['100.00', 'EUR'],
    ['149.99', 'EUR'],
    ['43.00', 'GBP'],
    ['8.60', 'GBP'],
  ])
    products.push({
      ...(await t.app.services.commerce.shop.createProduct({ name: `Thing ${price} ${currency}`, price, currency, stock: 1_000_000 })),
      price,
      currency,
    });
});
afterAll(() => t?.stop());

const { get, post } = surface(() => t.urls.finance);

type Op =
  | { kind: 'buy'; product: number }
  | { kind: 'cancel'; order: number }
  | { kind: 'dispute'; order: number }
  | { kind: 'redeem'; points: number; currency: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('buy' as const), product: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), order: fc.nat(9) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('dispute' as const), order: fc.nat(9) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('redeem' as const),
      points: fc.constantFrom(100, 200, 500),
      currency: fc.constantFrom('EUR', 'GBP', 'USD', 'BTC'),
    }),
  },
);

/** A money amount's value in EUR at the node's own rates: the FX desk's for fiat, the exchange's price (in USD) for crypto. */
async function inEur(amount: Decimal, currency: string): Promise<Decimal> {
  const fx = t.app.services.payments.rates;
  if (currency === 'EUR') return amount;
  if (!(CRYPTO_ASSETS as readonly string[]).includes(currency)) return amount.div(await fx.rate('EUR', currency));
  const usd = amount.mul(await t.app.services.crypto.exchange.rate(currency as CryptoAsset, 'USDT'));
  return usd.div(await fx.rate('EUR', 'USD'));
}

/** Runs one operation as the user (and the administrator who cancels and resolves) would; a refusal (4xx) is an outcome like any other. */
async function apply(o: Op, u: { token: string }, orders: { id: string; transactionId: string }[]): Promise<void> {
  const expectNoFault = (res: { status: number; body: unknown }) => expect([o.kind, res.status < 500 ? 'ok' : res.body]).toEqual([o.kind, 'ok']);
  if (o.kind === 'buy') {
    const p = products[o.product];
    expectNoFault(await post('/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 }));
    const checkout = await post('/api/v1/shop/checkout/', u.token);
    expectNoFault(checkout);
    const paid = await post(`/api/v1/shop/orders/${checkout.body.id}/pay/`, u.token);
    expectNoFault(paid);
    if (paid.status === 200) orders.push({ id: checkout.body.id, transactionId: paid.body.payment_transaction_id });
    return;
  }
  if (o.kind === 'redeem') {
    expectNoFault(await post('/api/v1/rewards/redeem/', u.token, { points: o.points, currency: o.currency }));
    return;
  }
  const order = orders[o.order % Math.max(orders.length, 1)];
  if (!order) return;
  if (o.kind === 'cancel') {
    expectNoFault(await adminPost(t, admin, `/admin/commerce/order/${order.id}/cancel/`, {}));
    return;
  }
  const opened = await post('/api/v1/disputes/', u.token, { transaction_id: order.transactionId, reason: 'not_received', description: 'It never arrived.' });
  expectNoFault(opened);
  if (opened.status !== 201) return;
  expectNoFault(await adminPost(t, admin, `/admin/commerce/dispute/${opened.body.id}/review/`, {}));
  expectNoFault(await adminPost(t, admin, `/admin/commerce/dispute/${opened.body.id}/resolve/`, { note: 'Refunded.' }));
}

it('no sequence of purchases, cancellations, disputes and redemptions leaves a user with more value than they paid', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
      const user = await createUser(t, `prop_${randomUUID().slice(0, 8)}`);
      await t.app.services.identity.identity.setKycLevel(user.id, 'basic');
      for (const [currency, amount] of Object.entries(FUNDING))
        await t.app.services.ledger.ledger.fund(user.id, currency, BigInt(new Decimal(amount).mul(100).toFixed(0)), randomUUID());
      const u = { token: await login(t, user.username) };
      const orders: { id: string; transactionId: string }[] = [];
      for (const o of ops) await apply(o, u, orders);

      // what the user holds: every wallet at the node's rates, and the points at their value
      let held = new Decimal(0);
      for (const b of (await get('/api/balance/', u.token)).body.balances as { currency: string; posted: { amount: string } }[])
        held = held.plus(await inEur(new Decimal(b.posted.amount), b.currency));
      held = held.plus(POINT_VALUE.mul((await get('/api/v1/rewards/', u.token)).body.points));
      // what they kept: orders still paid whose payment no dispute reversed, at the price paid, and the points those earn
      const reversed = new Set(
        ((await get('/api/v1/disputes/?limit=100', u.token)).body.results as { status: string; transaction_id: string }[])
          .filter((d) => d.status === 'resolved')
          .map((d) => d.transaction_id),
      );
      let kept = new Decimal(0);
      let earned = new Decimal(0);
      for (const o of orders) {
        const order = (await get(`/api/v1/shop/orders/${o.id}/`, u.token)).body as { status: string; total: { amount: string; currency: string } };
        if (order.status === 'cancelled' || reversed.has(o.transactionId)) continue;
        const value = await inEur(new Decimal(order.total.amount), order.total.currency);
        kept = kept.plus(value);
        earned = earned.plus(POINT_VALUE.mul(value.floor()));
      }
      let funded = new Decimal(0);
      for (const [currency, amount] of Object.entries(FUNDING)) funded = funded.plus(await inEur(new Decimal(amount), currency));
      if (held.plus(kept).gt(funded.plus(earned)))
        throw new Error(`holds ${held.toFixed(8)} EUR + kept goods ${kept.toFixed(2)} > funded ${funded.toFixed(8)} + earned ${earned.toFixed(2)}`);
      for (const currency of ['EUR', 'GBP', 'USD', 'BTC', 'POINTS']) await invariants(t.app.services.ledger.store.store, currency);
    }),
    { numRuns: 15 },
  );
}, 600_000);
