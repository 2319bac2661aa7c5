import { CONFIDENCE_BANDS_TEXT } from '../../subgraphs/predictions/predictions/vocabulary';
import type { Route } from '../core/route';
import { z } from 'zod';
import * as schemas from './schemas';
import { applicationRoutes } from './application-routes';
import { consolePages } from '../console/pages';
// answers of a running system (2026-11-27, the shipped data and a feed pass of the 2026-27 Premier League)
import EXAMPLES from './examples.json';
import { route, type ResultOf, type VariablesOf } from './operation';
import type { CalibrationFragment, Outcome, PredictionSource, ReliabilityColumnsFragment, StoredPredictionFragment } from './operations/types.generated';

/** A response schema with a real answer as its example (what the API reference shows instead of generated placeholders). */
const withExample = <S extends z.ZodType>(schema: S, example: unknown): S => schema.meta({ example, examples: [example] }) as S;

export const API_VERSION = '1.0.0';
export const DOCS_PATH = '/api/docs/';
export const OPENAPI_PATH = '/api/openapi.json';

const AUTH_LABEL = { apiKey: 'api_key', adminKey: 'admin_key', none: 'none' } as const;

const round = (x: number, digits: number) => Number(x.toFixed(digits));

const statusUrl = (id: string) => `/api/retrain/${id}/`;

/** A training job as TrainingJob and RetrainModel select it. */
type JobData = NonNullable<ResultOf<'TrainingJob'>['trainingJob']> | ResultOf<'RetrainModel'>['retrainModel'];

function toJob(j: JobData) {
  // RetrainModel answers the job just queued: it selects no run figures
  const run = 'finishedAt' in j ? j : undefined;
  return {
    job_id: j.id,
    // GraphQL enum names (QUEUED) → the REST labels (queued)
    status: j.status.toLowerCase(),
    model: j.kind,
    phase: j.phase,
    progress: round(j.progress, 3),
    version: run?.versionNumber ? `version_${run.versionNumber}` : null,
    error: run?.error ?? null,
    created_at: j.createdAt,
    started_at: run?.startedAt ?? null,
    finished_at: run?.finishedAt ?? null,
    status_url: statusUrl(j.id),
  };
}

/** The fields of a compare_versions entry that tell what a retrain changed (data range, matches used, live ratings, figures). */
const COMPARED = [
  'model',
  'training_from',
  'trained_through',
  'training_matches',
  'live_results',
  'live_ratings_through',
  'backtest_matches',
  'accuracy',
  'rps',
  'brier',
  'log_loss',
  'ece',
] as const;

/** Each entry beside the version before it: the compared fields whose value differs (the first version: null). */
function withChanges(entries: [string, Record<string, unknown>][]): [string, Record<string, unknown>][] {
  return entries.map(([name, entry], i) => {
    const previous = i > 0 ? entries[i - 1][1] : undefined;
    const changed = previous ? COMPARED.filter((f) => JSON.stringify(entry[f]) !== JSON.stringify(previous[f])) : null;
    return [name, { ...entry, changed_from_previous: changed }];
  });
}

const OUTCOME_KEYS = { HOME_WIN: 'home', DRAW: 'draw', AWAY_WIN: 'away' } as const;

const roundOrNull = (x: number | null, digits: number) => (x === null ? null : round(x, digits));

/** Reliability columns → one object per band. */
const toBins = (t: ReliabilityColumnsFragment) =>
  t.binFrom.map((from, i) => ({ from, to: t.binTo[i], count: t.count[i], predicted: roundOrNull(t.predicted[i], 4), observed: roundOrNull(t.observed[i], 4) }));

