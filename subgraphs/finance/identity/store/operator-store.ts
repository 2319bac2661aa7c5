import type pg from 'pg';
import { inTransaction, type Store } from '../../../../lib/database';
import { USER_CHANGED } from '../credential';
import { USER_COLUMNS, type UserRow } from './identity-store';

export type OperatorChangeKind = 'superuser' | 'support' | 'remove_role' | 'freeze' | 'reactivate';
export type OperatorChangeStatus = 'pending' | 'approved' | 'rejected';

export interface OperatorChangeRow {
  id: string;
  userId: string;
  username: string;
  change: OperatorChangeKind;
  reason: string;
  status: OperatorChangeStatus;
  proposedBy: string;
  proposedByName: string;
  proposedAt: Date;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: Date | null;
}

type Db = Pick<pg.PoolClient, 'query'>;

const COLUMNS = `c.id, c.user_id AS "userId", u.username, c.change, c.reason, c.status, c.proposed_by AS "proposedBy",
  c.proposed_by_name AS "proposedByName", c.proposed_at AS "proposedAt", c.decided_by AS "decidedBy",
  c.decided_by_name AS "decidedByName", c.decided_at AS "decidedAt"`;

/** SQL of the two-person operator changes (identity.operator_change). */
export class OperatorStore {
  constructor(private readonly store: Store) {}

  transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.store.pool, work);
  }

  /** A pending change; a unique violation (23505) when the user has one pending already. */
  async insert(db: Db, c: { userId: string; change: OperatorChangeKind; reason: string; proposedBy: string; proposedByName: string }): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO identity.operator_change (user_id, change, reason, proposed_by, proposed_by_name) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [c.userId, c.change, c.reason, c.proposedBy, c.proposedByName],
    );
    return rows[0].id;
  }

  /** The change, locked until the transaction ends (a second decision waits, then sees the first). */
  async lock(db: Db, id: string): Promise<OperatorChangeRow | undefined> {
    const { rows } = await db.query<OperatorChangeRow>(
      `SELECT ${COLUMNS} FROM identity.operator_change c JOIN identity.node_user u ON u.id = c.user_id WHERE c.id = $1 FOR UPDATE OF c`,
      [id],
    );
    return rows[0];
  }

  async decide(db: Db, id: string, status: Exclude<OperatorChangeStatus, 'pending'>, by: { id: string; name: string }): Promise<void> {
    await db.query(`UPDATE identity.operator_change SET status = $2, decided_by = $3, decided_by_name = $4, decided_at = now() WHERE id = $1`, [
      id,
      status,
      by.id,
      by.name,
    ]);
  }

  /**
   * Sets a user's console role: a removed role also ends their console sessions. Every process drops
   * its cached row (NOTIFY at commit).
   */
  async setRole(db: Db, userId: string, role: 'superuser' | 'support' | 'none'): Promise<UserRow> {
    const { rows } = await db.query<UserRow>(
      `WITH u AS (UPDATE identity.node_user SET is_superuser = $2, is_staff = $3 WHERE id = $1 RETURNING ${USER_COLUMNS}),
            a AS (DELETE FROM identity.admin_session WHERE user_id = $1 AND $4),
            n AS (SELECT pg_notify($5, id::text) FROM u)
       SELECT u.* FROM u, n`,
      [userId, role === 'superuser', role === 'support', role === 'none', USER_CHANGED],
    );
    return rows[0];
  }

  async byId(id: string): Promise<OperatorChangeRow | undefined> {
    const { rows } = await this.store.pool.query<OperatorChangeRow>(
      `SELECT ${COLUMNS} FROM identity.operator_change c JOIN identity.node_user u ON u.id = c.user_id WHERE c.id = $1`,
      [id],
    );
    return rows[0];
  }

  async list(first: number, status?: OperatorChangeStatus): Promise<OperatorChangeRow[]> {
    const { rows } = await this.store.pool.query<OperatorChangeRow>(
      `SELECT ${COLUMNS} FROM identity.operator_change c JOIN identity.node_user u ON u.id = c.user_id
        WHERE $2::text IS NULL OR c.status = $2 ORDER BY c.proposed_at DESC, c.id LIMIT $1`,
      [first, status ?? null],
    );
    return rows;
  }
}
