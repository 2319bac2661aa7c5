import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { projectRoot } from '../../../../lib/paths';
import { assertBuilt, startChildApp, type ChildApp } from '../../../support/platform/child-app';
import { startFeedServer, type FeedServer } from '../../../support/predictions/feed-server';

/**
 * `npm run cli -- football:sync` / `football:status` ask the RUNNING server (its gateway,
 * with the administrator key), whose feed is configured where it runs — not this shell's
 * FOOTBALL_FEED_URLS; with no server answering they say so and use this shell's configuration.
 */

const run = promisify(execFile);
let app: ChildApp;
let feed: FeedServer;
/** The server's own source: a league season its peer does not publish (any outcome names its key). */
const SERVER_SOURCE = 'de.1@2026-27';

beforeAll(async () => {
  assertBuilt('dist/bin/cli.js');
  feed = await startFeedServer({});
  app = await startChildApp({ FOOTBALL_FEED_URLS: `${SERVER_SOURCE}=${feed.url('/de.1.json')}`, FOOTBALL_FEED_RETRIES: '0' });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await feed?.close();
});

/** The CLI in a shell whose own feed setting is off: only the server's can show up. */
const cli = (command: string, gatewayUrl: string) =>
  run(process.execPath, ['dist/bin/cli.js', command], {
    cwd: projectRoot(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: app.databaseUrl,
      GATEWAY_URL: gatewayUrl,
      ADMIN_API_KEY: app.adminKey,
      FOOTBALL_FEED_URLS: 'off',
      LOG_LEVEL: 'warn',
    },
    timeout: 120_000,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

it('football:sync runs the pass on the running server, with its sources', async () => {
  const res = await cli('football:sync', `${app.urls.gateway}/graphql`);
  expect(res.stdout).toContain(`Asked the running server (${app.urls.gateway}/graphql).`);
  expect(res.stdout).toMatch(new RegExp(`^${SERVER_SOURCE.replace('.', '\\.')}\\s`, 'm'));
  expect(res.stdout).toMatch(/Pass \d+: 1 sources/);
  expect(res.stderr).not.toMatch(/\n\s+at /);
});

it('football:status reads the running server: its source and the pass just run', async () => {
  const res = await cli('football:status', `${app.urls.gateway}/graphql`);
  expect(res.code).toBe(0);
  expect(res.stdout).toContain('Asked the running server');
  expect(res.stdout).toMatch(new RegExp(`^${SERVER_SOURCE.replace('.', '\\.')}\\s.*checked \\d{4}-`, 'm'));
});

it('with no server answering, says so and uses this shell configuration (here: the feed off)', async () => {
  const status = await cli('football:status', 'http://127.0.0.1:1/graphql');
  expect(status.stdout).toMatch(/^No server answered at http:\/\/127\.0\.0\.1:1\/graphql \(.*\): using this shell's configuration/m);
  expect(status.stdout).toContain('The feed is off (FOOTBALL_FEED_URLS=off).');
  const sync = await cli('football:sync', 'http://127.0.0.1:1/graphql');
  expect(sync.code).toBe(2);
  expect(sync.stdout).toMatch(/^No server answered/m);
  expect(sync.stderr).toMatch(/FOOTBALL_FEED_URLS is off/);
});
