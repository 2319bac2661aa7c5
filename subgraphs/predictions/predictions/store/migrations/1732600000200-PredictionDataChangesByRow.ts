import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dataChangeTriggers } from '../../../../../lib/cache-policy';

/**
 * The tables' change announcements per changed row (lib/cache-policy.ts, form `row`): fixtures
 * predicted again with the same figures, or any UPDATE that leaves its rows as they were, no longer
 * evict the gateways' cached answers. Down: back to one announcement per statement.
 */
export class PredictionDataChangesByRow1732600000200 implements MigrationInterface {
  name = 'PredictionDataChangesByRow1732600000200';
  private readonly tables = ['prediction', 'model_version', 'version_result'];

  async up(q: QueryRunner): Promise<void> {
    for (const statement of dataChangeTriggers('predictions', this.tables, 'row').up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of dataChangeTriggers('predictions', this.tables, 'statement').up) await q.query(statement);
  }
}
