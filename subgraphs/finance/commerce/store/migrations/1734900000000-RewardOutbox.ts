import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rewards outbox: a qualifying transaction (a paid shop order) is recorded here in the same
 * transaction that marks the order paid, and the points are granted from it afterwards (at once, and
 * by the drain job until it succeeds). Paid orders of before this migration whose points never
 * arrived are queued too: the grant's ledger ids are derived from the order, so one already granted
 * is answered `exists` and recorded, not paid twice.
 */
export class RewardOutbox1734900000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE commerce.reward_due (
        reference text PRIMARY KEY,
        user_id uuid NOT NULL,
        amount bigint NOT NULL,
        currency text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        granted_at timestamptz
      )`);
    await q.query('CREATE INDEX reward_due_pending ON commerce.reward_due (created_at) WHERE granted_at IS NULL');
    await q.query(`
      INSERT INTO commerce.reward_due (reference, user_id, amount, currency, created_at)
      SELECT 'order:' || o.id, o.user_id, o.total, o.currency, o.created_at
        FROM commerce.shop_order o
       WHERE o.status IN ('paid', 'fulfilled')
         AND NOT EXISTS (SELECT 1 FROM commerce.reward_event e WHERE e.reference = 'order:' || o.id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE commerce.reward_due');
  }
}
