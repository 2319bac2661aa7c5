/**
 * The finance node for the benchmarks: the whole system in one process (npm start's topology)
 * against DATABASE_URL, with a user `bench` (password BENCH_PASSWORD) holding EUR and GBP.
 * Prints `READY {urls}`.
 */
import 'reflect-metadata';
import { startApp } from '../../bin/app';
import { loadConfig } from '../../subgraphs/products';
import { createLogger } from '../../lib/logger';

async function main() {
  const config = loadConfig();
  const app = await startApp(config, createLogger(config.LOG_LEVEL, 'bench-finance'), { databaseUrl: config.DATABASE_URL!, randomPorts: true });
  const user = await app.services.identity.identity.createUser(
    { username: 'bench', password: process.env.BENCH_PASSWORD!, email: 'bench@example.com' },
    { replace: true },
  );
  await app.services.ledger.ledger.fund(user.id, 'EUR', 123_456n, 'b0000000-0000-4000-8000-000000000001');
  await app.services.ledger.ledger.fund(user.id, 'GBP', 98_765n, 'b0000000-0000-4000-8000-000000000002');
  process.stdout.write(`READY ${JSON.stringify(app.urls)}\n`);
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
