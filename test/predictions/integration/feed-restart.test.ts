/**
 * A restart runs a feed pass at once, as the first start does: the schedule's next pass (up to
 * FOOTBALL_FEED_INTERVAL_MINUTES away) already waits on the queue, and the start's own pass must not be
 * dropped in its favour (npm start's banner waits for that pass).
 */
import pg from 'pg';
import { startApp, type App } from '../../../bin/app';
import { createLogger } from '../../../lib/logger';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { seasonJson, startFeedServer, type FeedServer } from '../../support/predictions/feed-server';
import { waitFor } from '../../support/platform/wait';

let t: TestApp<'predictions'>;
let second: App<'predictions'> | undefined;
let feed: FeedServer;
let db: pg.Client;

beforeAll(async () => {
  feed = await startFeedServer({ '/2026-27/en.1.json': { body: seasonJson([['Arsenal FC', 'Chelsea FC']], new Date('2026-08-15T00:00:00Z')) } });
  // a day between passes: only a start's own pass can come within this test
  t = await startTestApp({ FOOTBALL_FEED_URLS: `en.1@2026-27=${feed.url('/2026-27/en.1.json')}`, FOOTBALL_FEED_INTERVAL_MINUTES: '1440' });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
}, 90_000);
afterAll(async () => {
  await db?.end();
  await second?.stop();
  await t?.stop();
  await feed?.close();
});

const finishedPasses = async () =>
  Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM football.feed_run WHERE finished_at IS NOT NULL`)).rows[0].n);

it('runs a pass at the first start and again at once after a restart, the next scheduled pass still waiting', async () => {
  await waitFor('the first start’s pass', 30_000, async () => ((await finishedPasses()) === 1 ? true : undefined));
  await t.app.stop();
  second = await startApp<'predictions'>(t.config, createLogger('silent', 'restart'), {
    databaseUrl: t.databaseUrl,
    randomPorts: true,
    products: ['predictions'],
  });
  await waitFor('the restart’s pass', 30_000, async () => ((await finishedPasses()) === 2 ? true : undefined));
  // the schedule is kept: one pass waits, a day after the first
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM jobs.job WHERE name = 'football-feed-sync' AND state = 'created' AND start_after > now() + interval '23 hours'`,
  );
  expect(Number(rows[0].n)).toBe(1);
}, 120_000);
