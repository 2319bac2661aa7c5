import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator changes (creating, elevating, demoting, freezing or re-activating an operator of the admin
 * console) are two-person decisions: one superuser proposes, another approves
 * (subgraphs/finance/identity/domain/operators.ts). One pending change per user at a time.
 */
export class IdentityOperatorChanges1799100000100 implements MigrationInterface {
  name = 'IdentityOperatorChanges1799100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE identity.operator_change (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES identity.node_user(id) ON DELETE CASCADE,
      change text NOT NULL CHECK (change IN ('superuser', 'support', 'remove_role', 'freeze', 'reactivate')),
      reason text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      proposed_by uuid NOT NULL REFERENCES identity.node_user(id),
      proposed_by_name text NOT NULL,
      proposed_at timestamptz NOT NULL DEFAULT now(),
      decided_by uuid REFERENCES identity.node_user(id),
      decided_by_name text,
      decided_at timestamptz,
      CHECK (status = 'pending' OR decided_by IS NOT NULL),
      CHECK (status <> 'approved' OR decided_by <> proposed_by)
    )`);
    await q.query(`CREATE UNIQUE INDEX operator_change_one_pending ON identity.operator_change (user_id) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX operator_change_recent ON identity.operator_change (proposed_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE identity.operator_change');
  }
}
