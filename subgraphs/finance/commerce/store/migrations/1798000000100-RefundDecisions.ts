import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refund decisions: an order whose payment a dispute refunded is `refunded`
 * (it cannot be fulfilled); a dispute whose refund needs the platform's dispute-loss account records the
 * operator who proposed it until a second operator approves it; a paid order records whether its payer had passed KYC (referral
 * bonuses only then).
 */
export class RefundDecisions1798000000100 implements MigrationInterface {
  name = 'RefundDecisions1798000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE commerce.shop_order DROP CONSTRAINT shop_order_status_check');
    await q.query(
      `ALTER TABLE commerce.shop_order ADD CONSTRAINT shop_order_status_check CHECK (status IN ('pending', 'paid', 'fulfilled', 'cancelled', 'refunded'))`,
    );
    await q.query(
      'ALTER TABLE commerce.dispute ADD COLUMN refund_proposed_by_id uuid, ADD COLUMN refund_proposed_by text, ADD COLUMN refund_proposed_at timestamptz',
    );
    // whether the payer had passed KYC when the order was paid: only then does it pay the referral bonuses
    await q.query('ALTER TABLE commerce.reward_due ADD COLUMN kyc_passed boolean NOT NULL DEFAULT true');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE commerce.reward_due DROP COLUMN kyc_passed');
    await q.query('ALTER TABLE commerce.dispute DROP COLUMN refund_proposed_by_id, DROP COLUMN refund_proposed_by, DROP COLUMN refund_proposed_at');
    await q.query("UPDATE commerce.shop_order SET status = 'paid' WHERE status = 'refunded'");
    await q.query('ALTER TABLE commerce.shop_order DROP CONSTRAINT shop_order_status_check');
    await q.query(`ALTER TABLE commerce.shop_order ADD CONSTRAINT shop_order_status_check CHECK (status IN ('pending', 'paid', 'fulfilled', 'cancelled'))`);
  }
}
