import pg from 'pg';
import { DATA_WORLD_NOW, startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import * as schemas from '../../../rest-adapter/predictions/schemas';

/**
 * The REST routes beyond the contract: any pairing, one fixture by id, upcoming predictions filtered
 * and paged by cursor, and the track record (past predictions beside their results).
 */

let t: TestApp;
let key: string;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('enterprise');
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
}, 90_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const { get } = surface(() => t.urls.predictions, { key: () => key });
const DAY = 86_400_000;

describe('GET /api/predict/', () => {
  it('predicts any pairing, names resolved as the bot resolves them', async () => {
    const res = await get('/api/predict/?home=Man%20Utd&away=spurs');
    expect(res.status).toBe(200);
    schemas.pairingPrediction.parse(res.body);
    expect(res.body).toMatchObject({
      home_team: 'Manchester United FC',
      away_team: 'Tottenham Hotspur FC',
      competition: 'en.1',
      cross_league: false,
      stale_ratings: [],
    });
    const p = res.body.probabilities;
    expect(p.home + p.draw + p.away).toBeCloseTo(1, 3);
  });

  it('labels teams of two leagues as a cross-league pairing, never as one league', async () => {
    const res = await get('/api/predict/?home=Bayern%20Munich&away=Real%20Madrid');
    expect(res.body).toMatchObject({ cross_league: true, home_competition: 'de.1', away_competition: 'es.1' });
  });

  it('flags a side whose latest match is older than a season, with the age of its rating', async () => {
    const res = await get('/api/predict/?home=Wigan&away=Arsenal');
    const age = Math.floor((DATA_WORLD_NOW.getTime() - Date.parse('2023-05-08T00:00:00Z')) / DAY);
    expect(res.body).toMatchObject({ cross_league: true, home_competition: 'en.2', away_competition: 'en.1' });
    expect(res.body.stale_ratings).toEqual([{ team: 'Wigan Athletic FC', last_played: '2023-05-08', age_days: age }]);
  });

  it('an ambiguous name is 400 with the candidates; a missing side is 400', async () => {
    const res = await get('/api/predict/?home=Manchester&away=Arsenal');
    expect(res.status).toBe(400);
    expect(res.body.errors.home).toEqual(['Manchester City FC', 'Manchester United FC']);
    expect((await get('/api/predict/?home=Arsenal')).status).toBe(400);
  });
});

describe('GET /api/fixtures/<match_id>/', () => {
  it("one fixture with the active version's prediction; 404 for an unknown id", async () => {
    const [next] = (await get('/api/predictions/latest/?limit=1')).body;
    const res = await get(`/api/fixtures/${next.match_id}/`);
    expect(res.status).toBe(200);
    schemas.fixtureDetail.parse(res.body);
    expect(res.body).toMatchObject({ match_id: next.match_id, home_team: next.home_team, away_team: next.away_team, status: 'scheduled', score: null });
    expect(res.body.prediction).toMatchObject({ predicted_outcome: next.predicted_outcome, confidence: next.confidence, source: 'live', correct: null });
    const missing = await get('/api/fixtures/999999999/');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'No match with that id.', code: 'not_found' });
  });
});

describe('GET /api/predictions/', () => {
  it('filters by competition and pages by cursor: the pages join into the list, soonest first', async () => {
    const whole = (await get('/api/predictions/?competition=de.1&limit=12')).body.results;
    const first = await get('/api/predictions/?competition=de.1&limit=5');
    expect(first.status).toBe(200);
    schemas.predictionList.parse(first.body);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await get(`/api/predictions/?competition=de.1&limit=7&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect([...first.body.results, ...second.body.results].map((p: { match_id: number }) => p.match_id)).toEqual(
      whole.map((p: { match_id: number }) => p.match_id),
    );
    for (const p of whole) expect(p.competition).toBe('de.1');
    const kickoffs = whole.map((p: { kickoff: string }) => Date.parse(p.kickoff));
    expect(kickoffs).toEqual([...kickoffs].sort((a, b) => a - b));
  });

  it('filters by team (as typed) and by kick-off dates', async () => {
    const res = await get('/api/predictions/?team=spurs&from=2026-02-01&to=2026-03-31&limit=100');
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const p of res.body.results) {
      expect([p.home_team, p.away_team]).toContain('Tottenham Hotspur FC');
      expect(p.kickoff >= '2026-02-01' && p.kickoff <= '2026-03-31T23:59:59.999Z').toBe(true);
    }
    expect((await get('/api/predictions/?from=2026-03-01&to=2026-02-01')).status).toBe(400);
    expect((await get('/api/predictions/?team=Hogwarts')).status).toBe(400);
    expect((await get('/api/predictions/?cursor=not-a-cursor')).status).toBe(400);
  });
});

describe('GET /api/predictions/history/', () => {
  it('lists past predictions beside their results, latest first, filterable by result', async () => {
    const res = await get('/api/predictions/history/?competition=en.1&result=wrong&limit=10');
    expect(res.status).toBe(200);
    schemas.predictionList.parse(res.body);
    expect(res.body.results).toHaveLength(10);
    const { rows } = await db.query(
      `SELECT m.id, CASE WHEN m.home_goals > m.away_goals THEN 'Home Win' WHEN m.home_goals < m.away_goals THEN 'Away Win' ELSE 'Draw' END AS actual
         FROM football.match m WHERE m.id = ANY($1::int[])`,
      [res.body.results.map((p: { match_id: number }) => p.match_id)],
    );
    const actual = new Map(rows.map((r) => [r.id, r.actual]));
    for (const p of res.body.results) {
      expect(p.correct).toBe(false);
      expect(p.actual_outcome).toBe(actual.get(p.match_id));
      expect(p.predicted_outcome).not.toBe(p.actual_outcome);
      expect(p.source).toBe('backtest');
    }
    const kickoffs = res.body.results.map((p: { kickoff: string }) => Date.parse(p.kickoff));
    expect(kickoffs).toEqual([...kickoffs].sort((a, b) => b - a));
    const right = await get('/api/predictions/history/?result=correct&limit=5');
    for (const p of right.body.results) expect(p.predicted_outcome).toBe(p.actual_outcome);
  });
});

describe('the API reference', () => {
  it("shows real answers as examples, each valid against its route's schema", async () => {
    const doc = (await http(`${t.urls.predictions}/api/openapi.json`)).body;
    const exampleOf = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema.example;
    const checks: [string, { parse(x: unknown): unknown }][] = [
      ['/api/', schemas.serviceInfo],
      ['/api/predictions/latest/', schemas.prediction.array()],
      ['/api/dashboard/overview/', schemas.overview],
      ['/api/dashboard/confidence/', schemas.confidence],
      ['/dashboard/predictions/', schemas.dashboardPrediction.array()],
      ['/api/dashboard/fixtures/', schemas.fixture.array()],
      ['/api/predict/', schemas.pairingPrediction],
      ['/api/fixtures/{matchId}/', schemas.fixtureDetail],
      ['/api/predictions/', schemas.predictionList],
      ['/api/predictions/history/', schemas.predictionList],
    ];
    for (const [path, schema] of checks) {
      const example = exampleOf(path);
      expect(example).toBeDefined();
      schema.parse(example);
      expect(JSON.stringify(example)).not.toMatch(/9007199254740991|"string"/);
    }
    // a real fixture of the data: its match id and teams are the data's
    expect(exampleOf('/api/predictions/latest/')[0]).toMatchObject({ home_team: 'Arsenal FC', away_team: 'Chelsea FC' });
  });
});
