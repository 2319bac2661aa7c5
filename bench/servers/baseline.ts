/**
 * The baseline: a minimal hand-written Express + pg server answering GET /api/ and
 * GET /api/predictions/latest/ with the same bytes as the real surface, from the same tables,
 * doing the same work (key lookup, constant-time hash check, atomic metering) — without the
 * gateway, GraphQL or federation. `node dist/bench/servers/baseline.js` with DATABASE_URL and PORT.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { predictionRoutes } from '../../rest-adapter/predictions/routes';

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
/** The surface's endpoints: the same constant table the product lists (its route table). */
const AUTH_LABEL: Record<string, string> = { apiKey: 'api_key', adminKey: 'admin_key', none: 'none' };
const ENDPOINTS = predictionRoutes.map((r) => ({ method: r.method, path: r.path, description: r.summary, auth: AUTH_LABEL[r.security as string] }));
/** The application mailbox's address, as configured (the bench passes the product's configuration). */
const APPLY = JSON.parse(process.env.APPLY ?? 'null') as unknown;
const FEED_INTERVAL_MINUTES = Number(process.env.FOOTBALL_FEED_INTERVAL_MINUTES ?? 60);
const STALE_DAYS = Number(process.env.RATINGS_STALE_DAYS ?? 90);

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

interface League {
  code: string;
  name: string;
  latest_result_date: string | null;
  updated_at: Date | null;
  next_kickoff: Date | null;
  upcoming_matches: number;
  awaiting_result: number;
}

/** The football data's extent: the same figures as the product's, from the same tables, in three statements. */
async function extent(): Promise<Record<string, unknown>> {
  const now = new Date();
  const [{ rows: totals }, { rows: leagues }, { rows: runs }] = await Promise.all([
    pool.query<Record<string, unknown>>(
      `SELECT (SELECT count(*) FROM football.competition) AS competitions, (SELECT count(*) FROM football.team) AS teams, count(*) AS matches,
              count(*) FILTER (WHERE status = 'finished' AND home_goals IS NOT NULL) AS finished_matches,
              count(*) FILTER (WHERE status = 'scheduled') AS scheduled_matches,
              to_char(max(match_date) FILTER (WHERE home_goals IS NOT NULL), 'YYYY-MM-DD') AS latest_result_date
         FROM football.match`,
    ),
    pool.query<League>(
      `SELECT c.code, c.name,
              to_char(max(m.match_date) FILTER (WHERE m.home_goals IS NOT NULL), 'YYYY-MM-DD') AS latest_result_date,
              (SELECT max(fs.last_changed_at) FROM football.feed_source fs WHERE fs.competition = c.code) AS updated_at,
              min(m.kickoff) FILTER (WHERE m.status = 'scheduled' AND m.home_goals IS NULL AND m.kickoff > $1) AS next_kickoff,
              count(*) FILTER (WHERE m.status = 'scheduled' AND m.home_goals IS NULL AND m.kickoff > $1)::int AS upcoming_matches,
              count(*) FILTER (WHERE m.status = 'scheduled' AND m.home_goals IS NULL AND m.kickoff <= $1)::int AS awaiting_result
         FROM football.competition c LEFT JOIN football.match m ON m.competition_id = c.id
        GROUP BY c.id ORDER BY c.country, c.tier, c.code`,
      [now],
    ),
    pool.query<{ last_pass_at: Date | null; last_success_at: Date | null; last_error_at: Date | null }>(
      `SELECT (SELECT finished_at FROM football.feed_run ORDER BY id DESC LIMIT 1) AS last_pass_at,
              (SELECT finished_at FROM football.feed_run WHERE status = 'succeeded' ORDER BY id DESC LIMIT 1) AS last_success_at,
              (SELECT CASE WHEN error IS NOT NULL THEN coalesce(finished_at, started_at) END FROM football.feed_run WHERE status = 'failed' ORDER BY id DESC LIMIT 1) AS last_error_at`,
    ),
  ]);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  // the product's rules: "updated" is the last feed pass that changed the league, else the shipped data
  const per = leagues
    .map(
      (l) =>
        `${l.name}: ${l.updated_at ? `updated ${iso(l.updated_at)!.slice(0, 10)}` : 'shipped data, never updated'}, newest result ${l.latest_result_date ?? 'none'}`,
    )
    .join('; ');
  const stale = (date: string | null) => !date || now.getTime() - Date.parse(`${date}T00:00:00Z`) > STALE_DAYS * 86_400_000;
  return {
    ...totals[0],
    leagues: leagues.map((l) => ({ ...l, updated_at: iso(l.updated_at), next_kickoff: iso(l.next_kickoff), ratings_stale: stale(l.latest_result_date) })),
    feed: {
      // the product's rule: unset follows openfootball's sources by default, `off` follows none
      configured: !/^\s*off\s*$/i.test(process.env.FOOTBALL_FEED_URLS ?? ''),
      interval_minutes: FEED_INTERVAL_MINUTES,
      last_pass_at: iso(runs[0].last_pass_at),
      last_success_at: iso(runs[0].last_success_at),
      last_error_at: iso(runs[0].last_error_at),
    },
    notice: leagues.some((l) => l.upcoming_matches > 0)
      ? null
      : 'No upcoming fixture is known (off-season, or the data feed is behind): /api/predictions/latest/ lists the most recent played matches ' +
        `(latest first), and the upcoming lists are empty. ${per}.`,
  };
}

