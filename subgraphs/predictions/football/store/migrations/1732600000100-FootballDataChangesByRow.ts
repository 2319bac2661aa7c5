import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dataChangeTriggers } from '../../../../../lib/cache-policy';

/**
 * The tables' change announcements per changed row (lib/cache-policy.ts, form `row`): an import that
 * writes the same teams and matches again, or any UPDATE that leaves its rows as they were, no longer
 * evicts the gateways' cached answers. Down: back to one announcement per statement.
 */
export class FootballDataChangesByRow1732600000100 implements MigrationInterface {
  name = 'FootballDataChangesByRow1732600000100';
  private readonly tables = ['competition', 'team', 'team_alias', 'match'];

  async up(q: QueryRunner): Promise<void> {
    for (const statement of dataChangeTriggers('football', this.tables, 'row').up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of dataChangeTriggers('football', this.tables, 'statement').up) await q.query(statement);
  }
}
