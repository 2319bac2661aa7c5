import type { MigrationInterface, QueryRunner } from 'typeorm';
import { auditOutboxDdl } from '../../../kernel/audit';

/** The audit outbox of the identity subgraph: operator decisions audited in their own transaction (subgraphs/finance/kernel/audit.ts). */
export class IdentityAuditOutbox1797500000300 implements MigrationInterface {
  name = 'IdentityAuditOutbox1797500000300';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('identity').up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('identity').down) await q.query(sql);
  }
}
