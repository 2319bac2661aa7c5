/**
 * `npm run bench`: load benchmarks with their baselines measured in the same run, reported as ratios.
 *
 *  1. GET /api/                 REST adapter → gateway → subgraphs → PostgreSQL   vs  hand-written Express + pg
 *  2. GET /api/predictions/latest/   same path (two subgraphs, an entity fetch)    vs  Express + pg (one SQL join)
 *  3. The gateway with in-process subgraphs vs the same subgraphs over HTTP (docker-compose topology, as processes)
 *  4. Model fit and walk-forward backtest times (dist/bench/model-fit.js), unless --skip-model
 *
 * Every server runs in its own process; autocannon runs here. Rounds alternate A/B to spread the
 * machine's noise over both sides. Options: --duration <s> (10), --connections <n> (20), --rounds <n> (2).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { projectRoot } from '../lib/paths';
import { freePorts } from '../lib/server';

const { values: args } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' }, rounds: { type: 'string', default: '2' }, 'skip-model': { type: 'boolean' } },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const ADMIN_KEY = 'bench_admin_key_0123456789abcdefghijklmn';
const SECRET = 'bench-internal-secret-0123456789abcdefghij';
const root = projectRoot();
const children: ChildProcess[] = [];

function run(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; ready: Record<string, string> }> {
  const child = spawn(process.execPath, [join(root, script)], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve({ child, ready: JSON.parse(line.slice(6)) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}): ${err.slice(-2000)}`)));
  });
}

async function waitFor(url: string, timeoutMs = 60_000) {
  const start = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() - start > timeoutMs) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function peakRssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    kb += m ? Number(m[1]) : 0;
  }
  return Math.round(kb / 1024);
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, opts: { headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string }): Promise<Measure> {
  const base = { url, connections: CONNECTIONS, headers: opts.headers, method: opts.method ?? 'GET', body: opts.body };
  await autocannon({ ...base, duration: 3 }); // warm-up
  const r = await autocannon({ ...base, duration: DURATION });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

interface Scenario {
  name: string;
  a: { label: string; url: string; pids: () => number[] };
  b: { label: string; url: string; pids: () => number[] };
  opts: Parameters<typeof load>[1];
  target: string;
}

async function compare(s: Scenario) {
  const ra: Measure[] = [];
  const rb: Measure[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    ra.push(await load(s.a.url, s.opts));
    rb.push(await load(s.b.url, s.opts));
  }
  const mean = (xs: Measure[], k: keyof Measure) => xs.reduce((t, x) => t + x[k], 0) / xs.length;
  const row = (label: string, xs: Measure[], pids: number[]) =>
    `  ${label.padEnd(44)} ${mean(xs, 'rps').toFixed(0).padStart(7)} rps  p50 ${mean(xs, 'p50').toFixed(1).padStart(6)} ms  p99 ${mean(xs, 'p99').toFixed(1).padStart(6)} ms  peak RSS ${String(peakRssMb(pids)).padStart(4)} MB  errors ${mean(xs, 'errors')}  [rounds: ${xs.map((x) => x.rps.toFixed(0)).join(', ')}]`;
  console.log(`\n${s.name}`);
  console.log(row(s.a.label, ra, s.a.pids()));
  console.log(row(s.b.label, rb, s.b.pids()));
  const ratio = mean(ra, 'rps') / mean(rb, 'rps');
  console.log(`  ratio A/B = ${ratio.toFixed(2)} (per round: ${ra.map((x, i) => (x.rps / rb[i].rps).toFixed(2)).join(', ')}); target ${s.target}`);
}

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'matchday_bench';
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const databaseUrl = server.replace(/\/[^/]*$/, `/${dbName}`);
  console.log(`Benchmark: ${CONNECTIONS} connections, ${DURATION} s per measurement after a 3 s warm-up, ${ROUNDS} alternating rounds; Node ${process.version}`);

  // the real system, in one process (npm start's topology); the first model version is trained on a one-season window
  const started = Date.now();
  const app = await run('dist/bench/servers/app.js', { DATABASE_URL: databaseUrl, ADMIN_API_KEY: ADMIN_KEY, BACKTEST_SEASONS: '1', NODE_ENV: 'production' });
  console.log(`system up with data and model version 1 in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const created = await fetch(`${app.ready.gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    body: JSON.stringify({ query: 'mutation { createApiKey(input: { name: "bench", plan: enterprise, dailyLimit: 10000000 }) { key } }' }),
  }).then((r) => r.json() as Promise<{ data: { createApiKey: { key: string } } }>);
  const key = created.data.createApiKey.key;
  const auth = { authorization: `Bearer ${key}` };

  const baseline = await run('dist/bench/servers/baseline.js', { DATABASE_URL: databaseUrl, PORT: '0' });

  // both sides answer the same bytes (metering aside)
  for (const path of ['/api/', '/api/predictions/latest/']) {
    const [x, y] = await Promise.all([app.ready.predictions, baseline.ready.url].map((u) => fetch(`${u}${path}`, { headers: auth }).then((r) => r.json())));
    const differing = Object.keys({ ...(x as object), ...(y as object) }).filter((k) => !isDeepStrictEqual((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]));
    console.log(`same JSON from both for ${path}: ${isDeepStrictEqual(x, y) ? 'yes' : `NO, differing: ${differing.join(', ')}`}`);
  }

  const appPids = () => [app.child.pid!];
  const basePids = () => [baseline.child.pid!];
  await compare({
    name: '(a)/(b) GET /api/ — REST adapter → gateway → 2 subgraphs → PostgreSQL  vs  Express + pg',
    a: { label: 'A: REST → gateway → subgraphs (in-process)', url: `${app.ready.predictions}/api/`, pids: appPids },
    b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}/api/`, pids: basePids },
    opts: { headers: auth },
    target: '≥ 0.5',
  });
  await compare({
    name: 'GET /api/predictions/latest/ — full path (predictions + football entity fetch)  vs  Express + pg',
    a: { label: 'A: REST → gateway → subgraphs (in-process)', url: `${app.ready.predictions}/api/predictions/latest/`, pids: appPids },
    b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}/api/predictions/latest/`, pids: basePids },
    opts: { headers: auth },
    target: '≥ 0.5',
  });

  // (c) the same subgraphs over HTTP: one process per subgraph plus the gateway, as docker compose runs them
  const [football, access, predictionsPort, gatewayPort] = await freePorts(4);
  const ports = { football, access, predictions: predictionsPort, gateway: gatewayPort };
  const remoteEnv = {
    DATABASE_URL: databaseUrl,
    SUBGRAPH_MODE: 'remote',
    INTERNAL_SECRET: SECRET,
    NODE_ENV: 'production',
    SUBGRAPH_URL_FOOTBALL: `http://127.0.0.1:${ports.football}/graphql`,
    SUBGRAPH_URL_ACCESS: `http://127.0.0.1:${ports.access}/graphql`,
    SUBGRAPH_URL_PREDICTIONS: `http://127.0.0.1:${ports.predictions}/graphql`,
    GATEWAY_URL: `http://127.0.0.1:${ports.gateway}/graphql`,
    GATEWAY_PORT: String(ports.gateway),
  };
  const remote: ChildProcess[] = [];
  for (const name of ['football', 'access', 'predictions'] as const) {
    const child = spawn(process.execPath, [join(root, `dist/subgraphs/${name}/index.js`)], { env: { ...process.env, LOG_LEVEL: 'warn', ...remoteEnv, SUBGRAPH_PORT: String(ports[name]) }, stdio: 'ignore' });
    children.push(child);
    remote.push(child);
    await waitFor(`http://127.0.0.1:${ports[name]}/healthz`);
  }
  const gw = spawn(process.execPath, [join(root, 'dist/gateway/main.js')], { env: { ...process.env, LOG_LEVEL: 'warn', ...remoteEnv }, stdio: 'ignore' });
  children.push(gw);
  remote.push(gw);
  await waitFor(`http://127.0.0.1:${ports.gateway}/healthz`);
  const query = JSON.stringify({ query: '{ upcomingPredictions(first: 20) { matchId match { homeTeam { name } awayTeam { name } } outcomeLabel expectedGoalDifference confidence } }' });
  await compare({
    name: '(c) Gateway, cross-subgraph query: subgraphs in-process  vs  subgraphs over HTTP (4 processes)',
    a: { label: 'A: gateway + in-process subgraphs', url: `${app.ready.gateway}/graphql`, pids: appPids },
    b: { label: 'B: gateway + HTTP subgraphs', url: `http://127.0.0.1:${ports.gateway}/graphql`, pids: () => remote.map((c) => c.pid!) },
    opts: { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: query },
    target: '≥ 3',
  });

  for (const c of children) c.kill('SIGTERM');
  if (!args['skip-model']) {
    console.log('\nModel fit and backtest times (dist/bench/model-fit.js):');
    await new Promise<void>((resolve) => spawn(process.execPath, [join(root, 'dist/bench/model-fit.js')], { stdio: 'inherit' }).on('exit', () => resolve()));
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  });
