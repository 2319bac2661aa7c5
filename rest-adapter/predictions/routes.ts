import type { Route } from '../core/route';
import { z } from 'zod';
import * as schemas from './schemas';
import { applicationRoutes } from './application-routes';

export const API_VERSION = '1.0.0';
export const DOCS_PATH = '/api/docs/';
export const OPENAPI_PATH = '/api/openapi.json';

const AUTH_LABEL = { apiKey: 'api_key', adminKey: 'admin_key', none: 'none' } as const;

const round = (x: number, digits: number) => Number(x.toFixed(digits));

interface LatestData {
  upcomingPredictions: {
    matchId: number;
    match: { homeTeam: { name: string }; awayTeam: { name: string } };
    outcomeLabel: string;
    expectedGoalDifference: number;
    confidence: number;
  }[];
}

interface JobData {
  id: string;
  kind: string;
  status: string;
  phase: string | null;
  progress: number;
  versionNumber?: number | null;
  error?: string | null;
  createdAt: string;
  startedAt?: string | null;
  finishedAt?: string | null;
}

const statusUrl = (id: string) => `/api/retrain/${id}/`;

function toJob(j: JobData) {
  return {
    job_id: j.id,
    // GraphQL enum names (QUEUED) → the REST labels (queued)
    status: j.status.toLowerCase(),
    model: j.kind,
    phase: j.phase,
    progress: round(j.progress, 3),
    version: j.versionNumber ? `version_${j.versionNumber}` : null,
    error: j.error ?? null,
    created_at: j.createdAt,
    started_at: j.startedAt ?? null,
    finished_at: j.finishedAt ?? null,
    status_url: statusUrl(j.id),
  };
}

const latestVariables = ({ query }: { query: { limit: number; competition?: string } }) => ({ first: query.limit, competition: query.competition ?? null });

const LATEST_DEFINITION =
  'The active model version\'s predictions for the next scheduled matches without a result, soonest kick-off first ' +
  '(ties by match id). `limit` (1–100, default 20) and `competition` narrow the list.';

interface ServiceInfoData {
  viewer: { prefix: string; name: string; plan: string; role: string };
  plans: { code: string; name: string; dailyLimit: number | null }[];
  footballData: { competitions: number; teams: number; matches: number; finishedMatches: number; scheduledMatches: number; latestResultDate: string | null };
}

