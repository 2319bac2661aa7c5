import type { MigrationInterface, QueryRunner } from 'typeorm';
import { auditOutboxDdl } from '../../../kernel/audit';

/** The audit outbox of the ledger subgraph: operator decisions audited in their own transaction (subgraphs/finance/kernel/audit.ts). */
export class LedgerAuditOutbox1797500000400 implements MigrationInterface {
  name = 'LedgerAuditOutbox1797500000400';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('ledger').up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('ledger').down) await q.query(sql);
  }
}
