import type { PoolClient } from 'pg';
import { inTransaction, type Store } from '../../../lib/database';
import { conflict } from '../../../lib/errors';

export type Outcome = 'H' | 'D' | 'A';

export interface VersionRow {
  id: number;
  number: number;
  kind: string;
  hyper: Record<string, number>;
  trainingFrom: string;
  trainedThrough: string;
  matchCount: number;
  evaluation: Record<string, unknown>;
  metrics: Record<string, unknown> | null;
  /** Wall time of the walk-forward backtest and final fit. */
  trainingMs: number;
  isActive: boolean;
  createdAt: Date;
  activatedAt: Date | null;
}

export interface PredictionInsert {
  matchId: number;
  competition: string;
  season: string;
  kickoff: Date;
  homeTeamId: number;
  awayTeamId: number;
  homeTeamName: string;
  awayTeamName: string;
  pHome: number;
  pDraw: number;
  pAway: number;
  expHomeGoals: number;
  expAwayGoals: number;
  predictedOutcome: Outcome;
  confidence: number;
  actualOutcome: Outcome | null;
}

export interface PredictionRow extends PredictionInsert {
  id: number;
  versionId: number;
  versionNumber: number;
  source: 'backtest' | 'upcoming';
  correct: boolean | null;
  createdAt: Date;
  resolvedAt: Date | null;
}

export interface RunRow {
  id: string;
  kind: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  phase: string | null;
  progress: number;
  requestedBy: string;
  versionId: number | null;
  versionNumber: number | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const VERSION_COLUMNS = `id, number, kind, hyper, to_char(training_from, 'YYYY-MM-DD') AS "trainingFrom", to_char(trained_through, 'YYYY-MM-DD') AS "trainedThrough",
  match_count AS "matchCount", evaluation, metrics, training_ms AS "trainingMs", is_active AS "isActive",
  created_at AS "createdAt", activated_at AS "activatedAt"`;

const PREDICTION_COLUMNS = `p.id, p.version_id AS "versionId", v.number AS "versionNumber", p.match_id AS "matchId", p.source, p.competition, p.season, p.kickoff,
  p.home_team_id AS "homeTeamId", p.away_team_id AS "awayTeamId", p.home_team_name AS "homeTeamName", p.away_team_name AS "awayTeamName", p.p_home AS "pHome", p.p_draw AS "pDraw", p.p_away AS "pAway",
  p.exp_home_goals AS "expHomeGoals", p.exp_away_goals AS "expAwayGoals", p.predicted_outcome AS "predictedOutcome", p.confidence,
  p.actual_outcome AS "actualOutcome", p.correct, p.created_at AS "createdAt", p.resolved_at AS "resolvedAt"`;

const RUN_COLUMNS = `r.id, r.kind, r.status, r.phase, r.progress, r.requested_by AS "requestedBy", r.version_id AS "versionId", v.number AS "versionNumber",
  r.error, r.created_at AS "createdAt", r.started_at AS "startedAt", r.finished_at AS "finishedAt"`;

const BATCH = 4000;

/** NOTIFY channel: another version became active. */
export const VERSION_ACTIVATED = 'predictions_version_activated';

/** SQL of the predictions schema. */
export class PredictionStore {
  constructor(private readonly store: Store) {}

  private get pool() {
    return this.store.pool;
  }

  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  // ---- model versions

