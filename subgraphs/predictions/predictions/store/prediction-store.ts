import type { JobStatusName } from '../vocabulary';
import pg, { type PoolClient } from 'pg';
import { inTransaction, type Store } from '../../../../lib/database';
import { conflict } from '../../../../lib/errors';

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
  live: LiveState;
}

/** What the version's ratings took in since training (live ratings). */
export interface LiveState {
  /** Results applied since training. */
  results: number;
  /** Latest match date in the ratings. */
  ratingsThrough: string;
  ratingsUpdatedAt: Date | null;
  /** Data cut-off of the Dixon–Coles strengths (null for a model without them). */
  strengthsThrough: string | null;
  strengthsRefittedAt: Date | null;
  /** From this day on the version's results are recorded by match (version_result); earlier ones are all in it. */
  resultsTrackedFrom: string;
}

/** A result as a version's ratings contain it. */
export interface VersionResult {
  matchId: number;
  date: string;
  homeGoals: number;
  awayGoals: number;
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
  status: JobStatusName;
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
  created_at AS "createdAt", activated_at AS "activatedAt",
  json_build_object('results', live_results, 'ratingsThrough', to_char(ratings_through, 'YYYY-MM-DD'), 'ratingsUpdatedAt', ratings_updated_at,
    'strengthsThrough', to_char(strengths_through, 'YYYY-MM-DD'), 'strengthsRefittedAt', strengths_refitted_at,
    'resultsTrackedFrom', to_char(results_tracked_from, 'YYYY-MM-DD')) AS live`;

/**
 * A prediction's columns. Its times come as epoch milliseconds (a float8, made a Date by
 * `predictionRow`): far cheaper to read than timestamp text, on the hottest read of the API.
 */
const PREDICTION_COLUMNS = `p.id, p.version_id AS "versionId", v.number AS "versionNumber", p.match_id AS "matchId", p.source, p.competition, p.season,
  (extract(epoch FROM p.kickoff) * 1000)::float8 AS "kickoff",
  p.home_team_id AS "homeTeamId", p.away_team_id AS "awayTeamId", p.home_team_name AS "homeTeamName", p.away_team_name AS "awayTeamName", p.p_home AS "pHome", p.p_draw AS "pDraw", p.p_away AS "pAway",
  p.exp_home_goals AS "expHomeGoals", p.exp_away_goals AS "expAwayGoals", p.predicted_outcome AS "predictedOutcome", p.confidence,
  p.actual_outcome AS "actualOutcome", p.correct, (extract(epoch FROM p.created_at) * 1000)::float8 AS "createdAt",
  (extract(epoch FROM p.resolved_at) * 1000)::float8 AS "resolvedAt"`;

type RawPredictionRow = Omit<PredictionRow, 'kickoff' | 'createdAt' | 'resolvedAt'> & { kickoff: number; createdAt: number; resolvedAt: number | null };

const predictionRow = (r: RawPredictionRow): PredictionRow => ({
  ...r,
  kickoff: new Date(r.kickoff),
  createdAt: new Date(r.createdAt),
  resolvedAt: r.resolvedAt === null ? null : new Date(r.resolvedAt),
});

const RUN_COLUMNS = `r.id, r.kind, r.status, r.phase, r.progress, r.requested_by AS "requestedBy", r.version_id AS "versionId", v.number AS "versionNumber",
  r.error, r.created_at AS "createdAt", r.started_at AS "startedAt", r.finished_at AS "finishedAt"`;

const BATCH = 4000;

/** NOTIFY channel: another version became active, or the active version's ratings changed (live ratings). */
export const MODEL_CHANGED = 'predictions_model_changed';

/** Advisory-lock namespace of training-run leases (the run id's hash is the second key). */
const RUN_LEASE = 0x7472_6e00;
const ABANDONED_RUNNING = 'interrupted: the process running it stopped before it finished; start a new retrain';
const ABANDONED_QUEUED = 'interrupted: its job was lost before it started (the process that took it stopped); start a new retrain';

/**
 * Holds a running run's lease: a session advisory lock on a dedicated connection, taken again after
 * the connection is lost (PostgreSQL restarted). Resolves once held the first time.
 */
export function holdRunLease(url: string, runId: string, onLost: (err: unknown) => void): { held: Promise<void>; release(): Promise<void> } {
  let client: pg.Client | undefined;
  let released = false;
  let retry: NodeJS.Timeout | undefined;
  let first: (() => void) | undefined;
  const held = new Promise<void>((resolve) => (first = resolve));
  const again = () => {
    if (!released && !retry) retry = setTimeout(() => ((retry = undefined), void take()), 1_000);
  };
  const take = async () => {
    if (released) return;
    const c = new pg.Client({ connectionString: url, application_name: 'matchday:training-lease', connectionTimeoutMillis: 5_000 });
    c.on('error', (err) => {
      onLost(err);
      if (client === c) client = undefined;
      c.end().catch(() => undefined);
      again();
    });
    try {
      await c.connect();
      await c.query('SELECT pg_advisory_lock($1, hashtext($2))', [RUN_LEASE, runId]);
      if (released) return void (await c.end().catch(() => undefined));
      client = c;
      first?.();
      first = undefined;
    } catch (err) {
      onLost(err);
      c.end().catch(() => undefined);
      again();
    }
  };
  void take();
  return {
    held,
    async release() {
      released = true;
      clearTimeout(retry);
      first?.();
      await client?.end().catch(() => undefined);
    },
  };
}

/** SQL of the predictions schema. */
export class PredictionStore {
  constructor(private readonly store: Store) {}

  private get pool() {
    return this.store.pool;
  }

  /** The database's URL, for a run's lease connection (holdRunLease). */
  get url(): string {
    return this.store.url;
  }

  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  // ---- model versions

  async insertVersion(
    client: PoolClient,
    v: {
      kind: string;
      hyper: Record<string, number>;
      state: unknown;
      trainingFrom: string;
      trainedThrough: string;
      matchCount: number;
      evaluation: unknown;
      metrics: unknown;
      trainingMs: number;
      resultsTrackedFrom: string;
      hasStrengths: boolean;
    },
  ): Promise<VersionRow> {
    // version numbers are handed out under a lock so that two trainings never share one
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('predictions.model_version.number'))`);
    const { rows } = await client.query<VersionRow>(
      `INSERT INTO predictions.model_version (number, kind, hyper, state, training_from, trained_through, match_count, evaluation, metrics, training_ms,
           results_tracked_from, ratings_through, strengths_through)
       VALUES ((SELECT coalesce(max(number), 0) + 1 FROM predictions.model_version), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $5, CASE WHEN $11 THEN $5::date END)
       RETURNING ${VERSION_COLUMNS}`,
      [
        v.kind,
        JSON.stringify(v.hyper),
        JSON.stringify(v.state),
        v.trainingFrom,
        v.trainedThrough,
        v.matchCount,
        JSON.stringify(v.evaluation),
        JSON.stringify(v.metrics),
        v.trainingMs,
        v.resultsTrackedFrom,
        v.hasStrengths,
      ],
    );
    return rows[0];
  }

  // ---- live ratings

  /** Records results a version's ratings contain; results already recorded are left as they are. */
  async recordResults(client: PoolClient, versionId: number, results: readonly VersionResult[], source: 'training' | 'live'): Promise<void> {
    for (let i = 0; i < results.length; i += BATCH) {
      const b = results.slice(i, i + BATCH);
      await client.query(
        `INSERT INTO predictions.version_result (version_id, match_id, match_date, home_goals, away_goals, source)
         SELECT $1, t.* , $6 FROM unnest($2::int[], $3::date[], $4::int[], $5::int[]) AS t
         ON CONFLICT (version_id, match_id) DO NOTHING`,
        [versionId, b.map((r) => r.matchId), b.map((r) => r.date), b.map((r) => r.homeGoals), b.map((r) => r.awayGoals), source],
      );
    }
  }

  /**
   * The version row with its state, locked until the transaction ends: every change of a version's
   * ratings happens under this lock, so two updates at once never both apply a result.
   */
  async lockVersion(client: PoolClient, versionId: number): Promise<(VersionRow & { state: unknown }) | undefined> {
    const { rows } = await client.query<VersionRow & { state: unknown }>(
      `SELECT ${VERSION_COLUMNS}, state FROM predictions.model_version WHERE id = $1 FOR UPDATE`,
      [versionId],
    );
    return rows[0];
  }

  /** Which of these matches the version's ratings already contain. */
  async containedResults(client: PoolClient, versionId: number, matchIds: readonly number[]): Promise<Set<number>> {
    const { rows } = await client.query('SELECT match_id FROM predictions.version_result WHERE version_id = $1 AND match_id = ANY($2::int[])', [
      versionId,
      matchIds,
    ]);
    return new Set(rows.map((r: { match_id: number }) => r.match_id));
  }

  /** The latest match date applied live (null when none). */
  async latestLiveResult(versionId: number): Promise<string | null> {
    const { rows } = await this.pool.query<{ latest: string | null }>(
      `SELECT to_char(max(match_date), 'YYYY-MM-DD') AS latest FROM predictions.version_result WHERE version_id = $1 AND source = 'live'`,
      [versionId],
    );
    return rows[0].latest;
  }

  /** Stores ratings that took in `added` more results (live ratings); every process drops its cached model. */
  async saveRatings(client: PoolClient, versionId: number, state: unknown, ratingsThrough: string, added: number): Promise<void> {
    await client.query(
      `UPDATE predictions.model_version SET state = $2, live_results = live_results + $3, ratings_through = greatest(ratings_through, $4::date), ratings_updated_at = now()
        WHERE id = $1`,
      [versionId, JSON.stringify(state), added, ratingsThrough],
    );
    await client.query('SELECT pg_notify($1, $2)', [MODEL_CHANGED, String(versionId)]);
  }

  /** Stores refitted Dixon–Coles strengths; every process drops its cached model. */
  async saveStrengths(client: PoolClient, versionId: number, state: unknown, strengthsThrough: string): Promise<void> {
    await client.query(
      `UPDATE predictions.model_version SET state = $2, strengths_through = $3, strengths_refitted_at = now(), ratings_through = greatest(ratings_through, $3::date)
        WHERE id = $1`,
      [versionId, JSON.stringify(state), strengthsThrough],
    );
    await client.query('SELECT pg_notify($1, $2)', [MODEL_CHANGED, String(versionId)]);
  }

  /** Versions whose metrics predate calibration (trained before it was recorded). */
  async versionsWithoutCalibration(): Promise<number[]> {
    const { rows } = await this.pool.query(`SELECT id FROM predictions.model_version WHERE metrics IS NOT NULL AND NOT metrics ? 'calibration' ORDER BY id`);
    return rows.map((r: { id: number }) => r.id);
  }

  /** A version's resolved backtest forecasts (probabilities and the actual outcome). */
  async backtestForecasts(versionId: number): Promise<{ pHome: number; pDraw: number; pAway: number; actual: Outcome }[]> {
    const { rows } = await this.pool.query<{ pHome: number; pDraw: number; pAway: number; actual: Outcome }>(
      `SELECT p_home AS "pHome", p_draw AS "pDraw", p_away AS "pAway", actual_outcome AS actual FROM predictions.prediction
        WHERE version_id = $1 AND source = 'backtest' AND actual_outcome IS NOT NULL`,
      [versionId],
    );
    return rows;
  }

  /** Records a version's calibration; the processes holding it as the active model hear of it (NOTIFY, as `activate`). */
  async setCalibration(versionId: number, calibration: unknown): Promise<void> {
    await this.pool.query(
      `WITH changed AS (UPDATE predictions.model_version SET metrics = metrics || jsonb_build_object('calibration', $2::jsonb) WHERE id = $1 RETURNING id)
       SELECT pg_notify($3, id::text) FROM changed`,
      [versionId, JSON.stringify(calibration), MODEL_CHANGED],
    );
  }

  /** Makes a version the active one; every process holding the active model hears of it (NOTIFY). */
  async activate(client: PoolClient, versionId: number): Promise<void> {
    await client.query('UPDATE predictions.model_version SET is_active = false WHERE is_active AND id <> $1', [versionId]);
    await client.query('UPDATE predictions.model_version SET is_active = true, activated_at = now() WHERE id = $1 AND NOT is_active', [versionId]);
    await client.query('SELECT pg_notify($1, $2)', [MODEL_CHANGED, String(versionId)]);
  }

  async versionByNumber(number: number): Promise<VersionRow | undefined> {
    const { rows } = await this.pool.query<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM predictions.model_version WHERE number = $1`, [number]);
    return rows[0];
  }

  /**
   * A version's predictions, filtered, keyset-paginated by (kick-off, match): `upcoming` — open, kicking
   * off after `now`, soonest first; `resolved` — with their result, latest first (the track record).
   */
  async findPredictions(
    versionId: number,
    q: {
      state: 'upcoming' | 'resolved';
      now: Date;
      competition?: string;
      teamId?: number;
      from?: Date;
      to?: Date;
      correct?: boolean;
      source?: 'backtest' | 'upcoming';
      after?: { kickoff: Date; id: number };
      limit: number;
    },
  ): Promise<PredictionRow[]> {
    const values: unknown[] = [versionId];
    const where = ['p.version_id = $1'];
    const add = (sql: string, v: unknown) => {
      values.push(v);
      where.push(sql.replaceAll('?', `$${values.length}`));
    };
    if (q.state === 'upcoming') {
      where.push('p.actual_outcome IS NULL');
      add('p.kickoff > ?', q.now);
    } else where.push('p.actual_outcome IS NOT NULL');
    if (q.competition !== undefined) add('p.competition = ?', q.competition);
    if (q.teamId !== undefined) add('(p.home_team_id = ? OR p.away_team_id = ?)', q.teamId);
    if (q.from !== undefined) add('p.kickoff >= ?', q.from);
    if (q.to !== undefined) add('p.kickoff <= ?', q.to);
    if (q.correct !== undefined) add('p.correct = ?', q.correct);
    if (q.source !== undefined) add('p.source = ?', q.source);
    const descending = q.state === 'resolved';
    if (q.after) {
      values.push(q.after.kickoff, q.after.id);
      where.push(`(p.kickoff, p.match_id) ${descending ? '<' : '>'} ($${values.length - 1}, $${values.length})`);
    }
    values.push(q.limit);
    const dir = descending ? 'DESC' : 'ASC';
    const { rows } = await this.pool.query<RawPredictionRow>(
      `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
        WHERE ${where.join(' AND ')} ORDER BY p.kickoff ${dir}, p.match_id ${dir} LIMIT $${values.length}`,
      values,
    );
    return rows.map(predictionRow);
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
    const { rows } = await this.pool.query<RawPredictionRow>(
      `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
        WHERE ${where} ORDER BY p.kickoff, p.match_id LIMIT $2`,
      values,
    );
    return rows.map(predictionRow);
  }

  async versions(): Promise<VersionRow[]> {
    const { rows } = await this.pool.query<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM predictions.model_version ORDER BY number`);
    return rows;
  }

  async activeVersion(): Promise<(VersionRow & { state: unknown }) | undefined> {
    const { rows } = await this.pool.query<VersionRow & { state: unknown }>(`SELECT ${VERSION_COLUMNS}, state FROM predictions.model_version WHERE is_active`);
    return rows[0];
  }

  async versionWithState(id: number): Promise<(VersionRow & { state: unknown }) | undefined> {
    const { rows } = await this.pool.query<VersionRow & { state: unknown }>(`SELECT ${VERSION_COLUMNS}, state FROM predictions.model_version WHERE id = $1`, [
      id,
    ]);
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
          versionId,
          source,
          col('matchId'),
          col('competition'),
          col('season'),
          col('kickoff'),
          col('homeTeamId'),
          col('awayTeamId'),
          col('pHome'),
          col('pDraw'),
          col('pAway'),
          col('expHomeGoals'),
          col('expAwayGoals'),
          col('predictedOutcome'),
          col('confidence'),
          col('actualOutcome'),
          col('homeTeamName'),
          col('awayTeamName'),
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
    const { rows } = await this.pool.query<{ match_id: number }>('SELECT DISTINCT match_id FROM predictions.prediction WHERE actual_outcome IS NULL');
    return rows.map((r) => r.match_id);
  }

  /** Open predictions of a version whose match kicks off after `now`, soonest kick-off first. */
  async upcoming(versionId: number, limit: number, now: Date, competition?: string): Promise<PredictionRow[]> {
    const { rows } = await this.pool.query<RawPredictionRow>({
      name: competition ? 'predictions.upcoming_in' : 'predictions.upcoming',
      text: `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
              WHERE p.version_id = $1 AND p.actual_outcome IS NULL AND p.kickoff > $3 ${competition ? 'AND p.competition = $4' : ''}
              ORDER BY p.kickoff, p.match_id LIMIT $2`,
      values: competition ? [versionId, limit, now, competition] : [versionId, limit, now],
    });
    return rows.map(predictionRow);
  }

  /**
   * The version's latest predictions in one statement: its open predictions kicking off after `now`
   * (soonest first, ties by match), else — when there is none — its predictions of played matches with
   * their outcome (a result is never after now; latest kick-off first, ties by the later match).
   * `upcoming` says which list it is (false when both are empty).
   */
  async latest(versionId: number, limit: number, now: Date, competition?: string): Promise<{ upcoming: boolean; rows: PredictionRow[] }> {
    const inCompetition = competition ? 'AND p.competition = $4' : '';
    const { rows } = await this.pool.query<RawPredictionRow & { upcoming: boolean }>({
      name: competition ? 'predictions.latest_in' : 'predictions.latest',
      // the recent list's NOT EXISTS is evaluated once (an InitPlan): with upcoming rows it reads nothing;
      // the outer ORDER BY states each list's order (an Append's order is no guarantee)
      text: `WITH upcoming AS MATERIALIZED (
               SELECT ${PREDICTION_COLUMNS}, true AS upcoming FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
                WHERE p.version_id = $1 AND p.actual_outcome IS NULL AND p.kickoff > $3 ${inCompetition}
                ORDER BY p.kickoff, p.match_id LIMIT $2)
             SELECT * FROM (
               SELECT * FROM upcoming
               UNION ALL
               (SELECT ${PREDICTION_COLUMNS}, false AS upcoming FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
                 WHERE p.version_id = $1 AND p.actual_outcome IS NOT NULL ${inCompetition} AND NOT EXISTS (SELECT 1 FROM upcoming)
                 ORDER BY p.kickoff DESC, p.match_id DESC LIMIT $2)
             ) l
             ORDER BY l.upcoming DESC, CASE WHEN l.upcoming THEN l."kickoff" ELSE -l."kickoff" END, CASE WHEN l.upcoming THEN l."matchId" ELSE -l."matchId" END`,
      values: competition ? [versionId, limit, now, competition] : [versionId, limit, now],
    });
    return { upcoming: rows.length > 0 && rows[0].upcoming, rows: rows.map(({ upcoming: _, ...r }) => predictionRow(r)) };
  }

  async byMatchIds(versionId: number, matchIds: readonly number[]): Promise<PredictionRow[]> {
    const { rows } = await this.pool.query<RawPredictionRow>({
      name: 'predictions.by_match_ids',
      text: `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
              WHERE p.version_id = $1 AND p.match_id = ANY($2::int[])`,
      values: [versionId, matchIds],
    });
    return rows.map(predictionRow);
  }

  async history(matchId: number): Promise<PredictionRow[]> {
    const { rows } = await this.pool.query<RawPredictionRow>(
      `SELECT ${PREDICTION_COLUMNS} FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
        WHERE p.match_id = $1 ORDER BY v.number`,
      [matchId],
    );
    return rows.map(predictionRow);
  }

  // ---- statistics

  /** The track record of a version: its predictions whose result is known (open ones are counted apart). */
  async overview(versionId: number): Promise<{ total: number; resolved: number; correct: number; averageConfidence: number | null }> {
    const { rows } = await this.pool.query<{ total: number; resolved: number; correct: number; averageConfidence: number | null }>({
      name: 'predictions.overview',
      text: `SELECT count(*) AS total, count(correct) AS resolved, count(*) FILTER (WHERE correct) AS correct,
                    avg(confidence) FILTER (WHERE correct IS NOT NULL) AS "averageConfidence"
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
    const { rows } = await this.pool.query<{ versionId: number; number: number; predictions: number; resolved: number; accuracy: number | null }>(
      `SELECT v.id AS "versionId", v.number, count(p.id) AS predictions, count(p.correct) AS resolved, avg(p.correct::int) AS accuracy
         FROM predictions.model_version v LEFT JOIN predictions.prediction p ON p.version_id = v.id
        GROUP BY v.id ORDER BY v.number`,
    );
    return rows;
  }

  // ---- training runs

  /**
   * Runs whose process died are failed, with the reason, so they stop blocking new ones. The process
   * running a run holds a session advisory lock on it (`holdRunLease`): PostgreSQL drops it the moment
   * that process's connection goes, so a run whose lock can be taken has no owner. Only the runs that
   * started before PostgreSQL itself last started (a restart drops every lock) are given
   * `restartGraceSeconds` from that start for their owners to take their locks back; a run started
   * since took its lock from this server, so a free lock means its owner is gone, however recent the
   * server's start. `queuedIds`: queued runs the caller found without a live job.
   */
  async failAbandonedRuns(opts: { restartGraceSeconds: number; queuedIds?: string[] }): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE predictions.training_run SET status = 'failed', finished_at = now(), heartbeat_at = now(),
              error = CASE WHEN status = 'running' THEN $1 ELSE $2 END
        WHERE (status = 'running'
               AND (started_at > pg_postmaster_start_time() OR now() - pg_postmaster_start_time() > make_interval(secs => $3))
               AND pg_try_advisory_xact_lock($4, hashtext(id::text)))
           OR (status = 'queued' AND id = ANY($5::uuid[]))
        RETURNING id`,
      [ABANDONED_RUNNING, ABANDONED_QUEUED, opts.restartGraceSeconds, RUN_LEASE, opts.queuedIds ?? []],
    );
    return rows.map((r: { id: string }) => r.id);
  }

  /** Queued runs with their job (to find those whose job is gone), oldest first. */
  async queuedRuns(): Promise<{ id: string; jobId: string | null; createdAt: Date }[]> {
    const { rows } = await this.pool.query<{ id: string; jobId: string | null; createdAt: Date }>(
      `SELECT id, job_id AS "jobId", created_at AS "createdAt" FROM predictions.training_run WHERE status = 'queued' ORDER BY created_at`,
    );
    return rows;
  }

  /**
   * Creates a queued run and its job in one transaction (`enqueue` sends the job on the same
   * connection): a run never exists without its job. One at a time: a second is a CONFLICT.
   */
  async createRun(kind: string, requestedBy: string, enqueue: (client: PoolClient, runId: string) => Promise<string>): Promise<RunRow> {
    try {
      const id = await this.transaction(async (client) => {
        const { rows } = await client.query<{ id: string }>(
          `INSERT INTO predictions.training_run (kind, status, requested_by) VALUES ($1, 'queued', $2) RETURNING id`,
          [kind, requestedBy],
        );
        const runId = rows[0].id as string;
        await client.query('UPDATE predictions.training_run SET job_id = $2 WHERE id = $1', [runId, await enqueue(client, runId)]);
        return runId;
      });
      return (await this.run(id))!;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') {
        const active = await this.activeRun();
        throw conflict('A retrain is already queued or running.', active ? { jobId: active.id, status: active.status } : undefined);
      }
      throw err;
    }
  }

  /** Marks a queued run as running in this process (`owner`); false when it is no longer queued. */
  async startRun(id: string, owner: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE predictions.training_run SET status = 'running', owner = $2, phase = 'loading results', progress = 0.01,
              started_at = now(), heartbeat_at = now()
        WHERE id = $1 AND status = 'queued'`,
      [id, owner],
    );
    return rowCount === 1;
  }

  /**
   * Records a running run's progress or end, as its owner: false when the run is no longer this
   * owner's running run (another process found it abandoned meanwhile).
   */
  async updateRun(
    id: string,
    owner: string,
    fields: Partial<Pick<RunRow, 'status' | 'phase' | 'progress' | 'versionId' | 'error'>> & { finished?: boolean },
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE predictions.training_run SET
         status = coalesce($3, status), phase = coalesce($4, phase), progress = coalesce($5, progress),
         version_id = coalesce($6, version_id), error = coalesce($7, error),
         finished_at = CASE WHEN $8 THEN now() ELSE finished_at END,
         heartbeat_at = now()
       WHERE id = $1 AND owner = $2 AND status = 'running'`,
      [
        id,
        owner,
        fields.status ?? null,
        fields.phase ?? null,
        fields.progress ?? null,
        fields.versionId ?? null,
        fields.error ?? null,
        fields.finished ?? false,
      ],
    );
    return rowCount === 1;
  }

  /** The version a run already stored (in the same transaction as its version), if it got that far. */
  async runVersion(client: PoolClient, runId: string): Promise<number | null> {
    const { rows } = await client.query<{ version_id: number | null }>('SELECT version_id FROM predictions.training_run WHERE id = $1 FOR UPDATE', [runId]);
    return rows[0]?.version_id ?? null;
  }

  async setRunVersion(client: PoolClient, runId: string, versionId: number): Promise<void> {
    await client.query('UPDATE predictions.training_run SET version_id = $2 WHERE id = $1', [runId, versionId]);
  }

  async run(id: string): Promise<RunRow | undefined> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM predictions.training_run r LEFT JOIN predictions.model_version v ON v.id = r.version_id WHERE r.id = $1`,
      [id],
    );
    return rows[0];
  }

  async activeRun(): Promise<RunRow | undefined> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM predictions.training_run r LEFT JOIN predictions.model_version v ON v.id = r.version_id
        WHERE r.status IN ('queued', 'running')`,
    );
    return rows[0];
  }

  async runs(limit: number): Promise<RunRow[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM predictions.training_run r LEFT JOIN predictions.model_version v ON v.id = r.version_id
        ORDER BY r.created_at DESC LIMIT $1`,
      [limit],
    );
    return rows;
  }

  async versionCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM predictions.model_version');
    return rows[0].n;
  }
}
