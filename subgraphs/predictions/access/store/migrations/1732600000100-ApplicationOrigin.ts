import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The address an application came through (the prediction API's origin as the applicant's request
 * named it): the links of its mails when PUBLIC_URL_PREDICTIONS is unset (development only;
 * production requires the setting). Null: no HTTP request (the SMTP mailbox, the CLI).
 */
export class ApplicationOrigin1732600000100 implements MigrationInterface {
  name = 'ApplicationOrigin1732600000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE access.application ADD COLUMN origin text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE access.application DROP COLUMN origin');
  }
}
