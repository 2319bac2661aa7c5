/**
 * The real system for the benchmarks: everything in one process, as `npm start` runs it, against
 * DATABASE_URL. Prints `READY {urls, …}` once the first model version is active and the registry's
 * data is in place.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startApp } from '../../bin/app';
import { loadConfig } from '../../subgraphs/products';
import { createLogger } from '../../lib/logger';
import type { PredictionServices } from '../../subgraphs/predictions/predictions/services';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'bench-app');
  const app = await startApp(config, logger, { databaseUrl: config.DATABASE_URL!, randomPorts: true });
  const predictions = app.services.predictions as PredictionServices;
  while (!(await predictions.active.get())) await new Promise((r) => setTimeout(r, 500));
  await predictions.upcoming.idle();
  // the registry: the demo catalogue (seeded in development only, so here explicitly), and an
  // artifact-sized object (64 MB) with a presigned link for the download benchmark
  const licensing = app.services.licensing;
  await licensing.demo.ensure();
  const { licenceKey } = await licensing.demoLicence();
  const chunk = randomBytes(1 << 20);
  await licensing.objects.put('bench/artifact.docker.tar.gz', Readable.from(Array.from({ length: 64 }, () => chunk)), { contentType: 'application/gzip' });
  const link = await licensing.objects.presign('bench/artifact.docker.tar.gz', {
    expiresInSeconds: 7200,
    filename: 'artifact.docker.tar.gz',
    contentType: 'application/gzip',
    baseUrl: app.urls.registry,
  });
  const ready = {
    ...app.urls,
    smtpPort: app.services.access.mailbox.info().port,
    licenceKey,
    objectUrl: link.url,
    objectsRoot: join(config.dataDir, 'objects', 'data'),
    objectPath: '/bench/artifact.docker.tar.gz',
  };
  process.stdout.write(`READY ${JSON.stringify(ready)}\n`);
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
