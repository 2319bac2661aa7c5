import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { randomUUID } from 'node:crypto';
import type { GatewayContext } from '../../../gateway/context';
import type { SubgraphDataSource } from '../../../gateway/datasources';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { surface } from '../../support/platform/http';
import { until } from '../../support/platform/faults';
import { installValidLicence } from '../../support/finance/node';
import { moneyMoves } from '../../support/finance/money';

/**
 * Points are never lost: a paid order owes its points in the payment's own
 * transaction, so a grant that fails after the payment committed (here: the ledger unreachable for
 * points transfers) is granted by the drain job once the fault clears — exactly once, the referral
 * bonus of two concurrent first orders included, and a re-delivery grants nothing twice.
 */

/** The fault: the ledger subgraph refuses every points grant (as if unreachable) while it is on. */
let ledgerDown = false;
const refuseGrants = (subgraph: string, inner: SubgraphDataSource): SubgraphDataSource =>
  subgraph !== 'ledger'
    ? inner
    : {
        process: (options: GraphQLDataSourceProcessOptions<GatewayContext>) => {
          const transfers = (options.request.variables?.transfers ?? []) as { code?: string }[];
          if (ledgerDown && transfers.some((tr) => tr.code?.startsWith('reward_')))
            return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' }));
          return inner.process(options);
        },
        call: (...args) => inner.call(...args),
      };

let t: TestApp;
/** The finance tests' shared people and moves (a customer with basic KYC, a deposit, a balance). */
let m: ReturnType<typeof moneyMoves>;
beforeAll(async () => {
  t = await startTestApp({}, { decorateDataSource: refuseGrants });
  m = moneyMoves(t);
  await installValidLicence(t);
});
afterAll(() => t?.stop());

const { get, post } = surface(() => t.urls.finance);

async function pendingOrder(token: string, price: string): Promise<string> {
  const p = await t.app.services.commerce.shop.createProduct({ name: `Thing ${randomUUID().slice(0, 6)}`, description: '', price, currency: 'EUR', stock: 1 });
  await post('/api/v1/shop/cart/items/', token, { product_id: p.id, quantity: 1 });
  return (await post('/api/v1/shop/checkout/', token)).body.id;
}

/** The points as the ledger holds them (what was really granted), and as the rewards history sums them. */
async function points(userId: string, token: string) {
  const account = await t.app.services.ledger.ledger.account('user', userId, 'POINTS', 'rewards:points');
  const summary = (await get('/api/v1/rewards/', token)).body;
  return {
    ledger: String(account.creditsPosted - account.debitsPosted),
    shown: summary.points as string,
    rules: (summary.history as { rule: string }[]).map((h) => h.rule).sort(),
  };
}

const owed = async () =>
  (await t.app.services.commerce.store.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM commerce.reward_due WHERE granted_at IS NULL')).rows[0].n;

it('grants the points of payments made while the grant failed once the fault clears, exactly once', async () => {
  const referrer = await m.customer();
  const referred = await m.customer();
  const code = (await get('/api/v1/rewards/', referrer.token)).body.referral_code;
  expect((await post('/api/v1/rewards/referral/', referred.token, { code })).status).toBe(200);
  await m.deposit(referred.id, '100.00');
  const orders = [await pendingOrder(referred.token, '10.00'), await pendingOrder(referred.token, '20.00')];

  ledgerDown = true;
  // two first orders paid at once: the payments commit, their grants fail
  const paid = await Promise.all(orders.map((id) => post(`/api/v1/shop/orders/${id}/pay/`, referred.token)));
  expect(paid.map((r) => [r.status, r.body.status])).toEqual([
    [200, 'paid'],
    [200, 'paid'],
  ]);
  const wallet = (await get('/api/balance/', referred.token)).body.balances.find((b: { currency: string }) => b.currency === 'EUR');
  expect(wallet.posted.amount).toBe('70.00');
  expect(await points(referred.id, referred.token)).toEqual({ ledger: '0', shown: '0', rules: [] });
  const due = await t.app.services.commerce.store.rewardDue(`order:${orders[0]}`);
  expect(due).toMatchObject({ grantedAt: null, lastError: expect.stringMatching(/ECONNREFUSED|unavailable|Internal/i) });
  expect(due!.attempts).toBeGreaterThanOrEqual(1);

  // the fault clears: the drain job (retrying with backoff) grants them, with no request from anyone
  ledgerDown = false;
  await until(async () => (await owed()) === 0, 'the owed points to be granted', 90_000, 250);
  expect(await points(referred.id, referred.token)).toEqual({
    ledger: String(10 + 20 + 250),
    shown: String(10 + 20 + 250),
    rules: ['purchase', 'purchase', 'referral_referred'],
  });
  expect(await points(referrer.id, referrer.token)).toEqual({ ledger: '500', shown: '500', rules: ['referral_referrer'] });
  expect((await get('/api/v1/rewards/', referred.token)).body.referral_rewarded).toBe(true);

  // a re-delivery (the process died after the ledger applied a grant, before it was marked) grants nothing twice
  await t.app.services.commerce.store.pool.query('UPDATE commerce.reward_due SET granted_at = NULL WHERE reference = ANY($1)', [
    orders.map((id) => `order:${id}`),
  ]);
  await Promise.all([t.app.services.commerce.rewards.drain(), t.app.services.commerce.rewards.drain()]);
  expect(await owed()).toBe(0);
  expect(await points(referred.id, referred.token)).toEqual({ ledger: '280', shown: '280', rules: ['purchase', 'purchase', 'referral_referred'] });
  expect((await points(referrer.id, referrer.token)).ledger).toBe('500');
});

it('grants at once when nothing fails, and owes nothing afterwards', async () => {
  const u = await m.customer();
  await m.deposit(u.id, '50.00');
  const order = await pendingOrder(u.token, '12.00');
  expect((await post(`/api/v1/shop/orders/${order}/pay/`, u.token)).status).toBe(200);
  expect(await points(u.id, u.token)).toEqual({ ledger: '12', shown: '12', rules: ['purchase'] });
  expect(await t.app.services.commerce.store.rewardDue(`order:${order}`)).toMatchObject({ grantedAt: expect.any(Date), lastError: null });
});
