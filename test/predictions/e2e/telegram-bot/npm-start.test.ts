/**
 * `npm start` with TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT pointing at telegram-test-api: it says
 * the bot is on, creates the bot's key itself (development), and the bot answers through the
 * in-process gateway; SIGTERM stops the bot and everything else. The shipped data ends with the
 * 2025-26 season, so a local feed (FOOTBALL_FEED_URLS) serves La Liga fixtures dated after today,
 * as a live deployment's feed would: the start's first sync brings them in, whatever the date.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type TelegramServer from 'telegram-test-api';
import { freePorts } from '../../../../lib/server';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { seasonJson, startFeedServer, type FeedServer } from '../../../support/predictions/feed-server';
import { converse, startEmulator, startEntry, type Child } from './emulator';

const TOKEN = '515151:e2e-token_for-npm-start';

let server: TelegramServer;
let app: Child;
let db: { url: string; release(): Promise<void> };
let dataDir: string;
let feed: FeedServer;
/** Tomorrow, midnight UTC: the feed's first fixture's day. */
const tomorrow = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000);

beforeAll(async () => {
  assertBuilt('dist/bin/start.js');
  db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'matchday-bot-start-'));
  feed = await startFeedServer({ '/2026-27/es.1.json': { body: seasonJson([['Real Madrid CF', 'FC Barcelona']], tomorrow) } });
  const [emulatorPort, gateway, predictions, registry, finance] = await freePorts(5);
  server = await startEmulator(emulatorPort);
  app = await startEntry(
    'dist/bin/start.js',
    {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      GATEWAY_PORT: String(gateway),
      PREDICTIONS_PORT: String(predictions),
      REGISTRY_PORT: String(registry),
      PORT: String(finance),
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: server.config.apiURL,
      FOOTBALL_FEED_URLS: `es.1@2026-27=${feed.url('/2026-27/es.1.json')}`,
      FOOTBALL_FEED_RETRIES: '0',
    },
    'Ctrl-C stops everything',
  );
}, 120_000);

afterAll(async () => {
  if (app?.process.exitCode === null) app.process.kill('SIGKILL');
  await server?.stop();
  await feed?.close();
  await db?.release();
  rmSync(dataDir, { recursive: true, force: true });
});

it('says the bot is on, and the bot answers with its own key through the in-process gateway; SIGTERM stops all', async () => {
  expect(app.output()).toContain(`Telegram bot           @TestNameBot, long polling via ${server.config.apiURL}`);
  const [answer] = await converse(server, TOKEN, '/predict Bayern v Dortmund');
  expect(answer.text.split('\n')[0]).toBe('<b>Bayern München</b> vs <b>Borussia Dortmund</b>');
  // the start queues a feed pass at once; until it has run, the bot says when the data was last updated
  let next = (await converse(server, TOKEN, '/nextmatch la liga'))[0];
  for (let tries = 0; !/^Next match in La Liga:/.test(next.text) && tries < 40; tries++) {
    await new Promise((r) => setTimeout(r, 500));
    next = (await converse(server, TOKEN, '/nextmatch la liga'))[0];
  }
  expect(next.text).toMatch(/^Next match in La Liga:/);
  expect(next.text).toContain('Real Madrid');
  app.process.kill('SIGTERM');
  expect(await app.exited).toBe(0);
});
