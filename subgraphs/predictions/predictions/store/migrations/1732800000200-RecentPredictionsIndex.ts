import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The "recent" list of the latest predictions (a version's predictions of played matches, latest
 * kick-off first) read from an index in its order: without it, every request in the off-season sorted
 * all of the version's played predictions to keep twenty.
 */
export class RecentPredictionsIndex1732800000200 implements MigrationInterface {
  name = 'RecentPredictionsIndex1732800000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX prediction_recent_idx ON predictions.prediction (version_id, kickoff DESC, match_id DESC) WHERE actual_outcome IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX predictions.prediction_recent_idx');
  }
}
