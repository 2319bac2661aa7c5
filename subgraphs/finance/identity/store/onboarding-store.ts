import type { PoolClient } from 'pg';
import type { Store } from '../../../../lib/database';
import { USER_CHANGED } from '../credential';
import { USER_COLUMNS, type UserRow } from './identity-store';

export type OneTimePurpose = 'email_verify' | 'password_reset';
export type SignupMode = 'open' | 'invite_only';

export interface SessionRow {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  userAgent: string;
  ip: string;
}

export interface InviteRow {
  id: string;
  hint: string;
  note: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  usedAt: Date | null;
  usedBy: string | null;
}

const SESSION_COLUMNS = `id, user_id AS "userId", created_at AS "createdAt", last_seen_at AS "lastSeenAt", expires_at AS "expiresAt", user_agent AS "userAgent", ip`;
const INVITE_COLUMNS = `id, hint, note, created_by AS "createdBy", created_at AS "createdAt", expires_at AS "expiresAt", used_at AS "usedAt", used_by AS "usedBy"`;

/** SQL of sign-up, sessions, single-use tokens, recovery codes and invitations (schema `identity`). */
export class OnboardingStore {
  constructor(private readonly store: Store) {}

  /** Runs `work` in one transaction. */
  async transaction<T>(work: (db: PoolClient) => Promise<T>): Promise<T> {
    const db = await this.store.pool.connect();
    try {
      await db.query('BEGIN');
      const result = await work(db);
      await db.query('COMMIT');
      return result;
    } catch (err) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      db.release();
    }
  }

  /** A signed-up user: not verified yet. A taken user name is SQLSTATE 23505. */
  async insertUnverified(db: PoolClient, u: { username: string; email: string; passwordHash: string }): Promise<UserRow> {
    const { rows } = await db.query<UserRow>(
      `INSERT INTO identity.node_user (username, email, password_hash, is_superuser) VALUES ($1, $2, $3, false) RETURNING ${USER_COLUMNS}`,
      [u.username, u.email, u.passwordHash],
    );
    return rows[0];
  }

  /** The account holding an address (compared normalised: lower case, trimmed), and whether it verified it. */
  async emailHolder(email: string): Promise<{ id: string; username: string; verified: boolean } | undefined> {
    const { rows } = await this.store.pool.query<{ id: string; username: string; verified: boolean }>(
      `SELECT id, username, email_verified_at IS NOT NULL AS verified FROM identity.node_user WHERE lower(btrim(email)) = lower(btrim($1)) AND email <> ''`,
      [email],
    );
    return rows[0];
  }

  /** A sign-up waiting for its address to be proven (another account claims it unverified): no account until its link is used. */
  async insertSignupRequest(r: { id: string; tokenHash: Buffer; username: string; email: string; passwordHash: string; ttlSeconds: number }): Promise<void> {
    await this.store.pool.query(
      `INSERT INTO identity.signup_request (id, token_hash, username, email, password_hash, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [r.id, r.tokenHash, r.username, r.email, r.passwordHash, r.ttlSeconds],
    );
  }

  /**
   * Uses a sign-up request's token (once, unexpired) in `db`'s transaction: the pending claims of its
   * address are dropped (their accounts lose the unverified address) and its account is created with
   * the address verified. Undefined when there is no such request, or an account verified the address
   * meanwhile; a user name taken meanwhile is SQLSTATE 23505.
   */
  async completeSignupRequest(db: PoolClient, tokenHash: Buffer): Promise<UserRow | undefined> {
    const { rows } = await db.query<{ id: string; username: string; email: string; passwordHash: string }>(
      `UPDATE identity.signup_request SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
       RETURNING id, username, email, password_hash AS "passwordHash"`,
      [tokenHash],
    );
    const r = rows[0];
    if (!r) return undefined;
    const holders = await db.query<{ id: string; verified: boolean }>(
      `SELECT id, email_verified_at IS NOT NULL AS verified FROM identity.node_user WHERE lower(btrim(email)) = lower(btrim($1)) AND email <> '' FOR UPDATE`,
      [r.email],
    );
    if (holders.rows.some((h) => h.verified)) return undefined;
    await db.query(`WITH u AS (UPDATE identity.node_user SET email = '' WHERE id = ANY($1::uuid[]) RETURNING id) SELECT pg_notify($2, id::text) FROM u`, [
      holders.rows.map((h) => h.id),
      USER_CHANGED,
    ]);
    const created = await db.query<UserRow>(
      `INSERT INTO identity.node_user (id, username, email, password_hash, is_superuser, email_verified_at) VALUES ($1, $2, $3, $4, false, now()) RETURNING ${USER_COLUMNS}`,
      [r.id, r.username, r.email, r.passwordHash],
    );
    return created.rows[0];
  }

  async activeUsersByEmail(email: string): Promise<UserRow[]> {
    const { rows } = await this.store.pool.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM identity.node_user WHERE lower(btrim(email)) = lower(btrim($1)) AND is_active AND email <> '' LIMIT 5`,
      [email],
    );
    return rows;
  }

  // ---- sign-up policy and invitations

  /** The mode an operator chose; `fallback` until one has (the row's `updated_by` is set by a choice only). */
  async signupMode(fallback: SignupMode): Promise<SignupMode> {
    const { rows } = await this.store.pool.query<{ mode: SignupMode; chosen: boolean }>(
      'SELECT mode, updated_by IS NOT NULL AS chosen FROM identity.signup_policy WHERE id = 1',
    );
    return rows[0]?.chosen ? rows[0].mode : fallback;
  }

  async setSignupMode(mode: SignupMode, actor: string, db: Pick<PoolClient, 'query'> = this.store.pool): Promise<void> {
    await db.query('UPDATE identity.signup_policy SET mode = $1, updated_at = now(), updated_by = $2 WHERE id = 1', [mode, actor]);
  }

  async insertInvite(
    i: { codeHash: Buffer; hint: string; note: string; createdBy: string; expiresAt: Date | null },
    db: Pick<PoolClient, 'query'> = this.store.pool,
  ): Promise<InviteRow> {
    const { rows } = await db.query<InviteRow>(
      `INSERT INTO identity.invite (code_hash, hint, note, created_by, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${INVITE_COLUMNS}`,
      [i.codeHash, i.hint, i.note, i.createdBy, i.expiresAt],
    );
    return rows[0];
  }

  async invites(first: number): Promise<InviteRow[]> {
    const { rows } = await this.store.pool.query<InviteRow>(`SELECT ${INVITE_COLUMNS} FROM identity.invite ORDER BY created_at DESC LIMIT $1`, [first]);
    return rows;
  }

  /** Uses an invitation (once, unexpired) for `userId`, in the sign-up's transaction; false when there is none to use. */
  async redeemInvite(db: PoolClient, codeHash: Buffer, userId: string | null): Promise<boolean> {
    const { rowCount } = await db.query(
      `UPDATE identity.invite SET used_at = now(), used_by = $2
        WHERE code_hash = $1 AND used_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [codeHash, userId],
    );
    return rowCount === 1;
  }

  // ---- single-use tokens (e-mail verification, password reset)

  async insertToken(t: { tokenHash: Buffer; userId: string; purpose: OneTimePurpose; email: string; ttlSeconds: number }): Promise<void> {
    await this.store.pool.query(
      `INSERT INTO identity.one_time_token (token_hash, user_id, purpose, email, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [t.tokenHash, t.userId, t.purpose, t.email, t.ttlSeconds],
    );
  }

  /** Uses a token once (unexpired, unused, of this purpose): its user and address; undefined otherwise. */
  async useToken(db: PoolClient, tokenHash: Buffer, purpose: OneTimePurpose): Promise<{ userId: string; email: string } | undefined> {
    const { rows } = await db.query<{ userId: string; email: string }>(
      `UPDATE identity.one_time_token SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id AS "userId", email`,
      [tokenHash, purpose],
    );
    return rows[0];
  }

  /** The address is verified when it is still the user's address. */
  async markEmailVerified(db: PoolClient, userId: string, email: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `WITH u AS (UPDATE identity.node_user SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 AND lower(email) = lower($2) RETURNING id)
       SELECT pg_notify($3, id::text) FROM u`,
      [userId, email, USER_CHANGED],
    );
    return rowCount === 1;
  }

  /**
   * A new password: every access token (token version) and session (user and admin console) of the
   * user stops working, and the user's other single-use tokens of that purpose go. Frozen users stay frozen.
   */
  async replacePassword(db: PoolClient, userId: string, passwordHash: string): Promise<void> {
    await db.query(
      `WITH u AS (UPDATE identity.node_user SET password_hash = $2, token_version = token_version + 1 WHERE id = $1 RETURNING id),
            s AS (UPDATE identity.user_session SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL),
            a AS (DELETE FROM identity.admin_session WHERE user_id = $1),
            t AS (UPDATE identity.one_time_token SET used_at = now() WHERE user_id = $1 AND purpose = 'password_reset' AND used_at IS NULL)
       SELECT pg_notify($3, id::text) FROM u`,
      [userId, passwordHash, USER_CHANGED],
    );
  }

  // ---- sessions

  async insertSession(s: { userId: string; ttlSeconds: number; userAgent: string; ip: string }): Promise<string> {
    const { rows } = await this.store.pool.query<{ id: string }>(
      `INSERT INTO identity.user_session (user_id, expires_at, user_agent, ip) VALUES ($1, now() + make_interval(secs => $2), $3, $4) RETURNING id`,
      [s.userId, s.ttlSeconds, s.userAgent, s.ip],
    );
    return rows[0].id;
  }

  /** A presented token's session: alive (not revoked, not expired) and the user's; touches last_seen_at. */
  async touchSession(sessionId: string, userId: string): Promise<boolean> {
    const { rowCount } = await this.store.pool.query({
      name: 'identity.touch_session',
      text: `UPDATE identity.user_session SET last_seen_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()`,
      values: [sessionId, userId],
    });
    return rowCount === 1;
  }

  async sessions(userId: string): Promise<SessionRow[]> {
    const { rows } = await this.store.pool.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM identity.user_session WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC LIMIT 100`,
      [userId],
    );
    return rows;
  }

  /** Revokes one live session of the user (NOTIFY: every process drops its cache); false when there is none. */
  async revokeSession(userId: string, sessionId: string): Promise<boolean> {
    const { rowCount } = await this.store.pool.query(
      `WITH s AS (UPDATE identity.user_session SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING user_id)
       SELECT pg_notify($3, user_id::text) FROM s`,
      [sessionId, userId, USER_CHANGED],
    );
    return rowCount === 1;
  }

  /** Revokes every live session of the user (but `except`); how many. */
  async revokeSessions(userId: string, except?: string): Promise<number> {
    const { rows } = await this.store.pool.query<{ n: number }>(
      `WITH s AS (UPDATE identity.user_session SET revoked_at = now() WHERE user_id = $1::uuid AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid) RETURNING 1),
            n AS (SELECT pg_notify($3, $1::uuid::text))
       SELECT (SELECT count(*) FROM s)::int AS n FROM n`,
      [userId, except ?? null, USER_CHANGED],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Freezes (inactive) or unfreezes a user. A frozen user cannot sign in, and every token and session
   * of theirs stops working at once (NOTIFY); undefined when there is no such user.
   */
  async setActive(userId: string, active: boolean, db: Pick<PoolClient, 'query'> = this.store.pool): Promise<UserRow | undefined> {
    const { rows } = await db.query<UserRow>(
      `WITH u AS (UPDATE identity.node_user SET is_active = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}),
            s AS (UPDATE identity.user_session SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND NOT $2),
            a AS (DELETE FROM identity.admin_session WHERE user_id = $1 AND NOT $2),
            n AS (SELECT pg_notify($3, id::text) FROM u)
       SELECT u.* FROM u, n`,
      [userId, active, USER_CHANGED],
    );
    return rows[0];
  }

  // ---- 2FA recovery codes

  async replaceRecoveryCodes(userId: string, hashes: Buffer[]): Promise<void> {
    await this.transaction(async (db) => {
      await db.query('DELETE FROM identity.recovery_code WHERE user_id = $1', [userId]);
      for (const h of hashes) await db.query('INSERT INTO identity.recovery_code (user_id, code_hash) VALUES ($1, $2)', [userId, h]);
    });
  }

  /** Uses a recovery code once; false when it is unknown or used. */
  async useRecoveryCode(userId: string, hash: Buffer): Promise<boolean> {
    const { rowCount } = await this.store.pool.query(
      'UPDATE identity.recovery_code SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL',
      [userId, hash],
    );
    return rowCount === 1;
  }

  async unusedRecoveryCodes(userId: string): Promise<number> {
    const { rows } = await this.store.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM identity.recovery_code WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    return rows[0].n;
  }

  /** Switches 2FA off: the secret and the recovery codes go. */
  async disableTotp(userId: string): Promise<void> {
    await this.store.pool.query(
      `WITH r AS (DELETE FROM identity.recovery_code WHERE user_id = $1),
            u AS (UPDATE identity.node_user SET totp_secret_sealed = NULL, totp_confirmed_at = NULL, totp_last_step = NULL WHERE id = $1 RETURNING id)
       SELECT pg_notify($2, id::text) FROM u`,
      [userId, USER_CHANGED],
    );
  }
}
