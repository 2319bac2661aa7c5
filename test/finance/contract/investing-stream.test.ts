import { randomUUID } from 'node:crypto';
import { createLogger } from '../../../lib/logger';
import { AlpacaTradeStream } from '../../../subgraphs/finance/investing/domain/providers/alpaca-stream';
import { startAlpacaSandbox } from '../../../subgraphs/finance/investing/sandbox/servers';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { adminSignIn, createUser, installValidLicence, login } from '../../support/finance/node';
import { eventually, startProviders, type Providers } from '../../support/finance/investing';
import { invariants } from '../../support/finance/ledger';

/**
 * Order updates pushed over the brokerage's trade stream (Alpaca's `trade_updates` on `/stream`,
 * spoken by the local Alpaca-compatible server): a fill reaches the user's order, portfolio and ledger
 * without a poll; a dropped stream reconnects and catches up; a fill delivered more than once (stream,
 * poll, the submission's own answer) changes the ledger once.
 */
let t: TestApp;
let p: Providers;

beforeAll(async () => {
  p = await startProviders();
  t = await startTestApp(p.env);
  await installValidLicence(t);
  await t.app.services.investing.investing.syncInstruments({ provider: 'equities', trigger: 'test' });
});
afterAll(async () => {
  await t?.stop();
  await p?.close();
});

const { url, post } = surface(() => t.urls.finance);
const updates = () => t.app.services.investing.orderUpdates;
const streaming = () => eventually(() => updates().status().state === 'connected' && p.alpaca.streamListeners() > 0, 'the trade stream to listen');

async function trader() {
  const user = await createUser(t);
  await t.app.services.identity.identity.setKycLevel(user.id, 'basic');
  await t.app.services.ledger.ledger.fund(user.id, 'USD', 1000n * 100n, randomUUID(), 'deposit');
  return { ...user, token: await login(t, user.username) };
}
const order = async (token: string, id: string) =>
  ((await http(url('/api/v1/orders/'), { key: token })).body.results as { id: string; status: string; filled_qty: string }[]).find((o) => o.id === id)!;
const usd = async (token: string) => {
  const b = (await http(url('/api/balance/'), { key: token })).body.balances.find((x: { currency: string }) => x.currency === 'USD');
  return { available: b.available.amount as string, posted: b.posted.amount as string };
};
const fills = async (token: string) =>
  ((await http(url('/api/v1/portfolio/fills/'), { key: token })).body.results as { qty: string; price: string }[]).map((f) => [f.qty, f.price]);
/** The provider was asked about this order (a poll), not only told about it (the stream). */
const polled = (providerOrderId: string) => p.alpaca.requests.get(`/v2/orders/${providerOrderId}`) ?? 0;

it('a fill at the provider reaches the order, the portfolio and the ledger through the stream, without a poll', async () => {
  await streaming();
  const user = await trader();
  const res = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '100.00' });
  expect([res.status, res.body.status, res.body.reserved.amount]).toEqual([201, 'accepted', '100.00']);
  const atProvider = p.alpaca.byClientOrderId(res.body.client_order_id)!;

  p.alpaca.fill(atProvider.id, '0.4', '200');
  await eventually(async () => (await order(user.token, res.body.id)).status === 'filled', 'the order to be filled');
  expect(await order(user.token, res.body.id)).toMatchObject({ status: 'filled', filled_qty: '0.4' });
  // 0.4 × 200 = 80 posted, 20 released
  expect(await usd(user.token)).toEqual({ available: '920.00', posted: '920.00' });
  expect((await http(url('/api/v1/portfolio/'), { key: user.token })).body.positions).toEqual([
    expect.objectContaining({ symbol: 'AAPL', qty: '0.4', cost_basis: '80.00' }),
  ]);
  expect(polled(atProvider.id)).toBe(0);
  await invariants(t.app.services.ledger.store.store, 'USD');
});

it('a dropped stream reconnects and catches up on a fill made while it was away', async () => {
  await streaming();
  const user = await trader();
  const res = await post('/api/v1/orders/', user.token, { symbol: 'TSLA', side: 'buy', type: 'limit', qty: '2', limit_price: '240.00' });
  expect([res.status, res.body.reserved.amount]).toEqual([201, '480.00']);
  const atProvider = p.alpaca.byClientOrderId(res.body.client_order_id)!;
  const reconnects = updates().status().reconnects;

  p.alpaca.streamDown();
  await eventually(() => updates().status().state === 'disconnected', 'the stream to notice the outage');
  // fills nobody hears about
  p.alpaca.fill(atProvider.id, '1', '239');
  p.alpaca.fill(atProvider.id, '1', '238');
  expect((await order(user.token, res.body.id)).status).toBe('accepted');

  p.alpaca.streamUp();
  await streaming();
  await eventually(async () => (await order(user.token, res.body.id)).status === 'filled', 'the catch-up poll to apply the fills');
  expect(updates().status()).toMatchObject({ state: 'connected', reconnects: reconnects + 1, lastError: null });
  expect(polled(atProvider.id)).toBeGreaterThan(0);
  // the poll sees the two fills as one step: the cumulative quantity at the average price
  expect(await fills(user.token)).toEqual([['2', '238.5']]);
  // 239 + 238 = 477 posted, 3 released
  expect(await usd(user.token)).toEqual({ available: '523.00', posted: '523.00' });
  await invariants(t.app.services.ledger.store.store, 'USD');
});

