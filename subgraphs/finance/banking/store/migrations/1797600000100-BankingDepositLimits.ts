import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deposit limits and expiry: a user's deposits in a currency over the last 24 hours are summed at every
 * deposit (user, currency, kind, time), and the expiry sweep looks for old pending movements.
 */
export class BankingDepositLimits1797600000100 implements MigrationInterface {
  name = 'BankingDepositLimits1797600000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX movement_user_currency_kind_created ON banking.movement (user_id, currency, kind, created_at)');
    await q.query("CREATE INDEX movement_pending_created ON banking.movement (created_at) WHERE status = 'pending'");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX banking.movement_pending_created');
    await q.query('DROP INDEX banking.movement_user_currency_kind_created');
  }
}
