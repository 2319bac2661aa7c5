import { CONFIDENCE_BANDS, JOB_STATUSES, OUTCOME_LABELS } from '../../subgraphs/predictions/predictions/vocabulary';
import { z } from 'zod';

/** Response bodies of the prediction surface: documented in OpenAPI and checked by the contract tests. */

export const errorBody = z.object({
  detail: z.string().describe('What went wrong, for people.'),
  code: z
    .string()
    .describe(
      'Stable label: invalid, parse_error, not_authenticated, authentication_failed, permission_denied, not_found, method_not_allowed, conflict, request_too_large, unsupported_media_type, throttled, model_not_ready, service_unavailable (retry after Retry-After seconds), error.',
    ),
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
  apply: z
    .object({
      form: z.string().describe('The application form (HTML).'),
      email: z.string().describe('Apply by e-mail: write to this address with the subject below.'),
      subject: z.literal('API Access Request'),
      smtp: z.string().nullable().describe('host:port of the built-in SMTP receiver of that mailbox (null when off).'),
    })
    .describe('How to apply for a key.'),
  plans: z.array(z.object({ code: z.string(), name: z.string(), daily_limit: z.number().int().nullable() })),
  data: z.object({
    competitions: z.number().int(),
    teams: z.number().int(),
    matches: z.number().int(),
    finished_matches: z.number().int(),
    scheduled_matches: z.number().int(),
    latest_result_date: z.string().nullable(),
    leagues: z
      .array(
        z.object({
          code: z.string(),
          name: z.string(),
          latest_result_date: z.string().nullable().describe('Date of its newest result.'),
          updated_at: z
            .string()
            .nullable()
            .describe('The last successful feed pass that changed its fixtures or results; null: the shipped data, never updated.'),
          next_kickoff: z.string().nullable().describe('Its next kick-off; null when no fixture is known.'),
          upcoming_matches: z.number().int(),
          awaiting_result: z.number().int().describe('Matches that kicked off without a known result.'),
          ratings_stale: z.boolean().describe('Its newest result is older than RATINGS_STALE_DAYS (default 90): its ratings say how its teams played then.'),
        }),
      )
      .describe('How fresh the data of each competition is.'),
    feed: z
      .object({
        configured: z.boolean().describe('FOOTBALL_FEED_URLS has sources.'),
        interval_minutes: z.number().int(),
        last_pass_at: z.string().nullable(),
        last_success_at: z.string().nullable().describe('End of the last pass in which every source succeeded.'),
        last_error_at: z.string().nullable(),
      })
      .describe('The live data feed.'),
    notice: z.string().nullable().describe('Set when no upcoming fixture is known: says when each league was last updated.'),
  }),
  endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string(), auth: z.enum(['api_key', 'admin_key', 'none']) })),
});

/** The competitions by code, with the names a reader uses for them (the bot takes the same). */
const COMPETITION_NAMES = {
  'en.1': ['English Premier League', 'Premier League'],
  'en.2': ['English Championship', 'Championship'],
  'de.1': ['Bundesliga'],
  'es.1': ['La Liga', 'LaLiga'],
  'it.1': ['Serie A'],
  'fr.1': ['Ligue 1'],
} as const;
const COMPETITION_CODES = Object.keys(COMPETITION_NAMES) as [keyof typeof COMPETITION_NAMES, ...(keyof typeof COMPETITION_NAMES)[]];
const normalized = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.]+/gu, ' ')
    .trim();
/** A competition's code from its code or one of its names, any case ("Premier League", "premier-league"); else the value as given. */
export function competitionCode(value: string): string {
  const q = normalized(value);
  const found = Object.entries(COMPETITION_NAMES).find(([code, names]) => code === q || names.some((n) => normalized(n) === q));
  return found ? found[0] : value;
}
/** Every competition parameter of the REST API: a code, or a name as the bot takes it. */
const COMPETITION = z
  .preprocess((v) => (typeof v === 'string' ? competitionCode(v) : v), z.enum(COMPETITION_CODES))
  .describe('A competition by code or name: en.1 Premier League, en.2 Championship, de.1 Bundesliga, es.1 La Liga, it.1 Serie A, fr.1 Ligue 1.');

export const latestQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many predictions (1–100, default 20).'),
  competition: COMPETITION.optional().describe(
    'Only this competition, by code or name: en.1 Premier League, en.2 Championship, de.1 Bundesliga, es.1 La Liga, it.1 Serie A, fr.1 Ligue 1.',
  ),
});

