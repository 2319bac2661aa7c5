import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyTableSql } from '../../../../../lib/idempotency';

/**
 * Identity verification (Sumsub/Onfido model): one verification per user and level, its documents
 * (bytes in the object store, their checked type, size and SHA-256 here), and the provider's webhook
 * deliveries already applied (a delivery seen twice is applied once), and the Idempotency-Key records of uploads.
 */
export class ComplianceInit1734100000000 implements MigrationInterface {
  name = 'ComplianceInit1734100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE compliance.verification (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        level text NOT NULL CHECK (level IN ('basic', 'enhanced')),
        state text NOT NULL CHECK (state IN ('unverified', 'pending', 'in_review', 'verified', 'rejected', 'resubmission_required', 'expired')),
        provider text NOT NULL,
        applicant_id text,
        first_name text NOT NULL,
        last_name text NOT NULL,
        reason text NOT NULL DEFAULT '',
        submitted_at timestamptz,
        reviewed_at timestamptz,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, level),
        CHECK (state <> 'verified' OR expires_at IS NOT NULL)
      )`);
    await q.query('CREATE UNIQUE INDEX verification_applicant ON compliance.verification (provider, applicant_id) WHERE applicant_id IS NOT NULL');
    await q.query(`CREATE INDEX verification_expiring ON compliance.verification (expires_at) WHERE state = 'verified'`);
    await q.query(`
      CREATE TABLE compliance.document (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        verification_id uuid NOT NULL REFERENCES compliance.verification(id),
        kind text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL CHECK (size > 0),
        sha256 text NOT NULL,
        object_key text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX document_verification ON compliance.document (verification_id, created_at)');
    await q.query(`
      CREATE TABLE compliance.webhook_delivery (
        provider text NOT NULL,
        delivery_id text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, delivery_id)
      )`);
    await q.query(idempotencyTableSql('compliance'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE compliance.idempotency_key');
    await q.query('DROP TABLE compliance.webhook_delivery');
    await q.query('DROP TABLE compliance.document');
    await q.query('DROP TABLE compliance.verification');
  }
}
