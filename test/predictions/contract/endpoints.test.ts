import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import * as schemas from '../../../rest-adapter/predictions/schemas';

let t: TestApp;
let key: string;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('pro');
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const { get } = surface(() => t.urls.predictions, { key: () => key });
const keysOf = (o: object) => Object.keys(o).sort();

const ENDPOINTS = [
  '/api/',
  '/api/predictions/latest/',
  '/api/dashboard/overview/',
  '/api/dashboard/confidence/',
  '/api/dashboard/compare_versions/',
  '/dashboard/predictions/',
  '/api/dashboard/versions/',
  '/api/dashboard/fixtures/',
  '/api/dashboard/retrain/',
];

describe.each(ENDPOINTS)('%s', (path) => {
  it('401 with WWW-Authenticate: Bearer without a key', async () => {
    const res = await get(path, null);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(keysOf(res.body)).toEqual(['code', 'detail']);
  });

  it('200 with X-RateLimit-* headers and is metered once', async () => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('5000');
    const again = await get(path);
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(Number(res.headers.get('x-ratelimit-remaining')) - 1);
  });

  it("429 once the key's quota is used", async () => {
    const small = await t.createKey('enterprise', { dailyLimit: 1 });
    expect((await get(path, small)).status).toBe(200);
    const res = await get(path, small);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.body.code).toBe('throttled');
  });
});

describe('GET /api/predictions/latest/', () => {
  it("answers the next scheduled matches, soonest first, with the contract's exact fields and types", async () => {
    const res = await get('/api/predictions/latest/');
    expect(res.body).toHaveLength(20);
    for (const p of res.body) {
      expect(Object.keys(p)).toEqual(['match_id', 'home_team', 'away_team', 'predicted_outcome', 'predicted_goal_diff', 'confidence']);
      expect(Number.isInteger(p.match_id)).toBe(true);
      expect(typeof p.home_team).toBe('string');
      expect(typeof p.away_team).toBe('string');
      expect(['Home Win', 'Draw', 'Away Win']).toContain(p.predicted_outcome);
      expect(typeof p.predicted_goal_diff).toBe('number');
      expect(p.confidence).toBeGreaterThan(1 / 3);
      expect(p.confidence).toBeLessThanOrEqual(1);
      schemas.prediction.parse(p);
    }
    // the same matches, in the same order, as the scheduled fixtures in the database
    const { rows } = await db.query(
      `SELECT p.match_id FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id AND v.is_active
        WHERE p.actual_outcome IS NULL ORDER BY p.kickoff, p.match_id LIMIT 20`,
    );
    expect(res.body.map((p: { match_id: number }) => p.match_id)).toEqual(rows.map((r) => r.match_id));
    const { rows: fixtures } = await db.query(`SELECT id FROM football.match WHERE status = 'scheduled' ORDER BY kickoff, id LIMIT 20`);
    expect(res.body.map((p: { match_id: number }) => p.match_id)).toEqual(fixtures.map((r) => r.id));
  });

  it("gives every row the football data's team names, the most probable outcome, its probability and the expected goal difference", async () => {
    const res = await get('/api/predictions/latest/?limit=100');
    expect(res.body).toHaveLength(100);
    const { rows } = await db.query(
      `SELECT p.match_id, h.name AS home, a.name AS away, p.p_home, p.p_draw, p.p_away, p.exp_home_goals - p.exp_away_goals AS diff
         FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id AND v.is_active
         JOIN football.match m ON m.id = p.match_id JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id
        WHERE p.match_id = ANY($1)`,
      [res.body.map((p: { match_id: number }) => p.match_id)],
    );
    const stored = new Map(rows.map((r) => [r.match_id, r]));
    // the documented rule (README, "The model"): the outcome is the most probable one, the confidence its probability
    const LABELS = ['Home Win', 'Draw', 'Away Win'];
    for (const p of res.body) {
      const r = stored.get(p.match_id);
      const probabilities = [r.p_home, r.p_draw, r.p_away];
      const best = Math.max(...probabilities);
      expect(p).toEqual({
        match_id: r.match_id,
        home_team: r.home,
        away_team: r.away,
        predicted_outcome: LABELS[probabilities.indexOf(best)],
        predicted_goal_diff: Number(r.diff.toFixed(2)),
        confidence: Number(best.toFixed(3)),
      });
    }
  });

  it('every GET with a competition parameter (from the OpenAPI document) takes a league by name as the bot does', async () => {
    const doc = (await get('/api/openapi.json', null)).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
    };
    const sites = Object.entries(doc.paths).filter(
      ([path, ops]) => !path.includes('{') && ops.get?.parameters?.some((p) => p.in === 'query' && p.name === 'competition'),
    );
    expect(sites.map(([path]) => path)).toContain('/api/predictions/latest/');
    // the other required parameters of a site, by name (a new one fails here until it is given a value)
    const SAMPLE: Record<string, string> = { home: 'Arsenal', away: 'Chelsea' };
    for (const [path, ops] of sites) {
      const required = (ops.get!.parameters ?? []).filter((p) => p.in === 'query' && p.required && p.name !== 'competition');
      const rest = required.map((p) => `&${p.name}=${encodeURIComponent(SAMPLE[p.name] ?? `no sample value for ${p.name}`)}`).join('');
      const get2 = (q: string) => get(`${path}?${q}${rest}`);
      const byCode = await get2('competition=en.1');
      expect({ path, status: byCode.status }).toEqual({ path, status: 200 });
      for (const name of ['Premier League', 'premier league', 'English Premier League']) {
        const byName = await get2(`competition=${encodeURIComponent(name)}`);
        expect({ path, name, status: byName.status, body: byName.body }).toEqual({ path, name, status: 200, body: byCode.body });
      }
      expect((await get2('competition=Premier%20Leegue')).status).toBe(400);
    }
  });

  it('honours limit and competition, and rejects bad values with 400', async () => {
    const res = await get('/api/predictions/latest/?limit=5&competition=de.1');
    expect(res.body).toHaveLength(5);
    const ids = res.body.map((p: { match_id: number }) => p.match_id);
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM football.match m JOIN football.competition c ON c.id = m.competition_id WHERE c.code = 'de.1' AND m.id = ANY($1)`,
      [ids],
    );
    expect(rows[0].n).toBe(5);
    for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'competition=xx.9']) {
      const r = await get(`/api/predictions/latest/?${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid');
      expect(Object.keys(r.body.errors).length).toBeGreaterThan(0);
    }
  });
});

