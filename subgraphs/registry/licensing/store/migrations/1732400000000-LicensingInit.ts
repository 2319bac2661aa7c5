import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LicensingInit1732400000000 implements MigrationInterface {
  name = 'LicensingInit1732400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE licensing.organisation (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // the people of a customer organisation who use its workspace (sign-in arrives with the workspace)
    await q.query(`
      CREATE TABLE licensing.workspace_user (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organisation_id uuid NOT NULL REFERENCES licensing.organisation(id) ON DELETE CASCADE,
        email text NOT NULL CHECK (email = lower(email) AND email ~ '^[^@\\s]+@[^@\\s]+$'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        role text NOT NULL CHECK (role IN ('owner', 'member')),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organisation_id, email)
      )`);
    // manifest templates are json, not jsonb: the vendor's order of services and variables is kept
    await q.query(`
      CREATE TABLE licensing.product (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        manifest_template json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE licensing.plan (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        product_id uuid NOT NULL REFERENCES licensing.product(id),
        code text NOT NULL CHECK (code ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        max_nodes integer NOT NULL CHECK (max_nodes BETWEEN 1 AND 100000),
        heartbeat_interval_seconds integer NOT NULL DEFAULT 21600 CHECK (heartbeat_interval_seconds BETWEEN 60 AND 2592000),
        heartbeat_drift_seconds integer NOT NULL DEFAULT 300 CHECK (heartbeat_drift_seconds BETWEEN 0 AND 86400),
        entitlements text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (product_id, code),
        UNIQUE (product_id, id)
      )`);
    await q.query(`
      CREATE TABLE licensing.licence (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organisation_id uuid NOT NULL REFERENCES licensing.organisation(id),
        product_id uuid NOT NULL REFERENCES licensing.product(id),
        plan_id uuid NOT NULL,
        name text,
        key_hash bytea NOT NULL UNIQUE,
        key_prefix text NOT NULL,
        key_sealed text NOT NULL,
        status text NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Suspended', 'Revoked', 'Expired')),
        maintenance_until date NOT NULL,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (product_id, plan_id) REFERENCES licensing.plan(product_id, id)
      )`);
    await q.query('CREATE INDEX licence_organisation ON licensing.licence (organisation_id)');
    await q.query(`
      CREATE TABLE licensing.release (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        product_id uuid NOT NULL REFERENCES licensing.product(id),
        version text NOT NULL,
        channel text NOT NULL CHECK (channel IN ('stable', 'rc', 'beta', 'alpha', 'dev')),
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'yanked')),
        changelog text NOT NULL DEFAULT '',
        manifest_template json NOT NULL,
        published_at timestamptz,
        backdated_to timestamptz,
        yanked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (product_id, version),
        CHECK (status = 'draft' OR published_at IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX release_visible ON licensing.release (product_id, channel) WHERE status = 'published'`);
    await q.query(`
      CREATE TABLE licensing.artifact (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        release_id uuid NOT NULL REFERENCES licensing.release(id) ON DELETE CASCADE,
        component text NOT NULL CHECK (component ~ '^[a-z][a-z0-9-]{0,31}$'),
        filename text NOT NULL CHECK (filename ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$'),
        object_key text NOT NULL UNIQUE,
        media_type text NOT NULL,
        status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'uploaded')),
        size bigint CHECK (size >= 0),
        sha256 text CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        image text,
        image_id text CHECK (image_id ~ '^sha256:[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        uploaded_at timestamptz,
        UNIQUE (release_id, component),
        CHECK (status = 'waiting' OR (size IS NOT NULL AND sha256 IS NOT NULL))
      )`);
    await q.query(`
      CREATE TABLE licensing.deployment (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        licence_id uuid NOT NULL REFERENCES licensing.licence(id) ON DELETE CASCADE,
        hostname text NOT NULL,
        ip_address text NOT NULL,
        current_version text NOT NULL,
        deployment_key text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('alive', 'dead')),
        registered_at timestamptz NOT NULL DEFAULT now(),
        last_heartbeat_at timestamptz NOT NULL,
        dead_after timestamptz NOT NULL,
        died_at timestamptz,
        reported_status text,
        uptime_seconds bigint,
        UNIQUE (licence_id, hostname)
      )`);
    await q.query(`CREATE INDEX deployment_overdue ON licensing.deployment (dead_after) WHERE status = 'alive'`);
    await q.query(`
      CREATE TABLE licensing.deployment_heartbeat (
        id bigserial PRIMARY KEY,
        deployment_id uuid NOT NULL REFERENCES licensing.deployment(id) ON DELETE CASCADE,
        at timestamptz NOT NULL,
        status text NOT NULL,
        uptime_seconds bigint NOT NULL
      )`);
    await q.query('CREATE INDEX deployment_heartbeat_recent ON licensing.deployment_heartbeat (deployment_id, at DESC)');
    await q.query(`
      CREATE TABLE licensing.download_token (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash bytea NOT NULL UNIQUE,
        artifact_id uuid NOT NULL REFERENCES licensing.artifact(id) ON DELETE CASCADE,
        licence_id uuid NOT NULL REFERENCES licensing.licence(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query('CREATE INDEX download_token_expiry ON licensing.download_token (expires_at)');
    await q.query(`
      CREATE TABLE licensing.signing_key (
        id text PRIMARY KEY,
        algorithm text NOT NULL CHECK (algorithm = 'EdDSA'),
        public_key text NOT NULL,
        private_key_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz
      )`);
    await q.query('CREATE UNIQUE INDEX signing_key_active ON licensing.signing_key ((true)) WHERE retired_at IS NULL');
    await q.query(`
      CREATE TABLE licensing.audit_event (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        action text NOT NULL,
        actor text NOT NULL,
        organisation_id uuid,
        licence_id uuid,
        subject_type text NOT NULL,
        subject_id text NOT NULL,
        details jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query('CREATE INDEX audit_event_licence ON licensing.audit_event (licence_id, id DESC)');
    await q.query('CREATE INDEX audit_event_action ON licensing.audit_event (action, id DESC)');
    // one fixed window per licence: the request rate limit
    await q.query(`
      CREATE TABLE licensing.rate_window (
        licence_id uuid PRIMARY KEY REFERENCES licensing.licence(id) ON DELETE CASCADE,
        window_start timestamptz NOT NULL,
        count integer NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'rate_window',
      'audit_event',
      'signing_key',
      'download_token',
      'deployment_heartbeat',
      'deployment',
      'artifact',
      'release',
      'licence',
      'plan',
      'product',
      'workspace_user',
      'organisation',
    ]) {
      await q.query(`DROP TABLE licensing.${table}`);
    }
  }
}
