import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { createLogger } from '../../../../lib/logger';
import { inTransaction, openStore, type Store } from '../../../../lib/database';
import { Ledger, NIL_OWNER, WALLET, type TransferInput } from '../../../../subgraphs/finance/ledger/domain/ledger';
import { ledgerStore } from '../../../../subgraphs/finance/ledger/store';
import { LedgerStore } from '../../../../subgraphs/finance/ledger/store/ledger-store';
import { createTestDatabase } from '../../../support/platform/database';
import { invariants } from '../../../support/finance/ledger';

/**
 * The ledger's invariants ("no lost money"), on real PostgreSQL under real concurrency:
 * Σ(credits − debits) = 0 per currency, no wallet below zero, every account's counters equal the sum
 * of its transfers, a retried id applied once, pending transfers resolved at most once, linked
 * batches all or nothing.
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

async function wallets(n: number, currency: string, each: bigint) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const owner = randomUUID();
    await ledger.fund(owner, currency, each, randomUUID());
    ids.push((await ledger.wallet(owner, currency)).id);
  }
  return ids;
}

const errorCode = (err: unknown) => (err as { code?: string }).code;

describe('under concurrency', () => {
  it('100 concurrent transfers among 10 accounts, with retried ids: sum conserved, no negative balance, retried ids applied once', async () => {
    const accounts = await wallets(10, 'EUR', 10_000n);
    const inputs: TransferInput[] = Array.from({ length: 100 }, (_, i) => {
      const from = accounts[i % 10];
      const to = accounts[(i * 7 + 3) % 10 === i % 10 ? (i + 1) % 10 : (i * 7 + 3) % 10];
      return { id: randomUUID(), debitAccountId: from, creditAccountId: to, amount: BigInt(500 + ((i * 137) % 4000)), code: 'p2p' };
    });
    // 20 of them are sent twice at the same moment, as a client that retries after a timeout
    const sends = [...inputs, ...inputs.slice(0, 20)].sort(() => Math.random() - 0.5);
    const results = await Promise.allSettled(sends.map((t) => ledger.createTransfers([t])));
    for (const r of results) if (r.status === 'rejected') expect(errorCode(r.reason)).toBe('INSUFFICIENT_FUNDS');
    for (const retried of inputs.slice(0, 20)) {
      const outcomes = results.flatMap((r, i) => (sends[i].id === retried.id && r.status === 'fulfilled' ? [r.value[0].result] : []));
      // at most one of the two created it; the other was told it exists (or was refused for funds at its moment)
      expect([[], ['created'], ['created', 'exists'], ['exists', 'created']]).toContainEqual(outcomes);
    }
    const { rows } = await store.pool.query('SELECT id, count(*)::int AS n FROM ledger.transfer WHERE id = ANY($1::uuid[]) GROUP BY id', [
      inputs.map((t) => t.id),
    ]);
    for (const r of rows) expect(r.n).toBe(1);
    expect(rows.length).toBe(results.filter((r) => r.status === 'fulfilled' && r.value[0].result === 'created').length);
    await invariants(store, 'EUR');
  }, 120_000);

  it('ensures an account once when first calls for the same owner, currency and code race: every call answers the one row', async () => {
    const accounts = new LedgerStore(store);
    const keys = Array.from({ length: 30 }, () => ({
      ownerType: 'user' as const,
      ownerId: randomUUID(),
      currency: 'EUR',
      code: 'wallet',
      debitsMustNotExceedCredits: true,
    }));
    const calls = keys.flatMap((key) => Array.from({ length: 6 }, () => ({ key, row: accounts.ensureAccount(key) })));
    const rows = await Promise.all(calls.map((c) => c.row));
    for (const [i, key] of keys.entries()) {
      const ids = new Set(rows.filter((_, j) => calls[j].key === key).map((r) => r?.id));
      expect([ids.size, [...ids][0]]).toEqual([1, expect.any(String)]);
      expect(rows[i * 6]).toMatchObject({ ownerId: key.ownerId, currency: 'EUR', code: 'wallet' });
    }
    const { rows: stored } = await store.pool.query('SELECT count(*)::int AS n FROM ledger.account WHERE owner_id = ANY($1::uuid[])', [
      keys.map((k) => k.ownerId),
    ]);
    expect(stored[0].n).toBe(keys.length);
  });

  it('creates an account named by key with the batch that first moves money through it: none when the batch is refused, one when first batches race', async () => {
    const [payer] = await wallets(1, 'CHF', 1_000n);
    const owner = randomUUID();
    const key = { ownerType: 'user', ownerId: owner, currency: 'CHF', code: 'wallet' };
    const count = async () => Number((await store.pool.query('SELECT count(*) FROM ledger.account WHERE owner_id = $1', [owner])).rows[0].count);
    // refused: the payer has 1,000 only; the recipient's account is not left behind
    await expect(ledger.createTransfers([{ id: randomUUID(), debitAccountId: payer, creditAccount: key, amount: 1_001n, code: 'p2p' }])).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    // nor when the keyed account is the one short of funds
    await expect(
      ledger.createTransfers([{ id: randomUUID(), debitAccount: { ...key, code: 'savings' }, creditAccountId: payer, amount: 1n, code: 'p2p' }]),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await count()).toBe(0);
    // ten first transfers at once: one account, every transfer applied to it
    const ids = Array.from({ length: 10 }, () => randomUUID());
    const outcomes = await Promise.all(ids.map((id) => ledger.createTransfers([{ id, debitAccountId: payer, creditAccount: key, amount: 10n, code: 'p2p' }])));
    expect(await count()).toBe(1);
    const account = await ledger.wallet(owner, 'CHF');
    expect(new Set(outcomes.map(([o]) => o.transfer.creditAccountId))).toEqual(new Set([account.id]));
    expect(account.creditsPosted).toBe(100n);
    // a retried id named by key is the same transfer
    expect((await ledger.createTransfers([{ id: ids[0], debitAccountId: payer, creditAccount: key, amount: 10n, code: 'p2p' }]))[0].result).toBe('exists');
    await invariants(store, 'CHF');
  });

  it('posts or voids a pending transfer at most once, also when both race', async () => {
    const [a, b] = await wallets(2, 'GBP', 5_000n);
    for (let round = 0; round < 10; round++) {
      const pendingId = randomUUID();
      await ledger.createTransfers([{ id: pendingId, debitAccountId: a, creditAccountId: b, amount: 100n, code: 'card_hold', kind: 'pending' }]);
      const results = await Promise.allSettled([
        ledger.createTransfers([{ id: randomUUID(), pendingId, code: 'card_capture', kind: 'post_pending' }]),
        ledger.createTransfers([{ id: randomUUID(), pendingId, code: 'card_release', kind: 'void_pending' }]),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(errorCode(failed.reason)).toBe('PENDING_TRANSFER_ALREADY_RESOLVED');
    }
    await invariants(store, 'GBP');
  });
});

describe('two-phase and linked transfers', () => {
  it('reserves with a pending transfer (available drops, posted does not), posts part of it and releases the rest', async () => {
    const owner = randomUUID();
    await ledger.fund(owner, 'USD', 10_000n, randomUUID());
    const wallet = await ledger.wallet(owner, 'USD');
    const merchant = (await wallets(1, 'USD', 1n))[0];
    const pendingId = randomUUID();
    await ledger.createTransfers([
      { id: pendingId, debitAccountId: wallet.id, creditAccountId: merchant, amount: 4_000n, code: 'order_reserve', kind: 'pending', timeoutSeconds: 3600 },
    ]);
    let [balance] = await ledger.balances(owner);
    expect([balance.posted.amount, balance.available.amount, balance.pending.amount]).toEqual(['100.00', '60.00', '60.00']);
    // the reservation cannot be spent twice
    await expect(
      ledger.createTransfers([{ id: randomUUID(), debitAccountId: wallet.id, creditAccountId: merchant, amount: 7_000n, code: 'p2p' }]),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await ledger.createTransfers([{ id: randomUUID(), pendingId, amount: 2_500n, code: 'order_fill', kind: 'post_pending' }]);
    [balance] = await ledger.balances(owner);
    expect([balance.posted.amount, balance.available.amount]).toEqual(['75.00', '75.00']);
    await expect(ledger.createTransfers([{ id: randomUUID(), pendingId, code: 'again', kind: 'void_pending' }])).rejects.toMatchObject({
      code: 'PENDING_TRANSFER_ALREADY_RESOLVED',
    });
    await invariants(store, 'USD');
  });

  it('expires a pending transfer after its timeout: its amounts are released and it can no longer be posted', async () => {
    const owner = randomUUID();
    await ledger.fund(owner, 'NGN', 50_000n, randomUUID());
    const wallet = await ledger.wallet(owner, 'NGN');
    const other = (await wallets(1, 'NGN', 1n))[0];
    const pendingId = randomUUID();
    await ledger.createTransfers([
      { id: pendingId, debitAccountId: wallet.id, creditAccountId: other, amount: 20_000n, code: 'mobile_money', kind: 'pending', timeoutSeconds: 60 },
    ]);
    const start = now;
    now = new Date(start.getTime() + 61_000);
    try {
      await expect(ledger.createTransfers([{ id: randomUUID(), pendingId, code: 'late', kind: 'post_pending' }])).rejects.toMatchObject({
        code: 'PENDING_TRANSFER_EXPIRED',
      });
      expect(await ledger.expirePending()).toBeGreaterThanOrEqual(1);
    } finally {
      now = start;
    }
    const [balance] = await ledger.balances(owner);
    expect(balance.available.amount).toBe('500.00');
    await invariants(store, 'NGN');
  });

  it('applies a linked batch all or nothing, and answers a reused id with different fields with EXISTS_WITH_DIFFERENT_FIELDS', async () => {
    const [a, b, c] = await wallets(3, 'CHF', 1_000n);
    const first = randomUUID();
    await expect(
      ledger.createTransfers([
        { id: first, debitAccountId: a, creditAccountId: b, amount: 500n, code: 'fx_leg' },
        { id: randomUUID(), debitAccountId: b, creditAccountId: c, amount: 99_999n, code: 'fx_leg' },
      ]),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await ledger.transfer(first)).toBeUndefined();
    const id = randomUUID();
    const [created] = await ledger.createTransfers([{ id, debitAccountId: a, creditAccountId: b, amount: 100n, code: 'p2p' }]);
    expect(created.result).toBe('created');
    const [again] = await ledger.createTransfers([{ id, debitAccountId: a, creditAccountId: b, amount: 100n, code: 'p2p' }]);
    expect(again.result).toBe('exists');
    await expect(ledger.createTransfers([{ id, debitAccountId: a, creditAccountId: b, amount: 101n, code: 'p2p' }])).rejects.toMatchObject({
      code: 'EXISTS_WITH_DIFFERENT_FIELDS',
    });
    await expect(store.pool.query('UPDATE ledger.transfer SET amount = 1 WHERE id = $1', [id])).rejects.toThrow(/immutable/);
    await invariants(store, 'CHF');
  });
});

describe('property: any sequence of operations keeps the invariants', () => {
  it('random transfers, pending, posts and voids (fast-check)', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('single' as const), from: fc.nat(3), to: fc.nat(3), amount: fc.bigInt(1n, 3_000n) }),
      fc.record({ kind: fc.constant('pending' as const), from: fc.nat(3), to: fc.nat(3), amount: fc.bigInt(1n, 3_000n) }),
      fc.record({ kind: fc.constant('post' as const), which: fc.nat(20), amount: fc.option(fc.bigInt(1n, 3_000n)) }),
      fc.record({ kind: fc.constant('void' as const), which: fc.nat(20) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const currency = 'POINTS';
        const accounts = await wallets(4, currency, 5_000n);
        const pendings: string[] = [];
        for (const o of ops) {
          try {
            if (o.kind === 'single' || o.kind === 'pending') {
              if (o.from === o.to) continue;
              const id = randomUUID();
              await ledger.createTransfers([
                { id, debitAccountId: accounts[o.from], creditAccountId: accounts[o.to], amount: o.amount, code: 'prop', kind: o.kind },
              ]);
              if (o.kind === 'pending') pendings.push(id);
            } else if (pendings.length) {
              const pendingId = pendings[o.which % pendings.length];
              await ledger.createTransfers([
                o.kind === 'post'
                  ? { id: randomUUID(), pendingId, code: 'prop', kind: 'post_pending', amount: o.amount ?? undefined }
                  : { id: randomUUID(), pendingId, code: 'prop', kind: 'void_pending' },
              ]);
            }
          } catch (err) {
            // refusals are fine; lost or created money is not
            expect(['INSUFFICIENT_FUNDS', 'PENDING_TRANSFER_ALREADY_RESOLVED', 'EXCEEDS_PENDING_TRANSFER_AMOUNT']).toContain(errorCode(err));
          }
        }
        await invariants(store, currency);
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});

describe("inside the caller's transaction", () => {
  it('applyInTransaction takes no second pooled connection: with every other connection of the pool taken (callers queued on the same lock), it posts', async () => {
    // a pool of two: the caller's transaction holds one, a caller queued behind its locks the other
    const small = await openStore(ledgerStore, { url: db.url, poolSize: 2, logger: createLogger('silent'), migrate: false });
    try {
      const fresh = new Ledger(new LedgerStore(small), () => now); // knows no account ids yet: it must look them up
      const owner = randomUUID();
      await ledger.fund(owner, 'EUR', 1_000n, randomUUID());
      const other = await small.pool.connect();
      try {
        const id = randomUUID();
        // a second pooled connection would wait the pool's 5 s and fail (the transfer not posted)
        await inTransaction(small.pool, (c) =>
          fresh.applyInTransaction(c, [
            {
              id,
              debitAccount: { ownerType: 'user', ownerId: owner, currency: 'EUR', code: WALLET },
              creditAccount: { ownerType: 'system', ownerId: NIL_OWNER, currency: 'EUR', code: 'adjustments' },
              amount: 250n,
              code: 'adjustment_debit',
            },
          ]),
        );
        const wallet = await ledger.wallet(owner, 'EUR');
        expect(wallet.creditsPosted - wallet.debitsPosted).toBe(750n);
        expect((await ledger.transfer(id))?.amount).toBe(250n);
      } finally {
        other.release();
      }
    } finally {
      await small.close();
    }
    await invariants(store, 'EUR');
  });
});