/** ModelVersions selects the confidence table beside the outcomes' (CompareVersions does not). */
function toCalibration(c: CalibrationFragment & { confidence?: ReliabilityColumnsFragment }) {
  return {
    bin_width: c.binWidth,
    ece: round(c.ece, 4),
    home: { ece: round(c.home.ece, 4), bins: toBins(c.home) },
    draw: { ece: round(c.draw.ece, 4), bins: toBins(c.draw) },
    away: { ece: round(c.away.ece, 4), bins: toBins(c.away) },
    ...(c.confidence ? { confidence: { ece: round(c.confidence.ece, 4), bins: toBins(c.confidence) } } : {}),
  };
}

const latestVariables = ({ query }: { query: { limit: number; competition?: string } }) => ({ first: query.limit, competition: query.competition ?? null });

const UPCOMING_DEFINITION =
  "The active model version's predictions for the next scheduled matches without a result, soonest kick-off first " +
  '(ties by match id). `limit` (1–100, default 20) and `competition` narrow the list.';

const LATEST_DEFINITION =
  "The active model version's most recent predictions: the next scheduled matches without a result, soonest kick-off first " +
  '(ties by match id); when no upcoming fixture is known (off-season, a data feed behind), the most recent played matches, ' +
  'latest first, so that the list is never empty while predictions exist (`/api/` `data.notice` says which). ' +
  '`limit` (1–100, default 20) and `competition` narrow the list.';

/** What a reader needs when the lists are empty: per league, when its data last changed and its newest result. */
function freshnessNotice(leagues: ResultOf<'ServiceInfo'>['footballData']['leagues']): string | null {
  if (leagues.some((l) => l.upcomingMatches > 0)) return null;
  const per = leagues
    .map(
      (l) => `${l.name}: ${l.updatedAt ? `updated ${l.updatedAt.slice(0, 10)}` : 'shipped data, never updated'}, newest result ${l.latestResultDate ?? 'none'}`,
    )
    .join('; ');
  return (
    'No upcoming fixture is known (off-season, or the data feed is behind): /api/predictions/latest/ lists the most recent played matches ' +
    `(latest first), and the upcoming lists are empty. ${per}.`
  );
}

const OUTCOME_LABEL = { HOME_WIN: 'Home Win', DRAW: 'Draw', AWAY_WIN: 'Away Win' } as const satisfies Record<Outcome, string>;
const SOURCE = { BACKTEST: 'backtest', UPCOMING: 'live' } as const satisfies Record<PredictionSource, string>;
const probabilitiesOf = (p: { home: number; draw: number; away: number }) => ({ home: round(p.home, 4), draw: round(p.draw, 4), away: round(p.away, 4) });

/** A forecast as the API shows it: a pairing's (PredictPairing) or a stored prediction's (the StoredPrediction fragment). */
type Forecast = ResultOf<'PredictPairing'>['predict'] | StoredPredictionFragment;

const forecastBody = (f: Forecast) => ({
  predicted_outcome: f.outcomeLabel,
  predicted_goal_diff: round(f.expectedGoalDifference, 2),
  confidence: round(f.confidence, 3),
  confidence_band: f.confidenceBand.toLowerCase(),
  probabilities: probabilitiesOf(f.probabilities),
  version: `version_${f.versionNumber}`,
});

const storedBody = (p: StoredPredictionFragment) => ({
  ...forecastBody(p),
  source: SOURCE[p.source],
  actual_outcome: p.actualOutcome ? OUTCOME_LABEL[p.actualOutcome] : null,
  correct: p.correct,
});

interface ListInput {
  competition?: string;
  team?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
  result?: 'correct' | 'wrong';
  source?: 'live' | 'backtest';
}

/** A date alone means the whole day: `from` its start, `to` its end (UTC). */
const dayBound = (value: string | undefined, end: boolean) =>
  value === undefined ? null : value.length === 10 ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : value;

