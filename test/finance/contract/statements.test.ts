import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { changeNode, createUser, installValidLicence, login } from '../../support/finance/node';

/**
 * GET /api/v1/statements/ through the REST surface, the real gateway, ledger and database: a period's
 * opening and closing balances per account (closing = opening + in − out), consistent with the balances
 * and the transactions of the same period; bad periods are a 400.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await changeNode(t, () => installValidLicence(t));
});
afterAll(() => t?.stop());

const { get } = surface(() => t.urls.finance);
const statement = (token: string | undefined, query: string) => get(`/api/v1/statements/?${query}`, token ?? null);
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('GET /api/v1/statements/', () => {
  it('gives opening and closing balances of a period, money in and out within it, matching the balances and the lines', async () => {
    const ann = await createUser(t);
    const bob = await createUser(t);
    await t.app.services.identity.identity.setKycLevel(ann.id, 'basic');
    const token = await login(t, ann.username);
    const start = new Date();
    await pause();
    await t.app.services.ledger.ledger.fund(ann.id, 'EUR', 100_00n, randomUUID(), 'deposit');
    await pause();
    const middle = new Date();
    await pause();
    const sent = await http(`${t.urls.finance}/api/v1/transfers/`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ recipient: bob.username, amount: '30.50', currency: 'EUR' }),
    });
    expect(sent.status).toBe(201);
    await pause();
    const end = new Date();
    const line = (opening: string, moneyIn: string, out: string, closing: string) => ({
      account_id: expect.any(String),
      currency: 'EUR',
      opening_balance: { amount: opening, currency: 'EUR' },
      money_in: { amount: moneyIn, currency: 'EUR' },
      money_out: { amount: out, currency: 'EUR' },
      closing_balance: { amount: closing, currency: 'EUR' },
    });
    const whole = await statement(token, `from=${start.toISOString()}&to=${end.toISOString()}`);
    expect([whole.status, whole.body]).toEqual([
      200,
      { from: start.toISOString(), to: end.toISOString(), accounts: [line('0.00', '100.00', '30.50', '69.50')] },
    ]);
    // the second half opens where the first closes
    expect((await statement(token, `from=${start.toISOString()}&to=${middle.toISOString()}`)).body.accounts).toEqual([
      line('0.00', '100.00', '0.00', '100.00'),
    ]);
    expect((await statement(token, `from=${middle.toISOString()}&to=${end.toISOString()}`)).body.accounts).toEqual([line('100.00', '0.00', '30.50', '69.50')]);
    // closing = the posted balance now; one account by id; the lines of the period are the transactions with the same from/to
    const balance = await http(`${t.urls.finance}/api/balance/`, { key: token });
    expect(balance.body.balances.find((b: { currency: string }) => b.currency === 'EUR').posted).toEqual(whole.body.accounts[0].closing_balance);
    const account = whole.body.accounts[0].account_id as string;
    expect((await statement(token, `from=${start.toISOString()}&to=${end.toISOString()}&account=${account}`)).body.accounts).toHaveLength(1);
    const lines = await http(`${t.urls.finance}/api/v1/transactions/?from=${start.toISOString()}&to=${end.toISOString()}`, { key: token });
    expect(lines.body.results.map((l: { direction: string; amount: { amount: string } }) => `${l.direction} ${l.amount.amount}`).sort()).toEqual([
      'credit 100.00',
      'debit 30.50',
    ]);
  });

  it('refuses a period that ends before it starts, a missing or malformed date, and no token, with a clear 4xx', async () => {
    const ann = await createUser(t);
    const token = await login(t, ann.username);
    for (const query of [
      'from=2026-02-01&to=2026-01-01',
      'from=2026-01-01&to=2026-01-01',
      'to=2026-01-01',
      'from=yesterday&to=2026-01-01',
      'from=2026-01-01&to=2026-02-01&account=nope',
    ]) {
      const res = await statement(token, query);
      expect([query, res.status]).toEqual([query, 400]);
    }
    expect((await statement(undefined, 'from=2026-01-01&to=2026-02-01')).status).toBe(401);
    // a user with no account yet: an empty statement, not an error
    expect((await statement(token, 'from=2026-01-01&to=2026-02-01')).body.accounts).toEqual([]);
  });
});
