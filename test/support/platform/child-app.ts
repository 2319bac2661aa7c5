import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import type { App } from '../../../bin/app';
import { TEST_ADMIN_KEY } from './app';
import { DATA_WORLD_NOW } from './clock';
import { createTestDatabase } from './database';
import { TEST_MASTER_KEY } from './keys';

/**
 * Tests that run the compiled system (a child `node` process, `node dist/bin/compose.js`) test dist/:
 * `npm test` builds it first; after editing sources, run `npx tsc -p tsconfig.build.json` before `npx jest`.
 */
export function assertBuilt(file = 'dist/bin/app.js'): void {
  if (!existsSync(join(projectRoot(), file))) throw new Error(`${file} is missing: run \`npx tsc -p tsconfig.build.json\` first (npm test does).`);
}

export interface ChildApp {
  urls: App['urls'];
  adminKey: string;
  databaseUrl: string;
  /** What the child wrote to stderr (start-up failures). */
  stderr(): string;
  stop(): Promise<void>;
}

/* The child: the compiled system (dist/), as `npm start` runs it, against the given database. */
/**
 * The environment of a process a test starts, built afresh (not the test's own): where programs are, a
 * home, and no football feed unless the test names one. The default sources are openfootball on GitHub,
 * out of reach here; a pass failing on them mid-test changes what the data's status answers.
 */
export function testProcessEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, FOOTBALL_FEED_URLS: 'off', ...env };
}

const CHILD_SCRIPT = `
require('reflect-metadata');
const { startApp } = require('./dist/bin/app.js');
const { loadConfig } = require('./dist/subgraphs/products.js');
const { createLogger } = require('./dist/lib/logger.js');
(async () => {
  const config = loadConfig(process.env);
  // the test's clock (test/support/platform/app.ts: DATA_WORLD_NOW), unless it asks for the real time
  const at = process.env.MATCHDAY_TEST_NOW;
  const clock = at && at !== 'real' ? () => new Date(at) : undefined;
  const app = await startApp(config, createLogger(config.LOG_LEVEL, 'child-app'), { databaseUrl: config.DATABASE_URL, randomPorts: true, clock });
  process.on('SIGTERM', () => app.stop().then(() => process.exit(0), () => process.exit(1)));
  process.stdout.write('READY ' + JSON.stringify(app.urls) + '\\n');
})().catch((err) => { process.stderr.write(String(err && err.stack || err) + '\\n'); process.exit(1); });
`;

/**
 * The whole system in a child `node` process, from dist/, against this test file's own cloned
 * database, or against `databaseUrl` (another replica of a system already running; that database
 * is left in place). For what cannot run inside jest's module sandbox (ruru loads its assets with a
 * dynamic import(), which jest's VM refuses without --experimental-vm-modules), and for replicas.
 */
export async function startChildApp(env: Record<string, string> = {}, opts: { databaseUrl?: string } = {}): Promise<ChildApp> {
  assertBuilt();
  const db = opts.databaseUrl ? { url: opts.databaseUrl, release: () => Promise.resolve() } : await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'matchday-child-'));
  const cleanUp = async () => {
    await db.release();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const childEnv = testProcessEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    APPLICATION_SMTP_PORT: '0',
    DB_QUERY_TIMEOUT_MS: '30000',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    MASTER_KEY: TEST_MASTER_KEY,
    DB_POOL_SIZE: '5',
    MATCHDAY_TEST_NOW: DATA_WORLD_NOW.toISOString(),
    ...env,
  });
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD_SCRIPT], { cwd: projectRoot(), env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const urls = await new Promise<App['urls']>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`child app not ready after 120 s\n${stderr}`)), 120_000);
      child.stdout!.on('data', (d) => {
        out += String(d);
        const m = /^READY (.*)$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(JSON.parse(m[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`child app exited (${code}) before it was ready\n${stderr}`));
      });
    });
    return {
      urls,
      adminKey: TEST_ADMIN_KEY,
      databaseUrl: db.url,
      stderr: () => stderr,
      async stop() {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(killer);
        }
        await cleanUp();
      },
    };
  } catch (err) {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    await cleanUp();
    throw err;
  }
}