const listVariables =
  (state: 'UPCOMING' | 'RESOLVED') =>
  ({ query }: { query: ListInput }): VariablesOf<'Predictions'> => ({
    filter: {
      state,
      competition: query.competition ?? null,
      team: query.team ?? null,
      from: dayBound(query.from, false),
      to: dayBound(query.to, true),
      ...(state === 'RESOLVED'
        ? {
            correct: query.result === undefined ? null : query.result === 'correct',
            source: query.source === undefined ? null : query.source === 'live' ? 'UPCOMING' : 'BACKTEST',
          }
        : {}),
    },
    first: query.limit,
    after: query.cursor ?? null,
  });

const listReply = (data: ResultOf<'Predictions'>) => ({
  kind: 'json' as const,
  body: {
    results: data.predictions.nodes.map((p) => ({
      match_id: p.matchId,
      competition: p.competition,
      kickoff: p.kickoff,
      home_team: p.match.homeTeam.name,
      away_team: p.match.awayTeam.name,
      ...storedBody(p),
    })),
    next_cursor: data.predictions.pageInfo.hasNextPage ? data.predictions.pageInfo.endCursor : null,
  },
});

const LIST_PAGING = 'Pages by cursor: `limit` (1–100, default 20), and `next_cursor` of the answer as `cursor` for the next page (null on the last).';

