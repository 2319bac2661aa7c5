import type { MigrationInterface, QueryRunner } from 'typeorm';
/**
 * Points go back when the payment that earned them is refunded or reversed: an owed row records what
 * its transaction earns (fixed once, before the first grant) and when it was taken back (a grant
 * after that grants nothing), and a referral records the order whose grant paid its bonuses (they go
 * back with that order, and the next paid order earns them).
 */
export class RewardReversal1735100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE commerce.reward_due ADD COLUMN points bigint CHECK (points >= 0), ADD COLUMN reversed_at timestamptz');
    await q.query('DROP INDEX commerce.reward_due_pending');
    await q.query('CREATE INDEX reward_due_pending ON commerce.reward_due (created_at) WHERE granted_at IS NULL AND reversed_at IS NULL');
    await q.query('ALTER TABLE commerce.referral ADD COLUMN rewarded_order_id uuid');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE commerce.referral DROP COLUMN rewarded_order_id');
    await q.query('DROP INDEX commerce.reward_due_pending');
    await q.query('CREATE INDEX reward_due_pending ON commerce.reward_due (created_at) WHERE granted_at IS NULL');
    await q.query('ALTER TABLE commerce.reward_due DROP COLUMN points, DROP COLUMN reversed_at');
  }
}
