import type pg from 'pg';
import type { Store } from '../../../../lib/database';

/** The pool, or a connection inside a transaction (the change and its audit entry commit together). */
export type Db = Pick<pg.Pool | pg.PoolClient, 'query'>;
import { USER_CHANGED } from '../credential';
import { type KycLevel } from '../../kernel/kyc';

export interface UserRow {
  id: string;
  username: string;
  email: string;
  passwordHash: string;
  isSuperuser: boolean;
  /** Support staff: signs in to the admin console with the support role (below a superuser). */
  isStaff: boolean;
  isActive: boolean;
  tokenVersion: number;
  totpSecretSealed: string | null;
  totpConfirmedAt: Date | null;
  totpLastStep: number | null;
  dateJoined: Date;
  lastLogin: Date | null;
  kycLevel: KycLevel;
  phone: string | null;
  /** When the user proved the number theirs (a code sent to it), or an operator set it; null: a pending claim. */
  phoneVerifiedAt: Date | null;
  /** When the user proved their address (null: not yet; users created by an operator count as verified). */
  emailVerifiedAt: Date | null;
}

export const USER_COLUMNS = `id, username, email, password_hash AS "passwordHash", is_superuser AS "isSuperuser", is_staff AS "isStaff", is_active AS "isActive",
  token_version AS "tokenVersion", totp_secret_sealed AS "totpSecretSealed", totp_confirmed_at AS "totpConfirmedAt",
  totp_last_step AS "totpLastStep", date_joined AS "dateJoined", last_login AS "lastLogin", kyc_level AS "kycLevel", phone,
  phone_verified_at AS "phoneVerifiedAt", email_verified_at AS "emailVerifiedAt"`;

/** SQL of the identity schema; the sign-in and token paths use named (prepared) statements. */
export class IdentityStore {
  constructor(private readonly store: Store) {}

  get pool(): pg.Pool {
    return this.store.pool;
  }

  async byUsername(username: string): Promise<UserRow | undefined> {
    const { rows } = await this.store.pool.query<UserRow>({
      name: 'identity.user_by_name',
      text: `SELECT ${USER_COLUMNS} FROM identity.node_user WHERE username = $1`,
      values: [username],
    });
    return rows[0];
  }

  async byId(id: string): Promise<UserRow | undefined> {
    const { rows } = await this.store.pool.query<UserRow>({
      name: 'identity.user_by_id',
      text: `SELECT ${USER_COLUMNS} FROM identity.node_user WHERE id = $1`,
      values: [id],
    });
    return rows[0];
  }

  async insert(
    u: { username: string; email: string; passwordHash: string; isSuperuser: boolean; isStaff?: boolean },
    db: Db = this.store.pool,
  ): Promise<UserRow> {
    const { rows } = await db.query<UserRow>(
      // an operator's user (CLI, console, demo): its address counts as verified; sign-up inserts unverified users (onboarding-store.ts)
      `INSERT INTO identity.node_user (username, email, password_hash, is_superuser, is_staff, email_verified_at) VALUES ($1, $2, $3, $4, $5, now()) RETURNING ${USER_COLUMNS}`,
      [u.username, u.email, u.passwordHash, u.isSuperuser, u.isStaff ?? false],
    );
    return rows[0];
  }

  /** A new password (and superuser flag): older tokens and sessions stop working. */
  async setPassword(id: string, passwordHash: string, isSuperuser: boolean): Promise<void> {
    await this.store.pool.query(
      `WITH u AS (UPDATE identity.node_user SET password_hash = $2, is_superuser = $3, is_active = true, token_version = token_version + 1 WHERE id = $1 RETURNING id),
            s AS (DELETE FROM identity.admin_session WHERE user_id = $1)
       SELECT pg_notify($4, id::text) FROM u`,
      [id, passwordHash, isSuperuser, USER_CHANGED],
    );
  }

  async list(first: number): Promise<UserRow[]> {
    const { rows } = await this.store.pool.query<UserRow>(`SELECT ${USER_COLUMNS} FROM identity.node_user ORDER BY date_joined DESC, id LIMIT $1`, [first]);
    return rows;
  }