/** The prediction API's route table: one entry per documented path (contract: docs/contracts/prediction-api.md §4). */
export const predictionRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/api/',
    summary: 'Service information and the list of endpoints',
    description: "What this API offers, the calling key's plan, the extent of the football data, and every endpoint with the credential it needs.",
    tags: ['Service'],
    security: 'apiKey',
    operation: 'ServiceInfo',
    response: { description: 'Service information', schema: withExample(schemas.serviceInfo, EXAMPLES.serviceInfo) },
    respond: (data) => ({
      kind: 'json',
      body: {
        service: 'Match Prediction API',
        version: API_VERSION,
        description: 'Football match predictions (outcome, expected goal difference, confidence) from models trained on real results.',
        documentation: DOCS_PATH,
        openapi: OPENAPI_PATH,
        key: data.viewer,
        apply: {
          form: '/apply/',
          email: data.applicationMailbox.address,
          subject: 'API Access Request',
          smtp: data.applicationMailbox.smtpPort === null ? null : `${data.applicationMailbox.smtpHost}:${data.applicationMailbox.smtpPort}`,
        },
        plans: data.plans.map((p) => ({ code: p.code, name: p.name, daily_limit: p.dailyLimit })),
        data: {
          competitions: data.footballData.competitions,
          teams: data.footballData.teams,
          matches: data.footballData.matches,
          finished_matches: data.footballData.finishedMatches,
          scheduled_matches: data.footballData.scheduledMatches,
          latest_result_date: data.footballData.latestResultDate,
          leagues: data.footballData.leagues.map((l) => ({
            code: l.code,
            name: l.name,
            latest_result_date: l.latestResultDate,
            updated_at: l.updatedAt,
            next_kickoff: l.nextKickoff,
            upcoming_matches: l.upcomingMatches,
            awaiting_result: l.awaitingResult,
            ratings_stale: l.ratingsStale,
          })),
          feed: {
            configured: data.footballFeed.configured,
            interval_minutes: data.footballFeed.intervalMinutes,
            last_pass_at: data.footballFeed.lastRun?.finishedAt ?? null,
            last_success_at: data.footballFeed.lastSuccessAt,
            last_error_at: data.footballFeed.lastErrorAt,
          },
          notice: freshnessNotice(data.footballData.leagues),
        },
        endpoints: predictionRoutes.map((r) => ({
          method: r.method,
          path: r.path,
          description: r.summary,
          auth: AUTH_LABEL[r.security as keyof typeof AUTH_LABEL],
        })),
      },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/predictions/latest/',
    summary: 'Latest predictions: the next scheduled matches, else the most recent played ones',
    description: LATEST_DEFINITION,
    tags: ['Predictions'],
    security: 'apiKey',
    operation: 'LatestPredictions',
    query: schemas.latestQuery,
    variables: latestVariables,
    response: {
      description: 'Predictions: upcoming, soonest kick-off first; else the most recent played, latest first',
      schema: withExample(z.array(schemas.prediction), EXAMPLES.latest),
    },
    respond: (data) => ({
      kind: 'json',
      body: data.latestPredictions.predictions.map((p) => ({
        match_id: p.matchId,
        home_team: p.match.homeTeam.name,
        away_team: p.match.awayTeam.name,
        predicted_outcome: p.outcomeLabel,
        predicted_goal_diff: round(p.expectedGoalDifference, 2),
        confidence: round(p.confidence, 3),
      })),
    }),
  }),
  route({
    method: 'GET',
    path: '/api/dashboard/overview/',
    summary: 'Overview statistics of the active model version',
    description:
      "Over the active version's stored predictions: its walk-forward backtest (each match predicted from earlier matches only) and its live predictions. " +
      '`accuracy` is the share of resolved predictions that were right; `average_confidence` the mean confidence of all of them.',
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'PredictionOverview',
    response: { description: 'Overview statistics', schema: withExample(schemas.overview, EXAMPLES.overview) },
    respond: (data) => ({
      kind: 'json',
      body: {
        total_predictions: data.predictionOverview.totalPredictions,
        accuracy: round(data.predictionOverview.accuracy, 4),
        average_confidence: round(data.predictionOverview.averageConfidence, 4),
      },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/dashboard/confidence/',
    summary: 'Predictions per confidence band',
    description: `Counts of the active version's predictions by confidence: ${CONFIDENCE_BANDS_TEXT} (measured on this data: hit rates about 70 %, 50 % and 40 %).`,
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'ConfidenceDistribution',
    response: { description: 'Confidence distribution', schema: withExample(schemas.confidence, EXAMPLES.confidence) },
    respond: (data) => ({
      kind: 'json',
      body: {
        high_confidence: data.confidenceDistribution.high,
        medium_confidence: data.confidenceDistribution.medium,
        low_confidence: data.confidenceDistribution.low,
      },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/dashboard/compare_versions/',
    summary: 'Accuracy per model version',
    description:
      "One key per model version (`version_1`, `version_2`, …). `accuracy`: share right over the version's resolved predictions (backtest and live); " +
      '`rps`, `brier`, `log_loss` and `backtest_matches` come from its walk-forward backtest, and so does `calibration`: per outcome, the forecasts in ' +
      'bands of predicted probability against the observed frequency, with the expected calibration error (`ece`, the mean over home, draw and away). ' +
      "What a retrain changed: each version's data range (`training_from`, `trained_through`), matches used (`training_matches`), live ratings " +
      '(`live_results`, `live_ratings_through`), and `changed_from_previous`: the fields that differ from the version before it (null for the first).',
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'CompareVersions',
    response: { description: 'Version comparison', schema: schemas.versionComparison },
    respond: (data) => ({
      kind: 'json',
      body: Object.fromEntries(
        withChanges(
          data.modelVersions.map((v): [string, Record<string, unknown>] => [
            v.name,
            {
              accuracy: v.accuracy === null ? null : round(v.accuracy, 4),
              rps: v.metrics ? round(v.metrics.rps, 4) : null,
              brier: v.metrics ? round(v.metrics.brier, 4) : null,
              log_loss: v.metrics ? round(v.metrics.logLoss, 4) : null,
              backtest_matches: v.metrics?.count ?? null,
              model: v.kind,
              active: v.active,
              training_from: v.trainingFrom,
              trained_through: v.trainedThrough,
              training_matches: v.matchCount,
              live_results: v.live.results,
              live_ratings_through: v.live.ratingsThrough,
              created_at: v.createdAt,
              ece: v.metrics?.calibration ? round(v.metrics.calibration.ece, 4) : null,
              calibration: v.metrics?.calibration ? toCalibration(v.metrics.calibration) : null,
            } as Record<string, unknown>,
          ]),
        ),
      ),
    }),
  }),
  route({
    method: 'GET',
    path: '/api/dashboard/versions/',
    summary: 'Model versions over time: metrics, calibration, live ratings',
    description:
      'Every model version, oldest first: when it was trained and activated, its walk-forward backtest metrics (accuracy, RPS, Brier, log-loss, ' +
      'per predicted class, per confidence band), its calibration (as in compare_versions, plus the confidence against the hit rate) and what its ' +
      'ratings took in since training (`live`: results applied without a new version, the Dixon–Coles strengths refit). The dashboard draws from it.',
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'ModelVersions',
    response: { description: 'Model versions', schema: z.array(schemas.modelVersion) },
    respond: (data) => ({
      kind: 'json',
      body: data.modelVersions.map((v) => ({
        version: v.name,
        number: v.number,
        model: v.kind,
        active: v.active,
        created_at: v.createdAt,
        activated_at: v.activatedAt,
        training_from: v.trainingFrom,
        trained_through: v.trainedThrough,
        training_matches: v.matchCount,
        accuracy: v.accuracy === null ? null : round(v.accuracy, 4),
        backtest: v.metrics && {
          matches: v.metrics.count,
          accuracy: round(v.metrics.accuracy, 4),
          rps: round(v.metrics.rps, 4),
          brier: round(v.metrics.brier, 4),
          log_loss: round(v.metrics.logLoss, 4),
          per_class: Object.fromEntries(
            v.metrics.perClass.map((c) => [OUTCOME_KEYS[c.outcome], { predicted: c.predicted, correct: c.correct, precision: roundOrNull(c.precision, 4) }]),
          ),
          bands: Object.fromEntries(v.metrics.bands.map((b) => [b.band.toLowerCase(), { count: b.count, hit_rate: roundOrNull(b.hitRate, 4) }])),
        },
        calibration: v.metrics?.calibration ? toCalibration(v.metrics.calibration) : null,
        live: {
          results: v.live.results,
          ratings_through: v.live.ratingsThrough,
          ratings_updated_at: v.live.ratingsUpdatedAt,
          strengths_through: v.live.strengthsThrough,
          strengths_refitted_at: v.live.strengthsRefittedAt,
        },
      })),
    }),
  }),
  route({
    method: 'GET',
    path: '/api/dashboard/fixtures/',
    summary: 'Next fixtures with their probabilities',
    description: `${UPCOMING_DEFINITION} With the home, draw and away probabilities, the expected goals, the kick-off and the version that predicted them.`,
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'UpcomingFixtures',
    query: schemas.latestQuery,
    variables: latestVariables,
    response: { description: 'Fixtures, soonest kick-off first', schema: withExample(z.array(schemas.fixture), EXAMPLES.fixtures) },
    respond: (data) => ({
      kind: 'json',
      body: data.upcomingPredictions.map((p) => ({
        match_id: p.matchId,
        competition: p.competition,
        kickoff: p.kickoff,
        home_team: p.match.homeTeam.name,
        away_team: p.match.awayTeam.name,
        probabilities: { home: round(p.probabilities.home, 4), draw: round(p.probabilities.draw, 4), away: round(p.probabilities.away, 4) },
        expected_goals: { home: round(p.expectedGoals.home, 2), away: round(p.expectedGoals.away, 2) },
        predicted_outcome: p.outcomeLabel,
        confidence: round(p.confidence, 3),
        version: `version_${p.versionNumber}`,
      })),
    }),
  }),
  route({
    method: 'GET',
    path: '/api/dashboard/retrain/',
    summary: 'Progress of the running retrain',
    description:
      'The retrain in progress, else the latest one (`retrain: null` before any): status, phase and progress (0–1), for any key. ' +
      'Administrators see the job itself, with its error, at `/api/retrain/<job_id>/`.',
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'RetrainProgress',
    response: { description: 'Retrain progress', schema: withExample(schemas.retrainProgress, EXAMPLES.retrainProgress) },
    respond: (data) => {
      const j = data.currentTrainingJob;
      return {
        kind: 'json',
        body: {
          retrain: j && {
            status: j.status.toLowerCase(),
            model: j.kind,
            phase: j.phase,
            progress: round(j.progress, 3),
            version: j.versionNumber ? `version_${j.versionNumber}` : null,
            created_at: j.createdAt,
            started_at: j.startedAt ?? null,
            finished_at: j.finishedAt ?? null,
          },
        },
      };
    },
  }),
  route({
    method: 'GET',
    path: '/dashboard/predictions/',
    summary: 'Predictions for a dashboard table',
    description: `${LATEST_DEFINITION} Shaped for display: \`match\` is "<home team> vs <away team>".`,
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'LatestPredictions',
    operationId: 'DashboardPredictions',
    query: schemas.latestQuery,
    variables: latestVariables,
    response: { description: 'Dashboard predictions', schema: withExample(z.array(schemas.dashboardPrediction), EXAMPLES.dashboardPredictions) },
    respond: (data) => ({
      kind: 'json',
      body: data.latestPredictions.predictions.map((p) => ({
        match: `${p.match.homeTeam.name} vs ${p.match.awayTeam.name}`,
        outcome: p.outcomeLabel,
        confidence: round(p.confidence, 3),
      })),
    }),
  }),
  route({
    method: 'POST',
    path: '/api/retrain/',
    summary: 'Start a model retrain (administrator key)',
    description:
      'Queues a background retrain (a PostgreSQL-backed job): fit, walk-forward backtest, metrics recorded, then the new version is activated. ' +
      'Answers 202 with the job id and its status URL (also in `Location`). One retrain at a time: 409 while one is queued or running. ' +
      'No body is needed; `{"model": "elo"}` picks another model family.',
    tags: ['Model'],
    security: 'adminKey',
    operation: 'RetrainModel',
    body: schemas.retrainBody,
    variables: ({ body }: { body?: { model?: string } }) => ({ kind: body?.model ?? null }),
    response: { status: 202, description: 'Retrain queued', schema: schemas.trainingJob, headers: { Location: 'Status URL of the job' } },
    errors: [403, 409],
    respond: (data) => ({
      kind: 'json',
      status: 202,
      headers: { location: statusUrl(data.retrainModel.id) },
      body: toJob(data.retrainModel),
    }),
  }),
  route({
    method: 'GET',
    path: '/api/retrain/:jobId/',
    summary: 'Status and progress of a retrain job (administrator key)',
    tags: ['Model'],
    security: 'adminKey',
    operation: 'TrainingJob',
    params: schemas.jobParams,
    variables: ({ params }: { params: { jobId: string } }) => ({ id: params.jobId }),
    response: { description: 'The job', schema: schemas.trainingJob },
    errors: [403, 404],
    respond: (data) => ({ kind: 'json', body: toJob(data.trainingJob) }),
  }),
  route({
    method: 'GET',
    path: '/api/predict/',
    summary: 'Predict any pairing',
    description:
      'A forecast for any two teams, named as a person types them ("Man Utd", "spurs", "Bayern") as the bot resolves them, or by id; ' +
      'for a match played today. Teams that play in different competitions now are `cross_league` (never labelled as one league); a side whose ' +
      'newest result is older than RATINGS_STALE_DAYS (default 90 days) is listed in `stale_ratings` with the age of its rating. An ambiguous or unknown name is 400 with the ' +
      'candidates in `errors`.',
    tags: ['Predictions'],
    security: 'apiKey',
    operation: 'PredictPairing',
    query: schemas.predictQuery,
    variables: ({ query }: { query: { home: string; away: string; competition?: string } }) => ({
      home: query.home,
      away: query.away,
      competition: query.competition ?? null,
    }),
    response: { description: 'The forecast', schema: withExample(schemas.pairingPrediction, EXAMPLES.predict) },
    errors: [400],
    respond: ({ predict: p }) => ({
      kind: 'json',
      body: {
        home_team: p.homeTeam.name,
        away_team: p.awayTeam.name,
        competition: p.competition,
        cross_league: p.crossLeague,
        home_competition: p.homeCompetition,
        away_competition: p.awayCompetition,
        ...forecastBody(p),
        expected_goals: { home: round(p.expectedGoals.home, 2), away: round(p.expectedGoals.away, 2) },
        stale_ratings: p.staleRatings.map((s) => ({ team: s.teamName, last_played: s.lastPlayed, age_days: s.ageDays })),
      },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/fixtures/:matchId/',
    summary: 'One fixture by id, with its prediction and result',
    description:
      "A match (`match_id` of the lists) with the active version's prediction and, once known, its score and whether the prediction was right. " +
      '`status` `awaiting_result`: it kicked off and its result is not known yet. 404 for an unknown id.',
    tags: ['Predictions'],
    security: 'apiKey',
    operation: 'Fixture',
    params: schemas.fixtureParams,
    variables: ({ params }: { params: { matchId: number } }) => ({ id: params.matchId }),
    response: { description: 'The fixture', schema: withExample(schemas.fixtureDetail, EXAMPLES.fixture) },
    errors: [404],
    respond: ({ match: m }) =>
      m === null
        ? { kind: 'json', status: 404, body: { detail: 'No match with that id.', code: 'not_found' } }
        : {
            kind: 'json',
            body: {
              match_id: m.id,
              competition: m.competition.code,
              competition_name: m.competition.name,
              season: m.season,
              round: m.round,
              kickoff: m.kickoff,
              status: m.awaitingResult ? 'awaiting_result' : m.status.toLowerCase(),
              home_team: m.homeTeam.name,
              away_team: m.awayTeam.name,
              score: m.score,
              prediction: m.prediction && storedBody(m.prediction),
            },
          },
  }),
  route({
    method: 'GET',
    path: '/api/predictions/',
    summary: 'Upcoming predictions, filtered, by cursor',
    description:
      "The active version's predictions for fixtures that kick off after now, soonest first, filtered by `competition`, `team` and kick-off " +
      `range (\`from\`, \`to\`). ${LIST_PAGING}`,
    tags: ['Predictions'],
    security: 'apiKey',
    operation: 'Predictions',
    operationId: 'UpcomingPredictions',
    query: schemas.predictionsQuery,
    variables: listVariables('UPCOMING'),
    response: { description: 'A page of predictions', schema: withExample(schemas.predictionList, EXAMPLES.predictions) },
    errors: [400],
    respond: listReply,
  }),
  route({
    method: 'GET',
    path: '/api/predictions/history/',
    summary: 'Track record: past predictions beside their results',
    description:
      "The active version's predictions whose result is known, latest kick-off first, each with the actual outcome and whether it was right: " +
      '`source` `live` (made before kick-off for a scheduled match) or `backtest` (walk-forward, from earlier matches only, when the version was ' +
      `trained). Filters: \`competition\`, \`team\`, \`from\`/\`to\`, \`result\` (correct or wrong), \`source\`. ${LIST_PAGING}`,
    tags: ['Predictions'],
    security: 'apiKey',
    operation: 'Predictions',
    operationId: 'PredictionHistory',
    query: schemas.historyQuery,
    variables: listVariables('RESOLVED'),
    response: { description: 'A page of resolved predictions', schema: withExample(schemas.predictionList, EXAMPLES.history) },
    errors: [400],
    respond: listReply,
  }),
  // the application pages, registered through the console kit (a page before any pattern covering it)
  ...consolePages([{ name: 'applications', pages: applicationRoutes }]),
];
