import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money invariants kept in the ledger's own tables:
 * - `ledger.reversal`: one reversal per original transfer (its primary key), whoever posts it — a dispute
 *   refund, a shop cancellation; a second one is refused in the transaction that would post it.
 * - `ledger.platform_credit`: the two-person decision behind every credit of a person from a platform
 *   account (a manual adjustment, a dispute refund from the dispute-loss account): proposer and approver
 *   are two different people, neither of them a party of the credit.
 */
export class LedgerReversalsAndApprovals1798000000200 implements MigrationInterface {
  name = 'LedgerReversalsAndApprovals1798000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger.reversal (
        original_transfer_id uuid PRIMARY KEY REFERENCES ledger.transfer (id),
        first_transfer_id uuid NOT NULL REFERENCES ledger.transfer (id),
        batch_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE ledger.platform_credit (
        transfer_id uuid PRIMARY KEY REFERENCES ledger.transfer (id),
        proposed_by uuid NOT NULL,
        approved_by uuid NOT NULL,
        parties uuid[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT platform_credit_two_people CHECK (proposed_by <> approved_by),
        CONSTRAINT platform_credit_no_party CHECK (NOT (proposed_by = ANY (parties)) AND NOT (approved_by = ANY (parties)))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ledger.platform_credit');
    await q.query('DROP TABLE ledger.reversal');
  }
}
