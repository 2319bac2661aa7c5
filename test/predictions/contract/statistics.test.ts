import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, surface } from '../../support/platform/http';

/**
 * The dashboard and latest-predictions endpoints on a fixture whose answers were worked out by hand:
 * two model versions with a few stored predictions each, confidences on and beside the documented band
 * limits (high ≥ 0.60, medium 0.45–0.60, low < 0.45), resolved right or wrong, and three fixtures to
 * come. Nothing here depends on what the model would predict.
 *
 * The fixture is written into this file's own database and version 2 is made the active one the way
 * another replica's activation reaches this process (the row flag, then the cached model dropped),
 * without `activateModelVersion`: that would predict every real fixture again with the model, and
 * those predictions' confidences are not known by hand.
 */

type Outcome = 'H' | 'D' | 'A';
interface Row {
  /** Probabilities of home win, draw, away win. */
  p: [number, number, number];
  /** Expected goals, home and away. */
  xg: [number, number];
  actual?: Outcome;
  /** Upcoming fixtures only: kick-off and competition. */
  kickoff?: string;
  competition?: string;
}

// prettier-ignore
const VERSION_2_BACKTEST: Row[] = [
  { p: [0.72, 0.18, 0.1], xg: [2.1, 0.7], actual: 'H' },         // high, right
  { p: [0.6, 0.25, 0.15], xg: [1.6, 0.9], actual: 'D' },         // high (exactly 0.60), wrong
  { p: [0.2001, 0.2, 0.5999], xg: [0.8, 1.7], actual: 'A' },     // medium (just under 0.60), right
  { p: [0.3, 0.45, 0.25], xg: [1.1, 1.0], actual: 'D' },         // medium (exactly 0.45), right
  { p: [0.4499, 0.3, 0.2501], xg: [1.4, 1.2], actual: 'A' },     // low (just under 0.45), wrong
  { p: [0.35, 0.25, 0.4], xg: [1.2, 1.3], actual: 'H' },         // low, wrong
  { p: [0.55, 0.25, 0.2], xg: [1.7, 1.0], actual: 'H' },         // medium, right
];
// prettier-ignore
const VERSION_2_UPCOMING: Row[] = [
  { p: [0.65432, 0.2, 0.14568], xg: [1.8349, 0.6], kickoff: '2026-04-01T14:00:00Z', competition: 'en.1' }, // high: Home Win, +1.23
  { p: [0.33, 0.38, 0.29], xg: [1.1, 1.1], kickoff: '2026-04-02T13:30:00Z', competition: 'de.1' },        // low: Draw, 0
  { p: [0.2, 0.3, 0.5], xg: [0.9, 1.75], kickoff: '2026-04-03T19:00:00Z', competition: 'en.1' },          // medium: Away Win, -0.85
];
// version 1: four resolved predictions, one right
// prettier-ignore
const VERSION_1_BACKTEST: Row[] = [
  { p: [0.5, 0.3, 0.2], xg: [1.5, 1.0], actual: 'H' },
  { p: [0.5, 0.3, 0.2], xg: [1.5, 1.0], actual: 'D' },
  { p: [0.2, 0.3, 0.5], xg: [1.0, 1.5], actual: 'H' },
  { p: [0.2, 0.3, 0.5], xg: [1.0, 1.5], actual: 'D' },
];

/** Worked out by hand from the rows above. */
const EXPECTED = {
  // the track record: 10 predictions, 7 resolved (the 3 upcoming wait for their results), 4 right (4 / 7 = 0.5714);
  // mean confidence of the resolved ones 3.7698 / 7 = 0.538543
  overview: { total_predictions: 7, accuracy: 0.5714, average_confidence: 0.5385 },
  // high: 0.72, 0.60, 0.65432 · medium: 0.5999, 0.45, 0.55, 0.5 · low: 0.4499, 0.4, 0.38
  confidence: { high_confidence: 3, medium_confidence: 4, low_confidence: 3 },
  // resolved per band: high 1 of 2 right, medium 3 of 3, low 0 of 2
  hitRates: { highHitRate: 0.5, mediumHitRate: 1, lowHitRate: 0 },
  accuracy: { version_1: 0.25, version_2: 0.5714 },
};

interface FixtureMatch {
  id: number;
  homeId: number;
  awayId: number;
  home: string;
  away: string;
}

let t: TestApp;
let key: string;
let db: pg.Client;
/** The fixtures' match ids and team names (real scheduled matches of the data set). */
let fixtures: FixtureMatch[];

const outcomeOf = (p: Row['p']): Outcome => (['H', 'D', 'A'] as const)[p.indexOf(Math.max(...p))];

async function insertPredictions(versionId: number, source: 'backtest' | 'upcoming', rows: Row[], matches: FixtureMatch[]) {
  for (const [i, r] of rows.entries()) {
    const m = matches[i];
    const predicted = outcomeOf(r.p);
    await db.query(
      `INSERT INTO predictions.prediction (version_id, match_id, source, competition, season, kickoff, home_team_id, away_team_id, home_team_name, away_team_name,
         p_home, p_draw, p_away, exp_home_goals, exp_away_goals, predicted_outcome, confidence, actual_outcome, correct, resolved_at)
       VALUES ($1, $2, $3, $4, '2025-26', $5, $17, $18, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, CASE WHEN $15::char(1) IS NULL THEN NULL ELSE now() END)`,
      [
        versionId,
        m.id,
        source,
        r.competition ?? 'en.1',
        r.kickoff ?? `2025-0${1 + (i % 9)}-1${i % 10}T15:00:00Z`,
        m.home,
        m.away,
        ...r.p,
        ...r.xg,
        predicted,
        Math.max(...r.p),
        r.actual ?? null,
        r.actual ? r.actual === predicted : null,
        m.homeId,
        m.awayId,
      ],
    );
  }
}

beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('pro');
  const predictions = t.app.services.predictions;
  // the start-up work (live ratings catching up, then the fixtures predicted again) must not write into the fixture
  await predictions.live.idle();
  await predictions.upcoming.idle();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  const matches = async (status: string, n: number) =>
    (
      await db.query(
        `SELECT m.id, h.id AS "homeId", a.id AS "awayId", h.name AS home, a.name AS away FROM football.match m JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id
          WHERE m.status = $1 ORDER BY m.kickoff, m.id LIMIT $2`,
        [status, n],
      )
    ).rows as FixtureMatch[];
  const played = await matches('finished', 11);
  fixtures = await matches('scheduled', 3);
  await db.query('BEGIN');
  await db.query('DELETE FROM predictions.prediction');
  const v1 = (await db.query('SELECT id FROM predictions.model_version WHERE number = 1')).rows[0].id as number;
  const v2 = (
    await db.query(
      `INSERT INTO predictions.model_version (number, kind, hyper, state, training_from, trained_through, match_count, evaluation, metrics, training_ms, results_tracked_from, ratings_through)
       SELECT 2, kind, hyper, state, training_from, trained_through, match_count, evaluation, metrics, training_ms, results_tracked_from, ratings_through FROM predictions.model_version WHERE number = 1
       RETURNING id`,
    )
  ).rows[0].id as number;
  await insertPredictions(v1, 'backtest', VERSION_1_BACKTEST, played.slice(0, 4));
  await insertPredictions(v2, 'backtest', VERSION_2_BACKTEST, played.slice(4));
  await insertPredictions(v2, 'upcoming', VERSION_2_UPCOMING, fixtures);
  await db.query('UPDATE predictions.model_version SET is_active = false WHERE number = 1');
  await db.query('UPDATE predictions.model_version SET is_active = true, activated_at = now() WHERE number = 2');
  await db.query('COMMIT');
  predictions.active.invalidate();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const { get } = surface(() => t.urls.predictions, { key: () => key });

describe('dashboard statistics of the active version', () => {
  it('overview: the track record (resolved predictions), the accuracy and mean confidence over it', async () => {
    const res = await get('/api/dashboard/overview/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EXPECTED.overview);
  });

  it('confidence: each prediction in its band, the limits 0.60 and 0.45 belonging to the band above', async () => {
    const res = await get('/api/dashboard/confidence/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EXPECTED.confidence);
  });

  it('confidenceDistribution (GraphQL): the same counts, the thresholds and each band hit rate', async () => {
    const res = await gql(t, '{ confidenceDistribution { high medium low thresholds { high medium } highHitRate mediumHitRate lowHitRate } }', { key });
    expect(res.body.data.confidenceDistribution).toEqual({ high: 3, medium: 4, low: 3, thresholds: { high: 0.6, medium: 0.45 }, ...EXPECTED.hitRates });
  });

  it('compare_versions: every version, oldest first, with its accuracy over its own resolved predictions', async () => {
    const res = await get('/api/dashboard/compare_versions/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['version_1', 'version_2']);
    expect(res.body.version_1).toMatchObject({ accuracy: EXPECTED.accuracy.version_1, active: false });
    expect(res.body.version_2).toMatchObject({ accuracy: EXPECTED.accuracy.version_2, active: true });
    // the backtest figures are the ones stored with each version
    const { rows } = await db.query(`SELECT number, metrics FROM predictions.model_version ORDER BY number`);
    for (const { number, metrics } of rows) {
      const name = `version_${number}`;
      expect(res.body[name]).toMatchObject({
        rps: Number(metrics.rps.toFixed(4)),
        brier: Number(metrics.brier.toFixed(4)),
        log_loss: Number(metrics.logLoss.toFixed(4)),
        backtest_matches: metrics.count,
      });
    }
    const versions = await gql(t, '{ modelVersions { name accuracy active } }', { key });
    expect(versions.body.data.modelVersions).toEqual([
      { name: 'version_1', accuracy: 0.25, active: false },
      { name: 'version_2', accuracy: 4 / 7, active: true },
    ]);
  });
});

describe('latest predictions', () => {
  const expected = () => [
    {
      match_id: fixtures[0].id,
      home_team: fixtures[0].home,
      away_team: fixtures[0].away,
      predicted_outcome: 'Home Win',
      predicted_goal_diff: 1.23,
      confidence: 0.654,
    },
    { match_id: fixtures[1].id, home_team: fixtures[1].home, away_team: fixtures[1].away, predicted_outcome: 'Draw', predicted_goal_diff: 0, confidence: 0.38 },
    {
      match_id: fixtures[2].id,
      home_team: fixtures[2].home,
      away_team: fixtures[2].away,
      predicted_outcome: 'Away Win',
      predicted_goal_diff: -0.85,
      confidence: 0.5,
    },
  ];

  it("GET /api/predictions/latest/: the active version's open predictions, soonest first, outcome and goal difference as predicted", async () => {
    const res = await get('/api/predictions/latest/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected());
  });

  it('narrows by competition and limit', async () => {
    expect((await get('/api/predictions/latest/?competition=en.1')).body).toEqual([expected()[0], expected()[2]]);
    expect((await get('/api/predictions/latest/?limit=1')).body).toEqual([expected()[0]]);
    expect((await get('/api/predictions/latest/?competition=it.1')).body).toEqual([]);
  });

  it('GET /dashboard/predictions/: the same predictions as "<home> vs <away>", outcome and confidence', async () => {
    const res = await get('/dashboard/predictions/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected().map((p) => ({ match: `${p.home_team} vs ${p.away_team}`, outcome: p.predicted_outcome, confidence: p.confidence })));
  });
});
