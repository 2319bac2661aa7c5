import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql } from '../../support/platform/http';
import { startFeedServer, type FeedServer } from '../../support/predictions/feed-server';
import { fileMatches, footballDataCsv, openfootballFile } from '../../support/predictions/football-files';
import { waitFor } from '../../support/platform/wait';

/**
 * A file must prove it is what its key says, tried with real files nobody here wrote
 * (openfootball's 2025-26 season files, CC0, test/fixtures/openfootball): the Premier League file under
 * en.1@2026-27 (the docs' example key) and under de.1@2025-26, the same data as a football-data CSV
 * under it.1, a file with a result dated after now — each refused with its reason in the feed status,
 * nothing written. And two formats of one league merge without erasing what the other lacks.
 */

const EN1 = openfootballFile('2025-26', 'en.1');
const FR1 = openfootballFile('2025-26', 'fr.1');
// the real La Liga file with one of its January fixtures given a score: a result dated after now (the test clock: 2025-12-31)
const ES1_FUTURE = (() => {
  const file = JSON.parse(openfootballFile('2025-26', 'es.1')) as { matches: { date: string; score?: { ft?: number[] } }[] };
  const fixture = file.matches.find((m) => m.date >= '2026-01-02' && !m.score?.ft)!;
  fixture.score = { ft: [2, 0] };
  return JSON.stringify(file);
})();

let t: TestApp;
let feed: FeedServer;
let db: pg.Client;
let started: Date;
beforeAll(async () => {
  feed = await startFeedServer({
    '/en.1.json': { body: EN1 },
    '/en.1.csv': { body: footballDataCsv(EN1, 'E0'), contentType: 'text/csv' },
    '/es.1.json': { body: ES1_FUTURE },
    '/fr.1': { body: footballDataCsv(FR1, 'F1', { timeZone: 'Europe/Paris', halfTime: () => [0, 0] }), contentType: 'text/csv' },
  });
  const urls = [
    `en.1@2026-27=${feed.url('/en.1.json')}`,
    `de.1@2025-26=${feed.url('/en.1.json')}`,
    `it.1@2025-26=${feed.url('/en.1.csv')}`,
    `es.1@2025-26=${feed.url('/es.1.json')}`,
    `fr.1@2025-26=${feed.url('/fr.1')}`,
  ].join(',');
  started = new Date();
  t = await startTestApp({ FOOTBALL_FEED_URLS: urls, FOOTBALL_FEED_RETRIES: '0', FOOTBALL_FEED_INTERVAL_MINUTES: '600' });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
}, 90_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
  await feed?.close();
});

const STATUS = `{ footballFeed { lastRun { status finishedAt } sources { key lastError lastChangedAt } } }`;
const SYNC = `mutation { syncFootballFeed { sources { key status matches inserted updated error } } }`;

const q = async (sql: string, values: unknown[] = []) => (await db.query(sql, values)).rows;
const ofLeague = (code: string, season: string, what = 'count(*)::int AS n') =>
  q(`SELECT ${what} FROM football.match m JOIN football.competition c ON c.id = m.competition_id WHERE c.code = $1 AND m.season = $2`, [code, season]);

it('the wrong season, the wrong league, another division and a result after now are refused, each saying why, and nothing of them is written', async () => {
  const status = await waitFor('the first pass', 60_000, async () => {
    const s = (await gql(t, STATUS)).body.data?.footballFeed;
    return s?.lastRun?.finishedAt ? s : undefined;
  });
  const sources = Object.fromEntries((status.sources as { key: string; lastError: string | null }[]).map((s) => [s.key, s]));
  expect(sources['en.1@2026-27'].lastError).toMatch(/"English Premier League 2025\/26" \(season 2025-26\), not en\.1@2026-27: refused, nothing written/);
  expect(sources['de.1@2025-26'].lastError).toMatch(/"English Premier League 2025\/26" \(en\.1\), not de\.1 \(Bundesliga\)/);
  expect(sources['it.1@2025-26'].lastError).toMatch(/no row of division I1 \(it\.1\); the file holds E0/);
  expect(sources['es.1@2025-26'].lastError).toMatch(/1 results are dated after now \(2025-12-31\), the first on 2026-01-0\d/);
  expect(sources['fr.1@2025-26'].lastError).toBeNull();

  // nothing: no 2026-27 season, no English club in the Bundesliga, the shipped leagues as they were
  expect(await ofLeague('en.1', '2026-27')).toEqual([{ n: 0 }]);
  for (const [code, season] of [
    ['en.1', '2025-26'],
    ['de.1', '2025-26'],
    ['it.1', '2025-26'],
    ['es.1', '2025-26'],
  ]) {
    expect(await ofLeague(code, season)).toEqual([{ n: fileMatches({ competition: code, season }).length }]);
    expect(await ofLeague(code, season, 'count(*) FILTER (WHERE m.updated_at >= $3)::int AS n'.replace('$3', `'${started.toISOString()}'`))).toEqual([
      { n: 0 },
    ]);
  }
  const english = await q(
    `SELECT count(*)::int AS n FROM football.match m JOIN football.competition c ON c.id = m.competition_id JOIN football.team h ON h.id = m.home_team_id
      WHERE c.code = 'de.1' AND h.country = 'England'`,
  );
  expect(english).toEqual([{ n: 0 }]);
  expect(await q(`SELECT count(*)::int AS n FROM predictions.version_result WHERE created_at >= $1`, [started]).catch(() => [{ n: 0 }])).toEqual([{ n: 0 }]);
});

it('the same league from the CSV, then from the JSON again: neither erases what the other lacks (rounds, half-time scores)', async () => {
  const shipped = fileMatches({ competition: 'fr.1', season: '2025-26' });
  const fr1 = () =>
    ofLeague(
      'fr.1',
      '2025-26',
      `count(*)::int AS n, count(m.round)::int AS rounds, count(m.home_goals_ht) FILTER (WHERE m.home_goals IS NOT NULL)::int AS ht,
       count(*) FILTER (WHERE m.home_goals IS NOT NULL)::int AS results, string_agg(m.kickoff::text, ',' ORDER BY m.id) AS kickoffs`,
    );
  const [afterCsv] = await fr1();
  // the CSV cannot say "postponed": the postponed match stays so
  expect(await ofLeague('fr.1', '2025-26', "count(*) FILTER (WHERE m.status = 'postponed')::int AS n")).toEqual([{ n: 1 }]);
  // the CSV has no rounds: the JSON's stay; it gave every result its half-time score
  expect(afterCsv).toMatchObject({ n: shipped.length, rounds: shipped.length, results: 144, ht: 144 });

  feed.set('/fr.1', { body: FR1 });
  const res = await gql(t, SYNC);
  const fr = res.body.data.syncFootballFeed.sources.find((s: { key: string }) => s.key === 'fr.1@2025-26');
  expect(fr).toMatchObject({ status: 'unchanged', inserted: 0, updated: 0, error: null });
  const [afterJson] = await fr1();
  // the JSON lacks half-time scores of some results: the CSV's stay; kick-offs read from either format are the same
  expect(afterJson).toEqual(afterCsv);
});
