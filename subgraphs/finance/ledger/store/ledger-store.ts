import type pg from 'pg';
import type { Store } from '../../../../lib/database';
import { LEDGER_TOTAL_MAX } from '../../kernel/currencies';

export interface AccountRow {
  id: string;
  ownerType: 'user' | 'system';
  ownerId: string;
  currency: string;
  code: string;
  debitsPending: bigint;
  debitsPosted: bigint;
  creditsPending: bigint;
  creditsPosted: bigint;
  debitsMustNotExceedCredits: boolean;
  creditsMustNotExceedDebits: boolean;
  createdAt?: Date;
}

export interface TransferRow {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  currency: string;
  code: string;
  kind: 'single' | 'pending' | 'post_pending' | 'void_pending' | 'expire_pending';
  pendingId: string | null;
  timeoutAt: Date | null;
  batchId: string;
  metadata: Record<string, unknown>;
  createdAt?: Date;
}

export interface StatementRow {
  id: string;
  accountId: string;
  direction: 'debit' | 'credit';
  kind: 'single' | 'pending';
  code: string;
  currency: string;
  amount: bigint;
  metadata: Record<string, unknown>;
  createdAt: Date;
  resolution: 'post_pending' | 'void_pending' | 'expire_pending' | null;
  resolvedAmount: bigint | null;
  resolvedAt: Date | null;
}
type RawStatement = Omit<StatementRow, 'amount' | 'resolvedAmount' | 'createdAt' | 'resolvedAt'> & {
  amount: string;
  resolvedAmount: string | null;
  createdAt: string;
  resolvedAt: string | null;
};

export interface ReconciliationRow {
  currency: string;
  /** Σ(credits_posted − debits_posted) over every account: zero when the ledger balances */
  posted: bigint;
  /** Σ(credits_pending − debits_pending): zero too */
  pending: bigint;
  /** what users hold (their accounts' posted balances) */
  userHoldings: bigint;
  accounts: number;
  transfers: number;
  /** accounts whose counters differ from the sums of their transfers */
  driftingAccounts: number;
}

