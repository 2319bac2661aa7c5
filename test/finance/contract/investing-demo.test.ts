import { investingDemo } from '../../../subgraphs/finance/investing/demo';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { createUser, installValidLicence, login } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';

/**
 * The "done when", on the demo node as `npm start` seeds it (offline: the bundled sandbox):
 * the user sees the active provider's instruments with prices, buys a fractional share by notional,
 * sees the position, and sells it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await installValidLicence(t);
});
afterAll(() => t?.stop());

it('shows priced instruments; a fractional buy by notional becomes a position, and selling it returns the proceeds', async () => {
  const user = await createUser(t);
  const lines = await investingDemo(t.config, t.app.services, user.username);
  expect(lines.join('\n')).toContain('Brokerage sandbox');
  // a restart seeds again without funding twice
  await investingDemo(t.config, t.app.services, user.username);
  const token = await login(t, user.username);
  const { url } = surface(() => t.urls.finance);

  const instruments = (await http(url('/api/v1/instruments/'), { key: token })).body.results as { symbol: string; last_price: string | null }[];
  expect(instruments.length).toBe(10);
  expect(instruments.every((i) => i.last_price !== null)).toBe(true);
  expect((await http(url('/api/balance/'), { key: token })).body.balances).toEqual([
    {
      currency: 'USD',
      available: { amount: '500.00', currency: 'USD' },
      posted: { amount: '500.00', currency: 'USD' },
      pending: { amount: '500.00', currency: 'USD' },
    },
  ]);

  const buy = await http(url('/api/v1/orders/'), {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol: 'AAPL', side: 'buy', notional: '25' }),
  });
  // 25 / 230.10 at the ask, to 9 decimals
  expect([buy.status, buy.body.status, buy.body.filled_qty, buy.body.filled_avg_price]).toEqual([201, 'filled', '0.108648413', '230.1']);
  const positions = (await http(url('/api/v1/portfolio/'), { key: token })).body.positions;
  expect(positions).toEqual([
    expect.objectContaining({ symbol: 'AAPL', qty: '0.108648413', cost_basis: '25.00', market_value: '24.98', unrealized_pl: '-0.02' }),
  ]);

  const sell = await http(url('/api/v1/orders/'), {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol: 'AAPL', side: 'sell', qty: positions[0].qty }),
  });
  expect([sell.status, sell.body.status]).toEqual([201, 'filled']);
  expect((await http(url('/api/v1/portfolio/'), { key: token })).body.positions).toEqual([]);
  // 0.108648413 × 229.80 = 24.967… → 24.97; 500 − 25 + 24.97
  const usd = (await http(url('/api/balance/'), { key: token })).body.balances[0];
  expect([usd.available.amount, usd.posted.amount]).toEqual(['499.97', '499.97']);
  await invariants(t.app.services.ledger.store.store, 'USD');
});
