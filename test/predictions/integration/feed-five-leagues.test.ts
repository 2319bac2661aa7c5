import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql } from '../../support/platform/http';
import { startFeedServer, type FeedServer } from '../../support/predictions/feed-server';
import { fileMatches, openfootballFile } from '../../support/predictions/football-files';

/**
 * One full sync of five leagues from real files (openfootball's 2025-26 en.1, de.1, es.1, it.1, fr.1;
 * CC0, test/fixtures/openfootball) into a database without their season, then an unchanged pass (304):
 * the figures are printed for the notes.
 */

const LEAGUES = ['en.1', 'de.1', 'es.1', 'it.1', 'fr.1'];
let t: TestApp;
let feed: FeedServer;
let db: pg.Client;
beforeAll(async () => {
  feed = await startFeedServer(Object.fromEntries(LEAGUES.map((c) => [`/${c}.json`, { status: 404 }])));
  const urls = LEAGUES.map((c) => `${c}@2025-26=${feed.url(`/${c}.json`)}`).join(',');
  t = await startTestApp({ FOOTBALL_FEED_URLS: urls, FOOTBALL_FEED_RETRIES: '0', FOOTBALL_FEED_INTERVAL_MINUTES: '600' });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
}, 90_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
  await feed?.close();
});

const SYNC = `mutation { syncFootballFeed { ms changed failed sources { key status matches inserted updated error ms } } }`;

it('a full sync of five leagues writes every match of their files; the next pass is 304 throughout', async () => {
  for (;;) {
    const s = (await gql(t, '{ footballFeed { lastRun { finishedAt } } }')).body.data?.footballFeed;
    if (s?.lastRun?.finishedAt) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await db.query(
    `DELETE FROM football.match m USING football.competition c WHERE c.id = m.competition_id AND m.season = '2025-26' AND c.code = ANY($1::text[])`,
    [LEAGUES],
  );
  for (const c of LEAGUES) feed.set(`/${c}.json`, { body: openfootballFile('2025-26', c) });
  const expected = LEAGUES.map((c) => fileMatches({ competition: c, season: '2025-26' }).length);
  const full = (await gql(t, SYNC)).body.data.syncFootballFeed;
  expect(full).toMatchObject({ changed: 5, failed: 0 });
  expect(full.sources.map((s: { inserted: number }) => s.inserted)).toEqual(expected);
  const unchanged = (await gql(t, SYNC)).body.data.syncFootballFeed;
  expect(unchanged).toMatchObject({ changed: 0, failed: 0 });
  for (const s of unchanged.sources) expect(s.status).toBe('not-modified');
  const rows = expected.reduce((a, b) => a + b, 0);
  console.log(
    `five leagues: full sync ${full.ms} ms, ${rows} matches written (${full.sources.map((s: { key: string; inserted: number; ms: number }) => `${s.key} ${s.inserted} in ${s.ms} ms`).join(', ')}); ` +
      `unchanged pass ${unchanged.ms} ms`,
  );
});
