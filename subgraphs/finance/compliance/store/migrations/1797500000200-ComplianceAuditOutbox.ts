import type { MigrationInterface, QueryRunner } from 'typeorm';
import { auditOutboxDdl } from '../../../kernel/audit';

/** The audit outbox of the compliance subgraph: operator decisions audited in their own transaction (subgraphs/finance/kernel/audit.ts). */
export class ComplianceAuditOutbox1797500000200 implements MigrationInterface {
  name = 'ComplianceAuditOutbox1797500000200';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('compliance').up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('compliance').down) await q.query(sql);
  }
}