it('the same fill delivered twice (stream and poll, the stream again, the submission’s answer) posts once', async () => {
  await streaming();
  const user = await trader();
  const res = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', qty: '1', type: 'limit', limit_price: '201.00' });
  const atProvider = p.alpaca.byClientOrderId(res.body.client_order_id)!;
  p.alpaca.fill(atProvider.id, '0.5', '200');
  await eventually(async () => (await order(user.token, res.body.id)).status === 'partially_filled', 'the partial fill');
  p.alpaca.fill(atProvider.id, '0.5', '201');
  await eventually(async () => (await order(user.token, res.body.id)).status === 'filled', 'the fill');
  const settled = { usd: await usd(user.token), fills: await fills(user.token) };
  // 0.5 × 200 + 0.5 × 201 = 200.50 posted, 0.50 released
  expect(settled).toEqual({
    usd: { available: '799.50', posted: '799.50' },
    fills: [
      ['0.5', '201'],
      ['0.5', '200'],
    ],
  });

  // the poll sees the same fills; the provider redelivers both events (in order, then the old one last)
  await updates().poll();
  const handled = updates().status().events;
  const sent = p.alpaca.streamEvents.filter((m) => m.data.order.id === atProvider.id && m.data.event !== 'accepted');
  expect(sent.map((m) => m.data.event)).toEqual(['partial_fill', 'fill']);
  for (const m of [...sent, sent[0]]) p.alpaca.resend(m);
  await eventually(() => updates().status().events >= handled + 3, 'the redelivered events to be handled');
  expect({ usd: await usd(user.token), fills: await fills(user.token) }).toEqual(settled);
  expect(await order(user.token, res.body.id)).toMatchObject({ status: 'filled', filled_qty: '1' });

  // a provider that fills at once: the fill event comes before the submission's answer; both apply it once
  p.alpaca.settings.autoFill = true;
  try {
    const now = await post('/api/v1/orders/', user.token, { symbol: 'AAPL', side: 'buy', notional: '50.00' });
    expect([now.status, now.body.status]).toEqual([201, 'filled']);
  } finally {
    p.alpaca.settings.autoFill = false;
  }
  // 50 / 200.10 = 0.249875062 shares at the ask: 50.00 posted
  await updates().poll();
  expect(await usd(user.token)).toEqual({ available: '749.50', posted: '749.50' });
  expect((await fills(user.token)).length).toBe(3);
  await invariants(t.app.services.ledger.store.store, 'USD');
});

it('the admin console’s orders page says whether the stream is connected and when the last event came', async () => {
  await streaming();
  const admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
  const page = await http(url('/admin/investing/order/'), { headers: { cookie: admin.cookie } });
  expect(page.status).toBe(200);
  expect(page.body).toMatch(/Trade stream: connected since \d{4}-\d\d-\d\d [\d:]+ UTC; last event \d{4}-\d\d-\d\d [\d:]+ UTC; \d+ events, \d+ reconnects\./);
});

it('authenticates with the brokerage’s key pair: a wrong pair is refused and retried, the right one listens', async () => {
  const keys = { keyId: 'PKTEST', secretKey: 'secret' };
  const alpaca = await startAlpacaSandbox({ keys });
  const credentials = { current: { keyId: 'PKTEST', secretKey: 'wrong' } };
  const stream = new AlpacaTradeStream({
    target: async () => ({ url: `${alpaca.url.replace('http:', 'ws:')}/stream`, credentials: credentials.current }),
    onUpdate: async () => undefined,
    onConnected: async () => undefined,
    logger: createLogger('silent'),
  });
  try {
    stream.start();
    await eventually(() => stream.status().lastError === 'not authorized (unauthorized)', 'the refusal');
    expect([stream.connected, alpaca.streamListeners()]).toEqual([false, 0]);
    credentials.current = keys;
    stream.reconnect();
    await eventually(() => stream.connected && alpaca.streamListeners() === 1, 'the stream to listen with the right pair');
  } finally {
    await stream.stop();
    await alpaca.close();
  }
});