  async stats(): Promise<{ total: number; active: number; superusers: number; twoFactor: number }> {
    const { rows } = await this.store.pool.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE is_active)::int AS active, count(*) FILTER (WHERE is_superuser)::int AS superusers,
              count(*) FILTER (WHERE totp_confirmed_at IS NOT NULL)::int AS "twoFactor" FROM identity.node_user`,
    );
    return rows[0] as { total: number; active: number; superusers: number; twoFactor: number };
  }

  async recentSignIns(first: number): Promise<{ username: string; lastLogin: Date }[]> {
    const { rows } = await this.store.pool.query(
      `SELECT username, last_login AS "lastLogin" FROM identity.node_user WHERE last_login IS NOT NULL ORDER BY last_login DESC LIMIT $1`,
      [first],
    );
    return rows as { username: string; lastLogin: Date }[];
  }

  /** Failures of this user name within the window (0 when the window has passed). */
  async failures(username: string, windowSeconds: number): Promise<{ failures: number; windowStart: Date } | undefined> {
    const { rows } = await this.store.pool.query<{ failures: number; windowStart: Date }>({
      name: 'identity.failures',
      text: `SELECT failures, window_start AS "windowStart" FROM identity.login_failure
              WHERE username = $1 AND window_start > now() - make_interval(secs => $2)`,
      values: [username, windowSeconds],
    });
    return rows[0];
  }

  async recordFailure(username: string, windowSeconds: number): Promise<void> {
    await this.store.pool.query({
      name: 'identity.record_failure',
      text: `INSERT INTO identity.login_failure AS f (username, window_start, failures) VALUES ($1, now(), 1)
             ON CONFLICT (username) DO UPDATE SET
               failures = CASE WHEN f.window_start > now() - make_interval(secs => $2) THEN f.failures + 1 ELSE 1 END,
               window_start = CASE WHEN f.window_start > now() - make_interval(secs => $2) THEN f.window_start ELSE now() END`,
      values: [username, windowSeconds],
    });
  }

  /** A successful sign-in: the failures go, last_login is set. */
  async recordSuccess(id: string, username: string): Promise<void> {
    await this.store.pool.query({
      name: 'identity.record_success',
      text: `WITH f AS (DELETE FROM identity.login_failure WHERE username = $2) UPDATE identity.node_user SET last_login = now() WHERE id = $1`,
      values: [id, username],
    });
  }

  async setTotpSecret(id: string, sealed: string): Promise<void> {
    await this.store.pool.query('UPDATE identity.node_user SET totp_secret_sealed = $2, totp_confirmed_at = NULL, totp_last_step = NULL WHERE id = $1', [
      id,
      sealed,
    ]);
  }

  async confirmTotp(id: string, step: number): Promise<void> {
    await this.store.pool.query(
      `WITH u AS (UPDATE identity.node_user SET totp_confirmed_at = now(), totp_last_step = $2 WHERE id = $1 RETURNING id) SELECT pg_notify($3, id::text) FROM u`,
      [id, step, USER_CHANGED],
    );
  }

  /** Records the time step of a used code; false when it (or a later one) was used already (no replay). */
  async useTotpStep(id: string, step: number): Promise<boolean> {
    const { rowCount } = await this.store.pool.query(
      'UPDATE identity.node_user SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)',
      [id, step],
    );
    return rowCount === 1;
  }

  async insertSession(tokenHash: Buffer, userId: string, expiresAt: Date): Promise<void> {
    await this.store.pool.query('INSERT INTO identity.admin_session (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [tokenHash, userId, expiresAt]);
  }

  async session(tokenHash: Buffer): Promise<{ userId: string; username: string; role: 'superuser' | 'support' } | undefined> {
    const { rows } = await this.store.pool.query<{ userId: string; username: string; role: 'superuser' | 'support' }>({
      name: 'identity.session',
      text: `SELECT u.id AS "userId", u.username, CASE WHEN u.is_superuser THEN 'superuser' ELSE 'support' END AS role
               FROM identity.admin_session s JOIN identity.node_user u ON u.id = s.user_id
              WHERE s.token_hash = $1 AND s.expires_at > now() AND u.is_active AND (u.is_superuser OR u.is_staff)`,
      values: [tokenHash],
    });
    return rows[0];
  }

  async deleteSession(tokenHash: Buffer): Promise<void> {
    await this.store.pool.query('DELETE FROM identity.admin_session WHERE token_hash = $1 OR expires_at < now()', [tokenHash]);
  }

  /** Sets a user's KYC level; every process drops its cached row (NOTIFY). Undefined when there is no such user. */
  async setKycLevel(id: string, level: KycLevel, db: Db = this.store.pool): Promise<UserRow | undefined> {
    const { rows } = await db.query<UserRow>(
      `WITH u AS (UPDATE identity.node_user SET kyc_level = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}), n AS (SELECT pg_notify($3, id::text) FROM u)
       SELECT * FROM u`,
      [id, level, USER_CHANGED],
    );
    return rows[0];
  }

  /**
   * The active user a transfer names: by user name, or by a handle the user has PROVEN theirs —
   * e-mail (normalised; verified addresses only) or E.164 phone (verified numbers only). A pending
   * claim of a handle is no recipient: money never reaches whoever typed someone else's address.
   */
  async recipient(by: 'username' | 'email' | 'phone', value: string): Promise<UserRow | undefined> {
    const where =
      by === 'username'
        ? 'username = $1'
        : by === 'email'
          ? `lower(btrim(email)) = lower(btrim($1)) AND email <> '' AND email_verified_at IS NOT NULL`
          : 'phone = $1 AND phone_verified_at IS NOT NULL';
    const { rows } = await this.store.pool.query<UserRow>(`SELECT ${USER_COLUMNS} FROM identity.node_user WHERE ${where} AND is_active LIMIT 2`, [value]);
    // two accounts sharing an e-mail address: ambiguous, so nobody
    return rows.length === 1 ? rows[0] : undefined;
  }
}
