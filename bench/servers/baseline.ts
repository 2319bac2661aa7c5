/**
 * The baseline: a minimal hand-written Express + pg server answering GET /api/ and
 * GET /api/predictions/latest/ with the same bytes as the real surface, from the same tables,
 * doing the same work (key lookup, constant-time hash check, atomic metering) — without the
 * gateway, GraphQL or federation. `node dist/bench/servers/baseline.js` with DATABASE_URL and PORT.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express from 'express';
import pg from 'pg';

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const PLAN_LIMIT: Record<string, number | null> = { free: 50, pro: 5000, enterprise: null };
const PLANS = [
  { code: 'free', name: 'Free', daily_limit: 50 },
  { code: 'pro', name: 'Pro', daily_limit: 5000 },
  { code: 'enterprise', name: 'Enterprise', daily_limit: null },
];
const ENDPOINTS = [
  ['GET', '/api/', 'Service information and the list of endpoints', 'api_key'],
  ['GET', '/api/predictions/latest/', 'Latest predictions: the next scheduled matches', 'api_key'],
  ['GET', '/api/dashboard/overview/', 'Overview statistics of the active model version', 'api_key'],
  ['GET', '/api/dashboard/confidence/', 'Predictions per confidence band', 'api_key'],
  ['GET', '/api/dashboard/compare_versions/', 'Accuracy per model version', 'api_key'],
  ['GET', '/api/dashboard/versions/', 'Model versions over time: metrics, calibration, live ratings', 'api_key'],
  ['GET', '/api/dashboard/fixtures/', 'Next fixtures with their probabilities', 'api_key'],
  ['GET', '/api/dashboard/retrain/', 'Progress of the running retrain', 'api_key'],
  ['GET', '/dashboard/predictions/', 'Predictions for a dashboard table', 'api_key'],
  ['POST', '/api/retrain/', 'Start a model retrain (administrator key)', 'admin_key'],
  ['GET', '/api/retrain/:jobId/', 'Status and progress of a retrain job (administrator key)', 'admin_key'],
  ['GET', '/apply/', 'Application form for an API key (HTML)', 'none'],
  ['POST', '/apply/', 'Submit the application form (HTML)', 'none'],
  ['POST', '/api/applications/', 'Apply for an API key (JSON)', 'none'],
  ['GET', '/apply/confirm/', "Confirm an applicant's e-mail address: the page behind the link in the mail (HTML)", 'none'],
  ['POST', '/apply/confirm/', "Confirm an applicant's e-mail address (HTML form)", 'none'],
  ['POST', '/api/applications/inbound-email/', 'Inbound-mail webhook: an application e-mailed with the subject "API Access Request"', 'none'],
].map(([method, path, description, auth]) => ({ method, path, description, auth }));

let summary: { at: number; value: Record<string, unknown> } | undefined;
interface KeyRow {
  id: string;
  prefix: string;
  hash: Buffer;
  name: string;
  role: string;
  plan_code: string;
  daily_limit: number | null;
  revoked_at: Date | null;
  at: number;
}
const verified = new Map<string, KeyRow>();

interface Key {
  id: string;
  prefix: string;
  name: string;
  role: string;
  plan: string;
}

/** Bearer key → key row, metered: the same two statements the access subgraph runs. */
async function authenticate(req: express.Request, res: express.Response): Promise<Key | undefined> {
  const m = /^Bearer +([0-9A-Za-z_-]{24,128}) *$/.exec(req.headers.authorization ?? '');
  if (!m) {
    res
      .status(401)
      .setHeader('www-authenticate', 'Bearer realm="api"')
      .json({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
    return undefined;
  }
  const key = m[1];
  // the same policy as the access subgraph: a verified key's row is reused for 60 s
  let row = verified.get(key.slice(0, 12));
  if (!row || Date.now() - row.at > 60_000) {
    const { rows } = await pool.query<Omit<KeyRow, 'at'>>({
      name: 'key',
      text: 'SELECT id, prefix, hash, name, role, plan_code, daily_limit, revoked_at FROM access.api_key WHERE prefix = $1',
      values: [key.slice(0, 12)],
    });
    row = rows[0] && { ...rows[0], at: Date.now() };
    if (row) verified.set(key.slice(0, 12), row);
  }
  const hash = createHash('sha256').update(key).digest();
  if (!row || row.revoked_at || row.hash.length !== hash.length || !timingSafeEqual(row.hash, hash)) {
    res.status(401).setHeader('www-authenticate', 'Bearer realm="api"').json({ detail: 'Invalid API key.', code: 'authentication_failed' });
    return undefined;
  }
  const limit = row.daily_limit ?? PLAN_LIMIT[row.plan_code];
  const now = new Date();
  if (limit !== null) {
    const day = now.toISOString().slice(0, 10);
    const reset = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) / 1000;
    const { rows: used } = await pool.query<{ count: number }>({
      name: 'meter',
      text: `WITH touch AS (UPDATE access.api_key SET last_used_at = $4 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $4::timestamptz - interval '30 seconds'))
             INSERT INTO access.daily_usage AS u (key_id, day, count) VALUES ($1, $2, 1)
             ON CONFLICT (key_id, day) DO UPDATE SET count = u.count + 1 WHERE u.count < $3 RETURNING count`,
      values: [row.id, day, limit, now],
    });
    if (!used[0]) {
      res.status(429).json({ detail: 'Daily quota exceeded.', code: 'throttled' });
      return undefined;
    }
    res.setHeader('x-ratelimit-limit', String(limit));
    res.setHeader('x-ratelimit-remaining', String(limit - used[0].count));
    res.setHeader('x-ratelimit-reset', String(reset));
  }
  return { id: row.id, prefix: row.prefix, name: row.name, role: row.role, plan: row.plan_code };
}

app.get('/api/', async (req, res) => {
  const key = await authenticate(req, res);
  if (!key) return;
  if (!summary || Date.now() - summary.at > 30_000) {
    const { rows } = await pool.query<Record<string, unknown>>(
      `SELECT (SELECT count(*) FROM football.competition) AS competitions, (SELECT count(*) FROM football.team) AS teams, count(*) AS matches,
              count(*) FILTER (WHERE status = 'finished' AND home_goals IS NOT NULL) AS finished_matches,
              count(*) FILTER (WHERE status = 'scheduled') AS scheduled_matches,
              to_char(max(match_date) FILTER (WHERE home_goals IS NOT NULL), 'YYYY-MM-DD') AS latest_result_date
         FROM football.match`,
    );
    summary = { at: Date.now(), value: rows[0] };
  }
  res.json({
    service: 'Match Prediction API',
    version: '1.0.0',
    description: 'Football match predictions (outcome, expected goal difference, confidence) from models trained on real results.',
    documentation: '/api/docs/',
    openapi: '/api/openapi.json',
    key: { prefix: key.prefix, name: key.name, plan: key.plan, role: key.role },
    plans: PLANS,
    data: summary.value,
    endpoints: ENDPOINTS,
  });
});

const LABEL: Record<string, string> = { H: 'Home Win', D: 'Draw', A: 'Away Win' };

app.get('/api/predictions/latest/', async (req, res) => {
  const key = await authenticate(req, res);
  if (!key) return;
  const { rows } = await pool.query<{ match_id: number; home_team: string; away_team: string; predicted_outcome: string; diff: number; confidence: number }>({
    name: 'latest',
    text: `WITH latest AS (
             SELECT match_id, kickoff, predicted_outcome, exp_home_goals - exp_away_goals AS diff, confidence FROM predictions.prediction
              WHERE version_id = (SELECT id FROM predictions.model_version WHERE is_active) AND actual_outcome IS NULL
              ORDER BY kickoff, match_id LIMIT 20)
           SELECT l.match_id, h.name AS home_team, a.name AS away_team, l.predicted_outcome, l.diff, l.confidence
             FROM latest l JOIN football.match m ON m.id = l.match_id
             JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id
            ORDER BY l.kickoff, l.match_id`,
  });
  res.json(
    rows.map((r) => ({
      match_id: r.match_id,
      home_team: r.home_team,
      away_team: r.away_team,
      predicted_outcome: LABEL[r.predicted_outcome],
      predicted_goal_diff: Number(r.diff.toFixed(2)),
      confidence: Number(r.confidence.toFixed(3)),
    })),
  );
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`READY ${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
