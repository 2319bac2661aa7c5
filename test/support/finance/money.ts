import { randomUUID } from 'node:crypto';
import { type TestApp as AnyTestApp } from '../platform/app';
import { http } from '../platform/http';
import { adminPost, adminSignIn, createUser, login, type AdminSession } from './node';

/**
 * People and moves of the money tests (test/finance/contract/money-invariants.test.ts and the property
 * test): end users with basic KYC, operators (superusers and support staff: node users signed in to the
 * console), deposits from the outside world, and the REST calls they make.
 */
/** An app that runs the finance node (alone or with the other products). */
type TestApp = AnyTestApp<'finance'> | AnyTestApp;

export interface Customer {
  id: string;
  username: string;
  token: string;
}

export interface Operator {
  id: string;
  username: string;
  session: AdminSession;
  role: 'superuser' | 'support';
}

export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');

export function moneyMoves(t: TestApp) {
  const url = (path: string) => `${t.urls.finance}${path}`;
  const get = (path: string, key: string) => http(url(path), { key });
  const send = (method: string, path: string, key: string, body?: unknown) =>
    http(url(path), { method, key, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  /** A user with basic KYC and an access token (also the person behind an operator, when `staff`/`superuser`). */
  async function customer(opts: { superuser?: boolean } = {}): Promise<Customer> {
    const user = await createUser(t, undefined, opts);
    await t.app.services.identity.identity.setKycLevel(user.id, 'basic');
    return { ...user, token: await login(t, user.username) };
  }

  /** An operator: a superuser, or support staff (is_staff), signed in to the console; also an end user of the node. */
  async function operator(role: 'superuser' | 'support'): Promise<Operator & { token: string }> {
    const person = await customer({ superuser: role === 'superuser' });
    if (role === 'support') await t.app.services.ledger.store.pool.query('UPDATE identity.node_user SET is_staff = true WHERE id = $1', [person.id]);
    return { ...person, role, session: await adminSignIn(t, person.username) };
  }

  /** Money entering the node from the outside (a deposit): the funding account pays the wallet. */
  async function deposit(userId: string, amount: string, currency = 'EUR') {
    const ledger = t.app.services.ledger.ledger;
    const [funding, wallet] = await Promise.all([ledger.fundingAccount(currency), ledger.wallet(userId, currency)]);
    await ledger.createDecimalTransfers([{ id: randomUUID(), debitAccountId: funding.id, creditAccountId: wallet.id, amount, code: 'deposit' }]);
  }

  const balance = async (token: string, currency = 'EUR') =>
    ((await get('/api/balance/', token)).body.balances as { currency: string; posted: { amount: string } }[]).find((b) => b.currency === currency)?.posted
      .amount ?? '0.00';

  const transfer = (from: Customer, to: Customer, amount: string, currency = 'EUR') =>
    send('POST', '/api/v1/transfers/', from.token, { recipient: to.username, amount, currency });

  const openDispute = (u: Customer, transactionId: string, attachment = false) =>
    send('POST', '/api/v1/disputes/', u.token, {
      transaction_id: transactionId,
      reason: 'not_received',
      description: 'It never came, please refund.',
      ...(attachment ? { attachments: [{ filename: 'receipt.png', content_type: 'image/png', content: PNG }] } : {}),
    });

  const review = (op: Operator, id: string) => adminPost(t, op.session, `/admin/commerce/dispute/${id}/review/`, {});
  const resolve = (op: Operator, id: string) => adminPost(t, op.session, `/admin/commerce/dispute/${id}/resolve/`, { note: 'Refunded.' });
  const dispute = async (u: Customer, id: string) => (await get(`/api/v1/disputes/${id}/`, u.token)).body;

  return { get, send, customer, operator, deposit, balance, transfer, openDispute, review, resolve, dispute };
}
