/**
 * `npm run bench:payments`: transfers per second and p99 (same run, alternating rounds):
 *
 *  1. POST /api/v1/transfers/  REST → gateway → payments → (supergraph) identity + ledger, limits on
 *     vs a hand-written Express + pg handler with the same invariants (goal ≥ 0.5×).
 *  2. The ledger service directly, with the KYC limits (createTransfers with `limits`), 1,000 senders:
 *     goal ≥ 1,000 transfers/s, p99 < 50 ms.
 *
 * Options: --duration <s> (10), --connections <n> (20), --rounds <n> (2), --ledger-seconds <s> (10), --ledger-concurrency <n> (32).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStore } from '../lib/database';
import { createLogger } from '../lib/logger';
import { Ledger } from '../subgraphs/finance/ledger/domain/ledger';
import { ledgerStore } from '../subgraphs/finance/ledger/store';
import { LedgerStore } from '../subgraphs/finance/ledger/store/ledger-store';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { generateLicenceKeyPair, publicKeyLine, signLicenceToken } from '../lib/licence-token';
import { compare, runServer, stopChildren } from './harness';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    'ledger-seconds': { type: 'string', default: '10' },
    'ledger-concurrency': { type: 'string', default: '32' },
  },
});
const LOAD = { duration: Number(args.duration), connections: Number(args.connections), rounds: Number(args.rounds) };
const PASSWORD = 'bench password 0123456789';
const JWT_KEY = 'bench-jwt-key-0123456789abcdefghijklmnopqrstuvwxyz';

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'matchday_bench_payments';
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const databaseUrl = server.replace(/\/[^/]*$/, `/${dbName}`);
  console.log(
    `Payments benchmark: ${LOAD.connections} connections, ${LOAD.duration} s per measurement after a 3 s warm-up, ${LOAD.rounds} alternating rounds; Node ${process.version}`,
  );
  // a licence of a throw-away registry key: transfers are refused in read-only mode
  const pair = generateLicenceKeyPair();
  const { token: licence } = await signLicenceToken(
    {
      licenceId: 'lic_bench',
      organisationId: 'org_bench',
      organisationName: 'Bench',
      product: 'finance-node',
      plan: 'enterprise',
      maxNodes: 1,
      maintenanceUntil: '2030-12-31',
      entitlements: ['banking'],
      status: 'Active',
    },
    { privateKey: createPrivateKey(pair.privateKeyPem), keyId: 'bench', issuer: 'bench-registry', ttlSeconds: 86400 },
  );
  const env = {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    SERVER_JWT_KEY: JWT_KEY,
    FRAMEWORK_SECRET_KEY: 'f'.repeat(64),
    BENCH_PASSWORD: PASSWORD,
    APP_NAME: 'Finance Node',
    VENDOR_LICENSE_TOKEN: licence,
    VENDOR_PUBLIC_KEY: publicKeyLine(pair.publicKeyPem),
  };
  const app = await runServer('dist/bench/servers/payments-app.js', env);
  const baseline = await runServer('dist/bench/servers/payments-baseline.js', { ...env, PORT: '0' });
  const login = await fetch(`${app.ready.finance}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: PASSWORD }),
  });
  const token = ((await login.json()) as { access: string }).access;
  const body = JSON.stringify({ recipient: 'bench_payee', amount: '0.01', currency: 'EUR' });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const [x, y] = await Promise.all(
    [app.ready.finance, baseline.ready.url].map((base) =>
      fetch(`${base}/api/v1/transfers/`, { method: 'POST', headers, body }).then(async (r) => [r.status, Object.keys((await r.json()) as object).join(',')]),
    ),
  );
  console.log(`same status and fields from both: ${JSON.stringify(x) === JSON.stringify(y) ? 'yes' : `NO: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`}`);
  await compare(
    {
      name: 'POST /api/v1/transfers/ — REST → gateway → payments → ledger (limits)  vs  Express + pg (same invariants)',
      a: { label: 'A: finance node (in-process subgraphs)', url: `${app.ready.finance}/api/v1/transfers/`, pids: () => [app.child.pid!] },
      b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}/api/v1/transfers/`, pids: () => [baseline.child.pid!] },
      opts: { method: 'POST', headers, body },
      target: 0.5,
      sameBody: false,
    },
    LOAD,
  );
  stopChildren();
  await ledgerDirect(databaseUrl);
}

async function ledgerDirect(databaseUrl: string) {
  const store = await openStore(ledgerStore, { url: databaseUrl, poolSize: 20, logger: createLogger('silent'), migrate: true });
  try {
    const ledger = new Ledger(new LedgerStore(store));
    const senders: { owner: string; wallet: string }[] = [];
    for (let i = 0; i < 1000; i++) {
      const owner = randomUUID();
      await ledger.fund(owner, 'EUR', 10_000_000n, randomUUID());
      senders.push({ owner, wallet: (await ledger.wallet(owner, 'EUR')).id });
    }
    // the same load without and with the KYC limits, same run: what the limit check costs
    for (const withLimits of [false, true]) {
      const latencies: number[] = [];
      ledger.retries = 0;
      const until = Date.now() + Number(args['ledger-seconds']) * 1000;
      const start = Date.now();
      await Promise.all(
        Array.from({ length: Number(args['ledger-concurrency']) }, async () => {
          while (Date.now() < until) {
            const a = senders[Math.floor(Math.random() * senders.length)];
            let b = senders[Math.floor(Math.random() * senders.length)];
            if (a === b) b = senders[(senders.indexOf(a) + 1) % senders.length];
            const began = process.hrtime.bigint();
            await ledger.createTransfers(
              [{ id: randomUUID(), debitAccountId: a.wallet, creditAccountId: b.wallet, amount: 1n, code: 'bench' }],
              withLimits ? { userId: a.owner, kycLevel: 'enhanced' } : undefined,
            );
            latencies.push(Number(process.hrtime.bigint() - began) / 1e6);
          }
        }),
      );
      const seconds = (Date.now() - start) / 1000;
      latencies.sort((p, q) => p - q);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
      console.log(
        `\nLedger service ${withLimits ? 'WITH' : 'without'} limits, 1,000 senders: ${(latencies.length / seconds).toFixed(0)} transfers/s, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms ` +
          `(${args['ledger-concurrency']} concurrent callers, pool 20, ${ledger.retries} retried); goal ≥ 1,000/s, p99 < 50 ms`,
      );
    }
  } finally {
    await store.close();
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(stopChildren);
