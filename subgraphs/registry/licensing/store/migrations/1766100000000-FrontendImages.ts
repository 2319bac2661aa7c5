import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A custom frontend build makes one runnable image per release version (the release's generic frontend
 * image plus a layer with the branded client): each kept here with its version; `frontend` stays the
 * newest version's.
 */
export class FrontendImages1766100000000 implements MigrationInterface {
  name = 'FrontendImages1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE licensing.frontend_build ADD COLUMN frontend_images jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE licensing.frontend_build DROP COLUMN frontend_images');
  }
}