  async insertVersion(
    client: PoolClient,
    v: { kind: string; hyper: Record<string, number>; state: unknown; trainingFrom: string; trainedThrough: string; matchCount: number; evaluation: unknown; metrics: unknown; trainingMs: number },
  ): Promise<VersionRow> {
    // version numbers are handed out under a lock so that two trainings never share one
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('predictions.model_version.number'))`);
    const { rows } = await client.query(
      `INSERT INTO predictions.model_version (number, kind, hyper, state, training_from, trained_through, match_count, evaluation, metrics, training_ms)
       VALUES ((SELECT coalesce(max(number), 0) + 1 FROM predictions.model_version), $1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${VERSION_COLUMNS}`,
      [v.kind, JSON.stringify(v.hyper), JSON.stringify(v.state), v.trainingFrom, v.trainedThrough, v.matchCount, JSON.stringify(v.evaluation), JSON.stringify(v.metrics), v.trainingMs],
    );
    return rows[0];
  }

  /** Makes a version the active one; every process holding the active model hears of it (NOTIFY). */
  async activate(client: PoolClient, versionId: number): Promise<void> {
    await client.query('UPDATE predictions.model_version SET is_active = false WHERE is_active AND id <> $1', [versionId]);
    await client.query('UPDATE predictions.model_version SET is_active = true, activated_at = now() WHERE id = $1 AND NOT is_active', [versionId]);
    await client.query('SELECT pg_notify($1, $2)', [VERSION_ACTIVATED, String(versionId)]);
  }

  async versionByNumber(number: number): Promise<VersionRow | undefined> {
    const { rows } = await this.pool.query(`SELECT ${VERSION_COLUMNS} FROM predictions.model_version WHERE number = $1`, [number]);
    return rows[0];
  }

  /** A version's walk-forward backtest predictions, by kick-off, keyset-paginated. */
  async backtest(versionId: number, opts: { competition?: string; after?: { kickoff: Date; id: number }; limit: number }): Promise<PredictionRow[]> {
    const values: unknown[] = [versionId, opts.limit];
    let where = `p.version_id = $1 AND p.source = 'backtest'`;
    if (opts.competition) {
      values.push(opts.competition);
      where += ` AND p.competition = $${values.length}`;
    }
    if (opts.after) {
      values.push(opts.after.kickoff, opts.after.id);
      where += ` AND (p.kickoff, p.match_id) > ($${values.length - 1}, $${values.length})`;
    }
    const { rows } = await this.pool.query(
      `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
        WHERE ${where} ORDER BY p.kickoff, p.match_id LIMIT $2`,
      values,
    );
    return rows;
  }

  async versions(): Promise<VersionRow[]> {
    const { rows } = await this.pool.query(`SELECT ${VERSION_COLUMNS} FROM predictions.model_version ORDER BY number`);
    return rows;
  }

  async activeVersion(): Promise<(VersionRow & { state: unknown }) | undefined> {
    const { rows } = await this.pool.query(`SELECT ${VERSION_COLUMNS}, state FROM predictions.model_version WHERE is_active`);
    return rows[0];
  }

  async versionWithState(id: number): Promise<(VersionRow & { state: unknown }) | undefined> {
    const { rows } = await this.pool.query(`SELECT ${VERSION_COLUMNS}, state FROM predictions.model_version WHERE id = $1`, [id]);
    return rows[0];
  }

  // ---- predictions

  /** Inserts (or, for the same version and match, replaces) predictions. */
  async savePredictions(client: PoolClient, versionId: number, source: 'backtest' | 'upcoming', rows: PredictionInsert[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      const b = rows.slice(i, i + BATCH);
      const col = <K extends keyof PredictionInsert>(k: K) => b.map((r) => r[k]);
      await client.query(
        `INSERT INTO predictions.prediction AS p (version_id, source, match_id, competition, season, kickoff, home_team_id, away_team_id,
             home_team_name, away_team_name, p_home, p_draw, p_away, exp_home_goals, exp_away_goals, predicted_outcome, confidence, actual_outcome, correct, resolved_at)
         SELECT $1, $2, t.*, CASE WHEN t.actual IS NULL THEN NULL ELSE t.actual = t.predicted END, CASE WHEN t.actual IS NULL THEN NULL ELSE now() END
           FROM unnest($3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::int[], $8::int[], $17::text[], $18::text[], $9::float8[], $10::float8[], $11::float8[],
                       $12::float8[], $13::float8[], $14::char(1)[], $15::float8[], $16::char(1)[])
                AS t(match_id, competition, season, kickoff, home, away, home_name, away_name, ph, pd, pa, eh, ea, predicted, confidence, actual)
         ON CONFLICT (version_id, match_id) DO UPDATE SET
           source = EXCLUDED.source, competition = EXCLUDED.competition, season = EXCLUDED.season, kickoff = EXCLUDED.kickoff,
           home_team_id = EXCLUDED.home_team_id, away_team_id = EXCLUDED.away_team_id,
           home_team_name = EXCLUDED.home_team_name, away_team_name = EXCLUDED.away_team_name,
           p_home = EXCLUDED.p_home, p_draw = EXCLUDED.p_draw, p_away = EXCLUDED.p_away,
           exp_home_goals = EXCLUDED.exp_home_goals, exp_away_goals = EXCLUDED.exp_away_goals,
           predicted_outcome = EXCLUDED.predicted_outcome, confidence = EXCLUDED.confidence
         WHERE p.actual_outcome IS NULL`,
        [
          versionId, source, col('matchId'), col('competition'), col('season'), col('kickoff'), col('homeTeamId'), col('awayTeamId'),
          col('pHome'), col('pDraw'), col('pAway'), col('expHomeGoals'), col('expAwayGoals'), col('predictedOutcome'), col('confidence'), col('actualOutcome'),
          col('homeTeamName'), col('awayTeamName'),
        ],
      );
    }
  }

  /** Open upcoming predictions of matches that are no longer scheduled (postponed, cancelled) go. */
  async dropStaleUpcoming(client: PoolClient, versionId: number, scheduledMatchIds: number[]): Promise<void> {
    await client.query(
      `DELETE FROM predictions.prediction WHERE version_id = $1 AND source = 'upcoming' AND actual_outcome IS NULL AND NOT (match_id = ANY($2::int[]))`,
      [versionId, scheduledMatchIds],
    );
  }

  /** Records results: every open prediction of these matches (any version) is marked correct or not. */
  async resolve(results: { matchId: number; outcome: Outcome }[]): Promise<number> {
    if (!results.length) return 0;
    const { rowCount } = await this.pool.query(
      `UPDATE predictions.prediction p SET actual_outcome = r.outcome, correct = (p.predicted_outcome = r.outcome), resolved_at = now()
         FROM unnest($1::int[], $2::char(1)[]) AS r(match_id, outcome)
        WHERE p.match_id = r.match_id AND p.actual_outcome IS NULL`,
      [results.map((r) => r.matchId), results.map((r) => r.outcome)],
    );
    return rowCount ?? 0;
  }

  /** Matches with an open prediction (any version): the ones whose results are awaited. */
  async openMatchIds(): Promise<number[]> {
    const { rows } = await this.pool.query('SELECT DISTINCT match_id FROM predictions.prediction WHERE actual_outcome IS NULL');
    return rows.map((r: { match_id: number }) => r.match_id);
  }

  /** Open predictions of a version, soonest kick-off first. */
  async upcoming(versionId: number, limit: number, competition?: string): Promise<PredictionRow[]> {
    const { rows } = await this.pool.query({
      name: competition ? 'predictions.upcoming_in' : 'predictions.upcoming',
      text: `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
              WHERE p.version_id = $1 AND p.actual_outcome IS NULL ${competition ? 'AND p.competition = $3' : ''}
              ORDER BY p.kickoff, p.match_id LIMIT $2`,
      values: competition ? [versionId, limit, competition] : [versionId, limit],
    });
    return rows;
  }

  async byMatchIds(versionId: number, matchIds: readonly number[]): Promise<PredictionRow[]> {
    const { rows } = await this.pool.query({
      name: 'predictions.by_match_ids',
      text: `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
              WHERE p.version_id = $1 AND p.match_id = ANY($2::int[])`,
      values: [versionId, matchIds],
    });
    return rows;
  }

  async history(matchId: number): Promise<PredictionRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
        WHERE p.match_id = $1 ORDER BY v.number`,
      [matchId],
    );
    return rows;
  }