type RawAccount = Omit<AccountRow, 'debitsPending' | 'debitsPosted' | 'creditsPending' | 'creditsPosted'> & {
  debitsPending: string;
  debitsPosted: string;
  creditsPending: string;
  creditsPosted: string;
};
type RawTransfer = Omit<TransferRow, 'amount' | 'timeoutAt' | 'createdAt'> & { amount: string; timeoutAt: string | null; createdAt?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// bigint columns travel as text: a JS number cannot hold every amount
const ACCOUNT_JSON = `id, owner_type AS "ownerType", owner_id AS "ownerId", currency, code,
  debits_pending::text AS "debitsPending", debits_posted::text AS "debitsPosted", credits_pending::text AS "creditsPending",
  credits_posted::text AS "creditsPosted", debits_must_not_exceed_credits AS "debitsMustNotExceedCredits",
  credits_must_not_exceed_debits AS "creditsMustNotExceedDebits", created_at AS "createdAt"`;
const TRANSFER_JSON = `id, debit_account_id AS "debitAccountId", credit_account_id AS "creditAccountId", amount::text AS amount, currency, code, kind,
  pending_id AS "pendingId", timeout_at AS "timeoutAt", batch_id AS "batchId", metadata, created_at AS "createdAt"`;

const account = (r: RawAccount): AccountRow => ({
  ...r,
  debitsPending: BigInt(r.debitsPending),
  debitsPosted: BigInt(r.debitsPosted),
  creditsPending: BigInt(r.creditsPending),
  creditsPosted: BigInt(r.creditsPosted),
  createdAt: r.createdAt ? new Date(r.createdAt) : undefined,
});
const transfer = (r: RawTransfer): TransferRow => ({
  ...r,
  amount: BigInt(r.amount),
  timeoutAt: r.timeoutAt ? new Date(r.timeoutAt) : null,
  createdAt: r.createdAt ? new Date(r.createdAt) : undefined,
});

/** SQL of the ledger schema. Balances change only through `lockForTransfers` + `applyTransfers`, in one transaction. */
/** A user account's posted sums for a statement period, in minor units. */
export interface PeriodSumsRow {
  accountId: string;
  currency: string;
  opening: bigint;
  credits: bigint;
  debits: bigint;
}

export class LedgerStore {
  constructor(readonly store: Store) {}

  get pool(): pg.Pool {
    return this.store.pool;
  }

  /**
   * The account of (owner, currency, code), inserted when there is none. A concurrent first insert of
   * the same key makes ON CONFLICT wait for it and then do nothing; that row is committed by then but
   * invisible to the insert's snapshot, so it is read by a statement of its own (a fresh snapshot).
   */
  async ensureAccount(
    a: Pick<AccountRow, 'ownerType' | 'ownerId' | 'currency' | 'code' | 'debitsMustNotExceedCredits'>,
    /** A transaction's client: the account is created with what that transaction does (and gone if it rolls back). */
    c: pg.Pool | pg.PoolClient = this.pool,
  ): Promise<AccountRow> {
    const inserted = await c.query<RawAccount>({
      name: 'ledger.insert_account',
      text: `INSERT INTO ledger.account (owner_type, owner_id, currency, code, debits_must_not_exceed_credits) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (owner_type, owner_id, currency, code) DO NOTHING RETURNING ${ACCOUNT_JSON}`,
      values: [a.ownerType, a.ownerId, a.currency, a.code, a.debitsMustNotExceedCredits],
    });
    if (inserted.rows[0]) return account(inserted.rows[0]);
    const { rows } = await c.query<RawAccount>({
      name: 'ledger.account_by_key',
      text: `SELECT ${ACCOUNT_JSON} FROM ledger.account WHERE owner_type = $1 AND owner_id = $2 AND currency = $3 AND code = $4`,
      values: [a.ownerType, a.ownerId, a.currency, a.code],
    });
    return account(rows[0]);
  }

  /** The ids of the accounts of these keys that exist (one statement; a missing one is simply not in the answer). */
  async accountIdsByKey(
    keys: Pick<AccountRow, 'ownerType' | 'ownerId' | 'currency' | 'code'>[],
    client?: pg.PoolClient,
  ): Promise<(Pick<AccountRow, 'ownerType' | 'ownerId' | 'currency' | 'code'> & { id: string })[]> {
    const { rows } = await (client ?? this.pool).query<Pick<AccountRow, 'ownerType' | 'ownerId' | 'currency' | 'code'> & { id: string }>({
      name: 'ledger.account_ids_by_key',
      text: `SELECT a.id, a.owner_type AS "ownerType", a.owner_id AS "ownerId", a.currency, a.code
               FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[]) AS k(owner_type, owner_id, currency, code)
               JOIN ledger.account a USING (owner_type, owner_id, currency, code)`,
      values: [keys.map((k) => k.ownerType), keys.map((k) => k.ownerId), keys.map((k) => k.currency), keys.map((k) => k.code)],
    });
    return rows;
  }

  /**
   * Locks the pending transfers that the batch resolves (sorted by id), with whether each is resolved
   * already. The resolutions are read after the lock, by a statement of its own: a transaction that
   * waited for the lock must see the resolution its predecessor committed.
   */
  async lockPending(c: pg.PoolClient, ids: string[]): Promise<Map<string, TransferRow & { resolved: boolean }>> {
    const { rows } = await c.query<RawTransfer>({
      name: 'ledger.lock_pending',
      text: `SELECT ${TRANSFER_JSON} FROM ledger.transfer WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      values: [ids],
    });
    const resolved = await c.query<{ pendingId: string }>({
      name: 'ledger.resolved_pending',
      text: 'SELECT pending_id AS "pendingId" FROM ledger.transfer WHERE pending_id = ANY($1::uuid[])',
      values: [ids],
    });
    const done = new Set(resolved.rows.map((r) => r.pendingId));
    return new Map(rows.map((r) => [r.id, { ...transfer(r), resolved: done.has(r.id) }]));
  }

  /**
   * Locks every account of the batch in sorted id order (no deadlock between batches touching the
   * same accounts), and reads the transfers of the batch's ids that exist already and, with
   * `outflowsOf`, that user's outflows per currency on a UTC day (YYYY-MM-DD): the counter rows the
   * `transfer_counts_outflow` trigger keeps (debits of the user's accounts to accounts that are not
   * the user's, posted or pending; a pending transfer counts its posted amount once resolved, zero
   * when voided or expired). Read in this statement, after the user's limits lock: every limited
   * batch of the user before this one has committed and is counted.
   */
  async lockForTransfers(
    c: pg.PoolClient,
    accountIds: string[],
    transferIds: string[],
    outflowsOf?: { userId: string; day: string },
  ): Promise<{ accounts: Map<string, AccountRow>; existing: Map<string, TransferRow>; outflows: Map<string, bigint> }> {
    const { rows } = await c.query<{ accounts: RawAccount[] | null; existing: RawTransfer[] | null; outflows: { currency: string; amount: string }[] | null }>({
      name: 'ledger.lock_accounts',
      text: `WITH locked AS (SELECT ${ACCOUNT_JSON} FROM ledger.account WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE)
             SELECT (SELECT json_agg(locked) FROM locked) AS accounts,
                    (SELECT json_agg(t) FROM (SELECT ${TRANSFER_JSON} FROM ledger.transfer WHERE id = ANY($2::uuid[])) t) AS existing,
                    (SELECT json_agg(o) FROM (SELECT currency, amount::text AS amount FROM ledger.daily_outflow WHERE owner_id = $3 AND day = $4::date) o) AS outflows`,
      values: [accountIds, transferIds, outflowsOf?.userId ?? null, outflowsOf?.day ?? null],
    });
    return {
      accounts: new Map((rows[0].accounts ?? []).map((r) => [r.id, account(r)])),
      existing: new Map((rows[0].existing ?? []).map((r) => [r.id, transfer(r)])),
      outflows: new Map((rows[0].outflows ?? []).map((r) => [r.currency, BigInt(r.amount)])),
    };
  }

  /**
   * One posted transfer between two accounts in ONE statement (one round trip): the two accounts
   * locked in id order, the transfer inserted unless its id exists, the counters moved. With `limits`
   * (run on the client of `inUserLimitsTransaction`, after the user's lock, so every limited batch of
   * the user before it is counted) an outflow of that user is inserted only within the
   * per-transaction limit and the day's outflows so far plus it within the daily limit, both of the
   * accounts' currency. `inserted` is false for an existing id, a missing account, two currencies,
   * funds short (`short`), a credit beyond its debits (`over`) or a limit passed (`outflow`, `spent`).
   */
  async postSingle(
    t: { id: string; debitAccountId: string; creditAccountId: string; amount: bigint; code: string; batchId: string; metadata: Record<string, unknown> },
    limits?: { client: pg.PoolClient; userId: string; day: string; table: { currency: string; perTransaction: bigint; daily: bigint }[] },
  ) {
    const { rows } = await (limits?.client ?? this.pool).query<{
      inserted: boolean;
      accounts: number;
      currencies: number;
      currency: string | null;
      createdAt: Date | null;
      accountsCurrency: string | null;
      short: boolean | null;
      over: boolean | null;
      /** The account whose posted sum would pass LEDGER_TOTAL_MAX, if any: nothing is written. */
      tooLarge: string | null;
      outflow: boolean | null;
      spent: string | null;
    }>({
      name: 'ledger.post_single',
      text: `WITH locked AS (
               SELECT * FROM ledger.account WHERE id = ANY(ARRAY[$2, $3]::uuid[]) ORDER BY id FOR NO KEY UPDATE),
             pair AS (
               SELECT min(currency) AS currency,
                      bool_or(id = $2 AND debits_must_not_exceed_credits AND debits_posted + debits_pending + $4::bigint > credits_posted) AS short,
                      bool_or(id = $3 AND credits_must_not_exceed_debits AND credits_posted + credits_pending + $4::bigint > debits_posted) AS over,
                      (array_agg(id) FILTER (WHERE (id = $2 AND debits_posted > $13::bigint - $4::bigint)
                                                OR (id = $3 AND credits_posted > $13::bigint - $4::bigint)))[1] AS too_large,
                      $8::uuid IS NOT NULL AND bool_or(id = $2 AND owner_type = 'user' AND owner_id = $8::uuid)
                        AND NOT bool_or(id = $3 AND owner_type = 'user' AND owner_id = $8::uuid) AS outflow
                 FROM locked HAVING count(*) = 2 AND count(DISTINCT currency) = 1),
             lim AS (
               SELECT l.per_transaction, l.daily,
                      COALESCE((SELECT o.amount FROM ledger.daily_outflow o WHERE o.owner_id = $8::uuid AND o.day = $9::date AND o.currency = p.currency), 0) AS spent
                 FROM pair p JOIN unnest($10::text[], $11::bigint[], $12::bigint[]) AS l(currency, per_transaction, daily) ON l.currency = p.currency
                WHERE p.outflow),
             ins AS (
               INSERT INTO ledger.transfer (id, debit_account_id, credit_account_id, amount, currency, code, kind, batch_id, metadata)
               SELECT $1, $2, $3, $4::bigint, p.currency, $5, 'single', $6, $7::jsonb FROM pair p
                WHERE NOT p.short AND NOT p.over AND p.too_large IS NULL
                  AND (NOT p.outflow OR EXISTS (SELECT 1 FROM lim WHERE $4::bigint <= lim.per_transaction AND lim.spent + $4::bigint <= lim.daily))
               ON CONFLICT (id) DO NOTHING RETURNING id, currency, created_at),
             upd AS (
               UPDATE ledger.account a
                  SET debits_posted = a.debits_posted + CASE WHEN a.id = $2 THEN $4::bigint ELSE 0 END,
                      credits_posted = a.credits_posted + CASE WHEN a.id = $3 THEN $4::bigint ELSE 0 END,
                      version = a.version + 1
                 FROM locked l WHERE a.id = l.id AND EXISTS (SELECT 1 FROM ins) RETURNING a.id)
             SELECT EXISTS (SELECT 1 FROM ins) AS inserted, (SELECT count(*) FROM locked)::int AS accounts,
                    (SELECT count(DISTINCT currency) FROM locked)::int AS currencies, (SELECT count(*) FROM upd)::int AS updated,
                    (SELECT currency FROM ins) AS currency, (SELECT created_at FROM ins) AS "createdAt",
                    (SELECT currency FROM pair) AS "accountsCurrency", (SELECT short FROM pair) AS short, (SELECT over FROM pair) AS over, (SELECT outflow FROM pair) AS outflow,
                    (SELECT too_large FROM pair) AS "tooLarge",
                    (SELECT spent::text FROM lim) AS spent`,
      values: [
        t.id,
        t.debitAccountId,
        t.creditAccountId,
        t.amount.toString(),
        t.code,
        t.batchId,
        JSON.stringify(t.metadata),
        limits?.userId ?? null,
        limits?.day ?? null,
        limits?.table.map((l) => l.currency) ?? [],
        limits?.table.map((l) => l.perTransaction.toString()) ?? [],
        limits?.table.map((l) => l.daily.toString()) ?? [],
        LEDGER_TOTAL_MAX.toString(),
      ],
    });
    return rows[0];
  }

  /**
   * A transaction holding the user's limits lock from its first round trip: BEGIN and the
   * transaction-scoped advisory lock go as one simple query (the id is a checked uuid, never free
   * text). It serialises the limited batches of one user, taken before any account lock, so always
   * in the same order: two concurrent requests at the daily edge see each other's outflows.
   */
  async inUserLimitsTransaction<T>(userId: string, work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    if (!UUID.test(userId)) throw new Error('the limits lock is taken for a user id (uuid)');
    const c = await this.pool.connect();
    try {
      await c.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('ledger.limits:${userId.toLowerCase()}', 0))`);
      const result = await work(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  /** Writes the new counters of the touched accounts and inserts the transfers, in one statement. */
  async applyTransfers(c: pg.PoolClient, accounts: AccountRow[], transfers: TransferRow[]): Promise<void> {
    await c.query({
      name: 'ledger.apply',
      text: `WITH upd AS (
               UPDATE ledger.account a SET debits_pending = v.dpe, debits_posted = v.dpo, credits_pending = v.cpe, credits_posted = v.cpo, version = a.version + 1
                 FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) AS v(id, dpe, dpo, cpe, cpo)
                WHERE a.id = v.id RETURNING 1),
             ins AS (
               INSERT INTO ledger.transfer (id, debit_account_id, credit_account_id, amount, currency, code, kind, pending_id, timeout_at, batch_id, metadata)
               SELECT * FROM unnest($6::uuid[], $7::uuid[], $8::uuid[], $9::bigint[], $10::text[], $11::text[], $12::text[], $13::uuid[], $14::timestamptz[], $15::uuid[], $16::jsonb[])
               RETURNING 1)
             SELECT (SELECT count(*) FROM upd) AS accounts, (SELECT count(*) FROM ins) AS transfers`,
      values: [
        accounts.map((a) => a.id),
        accounts.map((a) => a.debitsPending.toString()),
        accounts.map((a) => a.debitsPosted.toString()),
        accounts.map((a) => a.creditsPending.toString()),
        accounts.map((a) => a.creditsPosted.toString()),
        transfers.map((t) => t.id),
        transfers.map((t) => t.debitAccountId),
        transfers.map((t) => t.creditAccountId),
        transfers.map((t) => t.amount.toString()),
        transfers.map((t) => t.currency),
        transfers.map((t) => t.code),
        transfers.map((t) => t.kind),
        transfers.map((t) => t.pendingId),
        transfers.map((t) => t.timeoutAt),
        transfers.map((t) => t.batchId),
        transfers.map((t) => JSON.stringify(t.metadata)),
      ],
    });
  }

  async walletsOf(ownerId: string): Promise<AccountRow[]> {
    const { rows } = await this.pool.query<RawAccount>({
      name: 'ledger.wallets_of',
      text: `SELECT ${ACCOUNT_JSON} FROM ledger.account WHERE owner_type = 'user' AND owner_id = $1 AND code = 'wallet' ORDER BY currency`,
      values: [ownerId],
    });
    return rows.map(account);
  }

  async accounts(first: number): Promise<AccountRow[]> {
    const { rows } = await this.pool.query<RawAccount>(`SELECT ${ACCOUNT_JSON} FROM ledger.account ORDER BY created_at DESC, id LIMIT $1`, [first]);
    return rows.map(account);
  }

  async transfers(first: number): Promise<TransferRow[]> {
    const { rows } = await this.pool.query<RawTransfer>(`SELECT ${TRANSFER_JSON} FROM ledger.transfer ORDER BY created_at DESC, id LIMIT $1`, [first]);
    return rows.map(transfer);
  }

  /** The currency of each account and of each transfer named (for reading decimal amounts). */
  async currencies(accountIds: string[], transferIds: string[]): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ id: string; currency: string }>({
      name: 'ledger.currencies',
      text: `SELECT id::text, currency FROM ledger.account WHERE id = ANY($1::uuid[])
             UNION ALL SELECT id::text, currency FROM ledger.transfer WHERE id = ANY($2::uuid[])`,
      values: [accountIds, transferIds],
    });
    return new Map(rows.map((r) => [r.id, r.currency]));
  }

  async account(id: string): Promise<AccountRow | undefined> {
    const { rows } = await this.pool.query<RawAccount>(`SELECT ${ACCOUNT_JSON} FROM ledger.account WHERE id = $1`, [id]);
    return rows[0] ? account(rows[0]) : undefined;
  }

  /** A transfer read in the caller's transaction, its row locked (a reversal's original). */
  async lockedTransfer(c: pg.PoolClient, id: string): Promise<TransferRow | undefined> {
    const { rows } = await c.query<RawTransfer>(`SELECT ${TRANSFER_JSON} FROM ledger.transfer WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ? transfer(rows[0]) : undefined;
  }

  /**
   * Records the reversal of `originalId`, once: false when the original was reversed already (a concurrent
   * reversal waits here for the first one's commit, then finds it).
   */
  async insertReversal(c: pg.PoolClient, originalId: string, firstTransferId: string, batchId: string): Promise<boolean> {
    const { rowCount } = await c.query(
      `INSERT INTO ledger.reversal (original_transfer_id, first_transfer_id, batch_id) VALUES ($1, $2, $3) ON CONFLICT (original_transfer_id) DO NOTHING`,
      [originalId, firstTransferId, batchId],
    );
    return rowCount === 1;
  }

  /** The first transfer of the reversal of `originalId`, if it was reversed. */
  async reversalOf(originalId: string, client?: pg.PoolClient): Promise<string | undefined> {
    const { rows } = await (client ?? this.pool).query<{ id: string }>('SELECT first_transfer_id AS id FROM ledger.reversal WHERE original_transfer_id = $1', [
      originalId,
    ]);
    return rows[0]?.id;
  }

  /** The two-person decisions behind platform credits, written with their transfers. */
  async insertPlatformCredits(c: pg.PoolClient, credits: { transferId: string; proposedBy: string; approvedBy: string; parties: string[] }[]): Promise<void> {
    for (const p of credits)
      await c.query('INSERT INTO ledger.platform_credit (transfer_id, proposed_by, approved_by, parties) VALUES ($1, $2, $3, $4::uuid[])', [
        p.transferId,
        p.proposedBy,
        p.approvedBy,
        p.parties,
      ]);
  }

  async transfer(id: string): Promise<TransferRow | undefined> {
    const { rows } = await this.pool.query<RawTransfer>(`SELECT ${TRANSFER_JSON} FROM ledger.transfer WHERE id = $1`, [id]);
    return rows[0] ? transfer(rows[0]) : undefined;
  }

  /** Per currency, what users hold: Σ (credits_posted − debits_posted) of user wallets. */
  async totals(): Promise<{ currency: string; posted: bigint; accounts: number }[]> {
    const { rows } = await this.pool.query<{ currency: string; posted: string; accounts: number }>(
      `SELECT currency, sum(credits_posted - debits_posted)::text AS posted, count(*)::int AS accounts
         FROM ledger.account WHERE owner_type = 'user' GROUP BY currency ORDER BY currency`,
    );
    return rows.map((r) => ({ currency: r.currency, posted: BigInt(r.posted), accounts: r.accounts }));
  }

  async counts(): Promise<{ accounts: number; transfers: number }> {
    const { rows } = await this.pool.query(
      `SELECT (SELECT count(*) FROM ledger.account)::int AS accounts, (SELECT count(*) FROM ledger.transfer)::int AS transfers`,
    );
    return rows[0] as { accounts: number; transfers: number };
  }

  /**
   * A user's statement: the single and pending transfers of their accounts (one line per account
   * touched), newest first, a pending one with its resolution (posted, voided, expired) and its
   * posted amount; `before` is the last line's transfer id of the previous page (keyset pagination).
   */
  /**
   * Posted sums of a user's accounts (or one of them) for a period [from, to): the balance before `from`
   * and what came in and went out within it (credits and debits posted: single transfers and posted holds).
   */
  async periodSums(q: { userId: string; accountId?: string; from: Date; to: Date }): Promise<PeriodSumsRow[]> {
    const { rows } = await this.pool.query<{ accountId: string; currency: string; opening: string; credits: string; debits: string }>(
      `SELECT a.id AS "accountId", a.currency,
              COALESCE(sum(CASE WHEN t.credit_account_id = a.id THEN t.amount ELSE -t.amount END) FILTER (WHERE t.created_at < $3), 0)::text AS opening,
              COALESCE(sum(t.amount) FILTER (WHERE t.credit_account_id = a.id AND t.created_at >= $3 AND t.created_at < $4), 0)::text AS credits,
              COALESCE(sum(t.amount) FILTER (WHERE t.debit_account_id = a.id AND t.created_at >= $3 AND t.created_at < $4), 0)::text AS debits
         FROM ledger.account a
         LEFT JOIN ledger.transfer t ON (t.debit_account_id = a.id OR t.credit_account_id = a.id) AND t.kind IN ('single', 'post_pending') AND t.created_at < $4
        WHERE a.owner_type = 'user' AND a.owner_id = $1 AND ($2::uuid IS NULL OR a.id = $2)
        GROUP BY a.id, a.currency ORDER BY a.currency, a.id`,
      [q.userId, q.accountId ?? null, q.from, q.to],
    );
    return rows.map((r) => ({
      accountId: r.accountId,
      currency: r.currency,
      opening: BigInt(r.opening),
      credits: BigInt(r.credits),
      debits: BigInt(r.debits),
    }));
  }

  async statement(q: {
    userId: string;
    accountId?: string;
    from?: Date;
    to?: Date;
    before?: string;
    limit: number;
    transferId?: string;
    /** Only the lines that take money out (debit) or bring it in (credit). */
    direction?: 'debit' | 'credit';
    /** Only the lines in this state (as `statementLine` names it: posted, pending, voided, expired). */
    status?: 'posted' | 'pending' | 'voided' | 'expired';
  }): Promise<StatementRow[]> {
    const { rows } = await this.pool.query<RawStatement>({
      name: 'ledger.statement',
      text: `WITH mine AS (SELECT id FROM ledger.account WHERE owner_type = 'user' AND owner_id = $1 AND ($2::uuid IS NULL OR id = $2)),
             cur AS (SELECT created_at, id FROM ledger.transfer WHERE id = $5::uuid),
             lines AS (
               SELECT t.*, t.debit_account_id AS account_id, 'debit' AS direction FROM ledger.transfer t JOIN mine m ON m.id = t.debit_account_id
                WHERE t.kind IN ('single', 'pending')
               UNION ALL
               SELECT t.*, t.credit_account_id AS account_id, 'credit' AS direction FROM ledger.transfer t JOIN mine m ON m.id = t.credit_account_id
                WHERE t.kind IN ('single', 'pending'))
             SELECT l.id, l.account_id AS "accountId", l.direction, l.kind, l.code, l.currency, l.amount::text AS amount, l.metadata,
                    l.created_at AS "createdAt", r.kind AS "resolution", r.amount::text AS "resolvedAmount", r.created_at AS "resolvedAt"
               FROM lines l LEFT JOIN ledger.transfer r ON r.pending_id = l.id
              WHERE ($3::timestamptz IS NULL OR l.created_at >= $3) AND ($4::timestamptz IS NULL OR l.created_at < $4)
                AND ($5::uuid IS NULL OR (l.created_at, l.id) < (SELECT created_at, id FROM cur))
                AND ($7::uuid IS NULL OR l.id = $7)
                AND ($8::text IS NULL OR l.direction = $8)
                AND ($9::text IS NULL OR $9 = CASE WHEN l.kind = 'single' OR r.kind = 'post_pending' THEN 'posted'
                                                    WHEN r.kind = 'void_pending' THEN 'voided'
                                                    WHEN r.kind IS NOT NULL THEN 'expired'
                                                    ELSE 'pending' END)
              ORDER BY l.created_at DESC, l.id DESC, l.direction LIMIT $6`,
      values: [
        q.userId,
        q.accountId ?? null,
        q.from ?? null,
        q.to ?? null,
        q.before ?? null,
        q.limit,
        q.transferId ?? null,
        q.direction ?? null,
        q.status ?? null,
      ],
    });
    return rows.map((r) => ({
      ...r,
      amount: BigInt(r.amount),
      resolvedAmount: r.resolvedAmount === null ? null : BigInt(r.resolvedAmount),
      createdAt: new Date(r.createdAt),
      resolvedAt: r.resolvedAt ? new Date(r.resolvedAt) : null,
    }));
  }

  /**
   * Per currency, the reconciliation of the whole ledger: Σ(credits − debits) over every account,
   * posted and pending, must be zero; and every account's counters must equal the sums of its
   * transfers (`driftingAccounts` counts those that do not).
   */
  async reconciliation(): Promise<ReconciliationRow[]> {
    const { rows } = await this.pool.query<{
      currency: string;
      posted: string;
      pending: string;
      users: string;
      accounts: number;
      transfers: number;
      drifting: number;
    }>(
      `WITH sums AS (
         SELECT a.id,
                COALESCE(sum(t.amount) FILTER (WHERE t.debit_account_id = a.id AND t.kind IN ('single', 'post_pending')), 0) AS dpo,
                COALESCE(sum(t.amount) FILTER (WHERE t.credit_account_id = a.id AND t.kind IN ('single', 'post_pending')), 0) AS cpo,
                COALESCE(sum(t.amount) FILTER (WHERE t.debit_account_id = a.id AND t.kind = 'pending' AND NOT EXISTS (SELECT 1 FROM ledger.transfer r WHERE r.pending_id = t.id)), 0) AS dpe,
                COALESCE(sum(t.amount) FILTER (WHERE t.credit_account_id = a.id AND t.kind = 'pending' AND NOT EXISTS (SELECT 1 FROM ledger.transfer r WHERE r.pending_id = t.id)), 0) AS cpe
           FROM ledger.account a LEFT JOIN ledger.transfer t ON t.debit_account_id = a.id OR t.credit_account_id = a.id
          GROUP BY a.id)
       SELECT a.currency,
              sum(a.credits_posted - a.debits_posted)::text AS posted,
              sum(a.credits_pending - a.debits_pending)::text AS pending,
              COALESCE(sum(a.credits_posted - a.debits_posted) FILTER (WHERE a.owner_type = 'user'), 0)::text AS users,
              count(*)::int AS accounts,
              (SELECT count(*) FROM ledger.transfer t WHERE t.currency = a.currency)::int AS transfers,
              count(*) FILTER (WHERE (a.debits_posted, a.credits_posted, a.debits_pending, a.credits_pending) <> (s.dpo, s.cpo, s.dpe, s.cpe))::int AS drifting
         FROM ledger.account a JOIN sums s ON s.id = a.id
        GROUP BY a.currency ORDER BY a.currency`,
    );
    return rows.map((r) => ({
      currency: r.currency,
      posted: BigInt(r.posted),
      pending: BigInt(r.pending),
      userHoldings: BigInt(r.users),
      accounts: r.accounts,
      transfers: r.transfers,
      driftingAccounts: r.drifting,
    }));
  }

  /** Pending transfers not resolved yet, oldest first (the admin console's stuck transfers). */
  async openPending(first: number): Promise<TransferRow[]> {
    const { rows } = await this.pool.query<RawTransfer>(
      `SELECT ${TRANSFER_JSON} FROM ledger.transfer t
        WHERE t.kind = 'pending' AND NOT EXISTS (SELECT 1 FROM ledger.transfer r WHERE r.pending_id = t.id)
        ORDER BY t.created_at, t.id LIMIT $1`,
      [first],
    );
    return rows.map(transfer);
  }

  /** Pending transfers past their timeout and not resolved (the expiry sweep). */
  async expiredPending(now: Date, limit: number): Promise<TransferRow[]> {
    const { rows } = await this.pool.query<RawTransfer>(
      `SELECT ${TRANSFER_JSON} FROM ledger.transfer t
        WHERE t.kind = 'pending' AND t.timeout_at < $1 AND NOT EXISTS (SELECT 1 FROM ledger.transfer r WHERE r.pending_id = t.id)
        ORDER BY t.timeout_at LIMIT $2`,
      [now, limit],
    );
    return rows.map(transfer);
  }
}
