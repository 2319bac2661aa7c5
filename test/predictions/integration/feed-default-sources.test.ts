import { COMPETITIONS } from '../../../subgraphs/predictions/football/domain/dataset';
import { footballFeedLines } from '../../../subgraphs/predictions/football/feed-banner';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { startFeedServer, seasonJson, type FeedServer } from '../../support/predictions/feed-server';
import { waitFor } from '../../support/platform/wait';

/**
 * Current by default: a fresh start without FOOTBALL_FEED_URLS follows openfootball's football.json
 * file of every shipped league's current season (computed from the date), read from
 * FOOTBALL_DEFAULT_SOURCE_BASE — here a local peer standing in for raw.githubusercontent.com — and
 * `latest` lists the peer's upcoming fixtures; the start banner says what it follows and when each
 * league last changed. With the base unreachable (offline, CI) the start goes on and the banner says
 * plainly that no source was reachable and since when the data is stale.
 */

const PAIRS: [string, string][] = [
  ['Arsenal FC', 'Chelsea FC'],
  ['Liverpool FC', 'Everton FC'],
  ['Manchester City FC', 'Manchester United FC'],
];
const DAY = 86_400_000;
/** The real clock: the current season is the one running today. */
const now = new Date();
const season = (() => {
  const y = now.getUTCMonth() >= 6 ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
  return `${y}-${String((y + 1) % 100).padStart(2, '0')}`;
})();
const start = new Date(Math.ceil(now.getTime() / DAY) * DAY + DAY);

let feed: FeedServer;
let t: TestApp;
let key: string;
beforeAll(async () => {
  feed = await startFeedServer({ [`/football.json/${season}/en.1.json`]: { body: seasonJson(PAIRS, start) } });
  // no FOOTBALL_FEED_URLS (the test apps' `off` undone): the default sources, at the peer
  t = await startTestApp(
    { FOOTBALL_FEED_URLS: '', FOOTBALL_DEFAULT_SOURCE_BASE: feed.url('/football.json'), FOOTBALL_FEED_RETRIES: '0' },
    { clock: () => new Date() },
  );
  key = await t.createKey('pro');
}, 90_000);
afterAll(async () => {
  await t?.stop();
  await feed?.close();
});

it('a fresh start follows every shipped league at the default base, and latest lists the peer’s upcoming fixtures', async () => {
  const latest = await waitFor('the peer’s fixtures predicted', 60_000, async () => {
    const res = await http(`${t.urls.predictions}/api/predictions/latest/`, { key });
    return res.status === 200 && res.body.length === PAIRS.length ? res.body : undefined;
  });
  expect(latest.map((p: { home_team: string; away_team: string }) => [p.home_team, p.away_team])).toEqual(PAIRS);
  await waitFor('the first pass ended', 60_000, async () => ((await t.app.services.football.feed.status()).lastRun?.finishedAt ? true : undefined));
  // every shipped league's current season was asked for, derived from the catalogue, not listed here
  const asked = new Set(feed.requests.map((r) => r.path));
  for (const c of COMPETITIONS) expect(asked).toContain(`/football.json/${season}/${c.code}.json`);
  const info = await http(`${t.urls.predictions}/api/`, { key });
  expect(info.body.data.feed?.configured ?? true).toBe(true);
  const leagues = info.body.data.leagues as { code: string; updated_at: string | null }[];
  // "updated" is the feed pass that changed the league; the others are the shipped data, never updated
  expect(leagues.find((l) => l.code === 'en.1')!.updated_at!.slice(0, 10)).toBe(now.toISOString().slice(0, 10));
  expect(leagues.find((l) => l.code === 'de.1')!.updated_at).toBeNull();

  const banner = (await footballFeedLines(t.app.services.football, { since: new Date(0), waitMs: 5_000 })).join('\n');
  expect(banner).toContain(`follows openfootball football.json ${season} for ${COMPETITIONS.map((c) => c.code).join(', ')}`);
  expect(banner).toContain(`en.1 changed ${now.toISOString().slice(0, 10)}`);
  expect(banner).toContain('de.1 shipped data, never updated');
});

it('offline: the default sources fail fast, the app runs on, and the banner says no source was reachable and since when the data is stale', async () => {
  const closed = await startFeedServer();
  const base = closed.url('/football.json');
  await closed.close();
  const started = Date.now();
  const offline = await startTestApp({ FOOTBALL_FEED_URLS: '', FOOTBALL_DEFAULT_SOURCE_BASE: base }, { clock: () => new Date() });
  try {
    const banner = (await footballFeedLines(offline.app.services.football, { since: new Date(started), waitMs: 20_000 })).join('\n');
    expect(banner).toMatch(/no source was reachable \(.+\): the data is stale since 2025-12-30, its newest result/);
    expect(banner).toContain('en.1 shipped data, never updated');
    expect(Date.now() - started).toBeLessThan(60_000);
    const api = await http(`${offline.urls.predictions}/api/`, { key: await offline.createKey('free') });
    expect(api.status).toBe(200);
  } finally {
    await offline.stop();
  }
}, 90_000);