  // ---- statistics

  async overview(versionId: number): Promise<{ total: number; resolved: number; correct: number; averageConfidence: number | null }> {
    const { rows } = await this.pool.query({
      name: 'predictions.overview',
      text: `SELECT count(*) AS total, count(correct) AS resolved, count(*) FILTER (WHERE correct) AS correct, avg(confidence) AS "averageConfidence"
               FROM predictions.prediction WHERE version_id = $1`,
      values: [versionId],
    });
    return rows[0];
  }

  async confidenceBands(versionId: number, high: number, medium: number) {
    const { rows } = await this.pool.query({
      name: 'predictions.bands',
      text: `SELECT count(*) FILTER (WHERE confidence >= $2) AS high,
                    count(*) FILTER (WHERE confidence >= $3 AND confidence < $2) AS medium,
                    count(*) FILTER (WHERE confidence < $3) AS low,
                    avg(correct::int) FILTER (WHERE confidence >= $2) AS "highHitRate",
                    avg(correct::int) FILTER (WHERE confidence >= $3 AND confidence < $2) AS "mediumHitRate",
                    avg(correct::int) FILTER (WHERE confidence < $3) AS "lowHitRate"
               FROM predictions.prediction WHERE version_id = $1`,
      values: [versionId, high, medium],
    });
    return rows[0] as { high: number; medium: number; low: number; highHitRate: number | null; mediumHitRate: number | null; lowHitRate: number | null };
  }