describe('GET /api/dashboard/*', () => {
  it('overview: {total_predictions, accuracy, average_confidence} over the predictions whose result is known', async () => {
    const res = await get('/api/dashboard/overview/');
    expect(keysOf(res.body)).toEqual(['accuracy', 'average_confidence', 'total_predictions']);
    schemas.overview.parse(res.body);
    const { rows } = await db.query(
      `SELECT count(*)::int AS total, avg(correct::int)::float8 AS accuracy, avg(confidence)::float8 AS conf
         FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id AND v.is_active
        WHERE p.actual_outcome IS NOT NULL`,
    );
    expect(res.body.total_predictions).toBe(rows[0].total);
    expect(res.body.accuracy).toBeCloseTo(rows[0].accuracy, 4);
    expect(res.body.average_confidence).toBeCloseTo(rows[0].conf, 4);
    expect(res.body.accuracy).toBeGreaterThan(0.445);
  });

  it('confidence: each stored prediction counted in its documented band (high ≥ 0.60, medium 0.45–0.60, low < 0.45)', async () => {
    const res = await get('/api/dashboard/confidence/');
    expect(keysOf(res.body)).toEqual(['high_confidence', 'low_confidence', 'medium_confidence']);
    schemas.confidence.parse(res.body);
    // the limits as the API documents them, not the code's constants (statistics.test.ts checks them on known values)
    const { rows } = await db.query(
      `SELECT p.confidence FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id AND v.is_active`,
    );
    const band = (c: number) => (c >= 0.6 ? 'high_confidence' : c >= 0.45 ? 'medium_confidence' : 'low_confidence');
    const expected = { high_confidence: 0, medium_confidence: 0, low_confidence: 0 };
    for (const r of rows) expected[band(r.confidence)]++;
    expect(res.body).toEqual(expected);
    // every stored prediction, open ones too (the overview counts the resolved ones)
    expect(res.body.high_confidence + res.body.medium_confidence + res.body.low_confidence).toBe(rows.length);
  });

  it("compare_versions: version_1's accuracy is the share of its predictions whose outcome matches the match's final score", async () => {
    const res = await get('/api/dashboard/compare_versions/');
    expect(Object.keys(res.body)).toEqual(['version_1']);
    schemas.versionComparison.parse(res.body);
    expect(res.body.version_1.active).toBe(true);
    // from the football data's scores, not the predictions' own right/wrong marks
    const { rows } = await db.query(
      `SELECT p.predicted_outcome AS predicted, CASE WHEN m.home_goals > m.away_goals THEN 'H' WHEN m.home_goals < m.away_goals THEN 'A' ELSE 'D' END AS actual
         FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id AND v.number = 1
         JOIN football.match m ON m.id = p.match_id WHERE m.status = 'finished' AND m.home_goals IS NOT NULL`,
    );
    expect(rows.length).toBeGreaterThan(1000);
    const right = rows.filter((r) => r.predicted === r.actual).length;
    expect(res.body.version_1.accuracy).toBe(Number((right / rows.length).toFixed(4)));
  });

  it('GET /dashboard/predictions/ (no /api prefix): {match: "<home> vs <away>", outcome, confidence}', async () => {
    const [res, latest] = await Promise.all([get('/dashboard/predictions/?limit=10'), get('/api/predictions/latest/?limit=10')]);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    res.body.forEach((p: Record<string, unknown>, i: number) => {
      expect(Object.keys(p)).toEqual(['match', 'outcome', 'confidence']);
      expect(p.match).toBe(`${latest.body[i].home_team} vs ${latest.body[i].away_team}`);
      expect(p.outcome).toBe(latest.body[i].predicted_outcome);
      expect(p.confidence).toBe(latest.body[i].confidence);
    });
    expect((await get('/api/dashboard/predictions/')).status).toBe(404);
  });
});

