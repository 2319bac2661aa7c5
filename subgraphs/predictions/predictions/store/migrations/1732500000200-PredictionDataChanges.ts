import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dataChangeTriggers } from '../../../../../lib/cache-policy';

/**
 * Every change to the tables the response cache keeps answers of (the `tables` of ../../cache.ts)
 * announces itself (lib/cache-policy.ts): the gateways evict what they hold of them.
 */
export class PredictionDataChanges1732500000200 implements MigrationInterface {
  name = 'PredictionDataChanges1732500000200';
  private readonly sql = dataChangeTriggers('predictions', ['prediction', 'model_version', 'version_result'], 'statement');

  async up(q: QueryRunner): Promise<void> {
    for (const statement of this.sql.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of this.sql.down) await q.query(statement);
  }
}
