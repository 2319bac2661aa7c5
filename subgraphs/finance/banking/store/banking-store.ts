import type pg from 'pg';
import { inTransaction, type Store } from '../../../../lib/database';
import { DomainError } from '../../../../lib/errors';

export interface VirtualAccountRow {
  id: string;
  userId: string;
  rail: string;
  currency: string;
  accountNumber: string;
  bankCode: string;
  bankName: string;
  holderName: string;
  providerReference: string;
  createdAt: Date;
}

export type MovementKind = 'inbound_credit' | 'bank_transfer' | 'mobile_money_deposit' | 'mobile_money_withdrawal' | 'ramp_on' | 'ramp_off';
export type MovementStatus = 'pending' | 'posted' | 'voided';

export interface MovementRow {
  id: string;
  userId: string;
  kind: MovementKind;
  provider: string;
  status: MovementStatus;
  amount: bigint;
  currency: string;
  ledgerTransferId: string;
  /** A ramp's second leg: its ledger transfer and amount (in the other currency). */
  counterTransferId: string | null;
  counterAmount: bigint | null;
  counterCurrency: string | null;
  providerReference: string | null;
  counterparty: Record<string, unknown>;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProviderEventRow {
  provider: string;
  eventId: string;
  type: string;
  payload: Record<string, unknown>;
  outcome: string | null;
  receivedAt: Date;
  processedAt: Date | null;
}

const ACCOUNT_COLUMNS = `id, user_id AS "userId", rail, currency, account_number AS "accountNumber", bank_code AS "bankCode", bank_name AS "bankName",
  holder_name AS "holderName", provider_reference AS "providerReference", created_at AS "createdAt"`;
const MOVEMENT_COLUMNS = `id, user_id AS "userId", kind, provider, status, amount, currency, ledger_transfer_id AS "ledgerTransferId",
  counter_transfer_id AS "counterTransferId", counter_amount AS "counterAmount", counter_currency AS "counterCurrency", provider_reference AS "providerReference", counterparty, failure_reason AS "failureReason", created_at AS "createdAt", updated_at AS "updatedAt"`;
const EVENT_COLUMNS = `provider, event_id AS "eventId", type, payload, outcome, received_at AS "receivedAt", processed_at AS "processedAt"`;

type RawMovement = Omit<MovementRow, 'amount' | 'counterAmount'> & { amount: string; counterAmount: string | null };
const toMovement = (row: RawMovement): MovementRow => ({
  ...row,
  amount: BigInt(row.amount),
  counterAmount: row.counterAmount === null ? null : BigInt(row.counterAmount),
});

/** The banking schema's SQL (and only here). */
export class BankingStore {
  constructor(readonly store: Store) {}

  /** Inserts the account unless the user holds one in the currency already; answers the one that is there. */
  async insertVirtualAccount(a: Omit<VirtualAccountRow, 'createdAt'>): Promise<{ account: VirtualAccountRow; created: boolean }> {
    const inserted = await this.store.pool
      .query<VirtualAccountRow>(
        `INSERT INTO banking.virtual_account (id, user_id, rail, currency, account_number, bank_code, bank_name, holder_name, provider_reference)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (user_id, currency) DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
        [a.id, a.userId, a.rail, a.currency, a.accountNumber, a.bankCode, a.bankName, a.holderName, a.providerReference],
      )
      .catch((err: unknown) => {
        // the rail issued a number another account already holds: the provider's fault, not the client's, and nothing is stored
        if ((err as { code?: string; constraint?: string }).code === '23505' && /account_number/.test((err as { constraint?: string }).constraint ?? ''))
          throw new DomainError('PROVIDER_UNAVAILABLE', 502, 'The banking provider issued an account number that is already in use; retry later.');
        throw err;
      });
    if (inserted.rows[0]) return { account: inserted.rows[0], created: true };
    return { account: (await this.virtualAccountOf(a.userId, a.currency))!, created: false };
  }

  async virtualAccountOf(userId: string, currency: string): Promise<VirtualAccountRow | undefined> {
    const { rows } = await this.store.pool.query<VirtualAccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM banking.virtual_account WHERE user_id = $1 AND currency = $2`,
      [userId, currency],
    );
    return rows[0];
  }

