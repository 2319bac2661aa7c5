import { PRODUCT_NAMES } from '../../../subgraphs/products';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../lib/principal';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { createUser, graphql, installValidLicence, login } from '../../support/finance/node';

/**
 * The ledger's service mutations: the money modules (LEDGER_WRITERS) open accounts and move money as
 * linked batches of transfers with decimal amounts read in each transfer's currency; nobody else may.
 */
let t: TestApp;
beforeAll(async () => {
  // all three products: the vendor administrator key and the other products' credentials are refused too
  t = await startTestApp({}, { products: PRODUCT_NAMES });
  await installValidLicence(t);
});
afterAll(() => t?.stop());

const as =
  (principal: Principal) =>
  (query: string, variables: Record<string, unknown> = {}) =>
    t.app.gateway.execute({ query, variables }, { headers: {} }, 'ledger-service', principal);
const payments = as({ kind: 'service', name: 'payments' });

const ENSURE = `mutation($type: String!, $owner: ID!, $currency: String!, $code: String!) {
  ensureLedgerAccount(ownerType: $type, ownerId: $owner, currency: $currency, code: $code) { id currency code ownerType }
}`;
const TRANSFER = `mutation($transfers: [LedgerTransferInput!]!) {
  createLedgerTransfers(transfers: $transfers) { id result transfer { kind amount { amount currency } } }
}`;

async function account(type: string, owner: string, currency: string, code: string): Promise<string> {
  const res = await payments(ENSURE, { type, owner, currency, code });
  expect(res.body.errors).toBeUndefined();
  return (res.body.data as { ensureLedgerAccount: { id: string } }).ensureLedgerAccount.id;
}

it('opens an account once per owner, currency and purpose, and moves decimal amounts exactly, linked and idempotent', async () => {
  const user = await createUser(t);
  const wallet = await account('user', user.id, 'EUR', 'wallet');
  expect(await account('user', user.id, 'EUR', 'wallet')).toBe(wallet);
  const clearing = await account('system', '00000000-0000-0000-0000-000000000000', 'EUR', 'payments:clearing');
  const pendingId = randomUUID();
  const batch = [
    { id: randomUUID(), debitAccountId: clearing, creditAccountId: wallet, amount: '25.10', code: 'deposit' },
    { id: pendingId, debitAccountId: wallet, creditAccountId: clearing, amount: '5.05', code: 'card_authorisation', kind: 'pending' },
  ];
  const first = await payments(TRANSFER, { transfers: batch });
  expect(first.body.data).toEqual({
    createLedgerTransfers: [
      { id: batch[0].id, result: 'created', transfer: { kind: 'single', amount: { amount: '25.10', currency: 'EUR' } } },
      { id: pendingId, result: 'created', transfer: { kind: 'pending', amount: { amount: '5.05', currency: 'EUR' } } },
    ],
  });
  // a retried batch answers `exists`, and changes nothing
  const again = await payments(TRANSFER, { transfers: batch });
  expect((again.body.data as { createLedgerTransfers: { result: string }[] }).createLedgerTransfers.map((o) => o.result)).toEqual(['exists', 'exists']);
  // a partial post reads its amount in the pending transfer's currency
  const post = await payments(TRANSFER, { transfers: [{ id: randomUUID(), pendingId, amount: '4.00', code: 'card_capture', kind: 'post_pending' }] });
  expect(post.body.errors).toBeUndefined();
  const token = await login(t, user.username);
  const balance = await graphql(t, '{ balances { currency posted { amount } available { amount } } }', {}, { authorization: `Bearer ${token}` });
  expect(balance.body.data.balances).toEqual([{ currency: 'EUR', posted: { amount: '21.10' }, available: { amount: '21.10' } }]);
});

it('refuses amounts finer than the currency, unknown accounts, and a batch that would overdraw, applying none of it', async () => {
  const user = await createUser(t);
  const wallet = await account('user', user.id, 'EUR', 'wallet');
  const clearing = await account('system', '00000000-0000-0000-0000-000000000000', 'EUR', 'payments:clearing');
  const code = (res: Awaited<ReturnType<typeof payments>>) => res.body.errors?.[0]?.extensions?.code;
  expect(
    code(await payments(TRANSFER, { transfers: [{ id: randomUUID(), debitAccountId: clearing, creditAccountId: wallet, amount: '1.001', code: 'deposit' }] })),
  ).toBe('BAD_USER_INPUT');
  expect(
    code(await payments(TRANSFER, { transfers: [{ id: randomUUID(), debitAccountId: randomUUID(), creditAccountId: wallet, amount: '1', code: 'x' }] })),
  ).toBe('ACCOUNT_NOT_FOUND');
  const linked = [
    { id: randomUUID(), debitAccountId: clearing, creditAccountId: wallet, amount: '1.00', code: 'deposit' },
    { id: randomUUID(), debitAccountId: wallet, creditAccountId: clearing, amount: '2.00', code: 'withdrawal' },
  ];
  expect(code(await payments(TRANSFER, { transfers: linked }))).toBe('INSUFFICIENT_FUNDS');
  const token = await login(t, user.username);
  const balance = await graphql(t, '{ balances { posted { amount } } }', {}, { authorization: `Bearer ${token}` });
  expect(balance.body.data.balances).toEqual([{ posted: { amount: '0.00' } }]);
});

it('lets only the money modules write: other subgraphs, users, node and system administrators are refused', async () => {
  const user = await createUser(t);
  const token = await login(t, user.username);
  const variables = { type: 'user', owner: user.id, currency: 'EUR', code: 'wallet' };
  expect((await as({ kind: 'service', name: 'predictions' })(ENSURE, variables)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  for (const headers of [{ authorization: `Bearer ${token}` }, { authorization: `Bearer ${t.adminKey}` }]) {
    const res = await graphql(t, ENSURE, variables, headers);
    expect(['FORBIDDEN', 'UNAUTHENTICATED']).toContain(res.body.errors?.[0]?.extensions?.code);
  }
});
