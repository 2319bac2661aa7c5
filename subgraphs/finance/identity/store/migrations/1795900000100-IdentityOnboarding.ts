import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Onboarding and account security: verified e-mail addresses, one session row per sign-in (access
 * tokens name it and stop working when it is revoked), single-use tokens (e-mail verification,
 * password reset; hashed), 2FA recovery codes (hashed), invitations and the sign-up policy.
 */
export class IdentityOnboarding1795900000100 implements MigrationInterface {
  name = 'IdentityOnboarding1795900000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE identity.node_user ADD COLUMN email_verified_at timestamptz');
    // every existing user was created by an operator (CLI, console, demo): their address counts as verified
    await q.query('UPDATE identity.node_user SET email_verified_at = date_joined');
    await q.query(`
      CREATE TABLE identity.user_session (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES identity.node_user(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        user_agent text NOT NULL DEFAULT '' CHECK (length(user_agent) <= 500),
        ip text NOT NULL DEFAULT '' CHECK (length(ip) <= 100)
      )`);
    await q.query('CREATE INDEX user_session_user ON identity.user_session (user_id) WHERE revoked_at IS NULL');
    await q.query(`
      CREATE TABLE identity.one_time_token (
        token_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES identity.node_user(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('email_verify', 'password_reset')),
        email text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query('CREATE INDEX one_time_token_user ON identity.one_time_token (user_id, purpose)');
    await q.query(`
      CREATE TABLE identity.recovery_code (
        user_id uuid NOT NULL REFERENCES identity.node_user(id) ON DELETE CASCADE,
        code_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at timestamptz,
        PRIMARY KEY (user_id, code_hash)
      )`);
    await q.query(`
      CREATE TABLE identity.invite (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code_hash bytea NOT NULL UNIQUE,
        hint text NOT NULL,
        note text NOT NULL DEFAULT '' CHECK (length(note) <= 200),
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        used_at timestamptz,
        used_by uuid REFERENCES identity.node_user(id) ON DELETE SET NULL
      )`);
    await q.query(`
      CREATE TABLE identity.signup_policy (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        mode text NOT NULL DEFAULT 'open' CHECK (mode IN ('open', 'invite_only')),
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by text
      )`);
    await q.query('INSERT INTO identity.signup_policy (id) VALUES (1)');
    // rate-limiter-flexible's table (lib/rate-limits.ts): sign-up, verification, reset throttles per address
    await q.query('CREATE TABLE IF NOT EXISTS identity.rate_limit (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['signup_policy', 'invite', 'recovery_code', 'one_time_token', 'user_session']) await q.query(`DROP TABLE identity.${table}`);
    await q.query('ALTER TABLE identity.node_user DROP COLUMN email_verified_at');
  }
}
