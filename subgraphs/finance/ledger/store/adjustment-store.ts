import type pg from 'pg';
import type { Store } from '../../../../lib/database';

export interface AdjustmentRow {
  id: string;
  userId: string;
  username: string;
  currency: string;
  direction: 'credit' | 'debit';
  amount: bigint;
  reason: string;
  status: 'pending' | 'approved' | 'rejected';
  proposedById: string;
  proposedBy: string;
  proposedAt: Date;
  decidedById: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
}

const COLUMNS = `id, user_id AS "userId", username, currency, direction, amount, reason, status, proposed_by_id AS "proposedById",
  proposed_by AS "proposedBy", proposed_at AS "proposedAt", decided_by_id AS "decidedById", decided_by AS "decidedBy", decided_at AS "decidedAt"`;

const row = (r: AdjustmentRow & { amount: string | bigint }): AdjustmentRow => ({ ...r, amount: BigInt(r.amount) });

/** Manual adjustments (schema `ledger`), written by domain/adjustments.ts. */
export class AdjustmentStore {
  constructor(readonly store: Store) {}

  get pool(): pg.Pool {
    return this.store.pool;
  }

  async insert(
    c: pg.PoolClient,
    a: Pick<AdjustmentRow, 'id' | 'userId' | 'username' | 'currency' | 'direction' | 'amount' | 'reason' | 'proposedById' | 'proposedBy'>,
  ) {
    const { rows } = await c.query<AdjustmentRow>(
      `INSERT INTO ledger.adjustment (id, user_id, username, currency, direction, amount, reason, proposed_by_id, proposed_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [a.id, a.userId, a.username, a.currency, a.direction, a.amount.toString(), a.reason, a.proposedById, a.proposedBy],
    );
    return row(rows[0]);
  }

  async get(id: string, client?: pg.PoolClient, lock = false): Promise<AdjustmentRow | undefined> {
    const { rows } = await (client ?? this.store.pool).query<AdjustmentRow>(
      `SELECT ${COLUMNS} FROM ledger.adjustment WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ? row(rows[0]) : undefined;
  }

  /** The decision, once: only a pending adjustment changes (the caller holds the row's lock). */
  async decide(client: pg.PoolClient, id: string, status: 'approved' | 'rejected', by: { id: string; name: string }): Promise<AdjustmentRow | undefined> {
    const { rows } = await client.query<AdjustmentRow>(
      `UPDATE ledger.adjustment SET status = $2, decided_by_id = $3, decided_by = $4, decided_at = now()
        WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
      [id, status, by.id, by.name],
    );
    return rows[0] ? row(rows[0]) : undefined;
  }

  async list(limit: number): Promise<AdjustmentRow[]> {
    const { rows } = await this.store.pool.query<AdjustmentRow>(
      `SELECT ${COLUMNS} FROM ledger.adjustment ORDER BY (status = 'pending') DESC, proposed_at DESC LIMIT $1`,
      [limit],
    );
    return rows.map(row);
  }
}
