import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { projectRoot } from '../../../../lib/paths';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { surface } from '../../../support/platform/http';
import { assertBuilt } from '../../../support/platform/child-app';
import { seasonJson, startFeedServer, type FeedServer } from '../../../support/predictions/feed-server';
import { waitFor } from '../../../support/platform/wait';

/**
 * The prediction API as a live service, on the real clock: a local feed serves the fixtures of a
 * season the data has not seen, dated after today; `npm run cli -- football:sync` brings them in;
 * the running system predicts them, and /api/predictions/latest/ lists only fixtures that kick off
 * after now. Once the feed serves their results, the next sync resolves the predictions and the
 * overview's track record grows.
 */

const run = promisify(execFile);

const PAIRS: [string, string][] = [
  ['Arsenal FC', 'Chelsea FC'],
  ['Liverpool FC', 'Everton FC'],
  ['Manchester City FC', 'Manchester United FC'],
  ['Tottenham Hotspur FC', 'Newcastle United FC'],
  ['Aston Villa FC', 'Brighton & Hove Albion FC'],
];
const SCORES: [number, number][] = [
  [2, 0],
  [1, 1],
  [0, 2],
  [3, 1],
  [0, 0],
];

/** Where no server listens (port 1): the CLI falls back to its own configuration (football-cli-server.test.ts asks a running one). */
const NO_SERVER = 'http://127.0.0.1:1/graphql';

let t: TestApp;
let feed: FeedServer;
let key: string;
/** Tomorrow, midnight UTC: the first fixture's day. */
const start = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000);
const feedUrl = () => `en.1@2026-27=${feed.url('/2026-27/en.1.json')}`;

beforeAll(async () => {
  assertBuilt('dist/bin/cli.js');
  feed = await startFeedServer({ '/2026-27/en.1.json': { body: seasonJson(PAIRS, start) } });
  // the system on the real clock, without a feed of its own: the CLI's pass is what brings the data
  t = await startTestApp({}, { clock: () => new Date() });
  key = await t.createKey('pro');
}, 90_000);
afterAll(async () => {
  await t?.stop();
  await feed?.close();
});

const { get } = surface(() => t.urls.predictions, { key: () => key });

async function sync(): Promise<string> {
  const { stdout } = await run(process.execPath, ['dist/bin/cli.js', 'football:sync'], {
    cwd: projectRoot(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: t.databaseUrl,
      FOOTBALL_FEED_URLS: feedUrl(),
      FOOTBALL_FEED_RETRIES: '0',
      LOG_LEVEL: 'warn',
      // no running server answers there: the CLI runs the pass itself, with this shell's configuration
      GATEWAY_URL: NO_SERVER,
    },
    timeout: 60_000,
  });
  return stdout;
}

let before: { total_predictions: number };

it('out of the box, eleven months after the shipped fixtures, latest lists the most recent played matches and /api/ says so', async () => {
  const latest = (await get('/api/predictions/latest/')).body;
  expect(latest.length).toBeGreaterThan(0);
  expect((await get('/api/dashboard/fixtures/')).body).toEqual([]);
  expect((await get('/api/')).body.data.notice).toMatch(/^No upcoming fixture is known .*\/api\/predictions\/latest\/ lists the most recent played matches/);
  before = (await get('/api/dashboard/overview/')).body;
});

it('football:sync brings the new season in, and the latest predictions are its fixtures, all kicking off after now', async () => {
  const out = await sync();
  expect(out).toMatch(/^en\.1@2026-27\s+changed\s+football\.json\s+5 matches: 5 new, 0 updated/m);
  expect(out).toMatch(/Pass \d+: 1 sources, 1 changed, 0 failed/);
  const latest = await waitFor('the new fixtures predicted', 60_000, async () => {
    const res = await get('/api/predictions/latest/');
    return res.body.length === PAIRS.length ? res.body : undefined;
  });
  expect(latest.map((p: { home_team: string; away_team: string }) => [p.home_team, p.away_team])).toEqual(PAIRS);
  const fixtures = (await get('/api/dashboard/fixtures/')).body;
  for (const f of fixtures) expect(new Date(f.kickoff).getTime()).toBeGreaterThan(Date.now());
});

it('once the feed serves their results, the next sync resolves the predictions and the track record grows', async () => {
  // a result is never dated after now (it would be refused): the matches were played in the last days
  const played = new Date(start.getTime() - 8 * 86_400_000);
  feed.set('/2026-27/en.1.json', { body: seasonJson(PAIRS, played, SCORES) });
  const out = await sync();
  expect(out).toMatch(/^en\.1@2026-27\s+changed\s+football\.json\s+5 matches: 0 new, 5 updated/m);
  const after = await waitFor('the predictions resolved', 60_000, async () => {
    const res = await get('/api/dashboard/overview/');
    return res.body.total_predictions >= before.total_predictions + PAIRS.length ? res.body : undefined;
  });
  expect(after.total_predictions).toBe(before.total_predictions + PAIRS.length);
  // no fixture is known again: latest lists the matches just played, the latest first
  const latest = (await get('/api/predictions/latest/?limit=5')).body;
  expect(latest.map((p: { home_team: string; away_team: string }) => [p.home_team, p.away_team])).toEqual([...PAIRS].reverse());
  // a third pass: the server answers 304, nothing changes
  expect(await sync()).toMatch(/^en\.1@2026-27\s+not-modified/m);
});

it('football:sync prints a clear error, not a stack trace, for a league the feed does not know and for a key given twice', async () => {
  for (const [urls, message] of [
    [`xx.9@2026-27=${feed.url('/x.json')}`, /FOOTBALL_FEED_URLS: unknown competition "xx\.9"/],
    [`${feedUrl()},${feedUrl()}`, /FOOTBALL_FEED_URLS: en\.1@2026-27 is configured twice/],
  ] as const) {
    const res = await run(process.execPath, ['dist/bin/cli.js', 'football:sync'], {
      cwd: projectRoot(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: t.databaseUrl, FOOTBALL_FEED_URLS: urls, LOG_LEVEL: 'warn', GATEWAY_URL: NO_SERVER },
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  }
});