export const outcomeLabel = z.enum(OUTCOME_LABELS);

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
  high_confidence: z
    .number()
    .int()
    .describe(`confidence ≥ ${CONFIDENCE_BANDS.high.toFixed(2)}`),
  medium_confidence: z
    .number()
    .int()
    .describe(`${CONFIDENCE_BANDS.medium.toFixed(2)} ≤ confidence < ${CONFIDENCE_BANDS.high.toFixed(2)}`),
  low_confidence: z
    .number()
    .int()
    .describe(`confidence < ${CONFIDENCE_BANDS.medium.toFixed(2)}`),
});

const reliabilityBin = z.object({
  from: z.number(),
  to: z.number(),
  count: z.number().int().describe('Forecasts in the band [from, to)'),
  predicted: z.number().nullable().describe('Mean predicted probability (null: empty band)'),
  observed: z.number().nullable().describe('Observed frequency (null: empty band)'),
});

const reliabilityTable = z.object({
  ece: z.number().describe('Expected calibration error: Σ (count / n) · |observed − predicted|'),
  bins: z.array(reliabilityBin),
});

export const calibration = z
  .object({
    bin_width: z.number(),
    ece: z.number().describe('Classwise expected calibration error: the mean of home, draw and away'),
    home: reliabilityTable.describe('P(home win) against home wins'),
    draw: reliabilityTable.describe('P(draw) against draws'),
    away: reliabilityTable.describe('P(away win) against away wins'),
  })
  .describe('Reliability of the walk-forward forecasts: bands of predicted probability against observed frequency');

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
    training_from: z.string().describe('First match date of the training data'),
    trained_through: z.string(),
    training_matches: z.number().int().describe('Matches the training used'),
    live_results: z.number().int().describe('Results taken into its live ratings since the training'),
    live_ratings_through: z.string().describe('Newest result its live ratings have taken'),
    created_at: z.string(),
    ece: z.number().nullable().describe('Expected calibration error of the walk-forward forecasts (null: not recorded)'),
    changed_from_previous: z
      .array(z.string())
      .nullable()
      .describe('The compared fields (data range, matches, live ratings, figures) whose value differs from the version before; null for the first'),
    calibration: calibration.nullable(),
  }),
);

export const modelVersion = z.object({
  version: z.string().regex(/^version_\d+$/),
  number: z.number().int(),
  model: z.string(),
  active: z.boolean(),
  created_at: z.string(),
  activated_at: z.string().nullable(),
  training_from: z.string(),
  trained_through: z.string().describe('Data cut-off of the training'),
  training_matches: z.number().int(),
  accuracy: z.number().min(0).max(1).nullable().describe('Share right over all resolved predictions (backtest and live)'),
  backtest: z
    .object({
      matches: z.number().int(),
      accuracy: z.number(),
      rps: z.number(),
      brier: z.number(),
      log_loss: z.number(),
      per_class: z.record(
        z.enum(['home', 'draw', 'away']),
        z.object({ predicted: z.number().int(), correct: z.number().int(), precision: z.number().nullable() }),
      ),
      bands: z.record(z.enum(['high', 'medium', 'low']), z.object({ count: z.number().int(), hit_rate: z.number().nullable() })),
    })
    .nullable()
    .describe('Walk-forward backtest metrics'),
  calibration: calibration.extend({ confidence: reliabilityTable.describe('Confidence against the hit rate') }).nullable(),
  live: z
    .object({
      results: z.number().int().describe('Results applied to the ratings since training'),
      ratings_through: z.string().describe('Latest match date in the ratings'),
      ratings_updated_at: z.string().nullable(),
      strengths_through: z.string().nullable().describe('Data cut-off of the Dixon–Coles strengths (null: no such model part)'),
      strengths_refitted_at: z.string().nullable(),
    })
    .describe('Live ratings: what the version took in since training, without a new version'),
});

export const fixture = z.object({
  match_id: z.number().int(),
  competition: z.string(),
  kickoff: z.string(),
  home_team: z.string(),
  away_team: z.string(),
  probabilities: z.object({ home: z.number(), draw: z.number(), away: z.number() }).describe('Home win, draw, away win (4 decimals)'),
  expected_goals: z.object({ home: z.number(), away: z.number() }),
  predicted_outcome: outcomeLabel,
  confidence: z.number().min(0).max(1),
  version: z.string().describe('The model version that predicted it'),
});

