import { z } from 'zod';

/** Response bodies of the prediction surface: documented in OpenAPI and checked by the contract tests. */

export const errorBody = z.object({
  detail: z.string().describe('What went wrong, for people.'),
  code: z.string().describe('Stable label: invalid, parse_error, not_authenticated, authentication_failed, permission_denied, not_found, method_not_allowed, conflict, request_too_large, throttled, error.'),
  errors: z.record(z.string(), z.array(z.string())).optional().describe('Per-field messages (invalid only).'),
});

export const serviceInfo = z.object({
  service: z.string(),
  version: z.string(),
  description: z.string(),
  documentation: z.string().describe('API reference (HTML).'),
  openapi: z.string().describe('OpenAPI 3.1 document.'),
  key: z.object({
    prefix: z.string(),
    name: z.string(),
    plan: z.enum(['free', 'pro', 'enterprise']),
    role: z.enum(['client', 'admin']),
  }),
  plans: z.array(z.object({ code: z.string(), name: z.string(), daily_limit: z.number().int().nullable() })),
  data: z.object({
    competitions: z.number().int(),
    teams: z.number().int(),
    matches: z.number().int(),
    finished_matches: z.number().int(),
    scheduled_matches: z.number().int(),
    latest_result_date: z.string().nullable(),
  }),
  endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string(), auth: z.enum(['api_key', 'admin_key', 'none']) })),
});

export const latestQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many predictions (1–100, default 20).'),
  competition: z
    .enum(['en.1', 'en.2', 'de.1', 'es.1', 'it.1', 'fr.1'])
    .optional()
    .describe('Only this competition: en.1 Premier League, en.2 Championship, de.1 Bundesliga, es.1 La Liga, it.1 Serie A, fr.1 Ligue 1.'),
});

export const outcomeLabel = z.enum(['Home Win', 'Draw', 'Away Win']);

export const prediction = z.object({
  match_id: z.number().int(),
  home_team: z.string(),
  away_team: z.string(),
  predicted_outcome: outcomeLabel,
  predicted_goal_diff: z.number().describe('Expected goals, home minus away (2 decimals).'),
  confidence: z.number().min(0).max(1).describe('Probability of the predicted outcome (3 decimals).'),
});

export const overview = z.object({
  total_predictions: z.number().int(),
  accuracy: z.number().min(0).max(1),
  average_confidence: z.number().min(0).max(1),
});

export const confidence = z.object({
  high_confidence: z.number().int().describe('confidence ≥ 0.60'),
  medium_confidence: z.number().int().describe('0.45 ≤ confidence < 0.60'),
  low_confidence: z.number().int().describe('confidence < 0.45'),
});

export const versionComparison = z.record(
  z.string().regex(/^version_\d+$/),
  z.object({
    accuracy: z.number().min(0).max(1).nullable(),
    rps: z.number().nullable(),
    brier: z.number().nullable(),
    log_loss: z.number().nullable(),
    backtest_matches: z.number().int().nullable(),
    model: z.string(),
    active: z.boolean(),
    trained_through: z.string(),
  }),
);

export const dashboardPrediction = z.object({
  match: z.string().describe('"<home team> vs <away team>"'),
  outcome: outcomeLabel,
  confidence: z.number().min(0).max(1),
});

export const retrainBody = z
  .object({ model: z.enum(['dixon-coles', 'elo', 'pi-ratings', 'ensemble']).optional().describe('Model family; default: the configured one.') })
  .strict()
  .optional();

export const trainingJob = z.object({
  job_id: z.string().uuid(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  model: z.string(),
  phase: z.string().nullable(),
  progress: z.number().min(0).max(1),
  version: z.string().nullable().describe('The version it produced, e.g. version_2.'),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  status_url: z.string(),
});

export const jobParams = z.object({ jobId: z.string().uuid().describe('Training job id') });
