import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in and one-time-code attempts, reserved before they are verified (lib/attempts.ts, on
 * rate-limiter-flexible's PostgreSQL store): the counts per address, account and both.
 */
export class IdentityAttempts1795900000500 implements MigrationInterface {
  name = 'IdentityAttempts1795900000500';

  async up(q: QueryRunner): Promise<void> {
    // the onboarding migration may have made it already (the same table: rate-limiter-flexible's shape)
    await q.query('CREATE TABLE IF NOT EXISTS identity.rate_limit (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS identity.rate_limit');
  }
}
