import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql } from '../../support/platform/http';
import { seasonJson, startFeedServer, type FeedServer } from '../../support/predictions/feed-server';
import { waitFor } from '../../support/platform/wait';

/**
 * The live data feed against a local HTTP peer serving both formats: the scheduled pass at start
 * brings a season the data has not seen (2026-27), a CSV with results and odds, and reports a failing
 * and a truncated source without writing anything of them; later passes send the validators (304),
 * take in a changed file, and refuse an inconsistent one whole.
 */

const EN1 = [
  ['Arsenal FC', 'Chelsea FC'],
  ['Liverpool FC', 'Everton FC'],
  ['Tottenham Hotspur FC', 'West Ham United FC'],
  ['Manchester City FC', 'Manchester United FC'],
] as [string, string][];
const SEASON_START = new Date('2026-08-15T00:00:00Z');
const FEED_NOW = new Date('2026-09-01T00:00:00Z');

const CSV_HEADER = 'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,HTR,B365H,B365D,B365A,AvgH,AvgD,AvgA';
const DE1_CSV = [
  CSV_HEADER,
  'D1,21/08/2026,19:30,Bayern Munich,RB Leipzig,3,1,H,1,0,H,1.40,5.00,7.50,1.42,4.90,7.10',
  'D1,22/08/2026,14:30,Dortmund,Leverkusen,1,1,D,0,1,A,2.30,3.60,2.90,2.28,3.55,2.95',
  'E0,22/08/2026,15:00,Arsenal,Chelsea,2,0,H,1,0,H,1.90,3.60,4.00,1.92,3.55,3.95',
  'D1,23/08/2026,17:30,Ein Frankfurt,Stuttgart,,,,,,,2.10,3.40,3.30,2.12,3.38,3.28',
].join('\r\n');

let t: TestApp;
let feed: FeedServer;
let db: pg.Client;
beforeAll(async () => {
  feed = await startFeedServer({
    '/2026-27/en.1.json': { body: seasonJson(EN1, SEASON_START) },
    '/2026-27/de.1.csv': { body: DE1_CSV, contentType: 'text/csv' },
    '/2026-27/it.1.json': { status: 500 },
    // cut off in the middle, as a broken transfer leaves it
    '/2026-27/en.2.json': { body: seasonJson([['Leeds United FC', 'Stoke City FC']], SEASON_START).slice(0, 60) },
  });
  const urls = [
    `en.1@2026-27=${feed.url('/2026-27/en.1.json')}`,
    `de.1@2026-27=${feed.url('/2026-27/de.1.csv')}`,
    `it.1@2026-27=${feed.url('/2026-27/it.1.json')}`,
    `en.2@2026-27=${feed.url('/2026-27/en.2.json')}`,
  ].join(',');
  // the product's clock in the 2026-27 season: the CSV's August results are in the past (a result after now is refused)
  t = await startTestApp({ FOOTBALL_FEED_URLS: urls, FOOTBALL_FEED_RETRIES: '1', FOOTBALL_FEED_INTERVAL_MINUTES: '600' }, { clock: () => FEED_NOW });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
}, 90_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
  await feed?.close();
});

const STATUS = `{ footballFeed { configured intervalMinutes lastSuccessAt lastError lastErrorAt
  lastRun { trigger status progress sources changed failed error finishedAt }
  sources { key url format lastCheckedAt lastChangedAt lastSuccessAt lastError } } }`;
const SYNC = `mutation { syncFootballFeed { runId changed failed sources { key status format matches inserted updated odds newTeams error } } }`;

const count = async (sql: string, values: unknown[] = []) => Number((await db.query(sql, values)).rows[0].n);
const seasonMatches = (code: string, season = '2026-27') =>
  count(`SELECT count(*) AS n FROM football.match m JOIN football.competition c ON c.id = m.competition_id WHERE c.code = $1 AND m.season = $2`, [
    code,
    season,
  ]);
const bySource = (sources: { key: string }[]): Record<string, any> => Object.fromEntries(sources.map((s) => [s.key, s]));

