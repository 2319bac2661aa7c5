import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dataChangeTriggers } from '../../../../../lib/cache-policy';

/**
 * The release table announces its changes (lib/cache-policy.ts), by whatever process or path, SQL by
 * hand included: every process keeps each product's published releases in memory (domain/releases.ts)
 * and drops them on the announcement. Form `statement`: the row form's `OLD.* IS DISTINCT FROM NEW.*`
 * cannot compare the json column manifest_template (an UPDATE that reaches it would fail), and
 * releases are written seldom (publish, yank, backdate).
 */
export class ReleaseChanges1766200000000 implements MigrationInterface {
  name = 'ReleaseChanges1766200000000';
  private readonly tables = ['release'];

  async up(q: QueryRunner): Promise<void> {
    for (const statement of dataChangeTriggers('licensing', this.tables, 'statement').up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of dataChangeTriggers('licensing', this.tables, 'statement').down) await q.query(statement);
  }
}
