import type { MigrationInterface, QueryRunner } from 'typeorm';
import { auditOutboxDdl } from '../../../kernel/audit';

/** The audit outbox of the commerce subgraph: operator decisions audited in their own transaction (subgraphs/finance/kernel/audit.ts). */
export class CommerceAuditOutbox1797500000100 implements MigrationInterface {
  name = 'CommerceAuditOutbox1797500000100';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('commerce').up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('commerce').down) await q.query(sql);
  }
}
