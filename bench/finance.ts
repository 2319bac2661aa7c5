/**
 * `npm run bench:finance`: the finance node's figures, each beside a baseline measured in the same run.
 *
 *  1. POST /api/login/   REST → gateway → identity subgraph (argon2id, HS256)   vs  hand-written Express + pg
 *  2. GET /api/balance/  REST → gateway (token check) → ledger subgraph          vs  hand-written Express + pg
 *  3. Ledger transfers/s and latency (p50, p99) of the ledger service: low contention (1,000 wallets)
 *     and a hot set (10 wallets); goal ≥ 1,000 transfers/s, p99 < 50 ms.
 *
 * Servers run in their own processes; autocannon and the ledger load run here. Options:
 * --duration <s> (10), --connections <n> (20), --rounds <n> (2), --ledger-seconds <s> (10), --ledger-concurrency <n> (32),
 * --ledger-only.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import pg from 'pg';
import { openStore } from '../lib/database';
import { createLogger } from '../lib/logger';
import { Ledger } from '../subgraphs/finance/ledger/domain/ledger';
import { ledgerStore } from '../subgraphs/finance/ledger/store';
import { LedgerStore } from '../subgraphs/finance/ledger/store/ledger-store';
import { compare, limit, peakRssMb, resetPeakRss, rssMb, runServer, shippedRuntimeEnv, stopChildren } from './harness';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    'ledger-seconds': { type: 'string', default: '10' },
    'ledger-concurrency': { type: 'string', default: '32' },
    'ledger-only': { type: 'boolean' },
  },
});
const LOAD = { duration: Number(args.duration), connections: Number(args.connections), rounds: Number(args.rounds) };
const PASSWORD = 'bench password 0123456789';
const JWT_KEY = 'bench-jwt-key-0123456789abcdefghijklmnopqrstuvwxyz';

async function ledgerLoad(ledger: Ledger, wallets: string[], seconds: number, concurrency: number) {
  const latencies: number[] = [];
  let refused = 0;
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const a = wallets[Math.floor(Math.random() * wallets.length)];
      let b = wallets[Math.floor(Math.random() * wallets.length)];
      if (a === b) b = wallets[(wallets.indexOf(a) + 1) % wallets.length];
      const started = process.hrtime.bigint();
      try {
        await ledger.createTransfers([
          { id: randomUUID(), debitAccountId: a, creditAccountId: b, amount: 1n + BigInt(Math.floor(Math.random() * 100)), code: 'bench' },
        ]);
      } catch (err) {
        if ((err as { code?: string }).code !== 'INSUFFICIENT_FUNDS') throw err;
        refused++;
      }
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  const start = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (Date.now() - start) / 1000;
  latencies.sort((x, y) => x - y);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return { perSecond: latencies.length / elapsed, p50: q(0.5), p99: q(0.99), refused, retries: ledger.retries };
}

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'matchday_bench_finance';
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  const { rows: version } = await admin.query<{ server_version: string }>('SHOW server_version');
  await admin.end();
  const databaseUrl = server.replace(/\/[^/]*$/, `/${dbName}`);
  console.log(
    `Finance benchmark: ${LOAD.connections} connections, ${LOAD.duration} s per measurement after a 3 s warm-up, ${LOAD.rounds} alternating rounds; Node ${process.version}, PostgreSQL ${version[0].server_version}`,
  );
  const ledgerOnly = args['ledger-only'] === true;
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
    // the finance node as a customer runs it: its product alone
    PRODUCTS: 'finance',
    // as the release images run it (Dockerfile)
    ...shippedRuntimeEnv('finance-backend'),
  };
  if (!ledgerOnly) await httpBenchmarks(env);
  await ledgerBenchmarks(databaseUrl);
}

async function httpBenchmarks(env: Record<string, string>) {
  const app = await runServer('dist/bench/servers/finance-app.js', env);
  const baseline = await runServer('dist/bench/servers/finance-baseline.js', { ...env, PORT: '0' });
  const loginBody = JSON.stringify({ username: 'bench', password: PASSWORD });
  const token = async (base: string) =>
    (
      (await (await fetch(`${base}/api/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody })).json()) as {
        access: string;
      }
    ).access;
  const [appToken, baseToken] = [await token(app.ready.finance), await token(baseline.ready.url)];
  const [x, y] = await Promise.all([
    fetch(`${app.ready.finance}/api/balance/`, { headers: { authorization: `Bearer ${appToken}` } }).then((r) => r.json()),
    fetch(`${baseline.ready.url}/api/balance/`, { headers: { authorization: `Bearer ${baseToken}` } }).then((r) => r.json()),
  ]);
  console.log(`same JSON from both for /api/balance/: ${isDeepStrictEqual(x, y) ? 'yes' : `NO: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`}`);

  const appPids = () => [app.child.pid!];
  const basePids = () => [baseline.child.pid!];
  // the finance node alone (PRODUCTS=finance, as a customer runs it): at rest, then its peak under the load below
  limit('RSS of the finance node alone at rest', rssMb(appPids()), 180, 'MB');
  resetPeakRss(appPids());
  const json = { 'content-type': 'application/json' };
  await compare(
    {
      name: 'POST /api/login/ — REST → gateway → identity (argon2id + HS256)  vs  Express + pg (same work)',
      a: { label: 'A: finance node (in-process subgraphs)', url: `${app.ready.finance}/api/login/`, pids: appPids },
      b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}/api/login/`, pids: basePids },
      opts: { method: 'POST', headers: json, body: loginBody, connections: 4 },
      // ≈ 1: argon2id dominates both
      target: null,
      sameBody: false,
    },
    LOAD,
  );
  await compare(
    {
      name: 'GET /api/balance/ — REST → gateway (token check) → ledger  vs  Express + pg',
      a: { label: 'A: finance node (in-process subgraphs)', url: `${app.ready.finance}/api/balance/`, pids: appPids },
      b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}/api/balance/`, pids: basePids },
      opts: { headers: { authorization: `Bearer ${appToken}` } },
      target: 0.4,
    },
    LOAD,
  );
  limit('peak RSS of the finance node alone under the load above', peakRssMb(appPids()), 180, 'MB');
  stopChildren();
}

async function ledgerBenchmarks(databaseUrl: string) {
  // the ledger service itself, as the money-movement APIs will call it
  const store = await openStore(ledgerStore, { url: databaseUrl, poolSize: 20, logger: createLogger('silent'), migrate: true });
  try {
    const ledger = new Ledger(new LedgerStore(store));
    const wallets: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const owner = randomUUID();
      await ledger.fund(owner, 'EUR', 10_000_000n, randomUUID());
      wallets.push((await ledger.wallet(owner, 'EUR')).id);
    }
    const seconds = Number(args['ledger-seconds']);
    const concurrency = Number(args['ledger-concurrency']);
    for (const [label, set, callers] of [
      ['1,000 wallets (low contention)', wallets, concurrency],
      ['1,000 wallets (low contention)', wallets, Math.max(1, Math.round(concurrency / 4))],
      ['10 wallets (hot set)', wallets.slice(0, 10), concurrency],
    ] as const) {
      ledger.retries = 0;
      const r = await ledgerLoad(ledger, [...set], seconds, callers);
      console.log(
        `\nLedger transfers, ${label}: ${r.perSecond.toFixed(0)} transfers/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms ` +
          `(${callers} concurrent callers, pool 20, ${r.retries} retried, ${r.refused} refused for funds); goal ≥ 1,000/s, p99 < 50 ms`,
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