app.get('/api/', async (req, res) => {
  const key = await authenticate(req, res);
  if (!key) return;
  // kept for 30 s: what a hand-written server would do with figures that change only with the data
  if (!summary || Date.now() - summary.at > 30_000) summary = { at: Date.now(), value: await extent() };
  res.json({
    service: 'Match Prediction API',
    version: '1.0.0',
    description: 'Football match predictions (outcome, expected goal difference, confidence) from models trained on real results.',
    documentation: '/api/docs/',
    openapi: '/api/openapi.json',
    key: { prefix: key.prefix, name: key.name, plan: key.plan, role: key.role },
    apply: APPLY,
    plans: PLANS,
    data: summary.value,
    endpoints: ENDPOINTS,
  });
});

const LABEL: Record<string, string> = { H: 'Home Win', D: 'Draw', A: 'Away Win' };

type LatestRow = { match_id: number; home_team: string; away_team: string; predicted_outcome: string; diff: number; confidence: number };
const LATEST_COLUMNS = `l.match_id, h.name AS home_team, a.name AS away_team, l.predicted_outcome, l.diff, l.confidence`;
const LATEST_JOINS = `JOIN football.match m ON m.id = l.match_id JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id`;

/** The product's rule: the upcoming fixtures (kick-off after now, soonest first), else the most recent played (latest first). */
app.get('/api/predictions/latest/', async (req, res) => {
  const key = await authenticate(req, res);
  if (!key) return;
  let { rows } = await pool.query<LatestRow>({
    name: 'latest',
    text: `WITH l AS (
             SELECT match_id, kickoff, predicted_outcome, exp_home_goals - exp_away_goals AS diff, confidence FROM predictions.prediction
              WHERE version_id = (SELECT id FROM predictions.model_version WHERE is_active) AND actual_outcome IS NULL AND kickoff > $1
              ORDER BY kickoff, match_id LIMIT 20)
           SELECT ${LATEST_COLUMNS} FROM l ${LATEST_JOINS} ORDER BY l.kickoff, l.match_id`,
    values: [new Date()],
  });
  if (!rows.length)
    ({ rows } = await pool.query<LatestRow>({
      name: 'recent',
      text: `WITH l AS (
               SELECT match_id, kickoff, predicted_outcome, exp_home_goals - exp_away_goals AS diff, confidence FROM predictions.prediction
                WHERE version_id = (SELECT id FROM predictions.model_version WHERE is_active) AND actual_outcome IS NOT NULL
                ORDER BY kickoff DESC, match_id DESC LIMIT 20)
             SELECT ${LATEST_COLUMNS} FROM l ${LATEST_JOINS} ORDER BY l.kickoff DESC, l.match_id DESC`,
    }));
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
