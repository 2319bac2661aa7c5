import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { startApp, type App, type StartOptions } from '../../../bin/app';
import { type Config } from '../../../lib/config';
import { loadConfig } from '../../../subgraphs/products';
import { projectRoot } from '../../../lib/paths';
import { createLogger } from '../../../lib/logger';
import type { ProductName } from '../../../subgraphs/products';
import { createTestDatabase } from './database';
import { dataWorldClock } from './clock';
export { DATA_WORLD_NOW, dataWorldClock } from './clock';

export interface TestApp<P extends ProductName = ProductName> {
  app: App<P>;
  config: Config;
  databaseUrl: string;
  urls: App<P>['urls'];
  adminKey: string;
  /** A fresh key on a plan (the prediction API must be among the products). */
  createKey(plan?: 'free' | 'pro' | 'enterprise', opts?: { dailyLimit?: number; role?: 'client' | 'admin' }): Promise<string>;
  stop(): Promise<void>;
}

export { TEMPLATE_ADMIN_KEY as TEST_ADMIN_KEY } from './keys';
import { TEMPLATE_ADMIN_KEY, TEST_MASTER_KEY } from './keys';

/**
 * The apps of this test file whose start has not finished: a beforeAll that times out leaves its app
 * starting in the background with no variable to stop it by, and its job workers would poll after the
 * file's environment is gone. test/support/platform/stop-apps.ts stops them after each file (an app that did
 * start is its file's to stop, in its own afterAll).
 */
const starting = new Set<Promise<{ stop(): Promise<void> }>>();

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

/**
 * The product a test file belongs to, from its folder: `test/<product>/…` or a spec beside the code in
 * `subgraphs/<product>/…` or `rest-adapter/<product>/…`; none for the platform's tests (they run all).
 */
export function productOfTestFile(testPath: string | undefined = expect.getState().testPath): ProductName | undefined {
  if (!testPath) return undefined;
  const match = /^(?:test|subgraphs|rest-adapter)\/(predictions|registry|finance)\//.exec(relative(projectRoot(), testPath).split(sep).join('/'));
  return match ? (match[1] as ProductName) : undefined;
}

/**
 * What a product's tests boot: the registry is administered with the vendor's administrator key, which
 * the prediction API's access subgraph resolves (the vendor's shipped set predictions + registry).
 */
const BOOTED_WITH: Record<ProductName, ProductName[]> = {
  predictions: ['predictions'],
  registry: ['predictions', 'registry'],
  finance: ['finance'],
};

/**
 * The products in-process against this test file's own database, on random ports: `opts.products`, or
 * else the product of the test file's folder (productOfTestFile), or else all three. A file that tests one
 * product boots only that one (a third of the time of all three); one that needs another says so.
 */
export function startTestApp<P extends ProductName = ProductName>(
  env: Record<string, string> = {},
  opts: Pick<StartOptions<P>, 'decorateDataSource' | 'products' | 'clock'> = {},
): Promise<TestApp<P>> {
  const own = env.PRODUCTS === undefined ? productOfTestFile() : undefined;
  const products = opts.products ?? (own ? (BOOTED_WITH[own] as P[]) : undefined);
  const app = launchTestApp<P>(env, { ...opts, products }).then((t) => {
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

async function launchTestApp<P extends ProductName>(
  env: Record<string, string>,
  opts: Pick<StartOptions<P>, 'decorateDataSource' | 'products' | 'clock'>,
): Promise<TestApp<P>> {
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'matchday-test-'));
  // the data folder (mail outbox, …) goes with the database, whatever happens
  const cleanUp = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await db.release();
  };
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    ADMIN_API_KEY: TEMPLATE_ADMIN_KEY,
    MASTER_KEY: TEST_MASTER_KEY,
    DB_POOL_SIZE: '5',
    // the application mailbox on a free port, in production mode too (several apps run at once)
    APPLICATION_SMTP_PORT: '0',
    // a statement bound that a loaded test machine does not reach by itself (the frozen-database test sets its own)
    DB_QUERY_TIMEOUT_MS: '30000',
    // no test reaches the internet: the default feed sources (openfootball on GitHub) are off unless a test sets its own
    FOOTBALL_FEED_URLS: 'off',
    // the products this app runs, so that the settings they need (and only those) are checked
    ...(opts.products ? { PRODUCTS: opts.products.join(',') } : {}),
    ...env,
  });
  const logger = createLogger(config.LOG_LEVEL, 'test-app');
  let app: App<P>;
  try {
    app = await startApp<P>(config, logger, { databaseUrl: db.url, randomPorts: true, clock: dataWorldClock, ...opts });
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const services = app.services as Partial<App['services']>;
  return {
    app,
    config,
    databaseUrl: db.url,
    urls: app.urls,
    adminKey: config.ADMIN_API_KEY!,
    async createKey(plan = 'free', opts = {}) {
      if (!services.access) throw new Error('createKey needs the prediction API among the products of this test app');
      const { key } = await services.access.apiKeys.create({ name: `test ${plan}`, plan, role: opts.role, dailyLimit: opts.dailyLimit ?? null });
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