/** The prediction API's route table: one entry per documented path (contract: prediction-api.md §4). */
export const predictionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/',
    summary: 'Service information and the list of endpoints',
    description: 'What this API offers, the calling key\'s plan, the extent of the football data, and every endpoint with the credential it needs.',
    tags: ['Service'],
    security: 'apiKey',
    operation: 'ServiceInfo',
    response: { description: 'Service information', schema: schemas.serviceInfo },
    respond: (data: ServiceInfoData) => ({
      kind: 'json',
      body: {
        service: 'Match Prediction API',
        version: API_VERSION,
        description: 'Football match predictions (outcome, expected goal difference, confidence) from models trained on real results.',
        documentation: DOCS_PATH,
        openapi: OPENAPI_PATH,
        key: data.viewer,
        plans: data.plans.map((p) => ({ code: p.code, name: p.name, daily_limit: p.dailyLimit })),
        data: {
          competitions: data.footballData.competitions,
          teams: data.footballData.teams,
          matches: data.footballData.matches,
          finished_matches: data.footballData.finishedMatches,
          scheduled_matches: data.footballData.scheduledMatches,
          latest_result_date: data.footballData.latestResultDate,
        },
        endpoints: predictionRoutes.map((r) => ({ method: r.method, path: r.path, description: r.summary, auth: AUTH_LABEL[r.security] })),
      },
    }),
  },
  {
    method: 'GET',
    path: '/api/predictions/latest/',
    summary: 'Latest predictions: the next scheduled matches',
    description: LATEST_DEFINITION,
    tags: ['Predictions'],
    security: 'apiKey',
    operation: 'LatestPredictions',
    query: schemas.latestQuery,
    variables: latestVariables,
    response: { description: 'Predictions, soonest kick-off first', schema: z.array(schemas.prediction) },
    respond: (data: LatestData) => ({
      kind: 'json',
      body: data.upcomingPredictions.map((p) => ({
        match_id: p.matchId,
        home_team: p.match.homeTeam.name,
        away_team: p.match.awayTeam.name,
        predicted_outcome: p.outcomeLabel,
        predicted_goal_diff: round(p.expectedGoalDifference, 2),
        confidence: round(p.confidence, 3),
      })),
    }),
  },
  {
    method: 'GET',
    path: '/api/dashboard/overview/',
    summary: 'Overview statistics of the active model version',
    description:
      'Over the active version\'s stored predictions: its walk-forward backtest (each match predicted from earlier matches only) and its live predictions. ' +
      '`accuracy` is the share of resolved predictions that were right; `average_confidence` the mean confidence of all of them.',
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'PredictionOverview',
    response: { description: 'Overview statistics', schema: schemas.overview },
    respond: (data: { predictionOverview: { totalPredictions: number; accuracy: number; averageConfidence: number } }) => ({
      kind: 'json',
      body: {
        total_predictions: data.predictionOverview.totalPredictions,
        accuracy: round(data.predictionOverview.accuracy, 4),
        average_confidence: round(data.predictionOverview.averageConfidence, 4),
      },
    }),
  },
  {
    method: 'GET',
    path: '/api/dashboard/confidence/',
    summary: 'Predictions per confidence band',
    description: 'Counts of the active version\'s predictions by confidence: high ≥ 0.60, medium 0.45–0.60, low < 0.45 (measured on this data: hit rates about 70 %, 50 % and 40 %).',
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'ConfidenceDistribution',
    response: { description: 'Confidence distribution', schema: schemas.confidence },
    respond: (data: { confidenceDistribution: { high: number; medium: number; low: number } }) => ({
      kind: 'json',
      body: { high_confidence: data.confidenceDistribution.high, medium_confidence: data.confidenceDistribution.medium, low_confidence: data.confidenceDistribution.low },
    }),
  },
  {
    method: 'GET',
    path: '/api/dashboard/compare_versions/',
    summary: 'Accuracy per model version',
    description:
      'One key per model version (`version_1`, `version_2`, …). `accuracy`: share right over the version\'s resolved predictions (backtest and live); ' +
      '`rps`, `brier`, `log_loss` and `backtest_matches` come from its walk-forward backtest.',
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'CompareVersions',
    response: { description: 'Version comparison', schema: schemas.versionComparison },
    respond: (data: { modelVersions: { name: string; kind: string; active: boolean; accuracy: number | null; trainedThrough: string; metrics: { count: number; rps: number; brier: number; logLoss: number } | null }[] }) => ({
      kind: 'json',
      body: Object.fromEntries(
        data.modelVersions.map((v) => [
          v.name,
          {
            accuracy: v.accuracy === null ? null : round(v.accuracy, 4),
            rps: v.metrics ? round(v.metrics.rps, 4) : null,
            brier: v.metrics ? round(v.metrics.brier, 4) : null,
            log_loss: v.metrics ? round(v.metrics.logLoss, 4) : null,
            backtest_matches: v.metrics?.count ?? null,
            model: v.kind,
            active: v.active,
            trained_through: v.trainedThrough,
          },
        ]),
      ),
    }),
  },
  {
    method: 'GET',
    path: '/dashboard/predictions/',
    summary: 'Predictions for a dashboard table',
    description: `${LATEST_DEFINITION} Shaped for display: \`match\` is "<home team> vs <away team>".`,
    tags: ['Dashboard'],
    security: 'apiKey',
    operation: 'LatestPredictions',
    query: schemas.latestQuery,
    variables: latestVariables,
    response: { description: 'Dashboard predictions', schema: z.array(schemas.dashboardPrediction) },
    respond: (data: LatestData) => ({
      kind: 'json',
      body: data.upcomingPredictions.map((p) => ({
        match: `${p.match.homeTeam.name} vs ${p.match.awayTeam.name}`,
        outcome: p.outcomeLabel,
        confidence: round(p.confidence, 3),
      })),
    }),
  },
  {
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
    respond: (data: { retrainModel: JobData }) => ({
      kind: 'json',
      status: 202,
      headers: { location: statusUrl(data.retrainModel.id) },
      body: toJob(data.retrainModel),
    }),
  },
  {
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
    respond: (data: { trainingJob: JobData }) => ({ kind: 'json', body: toJob(data.trainingJob) }),
  },
  ...applicationRoutes,
];
