import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Notifications, NotificationListener } from '../../../lib/database';
import { createLogger } from '../../../lib/logger';
import { projectRoot } from '../../../lib/paths';
import { freePorts } from '../../../lib/server';
import { GATEWAY_SERVICE, keyVariable, serviceKeyEnv } from '../../../lib/service-keys';
import { defineSubgraph, type SubgraphDeps } from '../../../lib/subgraph';
import { startSubgraph } from '../../../lib/subgraph-start';
import { startJobQueue } from '../../../lib/jobs';
import { assertBuilt, testProcessEnv } from '../../support/platform/child-app';
import { createTestDatabase, testPool } from '../../support/platform/database';
import { TEST_ADMIN_KEY } from '../../support/platform/app';
import { TEST_MASTER_KEY } from '../../support/platform/keys';

/**
 * A subgraph's start reads the database (the football catalogue, seeds, what is kept in memory). Under
 * CI's load a standalone football service's catalogue read ran into its 5 s statement timeout, and the
 * process exited during start-up ("canceling statement due to statement timeout"). Every start now runs
 * through lib/subgraph-start.ts: while the database is unavailable or too slow it waits and starts again,
 * and what a failed attempt registered is stopped first.
 */

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  pool = testPool(db.url, 4);
});
afterAll(async () => {
  await pool?.end();
  await db?.release();
});

it('a standalone football service whose catalogue read times out (a locked table) waits, starts again and becomes healthy', async () => {
  assertBuilt('dist/subgraphs/predictions/football/index.js');
  const keys = serviceKeyEnv(['football']);
  const [port] = await freePorts(1);
  // the table the catalogue reads, locked until released: each read ends in the statement timeout (57014)
  const locker = await pool.connect();
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE football.team IN ACCESS EXCLUSIVE MODE');
  let output = '';
  const child = spawn(process.execPath, ['dist/subgraphs/predictions/football/index.js'], {
    cwd: projectRoot(),
    env: testProcessEnv({
      NODE_ENV: 'production',
      FRONTEND_URL: 'http://127.0.0.1:8000/app/',
      PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
      PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
      APPLICATION_SMTP_PORT: '0',
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      MASTER_KEY: TEST_MASTER_KEY,
      SUBGRAPH_MODE: 'remote',
      DATABASE_URL: db.url,
      SUBGRAPH_PORT: String(port),
      SERVICE_PRIVATE_KEY: keys[keyVariable('football', 'private')],
      GATEWAY_PUBLIC_KEY: keys[keyVariable(GATEWAY_SERVICE, 'public')],
      GATEWAY_URL: 'http://127.0.0.1:9/graphql',
      DB_QUERY_TIMEOUT_MS: '1000',
      DB_POOL_SIZE: '3',
      LOG_LEVEL: 'warn',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exitCode: number | null | undefined;
  const exited = once(child, 'exit').then(([code]) => (exitCode = code as number | null));
  try {
    // the start has met the timeout and is waiting to start again
    const deadline = Date.now() + 60_000;
    while (!output.includes('start-up: database unavailable; starting again')) {
      if (exitCode !== undefined) throw new Error(`football exited during start-up (code ${exitCode}):\n${output}`);
      if (Date.now() > deadline) throw new Error(`no retry within 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toContain('canceling statement due to statement timeout');
    expect(await healthy(port)).toBe(false);
    await locker.query('ROLLBACK');
    // …and once the table is free, it is up
    while (!(await healthy(port))) {
      if (exitCode !== undefined) throw new Error(`football exited during start-up (code ${exitCode}):\n${output}`);
      if (Date.now() > deadline + 60_000) throw new Error(`not healthy within 60 s of the release:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(exitCode).toBeUndefined();
  } finally {
    locker.release();
    child.kill('SIGTERM');
    await exited;
  }
}, 180_000);

const healthy = (port: number) =>
  fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
    (r) => r.ok,
    () => false,
  );

describe('startSubgraph', () => {
  const logger = createLogger('silent');

  async function depsOf(): Promise<{ deps: SubgraphDeps; close: () => Promise<void> }> {
    const listener = new NotificationListener(db.url, logger);
    const notifications = new Notifications(listener);
    const jobs = await startJobQueue({ url: db.url, logger, background: false });
    return {
      deps: { notifications, jobs, logger } as unknown as SubgraphDeps,
      close: async () => {
        await notifications.close();
        await listener.close();
        await jobs.stop();
      },
    };
  }

  /** A statement cancelled by its timeout, from the real server (SQLSTATE 57014). */
  const timedOut = async () => {
    const client = await pool.connect();
    try {
      await client.query("SET statement_timeout = '50ms'");
      await client.query('SELECT pg_sleep(1)');
    } finally {
      client.release(true);
    }
  };

  it('runs a start again after the database timed it out; the failed attempt’s listeners and workers are stopped first', async () => {
    const { deps, close } = await depsOf();
    const heard: string[] = [];
    let attempts = 0;
    const def = defineSubgraph({
      name: 'probe',
      store: { schema: 'probe', entities: [], migrations: [] },
      createServices: () => ({}),
      buildSchema: () => Promise.reject(new Error('not used')),
      async start(_services: object, { notifications, jobs }: SubgraphDeps) {
        attempts += 1;
        const attempt = attempts;
        notifications.on('probe_channel', (payload) => heard.push(`${attempt}:${payload}`));
        jobs.work(`probe-queue-${attempt}`, async () => undefined);
        if (attempt === 1) await timedOut();
      },
    });
    try {
      await startSubgraph(def, {}, deps);
      expect(attempts).toBe(2);
      // the handler of attempt 1 is gone, attempt 2's hears the channel
      for (let i = 0; heard.length === 0 && i < 100; i++) {
        await pool.query("SELECT pg_notify('probe_channel', 'hello')");
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(new Set(heard)).toEqual(new Set(['2:hello']));
      expect(deps.notifications.mark()).toBe(1);
    } finally {
      await close();
    }
  }, 60_000);

  it('any other error ends the start at once', async () => {
    const { deps, close } = await depsOf();
    let attempts = 0;
    const def = defineSubgraph({
      name: 'probe',
      store: { schema: 'probe', entities: [], migrations: [] },
      createServices: () => ({}),
      buildSchema: () => Promise.reject(new Error('not used')),
      async start() {
        attempts += 1;
        throw new Error('a bug');
      },
    });
    try {
      await expect(startSubgraph(def, {}, deps)).rejects.toThrow('a bug');
      expect(attempts).toBe(1);
    } finally {
      await close();
    }
  });
});

it('every start of a subgraph goes through startSubgraph', () => {
  const files = listSources();
  const direct = files.filter(({ text }) => /\bdef\.start(\?\.)?\(/.test(text)).map(({ path }) => path);
  expect(direct).toEqual([]);
});

function listSources(): { path: string; text: string }[] {
  return execFileSync('git', ['ls-files', '*.ts'], { cwd: projectRoot(), encoding: 'utf8' })
    .split('\n')
    .filter((path) => path && !path.startsWith('test/') && !/\.(spec|test)\.ts$/.test(path) && path !== 'lib/subgraph-start.ts')
    .map((path) => ({ path, text: readFileSync(join(projectRoot(), path), 'utf8') }));
}
