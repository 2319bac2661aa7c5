import 'reflect-metadata';
import { join } from 'node:path';
import { isDevelopment, loadConfig } from '../lib/config';
import { runEntry } from '../lib/entry';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../lib/embedded-postgres';
import { createLogger } from '../lib/logger';
import { onShutdown } from '../lib/server';
import { startApp } from './app';
import { demoCredentials } from './demo';

/** `npm start`: everything in one process, on an embedded PostgreSQL unless DATABASE_URL is set. */
async function main() {
  const started = Date.now();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg'), port: config.EMBEDDED_PG_PORT, database: 'matchday', logger });
    databaseUrl = embedded.url;
  }
  let app;
  try {
    app = await startApp(config, logger, { databaseUrl });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const stop = async () => {
    await app.stop();
    await embedded?.stop();
  };
  onShutdown(stop, (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)));

  const lines = [
    '',
    `Match prediction API   ${app.urls.predictions}/api/   (reference: ${app.urls.predictions}/api/docs/)`,
    `Licence registry       ${app.urls.registry}/api/v1/`,
    `Finance node           ${app.urls.finance}/`,
    `GraphQL + IDE          ${app.urls.gateway}/graphql`,
    `Database               ${embedded ? `embedded PostgreSQL, data in ${join(config.dataDir, 'pg')}` : 'DATABASE_URL'}`,
  ];
  if (isDevelopment(config)) {
    const demo = await demoCredentials(config, app.services.access, app.generatedCredentials);
    lines.push('', 'Demo credentials (development mode; kept in .data/demo-credentials.json):');
    if (demo.adminKey) lines.push(`  Administrator key   ${demo.adminKey}`);
    else lines.push('  Administrator key   the ADMIN_API_KEY you configured');
    lines.push(`  Free-plan key       ${demo.freeKey}`);
    lines.push('', `Try: curl -H "Authorization: Bearer ${demo.freeKey}" ${app.urls.predictions}/api/`);
  } else if (app.generatedCredentials.ADMIN_API_KEY) {
    lines.push('', `Administrator key (shown once, store it now): ${app.generatedCredentials.ADMIN_API_KEY}`);
  }
  lines.push('', `Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops everything.`, '');
  process.stdout.write(lines.join('\n') + '\n');
}

void runEntry(main);
