/**
 * The real system for the benchmarks: everything in one process, as `npm start` runs it, against
 * DATABASE_URL. Prints `READY {urls}` once the first model version is active.
 */
import 'reflect-metadata';
import { startApp } from '../../bin/app';
import { loadConfig } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import type { PredictionServices } from '../../subgraphs/predictions/services';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'bench-app');
  const app = await startApp(config, logger, { databaseUrl: config.DATABASE_URL!, randomPorts: true });
  const predictions = app.services.predictions as PredictionServices;
  while (!(await predictions.active.get())) await new Promise((r) => setTimeout(r, 500));
  await predictions.upcoming.idle();
  process.stdout.write(`READY ${JSON.stringify(app.urls)}\n`);
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
