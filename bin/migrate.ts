import 'reflect-metadata';
import { loadConfig } from '../subgraphs/products';
import { ensureDatabase, openStore } from '../lib/database';
import { requireSettings, runEntry } from '../lib/entry';
import { startJobQueue } from '../lib/jobs';
import { createLogger } from '../lib/logger';
import { loadSubgraphs, PRODUCT_NAMES } from '../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);

/**
 * `node dist/bin/migrate.js`: every subgraph's pending migrations and the job queue's schema, then
 * exit (the migration Job of deploy/kubernetes, run before new pods start). Each store migrates
 * under its advisory lock, as at a subgraph's start, so a pod starting meanwhile waits, then finds
 * nothing left to do.
 */
async function main() {
  const config = requireSettings(loadConfig(), ['DATABASE_URL'], 'the migration job');
  const logger = createLogger(config.LOG_LEVEL, 'migrate');
  const url = config.DATABASE_URL;
  await ensureDatabase(url);
  for (const def of SUBGRAPHS) {
    // two connections: one holds the advisory lock while the other runs the migrations
    const store = await openStore(def.store, { url, poolSize: 2, logger, migrate: true });
    await store.close();
  }
  // pg-boss creates or upgrades its schema when it starts
  const jobs = await startJobQueue({ url, logger, poolSize: 1, background: false });
  await jobs.stop();
  logger.info({ schemas: [...SUBGRAPHS.map((s) => s.store.schema), 'jobs'] }, 'migrations applied');
}

void runEntry(main).then(() => process.exit(0));