  async virtualAccount(id: string): Promise<VirtualAccountRow | undefined> {
    const { rows } = await this.store.pool.query<VirtualAccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM banking.virtual_account WHERE id = $1`, [id]);
    return rows[0];
  }

  async virtualAccountByNumber(rail: string, accountNumber: string): Promise<VirtualAccountRow | undefined> {
    const { rows } = await this.store.pool.query<VirtualAccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM banking.virtual_account WHERE rail = $1 AND account_number = $2`,
      [rail, accountNumber],
    );
    return rows[0];
  }

  async virtualAccountsOf(userId: string): Promise<VirtualAccountRow[]> {
    const { rows } = await this.store.pool.query<VirtualAccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM banking.virtual_account WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows;
  }

  async virtualAccounts(limit: number): Promise<VirtualAccountRow[]> {
    const { rows } = await this.store.pool.query<VirtualAccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM banking.virtual_account ORDER BY created_at DESC, id LIMIT $1`,
      [limit],
    );
    return rows;
  }

  /** Records a movement once: a known id, or a known (provider, provider_reference), answers the existing row. */
  async insertMovement(
    m: Omit<MovementRow, 'createdAt' | 'updatedAt' | 'failureReason' | 'counterTransferId' | 'counterAmount' | 'counterCurrency'> &
      Partial<Pick<MovementRow, 'counterTransferId' | 'counterAmount' | 'counterCurrency'>>,
  ): Promise<{ movement: MovementRow; created: boolean }> {
    const inserted = await this.store.pool.query<RawMovement>(
      `INSERT INTO banking.movement (id, user_id, kind, provider, status, amount, currency, ledger_transfer_id, provider_reference, counterparty,
         counter_transfer_id, counter_amount, counter_currency)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING RETURNING ${MOVEMENT_COLUMNS}`,
      [
        m.id,
        m.userId,
        m.kind,
        m.provider,
        m.status,
        m.amount.toString(),
        m.currency,
        m.ledgerTransferId,
        m.providerReference,
        JSON.stringify(m.counterparty),
        m.counterTransferId ?? null,
        m.counterAmount?.toString() ?? null,
        m.counterCurrency ?? null,
      ],
    );
    if (inserted.rows[0]) return { movement: toMovement(inserted.rows[0]), created: true };
    const { rows } = await this.store.pool.query<RawMovement>(
      `SELECT ${MOVEMENT_COLUMNS} FROM banking.movement WHERE id = $1 OR ledger_transfer_id = $2 OR (provider = $3 AND provider_reference = $4)`,
      [m.id, m.ledgerTransferId, m.provider, m.providerReference],
    );
    return { movement: toMovement(rows[0]), created: false };
  }

  async movement(id: string): Promise<MovementRow | undefined> {
    const { rows } = await this.store.pool.query<RawMovement>(`SELECT ${MOVEMENT_COLUMNS} FROM banking.movement WHERE id = $1`, [id]);
    return rows[0] ? toMovement(rows[0]) : undefined;
  }

  async setProviderReference(id: string, providerReference: string): Promise<void> {
    await this.store.pool.query('UPDATE banking.movement SET provider_reference = $2, updated_at = now() WHERE id = $1 AND provider_reference IS NULL', [
      id,
      providerReference,
    ]);
  }

  /** pending → posted | voided, once: answers the row when this call made the change, undefined when it was already final. */
  async settle(
    id: string,
    status: 'posted' | 'voided',
    failureReason: string | null,
    db: Pick<pg.PoolClient, 'query'> = this.store.pool,
  ): Promise<MovementRow | undefined> {
    const { rows } = await db.query<RawMovement>(
      `UPDATE banking.movement SET status = $2, failure_reason = $3, updated_at = now() WHERE id = $1 AND status = 'pending' RETURNING ${MOVEMENT_COLUMNS}`,
      [id, status, failureReason],
    );
    return rows[0] ? toMovement(rows[0]) : undefined;
  }

  /** Runs `work` in one transaction (a decision and its audit entry commit together). */
  transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.store.pool, work);
  }

  /** A user's movements of some kinds, newest first, after a keyset cursor. */
  async movementsOf(userId: string, kinds: MovementKind[], providers: string[], limit: number, after?: { at: Date; id: string }): Promise<MovementRow[]> {
    const { rows } = await this.store.pool.query<RawMovement>(
      `SELECT ${MOVEMENT_COLUMNS} FROM banking.movement WHERE user_id = $1 AND kind = ANY($2) AND provider = ANY($6)
         AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $5`,
      [userId, kinds, after?.at ?? null, after?.id ?? null, limit, providers],
    );
    return rows.map(toMovement);
  }

  /**
   * Runs `work` holding the (user, currency) deposit lock (a session advisory lock on its own
   * connection, so that every process of the node waits for it), given what the user deposited of
   * `kinds` in the last `windowHours` (the database's clock), pending and posted: the check and the
   * deposit's record happen under it.
   */
  async underDepositLock<T>(
    userId: string,
    currency: string,
    kinds: MovementKind[],
    windowHours: number,
    work: (depositedInWindow: bigint) => Promise<T>,
  ): Promise<T> {
    const client = await this.store.pool.connect();
    const key = `banking-deposit:${userId}:${currency}`;
    let locked = false;
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      locked = true;
      const { rows } = await client.query<{ total: string }>(
        `SELECT COALESCE(SUM(amount), 0)::text AS total FROM banking.movement
          WHERE user_id = $1 AND currency = $2 AND kind = ANY($3) AND status IN ('pending', 'posted')
            AND created_at > now() - make_interval(hours => $4::int)`,
        [userId, currency, kinds, windowHours],
      );
      return await work(BigInt(rows[0].total));
    } finally {
      if (locked) await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => undefined);
      client.release();
    }
  }

  /** Pending movements of `kinds` older than `minutes` (by the database's clock), oldest first. */
  async pendingOlderThan(kinds: MovementKind[], minutes: number, limit: number): Promise<MovementRow[]> {
    const { rows } = await this.store.pool.query<RawMovement>(
      `SELECT ${MOVEMENT_COLUMNS} FROM banking.movement
        WHERE status = 'pending' AND kind = ANY($1) AND created_at <= now() - make_interval(mins => $2::int) ORDER BY created_at LIMIT $3`,
      [kinds, minutes, limit],
    );
    return rows.map(toMovement);
  }

  async movements(limit: number, status?: MovementStatus): Promise<MovementRow[]> {
    const { rows } = await this.store.pool.query<RawMovement>(
      `SELECT ${MOVEMENT_COLUMNS} FROM banking.movement WHERE ($2::text IS NULL OR status = $2) ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit, status ?? null],
    );
    return rows.map(toMovement);
  }

  /** Records a provider event once; false when the (provider, event id) was seen before. */
  async recordEvent(provider: string, eventId: string, type: string, payload: Record<string, unknown>): Promise<boolean> {
    const res = await this.store.pool.query(
      `INSERT INTO banking.provider_event (provider, event_id, type, payload) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [provider, eventId, type, JSON.stringify(payload)],
    );
    return (res.rowCount ?? 0) > 0;
  }

  async eventProcessed(provider: string, eventId: string): Promise<boolean> {
    const { rows } = await this.store.pool.query<{ done: boolean }>(
      'SELECT processed_at IS NOT NULL AS done FROM banking.provider_event WHERE provider = $1 AND event_id = $2',
      [provider, eventId],
    );
    return rows[0]?.done ?? false;
  }

  async markEventProcessed(provider: string, eventId: string, outcome: string): Promise<void> {
    await this.store.pool.query('UPDATE banking.provider_event SET processed_at = now(), outcome = $3 WHERE provider = $1 AND event_id = $2', [
      provider,
      eventId,
      outcome,
    ]);
  }

  async events(limit: number): Promise<ProviderEventRow[]> {
    const { rows } = await this.store.pool.query<ProviderEventRow>(`SELECT ${EVENT_COLUMNS} FROM banking.provider_event ORDER BY received_at DESC LIMIT $1`, [
      limit,
    ]);
    return rows;
  }
}