it('the pass at start imports the new season from football.json and the CSV with its odds, and reports the failing and the truncated source', async () => {
  const status = await waitFor('the first scheduled pass', 60_000, async () => {
    const res = await gql(t, STATUS);
    const last = res.body.data?.footballFeed.lastRun;
    return last && last.finishedAt ? res.body.data.footballFeed : undefined;
  });
  expect(status.configured).toBe(true);
  expect(status.intervalMinutes).toBe(600);
  expect(status.lastRun).toMatchObject({ trigger: 'schedule', status: 'failed', progress: 1, sources: 4, changed: 2, failed: 2 });
  // a pass with a failed source is no success; the error names it
  expect(status.lastSuccessAt).toBeNull();
  expect(status.lastError).toMatch(/it\.1@2026-27|en\.2@2026-27/);
  const sources = bySource(status.sources);
  expect(sources['en.1@2026-27']).toMatchObject({ format: 'football.json', lastError: null });
  expect(sources['en.1@2026-27'].lastChangedAt).not.toBeNull();
  expect(sources['de.1@2026-27']).toMatchObject({ format: 'csv', lastError: null });
  expect(sources['it.1@2026-27'].lastError).toMatch(/HTTP 500 \(after 2 attempts\)/);
  expect(sources['en.2@2026-27'].lastError).toMatch(/not valid JSON/);
  expect(sources['en.2@2026-27'].url).toBe(feed.url('/2026-27/en.2.json'));

  // the season the data had not seen is there, with its fixtures
  expect(await seasonMatches('en.1')).toBe(EN1.length);
  const seasons = await gql(t, '{ competitions { code seasons } }');
  expect(seasons.body.data.competitions.find((c: { code: string }) => c.code === 'en.1').seasons).toContain('2026-27');
  // the CSV: three de.1 rows (the E0 row is another division's), two results and a fixture, each with two bookmakers' odds
  expect(await seasonMatches('de.1')).toBe(3);
  const { rows } = await db.query(
    `SELECT h.name AS home, m.status, m.home_goals AS hg, m.away_goals AS ag, m.home_goals_ht AS hht,
            (SELECT json_object_agg(o.bookmaker, json_build_array(o.home::float8, o.draw::float8, o.away::float8)) FROM football.match_odds o WHERE o.match_id = m.id) AS odds
       FROM football.match m JOIN football.competition c ON c.id = m.competition_id JOIN football.team h ON h.id = m.home_team_id
      WHERE c.code = 'de.1' AND m.season = '2026-27' ORDER BY m.kickoff`,
  );
  expect(rows).toEqual([
    { home: 'Bayern München', status: 'finished', hg: 3, ag: 1, hht: 1, odds: { Avg: [1.42, 4.9, 7.1], B365: [1.4, 5, 7.5] } },
    { home: 'Borussia Dortmund', status: 'finished', hg: 1, ag: 1, hht: 0, odds: { Avg: [2.28, 3.55, 2.95], B365: [2.3, 3.6, 2.9] } },
    { home: 'Eintracht Frankfurt', status: 'scheduled', hg: null, ag: null, hht: null, odds: { Avg: [2.12, 3.38, 3.28], B365: [2.1, 3.4, 3.3] } },
  ]);
  // nothing of the truncated or the failing source
  expect(await seasonMatches('en.2')).toBe(0);
  expect(await seasonMatches('it.1')).toBe(0);
  // retried once, then given up
  expect(feed.requests.filter((r) => r.path === '/2026-27/it.1.json')).toHaveLength(2);
});

it('the next pass sends the validators and takes the 304 as no change', async () => {
  const before = feed.requests.length;
  const res = await gql(t, SYNC);
  expect(res.body.errors).toBeUndefined();
  const sources = bySource(res.body.data.syncFootballFeed.sources);
  expect(sources['en.1@2026-27']).toMatchObject({ status: 'not-modified', inserted: 0, updated: 0 });
  expect(sources['de.1@2026-27']).toMatchObject({ status: 'not-modified' });
  const en1 = feed.requests.slice(before).find((r) => r.path === '/2026-27/en.1.json')!;
  expect(en1.headers['if-none-match']).toMatch(/^"[0-9a-f]{40}"$/);
  expect(en1.headers['if-modified-since']).toBe('Tue, 24 Nov 2026 10:00:00 GMT');
  expect(en1.status).toBe(304);
});

it('a file that changes brings its new fixture and its result', async () => {
  const more: [string, string][] = [...EN1, ['Newcastle United FC', 'Aston Villa FC']];
  feed.set('/2026-27/en.1.json', { body: seasonJson(more, SEASON_START, [[2, 1]]) });
  const res = await gql(t, SYNC);
  const en1 = bySource(res.body.data.syncFootballFeed.sources)['en.1@2026-27'];
  expect(en1).toMatchObject({ status: 'changed', format: 'football.json', matches: 5, inserted: 1, updated: 1 });
  expect(await seasonMatches('en.1')).toBe(5);
  const { rows } = await db.query(
    `SELECT m.home_goals AS hg, m.away_goals AS ag, m.status FROM football.match m JOIN football.team h ON h.id = m.home_team_id
      WHERE m.season = '2026-27' AND h.name = 'Arsenal FC'`,
  );
  expect(rows).toEqual([{ hg: 2, ag: 1, status: 'finished' }]);
});

it('an inconsistent file changes nothing and is reported; whole again, it goes in', async () => {
  const snapshot = async () => (await db.query(`SELECT id, status, home_goals, away_goals FROM football.match WHERE season = '2026-27' ORDER BY id`)).rows;
  const odds = () => count('SELECT count(*) AS n FROM football.match_odds');
  const [before, oddsBefore] = [await snapshot(), await odds()];
  // Frankfurt's result arrives, beside a row whose FTR contradicts its score
  feed.set('/2026-27/de.1.csv', {
    body: [
      CSV_HEADER,
      'D1,21/08/2026,19:30,Bayern Munich,RB Leipzig,3,1,A,1,0,H,1.40,5.00,7.50,1.42,4.90,7.10',
      'D1,23/08/2026,17:30,Ein Frankfurt,Stuttgart,2,2,D,1,1,D,2.10,3.40,3.30,2.12,3.38,3.28',
    ].join('\n'),
    contentType: 'text/csv',
  });
  // and a CSV cut in the middle of a row
  feed.set('/2026-27/en.2.json', { body: `${CSV_HEADER}\nE1,08/08/2026,20:00,Leeds,Stoke,1,0,H,1,0,H,1.80,3.50` });
  const res = await gql(t, SYNC);
  const sources = bySource(res.body.data.syncFootballFeed.sources);
  expect(sources['de.1@2026-27']).toMatchObject({ status: 'failed', error: expect.stringMatching(/line 2: FTR "A" contradicts the score 3-1/) });
  expect(sources['en.2@2026-27']).toMatchObject({ status: 'failed', format: 'csv', error: expect.stringMatching(/line 2: 13 of 17 columns \(truncated\?\)/) });
  expect(await snapshot()).toEqual(before);
  expect(await odds()).toBe(oddsBefore);

  feed.set('/2026-27/en.2.json', { body: seasonJson([['Leeds United FC', 'Stoke City FC']], SEASON_START) });
  const again = bySource((await gql(t, SYNC)).body.data.syncFootballFeed.sources);
  expect(again['en.2@2026-27']).toMatchObject({ status: 'changed', inserted: 1 });
  expect(await seasonMatches('en.2')).toBe(1);
});
