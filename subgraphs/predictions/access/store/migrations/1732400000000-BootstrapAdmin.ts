import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The administrator key the system seeds itself (from ADMIN_API_KEY, or generated at the first start)
 * is marked: a new ADMIN_API_KEY replaces it, and the replaced key is revoked.
 */
export class BootstrapAdmin1732400000000 implements MigrationInterface {
  name = 'BootstrapAdmin1732400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE access.api_key ADD COLUMN bootstrap boolean NOT NULL DEFAULT false');
    // the names the seeding gave them until now
    await q.query(`UPDATE access.api_key SET bootstrap = true WHERE role = 'admin' AND name IN ('Administrator (ADMIN_API_KEY)', 'Administrator')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE access.api_key DROP COLUMN bootstrap');
  }
}
