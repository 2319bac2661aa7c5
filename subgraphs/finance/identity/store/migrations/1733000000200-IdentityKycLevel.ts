import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's identity-verification level (none, basic, enhanced): the limits of money movement follow it. */
export class IdentityKycLevel1733000000200 implements MigrationInterface {
  name = 'IdentityKycLevel1733000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.node_user ADD COLUMN kyc_level text NOT NULL DEFAULT 'none' CHECK (kyc_level IN ('none', 'basic', 'enhanced'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE identity.node_user DROP COLUMN kyc_level');
  }
}
