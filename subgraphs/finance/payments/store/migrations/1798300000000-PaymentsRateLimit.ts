import type { MigrationInterface, QueryRunner } from 'typeorm';

/** rate-limiter-flexible's table (lib/rate-limits.ts) for the payments module: recipient look-ups per user. */
export class PaymentsRateLimit1798300000000 implements MigrationInterface {
  name = 'PaymentsRateLimit1798300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE IF NOT EXISTS payments.rate_limit (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS payments.rate_limit');
  }
}
