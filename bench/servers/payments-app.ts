/**
 * The finance node for the payments benchmark: the whole system in one process against DATABASE_URL,
 * with users `bench` (password BENCH_PASSWORD, enhanced KYC, funded in EUR) and `bench_payee`.
 * Prints `READY {urls}`.
 */
import 'reflect-metadata';
import { startApp } from '../../bin/app';
import { loadConfig } from '../../subgraphs/products';
import { createLogger } from '../../lib/logger';

async function main() {
  const config = loadConfig();
  const app = await startApp(config, createLogger(config.LOG_LEVEL, 'bench-payments'), { databaseUrl: config.DATABASE_URL!, randomPorts: true });
  const identity = app.services.identity.identity;
  const user = await identity.createUser({ username: 'bench', password: process.env.BENCH_PASSWORD!, email: 'bench@example.com' }, { replace: true });
  await identity.createUser({ username: 'bench_payee', password: process.env.BENCH_PASSWORD!, email: 'payee@example.com' }, { replace: true });
  await identity.setKycLevel(user.id, 'enhanced');
  await app.services.ledger.ledger.fund(user.id, 'EUR', 100_000_000n, 'b0000000-0000-4000-8000-000000000011');
  if (process.env.VENDOR_LICENSE_TOKEN === undefined) throw new Error('VENDOR_LICENSE_TOKEN is required (transfers are refused in read-only mode)');
  process.stdout.write(`READY ${JSON.stringify(app.urls)}\n`);
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
