import type pg from 'pg';
import { inTransaction, type Store } from '../../../../lib/database';
import type { SmsMessage, SmsOutbox } from '../domain/sms';
import { USER_COLUMNS, type UserRow } from './identity-store';

/** An operator's change of a number, audited in its transaction (`after`: the user as changed). */
export type PhoneAudit = (db: Pick<pg.PoolClient, 'query'>, after: UserRow) => Promise<unknown>;

/** The code of a user's pending phone claim, as stored (its hash only). */
export interface PhoneCodeRow {
  phone: string;
  codeHash: Buffer;
  failures: number;
  expiresAt: Date;
  /** Whether it has expired, by the database's clock. */
  expired: boolean;
}

export interface SandboxSmsRow {
  id: string;
  to: string;
  body: string;
  createdAt: Date;
}

/**
 * SQL of phone numbers and their verification (identity.node_user.phone / phone_verified_at,
 * identity.phone_code) and of the sandbox SMS outbox (identity.sms_outbox). Only verified numbers are
 * unique (a partial unique index): a verification that loses the race for a number is SQLSTATE 23505.
 */
export class PhoneStore implements SmsOutbox {
  constructor(private readonly store: Store) {}

  async record(message: SmsMessage): Promise<string> {
    const { rows } = await this.store.pool.query<{ id: string }>('INSERT INTO identity.sms_outbox (to_number, body) VALUES ($1, $2) RETURNING id', [
      message.to,
      message.body,
    ]);
    return rows[0].id;
  }

  /** The sandbox's messages, newest first (to one number, or all). */
  async outbox(to: string | null, first: number): Promise<SandboxSmsRow[]> {
    const { rows } = await this.store.pool.query<SandboxSmsRow>(
      `SELECT id, to_number AS "to", body, created_at AS "createdAt" FROM identity.sms_outbox
        WHERE $1::text IS NULL OR to_number = $1 ORDER BY created_at DESC, id LIMIT $2`,
      [to, first],
    );
    return rows;
  }

  /** Whether a user other than `userId` has `phone` verified. */
  async verifiedByOther(userId: string, phone: string): Promise<boolean> {
    const { rowCount } = await this.store.pool.query('SELECT 1 FROM identity.node_user WHERE phone = $1 AND phone_verified_at IS NOT NULL AND id <> $2', [
      phone,
      userId,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** The user's number becomes a pending claim of `phone` with a new code (any earlier code goes). Undefined: no such user. */
  async claim(userId: string, phone: string, codeHash: Buffer, ttlSeconds: number): Promise<{ user: UserRow; expiresAt: Date } | undefined> {
    return inTransaction(this.store.pool, async (c) => {
      const { rows } = await c.query<UserRow>(`UPDATE identity.node_user SET phone = $2, phone_verified_at = NULL WHERE id = $1 RETURNING ${USER_COLUMNS}`, [
        userId,
        phone,
      ]);
      if (!rows[0]) return undefined;
      const code = await c.query<{ expiresAt: Date }>(
        `INSERT INTO identity.phone_code (user_id, phone, code_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))
         ON CONFLICT (user_id) DO UPDATE SET phone = EXCLUDED.phone, code_hash = EXCLUDED.code_hash, failures = 0, created_at = now(), expires_at = EXCLUDED.expires_at
         RETURNING expires_at AS "expiresAt"`,
        [userId, phone, codeHash, ttlSeconds],
      );
      return { user: rows[0], expiresAt: code.rows[0].expiresAt };
    });
  }

  /** A code that could not be sent is no code. */
  async dropCode(userId: string): Promise<void> {
    await this.store.pool.query('DELETE FROM identity.phone_code WHERE user_id = $1', [userId]);
  }

  /** Clears the user's number (verified or pending) and any code. */
  async clear(userId: string, audit?: PhoneAudit): Promise<UserRow | undefined> {
    return inTransaction(this.store.pool, async (c) => {
      await c.query('DELETE FROM identity.phone_code WHERE user_id = $1', [userId]);
      const { rows } = await c.query<UserRow>(`UPDATE identity.node_user SET phone = NULL, phone_verified_at = NULL WHERE id = $1 RETURNING ${USER_COLUMNS}`, [
        userId,
      ]);
      if (rows[0]) await audit?.(c, rows[0]);
      return rows[0];
    });
  }

  async code(userId: string): Promise<PhoneCodeRow | undefined> {
    const { rows } = await this.store.pool.query<PhoneCodeRow>(
      `SELECT phone, code_hash AS "codeHash", failures, expires_at AS "expiresAt", expires_at <= now() AS expired FROM identity.phone_code WHERE user_id = $1`,
      [userId],
    );
    return rows[0];
  }

  /** One more wrong guess of the user's code; from `max` on, the code is ended (kept, refused: a new one is needed). */
  async recordWrongCode(userId: string, max: number): Promise<void> {
    await this.store.pool.query('UPDATE identity.phone_code SET failures = least(failures + 1, $2) WHERE user_id = $1', [userId, max]);
  }

  /**
   * The code of `phone` was right: used up (single use: a concurrent use finds none and gets
   * undefined), the number verified, and other users' pending claims of it dropped.
   */
  async verify(userId: string, phone: string): Promise<UserRow | undefined> {
    return inTransaction(this.store.pool, async (c) => {
      const used = await c.query('DELETE FROM identity.phone_code WHERE user_id = $1 AND phone = $2', [userId, phone]);
      if (used.rowCount !== 1) return undefined;
      return this.markVerified(c, userId, phone);
    });
  }

  /** An operator asserts the number (admin `setNodeUserPhone`): verified at once. */
  async setVerified(userId: string, phone: string, audit?: PhoneAudit): Promise<UserRow | undefined> {
    return inTransaction(this.store.pool, async (c) => {
      await c.query('DELETE FROM identity.phone_code WHERE user_id = $1', [userId]);
      const row = await this.markVerified(c, userId, phone);
      if (row) await audit?.(c, row);
      return row;
    });
  }

  private async markVerified(c: pg.PoolClient, userId: string, phone: string): Promise<UserRow | undefined> {
    const { rows } = await c.query<UserRow>(`UPDATE identity.node_user SET phone = $2, phone_verified_at = now() WHERE id = $1 RETURNING ${USER_COLUMNS}`, [
      userId,
      phone,
    ]);
    if (!rows[0]) return undefined;
    // the number is this user's now: other users' pending claims of it (and their codes) go
    await c.query('DELETE FROM identity.phone_code WHERE phone = $1 AND user_id <> $2', [phone, userId]);
    await c.query('UPDATE identity.node_user SET phone = NULL WHERE phone = $1 AND id <> $2 AND phone_verified_at IS NULL', [phone, userId]);
    return rows[0];
  }
}
