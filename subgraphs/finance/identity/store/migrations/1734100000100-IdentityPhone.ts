import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's phone number (E.164, unique, optional): a recipient of internal transfers can be named by it. */
export class IdentityPhone1734100000100 implements MigrationInterface {
  name = 'IdentityPhone1734100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.node_user ADD COLUMN phone text CHECK (phone ~ '^\\+[1-9][0-9]{6,14}$')`);
    await q.query('CREATE UNIQUE INDEX node_user_phone ON identity.node_user (phone) WHERE phone IS NOT NULL');
    // recipients are found by e-mail too (case-insensitive, as people type it)
    await q.query('CREATE INDEX node_user_email_lower ON identity.node_user (lower(email))');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX identity.node_user_email_lower');
    await q.query('ALTER TABLE identity.node_user DROP COLUMN phone');
  }
}
