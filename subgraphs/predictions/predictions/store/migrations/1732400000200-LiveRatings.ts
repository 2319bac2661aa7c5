import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Live ratings between retrains: a version's ratings take in results imported after its training.
 * `version_result` records, by match, the results a version's ratings contain from
 * `results_tracked_from` on (its training results of that period, then each result applied live),
 * so that a result is applied exactly once whatever the concurrency. Versions trained before this
 * contain every result up to their data cut-off.
 */
export class LiveRatings1732400000200 implements MigrationInterface {
  name = 'LiveRatings1732400000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE predictions.model_version
        ADD COLUMN results_tracked_from date,
        ADD COLUMN live_results integer NOT NULL DEFAULT 0,
        ADD COLUMN ratings_through date,
        ADD COLUMN ratings_updated_at timestamptz,
        ADD COLUMN strengths_through date,
        ADD COLUMN strengths_refitted_at timestamptz`);
    await q.query(`UPDATE predictions.model_version SET results_tracked_from = trained_through + 1, ratings_through = trained_through`);
    await q.query(`UPDATE predictions.model_version SET strengths_through = trained_through WHERE kind IN ('dixon-coles', 'ensemble')`);
    await q.query(`ALTER TABLE predictions.model_version ALTER COLUMN results_tracked_from SET NOT NULL, ALTER COLUMN ratings_through SET NOT NULL`);
    await q.query(`
      CREATE TABLE predictions.version_result (
        version_id integer NOT NULL REFERENCES predictions.model_version(id) ON DELETE CASCADE,
        match_id integer NOT NULL,
        match_date date NOT NULL,
        home_goals smallint NOT NULL,
        away_goals smallint NOT NULL,
        source text NOT NULL CHECK (source IN ('training', 'live')),
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (version_id, match_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE predictions.version_result');
    await q.query(`
      ALTER TABLE predictions.model_version
        DROP COLUMN results_tracked_from, DROP COLUMN live_results, DROP COLUMN ratings_through, DROP COLUMN ratings_updated_at,
        DROP COLUMN strengths_through, DROP COLUMN strengths_refitted_at`);
  }
}
