import { randomUUID } from 'node:crypto';
import { SYSTEM_OWNER } from '../../../subgraphs/finance/kernel/ledger-client';
import { signWebhook } from '../../../subgraphs/finance/kernel/provider-http';
import { type TestApp } from '../platform/app';
import { http } from '../platform/http';

/** Helpers of the cards and crypto tests: fund a wallet through the real ledger, post signed webhooks. */

const ENSURE = `mutation($type: String!, $owner: ID!, $currency: String!, $code: String!) {
  ensureLedgerAccount(ownerType: $type, ownerId: $owner, currency: $currency, code: $code) { id }
}`;
const TRANSFER = `mutation($transfers: [LedgerTransferInput!]!) { createLedgerTransfers(transfers: $transfers) { id result } }`;

/** Credits `amount` to the user's wallet from a system account, as a money module (the `cards` service principal) would. */
export async function fundWallet(t: TestApp, userId: string, amount: string, currency: string): Promise<void> {
  const as = (query: string, variables: Record<string, unknown>) =>
    t.app.gateway.execute({ query, variables }, { headers: {} }, 'fund', { kind: 'service', name: 'cards' });
  const account = async (type: string, owner: string, code: string) => {
    const res = await as(ENSURE, { type, owner, currency, code });
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return (res.body.data as { ensureLedgerAccount: { id: string } }).ensureLedgerAccount.id;
  };
  const from = await account('system', SYSTEM_OWNER, 'test:funding');
  const to = await account('user', userId, 'wallet');
  const res = await as(TRANSFER, { transfers: [{ id: randomUUID(), debitAccountId: from, creditAccountId: to, amount, code: 'test_funding' }] });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
}

/** POSTs a provider's webhook event, signed with `secret` (the Webhook-Signature header). */
export function postWebhook(t: TestApp, path: string, event: unknown, secret: string, opts: { signature?: string } = {}) {
  return http(`${t.urls.finance}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-signature': opts.signature ?? signWebhook(secret, event) },
    body: JSON.stringify(event),
  });
}

/** The caller's balance in one currency through GET /api/balance/ (undefined: no account yet). */
export async function balanceOf(t: TestApp, token: string, currency: string) {
  const res = await http(`${t.urls.finance}/api/balance/`, { key: token });
  return (res.body.balances as { currency: string; available: { amount: string }; posted: { amount: string }; pending: { amount: string } }[]).find(
    (b) => b.currency === currency,
  );
}
