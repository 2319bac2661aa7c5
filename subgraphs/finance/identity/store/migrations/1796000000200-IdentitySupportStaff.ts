import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Support staff: a user who may sign in to the admin console below a superuser (users, disputes and KYC
 * reviews; never settings, credentials, the licence or adjustment approvals: SUPPORT_FIELDS in the gate).
 */
export class IdentitySupportStaff1796000000200 implements MigrationInterface {
  name = 'IdentitySupportStaff1796000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE identity.node_user ADD COLUMN is_staff boolean NOT NULL DEFAULT false');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE identity.node_user DROP COLUMN is_staff');
  }
}
