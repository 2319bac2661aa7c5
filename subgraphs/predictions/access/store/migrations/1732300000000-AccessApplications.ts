import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Access applications (contract §5): submitted by form or e-mail, decided by an administrator. */
export class AccessApplications1732300000000 implements MigrationInterface {
  name = 'AccessApplications1732300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE access.application (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 2 AND 200),
        email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
        usage text NOT NULL CHECK (length(usage) BETWEEN 10 AND 2000),
        -- SHA-256 of the usage text normalised (case, whitespace): what "the same application" means
        usage_digest text NOT NULL,
        source text NOT NULL CHECK (source IN ('form', 'email')),
        -- Message-ID of an e-mailed application: the same message delivered twice is one application
        message_id text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        plan_code text CHECK (plan_code IN ('free', 'pro', 'enterprise')),
        key_id uuid REFERENCES access.api_key(id),
        decided_at timestamptz,
        decided_by text,
        rejection_reason text CHECK (length(rejection_reason) <= 1000),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'pending') = (decided_at IS NULL)),
        CHECK ((status = 'approved') = (key_id IS NOT NULL AND plan_code IS NOT NULL))
      )`);
    // one open (pending or approved) application per e-mail address and usage: the same application twice is one
    await q.query(`CREATE UNIQUE INDEX application_open_uq ON access.application (lower(email), usage_digest) WHERE status IN ('pending', 'approved')`);
    await q.query('CREATE UNIQUE INDEX application_message_id_uq ON access.application (message_id) WHERE message_id IS NOT NULL');
    // one key per application, one application per key
    await q.query('CREATE UNIQUE INDEX application_key_uq ON access.application (key_id) WHERE key_id IS NOT NULL');
    await q.query('CREATE INDEX application_status_created_idx ON access.application (status, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE access.application');
  }
}
