import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The units given back to a key's daily count when the answer was the server's fault (a 5xx, a
 * subgraph failure): one row per metered operation (its ticket, drawn by the gateway when it
 * metered), so a give-back asked twice gives back once (ApiKeyStore.giveBack). Rows of past days go.
 */
export class QuotaGiveBack1732600000000 implements MigrationInterface {
  name = 'QuotaGiveBack1732600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE access.quota_give_back (
        day date NOT NULL,
        key_id uuid NOT NULL REFERENCES access.api_key(id) ON DELETE CASCADE,
        ticket uuid NOT NULL,
        PRIMARY KEY (day, key_id, ticket)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE access.quota_give_back');
  }
}
