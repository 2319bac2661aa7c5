import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type App, type StartOptions } from '../../bin/app';
import { loadConfig, type Config } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import type { AccessServices } from '../../subgraphs/predictions/access/services';
import { createTestDatabase } from './database';
import { dataWorldClock } from './clock';
export { DATA_WORLD_NOW, dataWorldClock } from './clock';

export interface TestApp {
  app: App;
  config: Config;
  databaseUrl: string;
  urls: App['urls'];
  adminKey: string;
  /** A fresh key on a plan. */
  createKey(plan?: 'free' | 'pro' | 'enterprise', opts?: { dailyLimit?: number; role?: 'client' | 'admin' }): Promise<string>;
  stop(): Promise<void>;
}

export { TEMPLATE_ADMIN_KEY as TEST_ADMIN_KEY } from './keys';
import { TEMPLATE_ADMIN_KEY, TEST_MASTER_KEY } from './keys';

/** The whole system in-process against this test file's own database, on random ports. */
/**
 * The apps of this test file whose start has not finished: a beforeAll that times out leaves its app
 * starting in the background with no variable to stop it by, and its job workers would poll after the
 * file's environment is gone. test/support/stop-apps.ts stops them after each file (an app that did
 * start is its file's to stop, in its own afterAll).
 */
const starting = new Set<Promise<TestApp>>();

/** Waits for the apps of this file still starting, and stops them. */
export async function stopStartingApps(): Promise<void> {
  const pending = [...starting];
  starting.clear();
  await Promise.all(
    pending.map((p) =>
      p.then(
        (t) => t.stop(),
        () => undefined,
      ),
    ),
  );
}

export function startTestApp(env: Record<string, string> = {}, opts: Pick<StartOptions, 'decorateDataSource' | 'clock'> = {}): Promise<TestApp> {
  const app = launchTestApp(env, opts).then((t) => {
    let stopped: Promise<void> | undefined;
    // once, however many hooks ask
    const stopOnce = t.stop.bind(t);
    t.stop = () => (stopped ??= stopOnce());
    return t;
  });
  starting.add(app);
  const started = () => void starting.delete(app);
  app.then(started, started);
  return app;
}

async function launchTestApp(env: Record<string, string>, opts: Pick<StartOptions, 'decorateDataSource' | 'clock'>): Promise<TestApp> {
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'matchday-test-'));
  // the data folder (mail outbox, …) goes with the database, whatever happens
  const cleanUp = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  };
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    ADMIN_API_KEY: TEMPLATE_ADMIN_KEY,
    MASTER_KEY: TEST_MASTER_KEY,
    DB_POOL_SIZE: '5',
    ...env,
  });
  const logger = createLogger(config.LOG_LEVEL, 'test-app');
  let app: App;
  try {
    app = await startApp(config, logger, { databaseUrl: db.url, randomPorts: true, clock: dataWorldClock, ...opts });
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const access = app.services.access as AccessServices;
  return {
    app,
    config,
    databaseUrl: db.url,
    urls: app.urls,
    adminKey: config.ADMIN_API_KEY!,
    async createKey(plan = 'free', opts = {}) {
      const { key } = await access.apiKeys.create({ name: `test ${plan}`, plan, role: opts.role, dailyLimit: opts.dailyLimit ?? null });
      return key;
    },
    async stop() {
      try {
        await app.stop();
      } finally {
        await cleanUp();
      }
    },
  };
}

/** GET/POST through real HTTP; returns status, headers and the parsed body. */
export async function http(url: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as any };
}

/** A GraphQL operation through the gateway's HTTP endpoint (POST /graphql). */
export function gql(t: TestApp, query: string, opts: { key?: string | null; variables?: Record<string, unknown> } = {}) {
  const key = opts.key === undefined ? t.adminKey : (opts.key ?? undefined);
  return http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables: opts.variables }),
  });
}
