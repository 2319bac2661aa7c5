import 'reflect-metadata';
import { join } from 'node:path';
import { describeMode } from '../lib/config';
import { demoFile } from '../lib/demo-file';
import { runEntry } from '../lib/entry';
import { embeddedPostgresPaths, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../lib/embedded-postgres';
import { createLogger } from '../lib/logger';
import type { StartedProduct } from '../lib/product';
import { onShutdown } from '../lib/server';
import { inOrder, loadConfig, PRODUCTS } from '../subgraphs/products';
import { startApp, type App } from './app';

/**
 * `npm start`: the products of PRODUCTS (default all three) in one process, on an embedded PostgreSQL
 * unless DATABASE_URL is set. `PRODUCTS=finance npm start` runs the finance node alone: it answers on
 * PORT only and reaches a licence registry over HTTP (VENDOR_LICENSE_ENGINE_URL, VENDOR_API_KEY).
 * What each product adds (its demo seed, its own processes, its banner lines) is its manifest's `start`.
 */
async function main() {
  const started = Date.now();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const products = inOrder(config.PRODUCTS).map((name) => ({ name, start: PRODUCTS[name].start?.() }));
  for (const p of products) p.start?.check?.(config);
  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      ...embeddedPostgresPaths(config.dataDir),
      port: config.EMBEDDED_PG_PORT,
      database: 'matchday',
      logger,
      // started again when it dies; when it cannot be, the process exits so that its supervisor restarts everything
      supervise: {
        giveUp: (err) => {
          logger.fatal({ err: err.message }, 'the embedded PostgreSQL cannot be started again: exiting');
          process.exit(1);
        },
      },
    });
    databaseUrl = embedded.url;
  }
  let app: App;
  try {
    app = await startApp(config, logger, { databaseUrl });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const parts: StartedProduct[] = [];
  const stop = async () => {
    // what the products started first (the bot's updates in hand still need the gateway), last started first
    for (const part of [...parts].reverse()) await part.stop?.();
    await app.stop();
    await embedded?.stop();
  };
  onShutdown(stop, (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)));

  const offers = new Map<string, string>();
  for (const p of products) {
    if (p.start) parts.push(await p.start.start({ config, logger, app, started: new Date(started), offers }));
  }
  const lines = ['', ...parts.flatMap((p) => p.lines)];
  const credentials = parts.flatMap((p) => p.credentials ?? []);
  const tries = parts.flatMap((p) => p.tries ?? []);
  lines.push(
    `GraphQL + IDE          ${app.urls.gateway}/graphql`,
    `Database               ${embedded ? `embedded PostgreSQL, data in ${join(config.dataDir, 'pg')}` : 'DATABASE_URL'}`,
    `Mode                   ${describeMode(config)}`,
  );
  if (credentials.length) lines.push('', `Demo credentials (development mode; kept in ${demoFile(config)}, readable by you only):`, ...credentials);
  else if (app.generatedCredentials.ADMIN_API_KEY) lines.push('', `Administrator key (shown once, store it now): ${app.generatedCredentials.ADMIN_API_KEY}`);
  if (tries.length) lines.push('', ...tries);
  lines.push('', `Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops everything.`, '');
  process.stdout.write(lines.join('\n') + '\n');
}

void runEntry(main);