describe('POST /api/retrain/ authorisation', () => {
  it('401 without a key, 403 with a normal key (nothing queued)', async () => {
    expect((await http(`${t.urls.predictions}/api/retrain/`, { method: 'POST' })).status).toBe(401);
    const res = await http(`${t.urls.predictions}/api/retrain/`, { method: 'POST', key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'permission_denied' });
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM predictions.training_run WHERE status IN ('queued', 'running')`);
    expect(rows[0].n).toBe(0);
  });

  it('400 for an unknown model in the body, 415 for a non-JSON body', async () => {
    const bad = await http(`${t.urls.predictions}/api/retrain/`, {
      method: 'POST',
      key: t.adminKey,
      headers: { 'content-type': 'application/json' },
      body: '{"model":"magic"}',
    });
    expect(bad.status).toBe(400);
    const text = await http(`${t.urls.predictions}/api/retrain/`, { method: 'POST', key: t.adminKey, headers: { 'content-type': 'text/plain' }, body: 'go' });
    expect(text.status).toBe(415);
  });

  it('GET /api/retrain/<id>/: 404 for an unknown job, 403 for a normal key', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await http(`${t.urls.predictions}/api/retrain/${id}/`, { key: t.adminKey })).status).toBe(404);
    expect((await http(`${t.urls.predictions}/api/retrain/${id}/`, { key })).status).toBe(403);
    expect((await http(`${t.urls.predictions}/api/retrain/not-a-uuid/`, { key: t.adminKey })).status).toBe(404);
  });
});

it('GET /api/ lists every endpoint of the contract', async () => {
  const res = await get('/api/');
  const listed = res.body.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`);
  for (const e of [
    'GET /api/',
    'POST /api/retrain/',
    'GET /api/dashboard/overview/',
    'GET /api/dashboard/confidence/',
    'GET /api/predictions/latest/',
    'GET /api/dashboard/compare_versions/',
    'GET /dashboard/predictions/',
  ]) {
    expect(listed).toContain(e);
  }
});
