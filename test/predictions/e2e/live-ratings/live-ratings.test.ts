import pg from 'pg';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql, type GatewayOf } from '../../../support/platform/http';
import { startChildApp, type ChildApp } from '../../../support/platform/child-app';
import { fittedModelOf } from '../../../../subgraphs/predictions/predictions/domain/active-model';
import { applyResults, type FittedModel } from '../../../../subgraphs/predictions/predictions/domain/model';
import type { EnsembleState } from '../../../../subgraphs/predictions/predictions/domain/model/ensemble';
import type { VersionRow } from '../../../../subgraphs/predictions/predictions/store/prediction-store';
import { nextScheduled, type Scheduled } from '../../../support/predictions/matches';
import { waitFor } from '../../../support/platform/wait';

/**
 * Live ratings between retrains, through the public interfaces: results imported with the
 * `importMatches` admin mutation update the active version's ratings and re-predict the fixtures,
 * without a new version; two replicas hearing the same import apply each result once; the ratings
 * are stored with the version, so another process starts with them.
 */

let t: TestApp;
let replica: ChildApp;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  // a second replica of the system on the same database: it hears the same imports
  replica = await startChildApp({}, { databaseUrl: t.databaseUrl });
}, 90_000);
afterAll(async () => {
  await replica?.stop();
  await db?.end();
  await t?.stop();
});

const importResults = (app: GatewayOf, matches: Scheduled[], scores: [number, number][]) =>
  gql(app, 'mutation($c: String!, $s: String!, $d: JSON!) { importMatches(competition: $c, season: $s, data: $d) { updated } }', {
    variables: {
      c: matches[0].code,
      s: matches[0].season,
      d: { matches: matches.map((m, i) => ({ round: 'Matchday', date: m.date, team1: m.home, team2: m.away, score: { ft: scores[i] } })) },
    },
  });

const LIVE = '{ modelVersions { number live { results ratingsThrough ratingsUpdatedAt strengthsThrough strengthsRefittedAt } } }';

async function versionRow(): Promise<VersionRow & { state: unknown }> {
  const { rows } = await db.query(
    `SELECT id, number, kind, hyper, to_char(training_from, 'YYYY-MM-DD') AS "trainingFrom", to_char(trained_through, 'YYYY-MM-DD') AS "trainedThrough",
            match_count AS "matchCount", state,
            json_build_object('results', live_results, 'ratingsThrough', to_char(ratings_through, 'YYYY-MM-DD')) AS live
       FROM predictions.model_version WHERE is_active`,
  );
  return rows[0];
}

const ratingComponents = (m: FittedModel) => (m.state as EnsembleState).components.filter((c) => c.kind !== 'dixon-coles').map((c) => c.state);

async function fixtureProbabilities(app: GatewayOf): Promise<Map<number, { home: number; draw: number; away: number; homeId: number; awayId: number }>> {
  const res = await gql(
    app,
    '{ upcomingPredictions(first: 100, competition: "en.1") { matchId probabilities { home draw away } match { homeTeam { id } awayTeam { id } } } }',
  );
  return new Map(
    res.body.data.upcomingPredictions.map((p: any) => [p.matchId, { ...p.probabilities, homeId: p.match.homeTeam.id, awayId: p.match.awayTeam.id }]),
  );
}

let played: Scheduled[];

it('imported results update the active version without a new version, each applied once across two imports and two replicas', async () => {
  played = await nextScheduled(db, 2);
  const before = await versionRow();
  const fixturesBefore = await fixtureProbabilities(t);
  // upsets: the home sides lose heavily
  const scores: [number, number][] = [
    [0, 5],
    [0, 4],
  ];
  // the same results imported twice at once, through both replicas' gateways
  const [a, b] = await Promise.all([importResults(t, played, scores), importResults(replica, played, scores)]);
  expect(a.body.errors).toBeUndefined();
  expect(b.body.errors).toBeUndefined();
  expect(a.body.data.importMatches.updated + b.body.data.importMatches.updated).toBe(2);

  // ratings at once, then the Dixon–Coles strengths by the background refit
  const live = await waitFor('the refit', 60_000, async () => {
    const v = (await gql(t, LIVE)).body.data.modelVersions[0];
    return v.live.results >= 2 && v.live.strengthsRefittedAt ? v.live : undefined;
  });
  const versions = (await gql(t, LIVE)).body.data.modelVersions;
  expect(versions.map((v: { number: number }) => v.number)).toEqual([1]);
  expect(live).toMatchObject({ results: 2, ratingsThrough: played[1].date, strengthsThrough: played[1].date });

  const { rows } = await db.query(
    `SELECT match_id, source, count(*) OVER (PARTITION BY match_id)::int AS n FROM predictions.version_result WHERE match_id = ANY($1::int[])`,
    [played.map((m) => m.id)],
  );
  expect(rows).toHaveLength(2);
  for (const r of rows) expect(r).toMatchObject({ source: 'live', n: 1 });

  // exactly one application of each result by the rating rule: what applying them once to the trained version gives
  const after = await versionRow();
  const expected = applyResults(
    fittedModelOf({ ...before, live: { ...before.live } } as never),
    played.map((m, i) => ({
      competition: m.code,
      season: m.season,
      date: m.date,
      home: String(m.homeId),
      away: String(m.awayId),
      homeGoals: scores[i][0],
      awayGoals: scores[i][1],
    })),
  );
  expect(ratingComponents(fittedModelOf({ ...after, live: { ...after.live } } as never))).toEqual(ratingComponents(expected));

  // the fixtures were predicted again: the played matches are gone, the losers' next matches moved against them
  const fixturesAfter = await waitFor('the fixtures re-predicted with the refit', 60_000, async () => {
    const f = await fixtureProbabilities(t);
    return [...f.keys()].some((id) => played.some((m) => m.id === id)) ? undefined : f;
  });
  const loser = played[0].homeId;
  const next = [...fixturesAfter.entries()].find(([id, f]) => fixturesBefore.has(id) && (f.homeId === loser || f.awayId === loser));
  expect(next).toBeDefined();
  const [id, f] = next!;
  const was = fixturesBefore.get(id)!;
  if (f.homeId === loser) expect(f.home).toBeLessThan(was.home);
  else expect(f.away).toBeLessThan(was.away);
}, 120_000);

it('keeps the updated ratings with the version: another process forecasts with them, and a result imported later is applied once more', async () => {
  const pairing = `{ predict(home: "${played[0].homeId}", away: "${played[0].awayId}", competition: "en.1") { probabilities { home draw away } versionNumber } }`;
  const here = (await gql(t, pairing)).body.data.predict;
  // the replica restarts: it reads the version's stored state
  await replica.stop();
  replica = await startChildApp({}, { databaseUrl: t.databaseUrl });
  const there = (await gql(replica, pairing)).body.data.predict;
  expect(there).toEqual(here);
  expect(there.versionNumber).toBe(1);

  const [third] = (await nextScheduled(db, 1)).filter((m) => !played.some((p) => p.id === m.id));
  await importResults(replica, [third], [[2, 2]]);
  const live = await waitFor('the third result', 60_000, async () => {
    const v = (await gql(t, LIVE)).body.data.modelVersions[0];
    return v.live.results >= 3 ? v.live : undefined;
  });
  expect(live.results).toBe(3);
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM predictions.version_result WHERE source = 'live'`);
  expect(rows[0].n).toBe(3);
}, 120_000);
