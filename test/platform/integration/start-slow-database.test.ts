import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
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

/** A standalone football service (dist) on `port`, its output kept; `until` polls while it has not exited. */
function football(port: number, env: Record<string, string>) {
  assertBuilt('dist/subgraphs/predictions/football/index.js');
  const run = { output: '', exitCode: undefined as number | null | undefined };
  const child = spawn(process.execPath, ['dist/subgraphs/predictions/football/index.js'], {
    cwd: projectRoot(),
    env: testProcessEnv({ ...standaloneEnv(serviceKeyEnv(['football']), port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (run.output += d));
  child.stderr.on('data', (d) => (run.output += d));
  const exited = once(child, 'exit').then(([code]) => (run.exitCode = code as number | null));
  return {
    run,
    /** Polls `ready` every 100 ms; fails as soon as the process has exited, or after 60 s. */
    until: async (ready: () => boolean | Promise<boolean>, what: string) => {
      const deadline = Date.now() + 60_000;
      while (!(await ready())) {
        if (run.exitCode !== undefined) throw new Error(`football exited during start-up (code ${run.exitCode}):\n${run.output}`);
        if (Date.now() > deadline) throw new Error(`${what}: not within 60 s:\n${run.output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const WAITING = 'start-up: database unavailable; starting again';

it('a standalone football service whose catalogue read times out (a locked table) waits, starts again and becomes healthy', async () => {
  const [port] = await freePorts(1);
  // the table the catalogue reads, locked until released: each read ends in the statement timeout (57014)
  const locker = await pool.connect();
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE football.team IN ACCESS EXCLUSIVE MODE');
  const service = football(port, { DB_QUERY_TIMEOUT_MS: '1000' });
  try {
    // the start has met the timeout and is waiting to start again
    await service.until(() => service.run.output.includes(WAITING), 'the wait');
    expect(service.run.output).toContain('canceling statement due to statement timeout');
    expect(await healthy(port)).toBe(false);
    await locker.query('ROLLBACK');
    // …and once the table is free, it is up
    await service.until(() => healthy(port), 'healthy after the release');
    expect(service.run.exitCode).toBeUndefined();
  } finally {
    locker.release();
    await service.stop();
  }
}, 180_000);

it('a standalone football service started before its database is reachable waits for it, and comes up with it', async () => {
  const [port, databasePort] = await freePorts(2);
  // the database is reached through a port where nothing listens yet (a server still booting, or not up yet)
  const target = new URL(db.url);
  const viaProxy = new URL(db.url);
  viaProxy.port = String(databasePort);
  const service = football(port, { DATABASE_URL: viaProxy.toString() });
  const proxy = createServer((socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  try {
    await service.until(() => service.run.output.split('\n').some((line) => line.includes(WAITING) && line.includes('ECONNREFUSED')), 'the wait');
    expect(await healthy(port)).toBe(false);
    // the database comes up
    await new Promise<void>((resolve) => proxy.listen(databasePort, '127.0.0.1', resolve));
    await service.until(() => healthy(port), 'healthy once the database is up');
    expect(service.run.exitCode).toBeUndefined();
  } finally {
    await service.stop();
    await new Promise((r) => proxy.close(r));
  }
}, 180_000);

/** What a standalone football service of this file needs (its keys, its port, this file's database). */
const standaloneEnv = (keys: Record<string, string>, port: number): Record<string, string> => ({
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
  DB_POOL_SIZE: '3',
  LOG_LEVEL: 'warn',
});

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

/**
 * Where a process opens the database without waiting for it, and why that is right there: each is a
 * command that runs once and reports (a CLI command, the migration job, a benchmark), or the embedded
 * server that it has just started itself.
 */
const OPENS_WITHOUT_WAITING: Record<string, string> = {
  'bin/cli.ts': 'a command: an operator reads its error at once',
  'bin/migrate.ts': 'the migration job: its orchestrator retries a failed job',
  'lib/embedded-postgres.ts': 'the server it has just started and waited for',
};

it('every long-lived process opens the database through untilDatabase (the commands that run once are listed with their reason)', () => {
  const unguarded: string[] = [];
  for (const { path, text } of listSources()) {
    if (path.startsWith('bench/') || path in OPENS_WITHOUT_WAITING) continue;
    for (const m of text.matchAll(/\b(ensureDatabase|openStore|startJobQueue)\(/g)) {
      const before = text.slice(Math.max(0, m.index - 160), m.index);
      if (/export (async )?function $/.test(before)) continue;
      if (!/untilDatabase(<[^>]*>)?\(/.test(before)) unguarded.push(`${path}: ${m[1]}(`);
    }
  }
  expect(unguarded).toEqual([]);
  // and each listed file still opens it (a stale entry goes)
  const sources = new Map(listSources().map(({ path, text }) => [path, text]));
  for (const path of Object.keys(OPENS_WITHOUT_WAITING))
    expect([path, /\b(ensureDatabase|openStore|startJobQueue)\(/.test(sources.get(path) ?? '')]).toEqual([path, true]);
});

function listSources(): { path: string; text: string }[] {
  return execFileSync('git', ['ls-files', '*.ts'], { cwd: projectRoot(), encoding: 'utf8' })
    .split('\n')
    .filter((path) => path && !path.startsWith('test/') && !/\.(spec|test)\.ts$/.test(path) && path !== 'lib/subgraph-start.ts')
    .map((path) => ({ path, text: readFileSync(join(projectRoot(), path), 'utf8') }));
}