export const retrainProgress = z.object({
  retrain: z
    .object({
      status: z.enum(JOB_STATUSES),
      model: z.string(),
      phase: z.string().nullable(),
      progress: z.number().min(0).max(1),
      version: z.string().nullable().describe('The version it produced'),
      created_at: z.string(),
      started_at: z.string().nullable(),
      finished_at: z.string().nullable(),
    })
    .nullable()
    .describe('The retrain in progress, else the latest one; null before any'),
});

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
  status: z.enum(JOB_STATUSES),
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

// ---- beyond the contract: any pairing, one fixture, filtered lists with cursors, the track record

const OUTCOME = z.enum(['Home Win', 'Draw', 'Away Win']);
const probabilities = z.object({ home: z.number(), draw: z.number(), away: z.number() }).describe('Home win, draw, away win (4 decimals)');

export const predictQuery = z.object({
  home: z.string().trim().min(1).max(100).describe('Home team as a person types it: "Man Utd", "spurs", "Bayern", or a team id.'),
  away: z.string().trim().min(1).max(100).describe('Away team, the same way.'),
  competition: COMPETITION.optional().describe("Whose parameters to use (home advantage, goal rate); default: the teams' competition, else the home side's."),
});

export const pairingPrediction = z.object({
  home_team: z.string(),
  away_team: z.string(),
  competition: z.string().describe('The competition whose parameters the forecast uses.'),
  cross_league: z.boolean().describe('The teams play in different competitions now: no league match; `home_competition` and `away_competition` say which.'),
  home_competition: z.string().nullable(),
  away_competition: z.string().nullable(),
  predicted_outcome: OUTCOME,
  predicted_goal_diff: z.number(),
  confidence: z.number().min(0).max(1),
  confidence_band: z.enum(['high', 'medium', 'low']),
  probabilities,
  expected_goals: z.object({ home: z.number(), away: z.number() }),
  stale_ratings: z
    .array(z.object({ team: z.string(), last_played: z.string(), age_days: z.number().int() }))
    .describe('Sides whose latest match is older than a season: their rating is that old.'),
  version: z.string(),
});

export const fixtureParams = z.object({ matchId: z.coerce.number().int().min(1).max(2_147_483_647).describe('Match id (as in match_id)') });

export const fixtureDetail = z.object({
  match_id: z.number().int(),
  competition: z.string(),
  competition_name: z.string(),
  season: z.string(),
  round: z.string().nullable(),
  kickoff: z.string(),
  status: z.enum(['scheduled', 'awaiting_result', 'finished', 'cancelled', 'awarded', 'postponed']),
  home_team: z.string(),
  away_team: z.string(),
  score: z.object({ home: z.number().int(), away: z.number().int() }).nullable(),
  prediction: z
    .object({
      predicted_outcome: OUTCOME,
      predicted_goal_diff: z.number(),
      confidence: z.number(),
      confidence_band: z.enum(['high', 'medium', 'low']),
      probabilities,
      version: z.string(),
      source: z.enum(['live', 'backtest']),
      actual_outcome: OUTCOME.nullable(),
      correct: z.boolean().nullable(),
    })
    .nullable()
    .describe("The active version's prediction; null when it has none (a match of a season it did not predict)."),
});

const listQuery = {
  competition: COMPETITION.optional(),
  team: z.string().trim().min(1).max(100).optional().describe('A team as a person types it: its matches, home or away.'),
  from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe('Kick-off on or after (ISO 8601 date or date-time).'),
  to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe('Kick-off on or before (a date: up to its end, UTC).'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size (1–100, default 20).'),
  cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page.'),
};

export const predictionsQuery = z.object(listQuery);

export const historyQuery = z.object({
  ...listQuery,
  result: z.enum(['correct', 'wrong']).optional().describe('Only predictions that were right, or wrong.'),
  source: z
    .enum(['live', 'backtest'])
    .optional()
    .describe('live: made before kick-off for a scheduled match; backtest: walk-forward when the version was trained.'),
});

export const listedPrediction = z.object({
  match_id: z.number().int(),
  competition: z.string(),
  kickoff: z.string(),
  home_team: z.string(),
  away_team: z.string(),
  predicted_outcome: OUTCOME,
  predicted_goal_diff: z.number(),
  confidence: z.number(),
  confidence_band: z.enum(['high', 'medium', 'low']),
  probabilities,
  version: z.string(),
  source: z.enum(['live', 'backtest']),
  actual_outcome: OUTCOME.nullable(),
  correct: z.boolean().nullable(),
});

export const predictionList = z.object({
  results: z.array(listedPrediction),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one.'),
});
