import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An application's e-mail address is confirmed (a link mailed to it) before anyone reviews it, so a
 * key is only ever mailed to an address that asked for it: unconfirmed → pending → approved/rejected.
 * Applications still pending from before were never confirmed: they wait for it (applying again
 * mails a link). Also the per-address counters of the abuse limits (rate-limiter-flexible's table).
 */
export class ApplicationConfirmation1732400000100 implements MigrationInterface {
  name = 'ApplicationConfirmation1732400000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE access.application
        DROP CONSTRAINT application_status_check,
        DROP CONSTRAINT application_check,
        ADD COLUMN confirmation_digest bytea,
        ADD COLUMN confirmation_sent_at timestamptz,
        ADD COLUMN confirmed_at timestamptz,
        ALTER COLUMN status SET DEFAULT 'unconfirmed'`);
    await q.query(`UPDATE access.application SET status = 'unconfirmed' WHERE status = 'pending'`);
    await q.query(`
      ALTER TABLE access.application
        ADD CONSTRAINT application_status_check CHECK (status IN ('unconfirmed', 'pending', 'approved', 'rejected')),
        ADD CONSTRAINT application_decided_check CHECK ((status IN ('unconfirmed', 'pending')) = (decided_at IS NULL)),
        ADD CONSTRAINT application_confirmed_check CHECK ((status = 'unconfirmed') = (confirmed_at IS NULL))`);
    await q.query('CREATE UNIQUE INDEX application_confirmation_uq ON access.application (confirmation_digest) WHERE confirmation_digest IS NOT NULL');
    await q.query('DROP INDEX access.application_open_uq');
    await q.query(
      `CREATE UNIQUE INDEX application_open_uq ON access.application (lower(email), usage_digest) WHERE status IN ('unconfirmed', 'pending', 'approved')`,
    );
    // rate-limiter-flexible's PostgreSQL store: one row per limited key (e.g. "applications:203.0.113.7")
    await q.query(`
      CREATE TABLE access.rate_limit (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE access.rate_limit');
    await q.query('DROP INDEX access.application_open_uq');
    await q.query('DROP INDEX access.application_confirmation_uq');
    await q.query(`UPDATE access.application SET status = 'pending' WHERE status = 'unconfirmed'`);
    await q.query(`
      ALTER TABLE access.application
        DROP CONSTRAINT application_confirmed_check,
        DROP CONSTRAINT application_decided_check,
        DROP CONSTRAINT application_status_check,
        DROP COLUMN confirmed_at,
        DROP COLUMN confirmation_sent_at,
        DROP COLUMN confirmation_digest,
        ALTER COLUMN status SET DEFAULT 'pending',
        ADD CONSTRAINT application_status_check CHECK (status IN ('pending', 'approved', 'rejected')),
        ADD CONSTRAINT application_check CHECK ((status = 'pending') = (decided_at IS NULL))`);
    await q.query(`CREATE UNIQUE INDEX application_open_uq ON access.application (lower(email), usage_digest) WHERE status IN ('pending', 'approved')`);
  }
}
