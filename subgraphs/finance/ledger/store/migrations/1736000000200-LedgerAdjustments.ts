import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Manual adjustments (maker-checker): an administrator proposes a credit or debit of a user's wallet;
 * a different administrator approves it (posted through the ledger against the currency's system
 * `adjustments` account, the transfer's id being the adjustment's) or rejects it. One decision each:
 * the status leaves `pending` once (a conditional UPDATE under the row's lock).
 */
export class LedgerAdjustments1736000000200 implements MigrationInterface {
  name = 'LedgerAdjustments1736000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger.adjustment (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        username text NOT NULL,
        currency text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('credit', 'debit')),
        amount bigint NOT NULL CHECK (amount > 0),
        reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        proposed_by_id uuid NOT NULL,
        proposed_by text NOT NULL,
        proposed_at timestamptz NOT NULL DEFAULT now(),
        decided_by_id uuid,
        decided_by text,
        decided_at timestamptz,
        CHECK ((status = 'pending') = (decided_by_id IS NULL)),
        CHECK (decided_by_id IS NULL OR decided_by_id <> proposed_by_id)
      )`);
    await q.query('CREATE INDEX adjustment_proposed_at ON ledger.adjustment (proposed_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ledger.adjustment');
  }
}
