import 'reflect-metadata';
import { join } from 'node:path';
import { createLogger } from '../../../lib/logger';
import { startEmbeddedPostgres } from '../../../lib/embedded-postgres';
import { projectRoot } from '../../../lib/paths';
import { startApp } from '../../../bin/app';
import type { PredictionServices } from '../../../subgraphs/predictions/predictions/services';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadConfig } from '../../../subgraphs/products';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { TEMPLATE_ADMIN_KEY, TEST_MASTER_KEY } from './keys';
import { dataWorldClock } from './clock';
import { RUN_ENV, TEMPLATE_ENV, TEST_SERVER_ENV, admin, portOpen, startReaper, templateFingerprint, templatePrefix, withDatabase } from './database';

/**
 * Prepares one template database (all migrations, the job schema, the football data) that each
 * test file clones: files stay isolated and can run in parallel, and the data loads once.
 */
export default async function globalSetup() {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn', 'test');
  // On two cores jest runs every file in this process. A rejection nobody awaits once a file has ended
  // (a job worker of an app whose stop outlived its hook, polling after the file's modules are gone)
  // belongs to no test: it is reported, not allowed to end the whole run. During a test jest installs
  // its own handler, so a test's own unhandled rejection still fails that test.
  process.on('unhandledRejection', (reason) => {
    console.error('An unhandled rejection outside any test (reported, not fatal to the run):', reason);
  });
  let server = process.env.DATABASE_URL;
  if (!server && (await portOpen('127.0.0.1', 5432))) server = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!server) {
    const embedded = await startEmbeddedPostgres({
      dir: join(projectRoot(), '.data', 'test-pg'),
      passwordFile: join(projectRoot(), '.data', 'test-pg-password'),
      port: 54339,
      database: 'postgres',
      logger,
    });
    (globalThis as { __embeddedPg?: typeof embedded }).__embeddedPg = embedded;
    server = embedded.url;
  }
  process.env[TEST_SERVER_ENV] = server;
  const template = `${templatePrefix()}${templateFingerprint()}`;
  process.env[TEMPLATE_ENV] = template;
  process.env[RUN_ENV] = randomBytes(3).toString('hex');
  // no test reaches the internet: processes the tests start (npm start, the CLI) do not follow the default feed sources
  process.env.FOOTBALL_FEED_URLS ??= 'off';
  // one builder at a time across concurrent jest runs
  const lock = new pg.Client({ connectionString: withDatabase(server, 'postgres') });
  await lock.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('matchday-test-template'))`);
    const exists = (await lock.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount === 1;
    if (!exists) await buildTemplate(server, template, logger);
  } finally {
    await lock.end();
  }
  // finished files' databases are dropped here, off their path (globalTeardown stops it and drops the rest)
  (globalThis as { __stopReaper?: () => Promise<void> }).__stopReaper = startReaper(server);
}

/**
 * The template is what a first `npm start` leaves behind: migrations, the job schema, the football
 * data and model version 1 (trained on a one-season evaluation window to keep this quick).
 */
async function buildTemplate(server: string, template: string, logger: ReturnType<typeof createLogger>) {
  const building = `${template}_building`;
  await admin(server, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${building}"`);
  });
  const url = withDatabase(server, building);
  const dataDir = mkdtempSync(join(tmpdir(), 'matchday-template-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    ADMIN_API_KEY: TEMPLATE_ADMIN_KEY,
    MASTER_KEY: TEST_MASTER_KEY,
    BACKTEST_SEASONS: '1',
    // loading and training the template's data: long statements on a loaded machine
    DB_QUERY_TIMEOUT_MS: '0',
    APPLICATION_SMTP_PORT: '0',
    // no feed: the template holds no pass nor a queued one (a test app's own feed starts at once)
    FOOTBALL_FEED_URLS: 'off',
  });
  const started = Date.now();
  const app = await startApp(config, logger, { databaseUrl: url, randomPorts: true, clock: dataWorldClock });
  try {
    const predictions = app.services.predictions as PredictionServices;
    for (;;) {
      const runs = await predictions.store.runs(1);
      if (runs[0]?.status === 'succeeded') break;
      if (runs[0]?.status === 'failed') throw new Error(`template: first training failed: ${runs[0].error}`);
      if (Date.now() - started > 600_000) throw new Error('template: first training did not finish in 10 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  await admin(server, async (c) => {
    // old templates of earlier code versions are dropped; the new one appears atomically
    // only this checkout's: another checkout on the same server may be running its tests from its own
    const { rows } = await c.query(
      `SELECT datname FROM pg_database WHERE (starts_with(datname, $1) OR datname ~ '^mdtpl_[0-9a-f]{12}$') AND datname NOT LIKE '%\\_building'`,
      [templatePrefix()],
    );
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    await c.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
  });
  logger.warn({ template, ms: Date.now() - started }, 'test template database built');
}
