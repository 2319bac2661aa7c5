import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log takes entries from the finance subgraphs' outboxes (subgraphs/finance/kernel/audit.ts)
 * by their id: a re-sent entry (a relay that crashed before marking it sent) is inserted once.
 */
export class NodeAuditOutboxId1797500000000 implements MigrationInterface {
  name = 'NodeAuditOutboxId1797500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE node.audit_log ADD COLUMN outbox_id uuid');
    await q.query('CREATE UNIQUE INDEX audit_log_outbox_id ON node.audit_log (outbox_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE node.audit_log DROP COLUMN outbox_id');
  }
}