  /** Accuracy over each version's resolved predictions (backtest and live). */
  async accuracyByVersion(): Promise<{ versionId: number; number: number; predictions: number; resolved: number; accuracy: number | null }[]> {
    const { rows } = await this.pool.query(
      `SELECT v.id AS "versionId", v.number, count(p.id) AS predictions, count(p.correct) AS resolved, avg(p.correct::int) AS accuracy
         FROM predictions.model_version v LEFT JOIN predictions.prediction p ON p.version_id = v.id
        GROUP BY v.id ORDER BY v.number`,
    );
    return rows;
  }

  // ---- training runs

  /**
   * A run whose process died (crash, kill) stops blocking new ones: running without a heartbeat
   * for 2 minutes, or queued and never started for 10, it is marked failed.
   */
  async failAbandonedRuns(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE predictions.training_run SET status = 'failed', error = 'interrupted: no progress reported (process stopped?)', finished_at = now()
        WHERE (status = 'running' AND heartbeat_at < now() - interval '2 minutes')
           OR (status = 'queued' AND created_at < now() - interval '10 minutes')`,
    );
    return rowCount ?? 0;
  }

  async createRun(kind: string, requestedBy: string): Promise<RunRow> {
    await this.failAbandonedRuns();
    try {
      const { rows } = await this.pool.query(
        `WITH r AS (INSERT INTO predictions.training_run (kind, status, requested_by) VALUES ($1, 'queued', $2) RETURNING *)
         SELECT ${RUN_COLUMNS} FROM r LEFT JOIN predictions.model_version v ON v.id = r.version_id`,
        [kind, requestedBy],
      );
      return rows[0];
    } catch (err) {
      if ((err as { code?: string }).code === '23505') {
        const active = await this.activeRun();
        throw conflict('A retrain is already queued or running.', active ? { jobId: active.id, status: active.status } : undefined);
      }
      throw err;
    }
  }

  async updateRun(id: string, fields: Partial<Pick<RunRow, 'status' | 'phase' | 'progress' | 'versionId' | 'error'>> & { started?: boolean; finished?: boolean }): Promise<void> {
    await this.pool.query(
      `UPDATE predictions.training_run SET
         status = coalesce($2, status), phase = coalesce($3, phase), progress = coalesce($4, progress),
         version_id = coalesce($5, version_id), error = coalesce($6, error),
         started_at = CASE WHEN $7 THEN now() ELSE started_at END,
         finished_at = CASE WHEN $8 THEN now() ELSE finished_at END,
         heartbeat_at = now()
       WHERE id = $1`,
      [id, fields.status ?? null, fields.phase ?? null, fields.progress ?? null, fields.versionId ?? null, fields.error ?? null, fields.started ?? false, fields.finished ?? false],
    );
  }

  async run(id: string): Promise<RunRow | undefined> {
    const { rows } = await this.pool.query(
      `SELECT ${RUN_COLUMNS} FROM predictions.training_run r LEFT JOIN predictions.model_version v ON v.id = r.version_id WHERE r.id = $1`,
      [id],
    );
    return rows[0];
  }

  async activeRun(): Promise<RunRow | undefined> {
    const { rows } = await this.pool.query(
      `SELECT ${RUN_COLUMNS} FROM predictions.training_run r LEFT JOIN predictions.model_version v ON v.id = r.version_id
        WHERE r.status IN ('queued', 'running')`,
    );
    return rows[0];
  }

  async runs(limit: number): Promise<RunRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${RUN_COLUMNS} FROM predictions.training_run r LEFT JOIN predictions.model_version v ON v.id = r.version_id
        ORDER BY r.created_at DESC LIMIT $1`,
      [limit],
    );
    return rows;
  }

  async versionCount(): Promise<number> {
    const { rows } = await this.pool.query('SELECT count(*) AS n FROM predictions.model_version');
    return rows[0].n;
  }
}
