import type { MigrationInterface, QueryRunner } from 'typeorm';
import { auditOutboxDdl } from '../../../kernel/audit';

/** The audit outbox of the banking subgraph: an operator's void of a stuck movement is audited in its transaction (subgraphs/finance/kernel/audit.ts). */
export class BankingAuditOutbox1799100000200 implements MigrationInterface {
  name = 'BankingAuditOutbox1799100000200';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('banking').up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('banking').down) await q.query(sql);
  }
}
