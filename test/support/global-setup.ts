import 'reflect-metadata';
import { join } from 'node:path';
import { createLogger } from '../../lib/logger';
import { openStore } from '../../lib/database';
import { startJobQueue } from '../../lib/jobs';
import { startEmbeddedPostgres } from '../../lib/embedded-postgres';
import { projectRoot } from '../../lib/paths';
import { SUBGRAPHS } from '../../bin/subgraphs';
import { loadConfig } from '../../lib/config';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { RUN_ENV, TEMPLATE_ENV, TEST_SERVER_ENV, admin, portOpen, templateFingerprint, withDatabase } from './database';

/**
 * Prepares one template database (all migrations, the job schema, the football data) that each
 * test file clones: files stay isolated and can run in parallel, and the data loads once.
 */
export default async function globalSetup() {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn', 'test');
  let server = process.env.DATABASE_URL;
  if (!server && (await portOpen('127.0.0.1', 5432))) server = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!server) {
    const embedded = await startEmbeddedPostgres({ dir: join(projectRoot(), '.data', 'test-pg'), port: 54339, database: 'postgres', logger });
    (globalThis as { __embeddedPg?: typeof embedded }).__embeddedPg = embedded;
    server = embedded.url;
  }
  process.env[TEST_SERVER_ENV] = server;
  const template = `mdtpl_${templateFingerprint()}`;
  process.env[TEMPLATE_ENV] = template;
  process.env[RUN_ENV] = randomBytes(3).toString('hex');
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
}

async function buildTemplate(server: string, template: string, logger: ReturnType<typeof createLogger>) {
  const building = `${template}_building`;
  await admin(server, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${building}"`);
  });
  const url = withDatabase(server, building);
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATABASE_URL: url });
  const stores = await Promise.all(SUBGRAPHS.map((def) => openStore(def.store, { url, poolSize: 2, logger, migrate: true })));
  const jobs = await startJobQueue({ url, logger });
  await jobs.stop();
  for (const [i, def] of SUBGRAPHS.entries()) {
    const services = await def.createServices({ store: stores[i], databaseUrl: url, config, logger, jobs });
    if (def.name === 'football') await (services as { loader: { loadShipped(): Promise<unknown> } }).loader.loadShipped();
  }
  await Promise.all(stores.map((s) => s.close()));
  await admin(server, async (c) => {
    // old templates of earlier code versions are dropped; the new one appears atomically
    const { rows } = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE 'mdtpl\\_%' AND datname NOT LIKE '%\\_building'`);
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    await c.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
  });
}
