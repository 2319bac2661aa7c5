import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityInit1733000000100 implements MigrationInterface {
  name = 'IdentityInit1733000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identity.node_user (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username text NOT NULL UNIQUE CHECK (username ~ '^[a-z0-9_.@+-]{1,150}$'),
        email text NOT NULL DEFAULT '',
        password_hash text NOT NULL,
        is_superuser boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        -- bumped when the password changes or the user is deactivated: older tokens stop verifying
        token_version integer NOT NULL DEFAULT 0,
        totp_secret_sealed text,
        totp_confirmed_at timestamptz,
        totp_last_step bigint,
        date_joined timestamptz NOT NULL DEFAULT now(),
        last_login timestamptz
      )`);
    await q.query(`
      CREATE TABLE identity.admin_session (
        token_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES identity.node_user(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX admin_session_user ON identity.admin_session (user_id)');
    // failed sign-ins per user name in a sliding window (throttling, shared by every process)
    await q.query(`
      CREATE TABLE identity.login_failure (
        username text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        failures integer NOT NULL CHECK (failures >= 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE identity.login_failure');
    await q.query('DROP TABLE identity.admin_session');
    await q.query('DROP TABLE identity.node_user');
  }
}
