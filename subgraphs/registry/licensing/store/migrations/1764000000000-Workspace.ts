import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The customer workspace: passwords and sessions of workspace users, sign-in throttling, entitlements
 * granted to an organisation, versioned whitelabel branding and custom frontend builds.
 */
export class Workspace1764000000000 implements MigrationInterface {
  name = 'Workspace1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE licensing.workspace_user ADD COLUMN password_hash text');
    // a user signs in by e-mail alone: one address belongs to one organisation
    await q.query('CREATE UNIQUE INDEX workspace_user_email ON licensing.workspace_user (email)');
    // only the token's SHA-256 is stored: a copy of the table signs nobody in
    await q.query(`
      CREATE TABLE licensing.workspace_session (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash bytea NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES licensing.workspace_user(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    // invitations and password resets: single-use, short-lived, hashed
    await q.query(`
      CREATE TABLE licensing.workspace_password_token (
        token_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES licensing.workspace_user(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('invitation', 'reset')),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    // lib/rate-limits.ts (rate-limiter-flexible's PostgreSQL store)
    await q.query('CREATE TABLE licensing.rate_limit (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)');
    await q.query(`
      CREATE TABLE licensing.organisation_entitlement (
        organisation_id uuid NOT NULL REFERENCES licensing.organisation(id) ON DELETE CASCADE,
        entitlement text NOT NULL CHECK (entitlement ~ '^[a-z][a-z0-9-]{0,62}$'),
        granted_at timestamptz NOT NULL DEFAULT now(),
        granted_by text NOT NULL,
        PRIMARY KEY (organisation_id, entitlement)
      )`);
    // every save is a new version; the latest is the organisation's branding
    await q.query(`
      CREATE TABLE licensing.branding (
        organisation_id uuid NOT NULL REFERENCES licensing.organisation(id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version >= 1),
        display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 80),
        primary_color text NOT NULL CHECK (primary_color ~ '^#[0-9a-f]{6}$'),
        accent_color text NOT NULL CHECK (accent_color ~ '^#[0-9a-f]{6}$'),
        logo_url text,
        logo jsonb,
        favicon_url text,
        favicon jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        PRIMARY KEY (organisation_id, version)
      )`);
    await q.query(`
      CREATE TABLE licensing.frontend_build (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organisation_id uuid NOT NULL REFERENCES licensing.organisation(id) ON DELETE CASCADE,
        branding_version integer NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        log text[] NOT NULL DEFAULT '{}',
        error text,
        frontend jsonb,
        android jsonb,
        ios jsonb,
        requested_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        FOREIGN KEY (organisation_id, branding_version) REFERENCES licensing.branding(organisation_id, version)
      )`);
    await q.query('CREATE INDEX frontend_build_latest ON licensing.frontend_build (organisation_id, created_at DESC)');
    // one build at a time per organisation
    await q.query(`CREATE UNIQUE INDEX frontend_build_running ON licensing.frontend_build (organisation_id) WHERE status IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['frontend_build', 'branding', 'organisation_entitlement', 'rate_limit', 'workspace_password_token', 'workspace_session']) {
      await q.query(`DROP TABLE licensing.${table}`);
    }
    await q.query('DROP INDEX licensing.workspace_user_email');
    await q.query('ALTER TABLE licensing.workspace_user DROP COLUMN password_hash');
  }
}
