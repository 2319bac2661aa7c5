import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../../lib/paths';
import { createLogger } from '../../../../lib/logger';
import { openStore, type Store } from '../../../../lib/database';
import { SUPPORTED_CURRENCIES } from '../../../../subgraphs/finance/kernel/currencies';
import { KYC_LEVELS } from '../../../../subgraphs/finance/kernel/kyc';
import { Ledger } from '../../../../subgraphs/finance/ledger/domain/ledger';
import { limitFor, limitsTable } from '../../../../subgraphs/finance/ledger/domain/limits';
import { ledgerStore } from '../../../../subgraphs/finance/ledger/store';
import { LedgerStore } from '../../../../subgraphs/finance/ledger/store/ledger-store';
import { createTestDatabase } from '../../../support/platform/database';
import { invariants } from '../../../support/finance/ledger';

/**
 * Limits by KYC level, enforced by the ledger in the transaction that moves the money: per transaction,
 * per UTC day (pending included, voided excluded, moves between the user's own accounts excluded), and
 * concurrent requests at the daily edge: exactly the allowed ones pass.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
let ledger: Ledger;
let now = new Date();

beforeAll(async () => {
  db = await createTestDatabase();
  store = await openStore(ledgerStore, { url: db.url, poolSize: 20, logger: createLogger('silent'), migrate: false });
  ledger = new Ledger(new LedgerStore(store), () => now);
});
afterAll(async () => {
  await store?.close();
  await db?.release();
});

const errorOf = (err: unknown) => err as { code?: string; status?: number; extensions?: { details?: Record<string, string> } };

async function funded(currency: string, amount: bigint) {
  const userId = randomUUID();
  await ledger.fund(userId, currency, amount, randomUUID());
  const other = randomUUID();
  return { userId, wallet: (await ledger.wallet(userId, currency)).id, payee: (await ledger.wallet(other, currency)).id };
}

it('has a limit for every supported currency and level, stricter for lower levels', () => {
  for (const currency of SUPPORTED_CURRENCIES) {
    const [none, basic, enhanced] = KYC_LEVELS.map((level) => limitFor(level, currency));
    expect(none.perTransaction > 0n && none.perTransaction <= none.daily).toBe(true);
    expect(none.daily < basic.daily && basic.daily < enhanced.daily).toBe(true);
    expect(none.perTransaction < basic.perTransaction && basic.perTransaction < enhanced.perTransaction).toBe(true);
  }
  expect(limitFor('none', 'EUR')).toEqual({ perTransaction: 15_000n, daily: 30_000n });
});

it('refuses a batch over the per-transaction limit (the legs of one currency summed) with 403 LIMIT_EXCEEDED, and moves nothing', async () => {
  const { userId, wallet, payee } = await funded('EUR', 1_000_000n);
  const limits = { userId, kycLevel: 'none' as const };
  // 100 + 50.01 in one batch passes the 150.00 per-transaction limit
  const batch = [
    { id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 10_000n, code: 'transfer' },
    { id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 5_001n, code: 'fee' },
  ];
  const err = errorOf(await ledger.createTransfers(batch, limits).catch((e: unknown) => e));
  expect(err.code).toBe('LIMIT_EXCEEDED');
  expect(err.status).toBe(403);
  expect(err.extensions?.details).toMatchObject({ period: 'transaction', limit: '150.00', currency: 'EUR', remaining: '150.00', level: 'none' });
  expect((await ledger.balances(userId))[0].posted.amount).toBe('10000.00');
  // exactly the limit passes; the same batch without limits is not held to them
  await ledger.createTransfers([{ ...batch[0], id: randomUUID(), amount: 15_000n }], limits);
  await ledger.createTransfers(batch);
  await invariants(store, 'EUR');
});

it("counts pending and posted outflows of the UTC day, not voided ones nor moves between the user's own accounts, and restarts at 00:00 UTC", async () => {
  const { userId, wallet, payee } = await funded('GBP', 1_000_000n);
  const limits = { userId, kycLevel: 'none' as const };
  const savings = (await ledger.account('user', userId, 'GBP', 'savings')).id;
  const hold = randomUUID();
  await ledger.createTransfers([{ id: hold, debitAccountId: wallet, creditAccountId: payee, amount: 12_000n, code: 'card_hold', kind: 'pending' }], limits);
  await ledger.createTransfers([{ id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 10_000n, code: 'transfer' }], limits);
  // own accounts: not an outflow
  await ledger.createTransfers([{ id: randomUUID(), debitAccountId: wallet, creditAccountId: savings, amount: 15_000n, code: 'sweep' }], limits);
  // 120 + 100 spent of 300: 80.01 does not fit
  const over = errorOf(
    await ledger
      .createTransfers([{ id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 8_001n, code: 'transfer' }], limits)
      .catch((e: unknown) => e),
  );
  expect(over.code).toBe('LIMIT_EXCEEDED');
  expect(over.extensions?.details).toMatchObject({ period: 'daily', limit: '300.00', currency: 'GBP', remaining: '80.00' });
  // the voided hold frees its 120
  await ledger.createTransfers([{ id: randomUUID(), pendingId: hold, code: 'card_release', kind: 'void_pending' }], limits);
  await ledger.createTransfers([{ id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 15_000n, code: 'transfer' }], limits);
  // 250 spent: another 50.01 is over, tomorrow it is not
  const next = { id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 5_001n, code: 'transfer' };
  expect(errorOf(await ledger.createTransfers([next], limits).catch((e: unknown) => e)).code).toBe('LIMIT_EXCEEDED');
  const today = now;
  now = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 0, 0, 1));
  try {
    expect((await ledger.createTransfers([next], limits))[0].result).toBe('created');
  } finally {
    now = today;
  }
  await invariants(store, 'GBP');
});

it('lets exactly the allowed requests through when many race at the daily edge', async () => {
  const { userId, wallet, payee } = await funded('USD', 10_000_000n);
  // basic: 2,000 per transaction, 5,000 a day → 40 concurrent requests of 300.00 fit 16 times
  const limits = { userId, kycLevel: 'basic' as const };
  const results = await Promise.allSettled(
    Array.from({ length: 40 }, () =>
      ledger.createTransfers([{ id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 30_000n, code: 'transfer' }], limits),
    ),
  );
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const r of refused) expect(errorOf(r.reason).code).toBe('LIMIT_EXCEEDED');
  expect(results.length - refused.length).toBe(16);
  const { rows } = await store.pool.query(`SELECT sum(amount)::text AS total FROM ledger.transfer WHERE debit_account_id = $1`, [wallet]);
  expect(rows[0].total).toBe('480000');
  await invariants(store, 'USD');
}, 60_000);

it('refuses malformed limits with 400', async () => {
  const { wallet, payee } = await funded('EUR', 100n);
  const transfer = [{ id: randomUUID(), debitAccountId: wallet, creditAccountId: payee, amount: 1n, code: 'transfer' }];
  expect(errorOf(await ledger.createTransfers(transfer, { userId: randomUUID(), kycLevel: 'gold' as never }).catch((e: unknown) => e)).status).toBe(400);
  expect(errorOf(await ledger.createTransfers(transfer, { userId: 'nope', kycLevel: 'none' }).catch((e: unknown) => e)).status).toBe(400);
});

it('is documented in docs/finance.md exactly as defined', () => {
  expect(readFileSync(join(projectRoot(), 'docs', 'finance.md'), 'utf8')).toContain(limitsTable());
});
