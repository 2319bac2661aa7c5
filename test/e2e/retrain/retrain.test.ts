import pg from 'pg';
import { http, startTestApp, type TestApp } from '../../support/app';
import { trainingJob } from '../../../rest-adapter/predictions/schemas';

let t: TestApp;
let db: pg.Client;
beforeAll(async () => {
  // a one-season evaluation window keeps the retrain to seconds
  t = await startTestApp({ BACKTEST_SEASONS: '1' });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const retrain = (body?: unknown) =>
  http(`${t.urls.predictions}/api/retrain/`, {
    method: 'POST',
    key: t.adminKey,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

it('retrains end to end through REST: 202 with a status URL, one at a time (409), progress, then version_2 is active', async () => {
  // concurrent requests: exactly one is accepted
  const first = await Promise.all([1, 2, 3, 4].map(() => retrain({ model: 'elo' })));
  const accepted = first.filter((r) => r.status === 202);
  expect(accepted).toHaveLength(1);
  expect(first.filter((r) => r.status === 409)).toHaveLength(3);
  const job = accepted[0];
  trainingJob.parse(job.body);
  expect(job.body.status).toBe('queued');
  expect(job.body.status_url).toBe(`/api/retrain/${job.body.job_id}/`);
  expect(job.headers.get('location')).toBe(job.body.status_url);
  for (const conflict of first.filter((r) => r.status === 409)) expect(conflict.body.code).toBe('conflict');

  // poll the status URL until the job ends; progress only moves forward
  const seen: { status: string; progress: number }[] = [];
  let status;
  const started = Date.now();
  do {
    await new Promise((r) => setTimeout(r, 300));
    status = await http(`${t.urls.predictions}${job.body.status_url}`, { key: t.adminKey });
    expect(status.status).toBe(200);
    seen.push({ status: status.body.status, progress: status.body.progress });
    if (status.body.status === 'running') expect((await retrain()).status).toBe(409);
  } while (!['succeeded', 'failed'].includes(status.body.status) && Date.now() - started < 120_000);
  expect(status.body).toMatchObject({ status: 'succeeded', progress: 1, version: 'version_2', error: null, model: 'elo' });
  const progress = seen.map((s) => s.progress);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));

  // the new version is recorded with its metrics, active, and it made the upcoming predictions
  const versions = await http(`${t.urls.predictions}/api/dashboard/compare_versions/`, { key: t.adminKey });
  expect(Object.keys(versions.body)).toEqual(['version_1', 'version_2']);
  expect(versions.body.version_2).toMatchObject({ model: 'elo', active: true });
  expect(versions.body.version_1.active).toBe(false);
  expect(versions.body.version_2.accuracy).toBeGreaterThan(0.445);
  const { rows } = await db.query(
    `SELECT DISTINCT v.number FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id
      WHERE p.source = 'upcoming' AND p.actual_outcome IS NULL AND v.is_active`,
  );
  expect(rows.map((r) => r.number)).toEqual([2]);
  const overview = await http(`${t.urls.predictions}/api/dashboard/overview/`, { key: t.adminKey });
  const { rows: counts } = await db.query(`SELECT count(*)::int AS n FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id WHERE v.number = 2`);
  expect(overview.body.total_predictions).toBe(counts[0].n);

  // after it ended, a new retrain is accepted again
  const next = await retrain();
  expect(next.status).toBe(202);
}, 150_000);

it('records results arriving after the prediction: the prediction is resolved (correct or not)', async () => {
  const latest = await http(`${t.urls.predictions}/api/predictions/latest/?limit=1`, { key: t.adminKey });
  const matchId = latest.body[0].match_id;
  const { rows } = await db.query(
    `SELECT c.code, m.season, m.match_date::text AS date, h.name AS home, a.name AS away FROM football.match m
       JOIN football.competition c ON c.id = m.competition_id JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id
      WHERE m.id = $1`,
    [matchId],
  );
  const m = rows[0];
  const file = { matches: [{ round: 'Matchday 1', date: m.date, team1: m.home, team2: m.away, score: { ft: [2, 1] } }] };
  const imported = await http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    key: t.adminKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($c: String!, $s: String!, $d: JSON!) { importMatches(competition: $c, season: $s, data: $d) { updated } }', variables: { c: m.code, s: m.season, d: file } }),
  });
  expect(imported.body.data.importMatches.updated).toBe(1);
  // the predictions subgraph hears of it (NOTIFY) and resolves the open predictions of that match
  let resolved;
  for (let i = 0; i < 50; i++) {
    ({ rows: resolved } = await db.query('SELECT actual_outcome, correct, predicted_outcome FROM predictions.prediction WHERE match_id = $1', [matchId]));
    if (resolved.every((r) => r.actual_outcome)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(resolved!.length).toBeGreaterThan(0);
  for (const r of resolved!) {
    expect(r.actual_outcome).toBe('H');
    expect(r.correct).toBe(r.predicted_outcome === 'H');
  }
  const after = await http(`${t.urls.predictions}/api/predictions/latest/?limit=5`, { key: t.adminKey });
  expect(after.body.map((p: { match_id: number }) => p.match_id)).not.toContain(matchId);
}, 60_000);
