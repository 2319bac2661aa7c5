/**
 * `npm run bench`: load benchmarks with their baselines measured in the same run, reported as ratios.
 *
 *  1. GET /api/                 REST adapter → gateway → subgraphs → PostgreSQL   vs  hand-written Express + pg
 *  2. GET /api/predictions/latest/   the same path, uncached and with the response cache  vs  Express + pg (one SQL join)
 *  3. GET /api/v1/releases/check-update   registry surface → gateway → licensing subgraph  vs  hand-written Express + pg
 *  4. Artifact download (64 MB) through the registry's presigned link (streamed from disk)  vs  a plain static file server
 *  5. The gateway with in-process subgraphs vs the same subgraphs over HTTP (docker-compose topology, as processes)
 *  6. The team resolver per query vs a plain Levenshtein scan (dist/bench/team-resolver.js)
 *  7. `npm start`: first and second start vs a bare node process loading the same modules (dist/bench/start.js)
 *  6. Model fit and walk-forward backtest times (dist/bench/model-fit.js), unless --skip-model
 *
 * Every server runs in its own process, each on a free port (the application mailbox's too); autocannon
 * runs here. Rounds alternate A/B to spread the machine's noise over both sides; the ratio is the median
 * of the rounds' ratios. Each comparison first checks that both sides answer the same body (no ratio
 * otherwise), and prints its target, with "BELOW TARGET" when it is not reached; so do the footprint
 * limits (peak RSS). Options: --duration <s> (10), --connections <n> (20), --rounds <n> (3, at least 3),
 * --check (exit code 1 when a row is below its target or refused), --levers (the latest-predictions path
 * before and after each model lever), --skip-model.
 */
import { subgraphFolder } from '../subgraphs/products';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { projectRoot } from '../lib/paths';
import { freePorts } from '../lib/server';
import { GATEWAY_SERVICE, keyVariable, serviceKeyEnv } from '../lib/service-keys';
import {
  children,
  compare as compareRounds,
  limit,
  peakRssMb,
  report,
  resetPeakRss,
  rssMb,
  runServer as run,
  shippedRuntimeEnv,
  stopChildren,
  transfer,
  waitFor,
  type Scenario,
} from './harness';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    'skip-model': { type: 'boolean' },
    /** Exit non-zero when a row is below its target (or its bodies differ). */
    check: { type: 'boolean' },
    /** Also measure the latest-predictions path before each model lever (each variant its own process). */
    levers: { type: 'boolean' },
    /** Only the rows whose name matches this regular expression (a short profile of some paths; no RSS limits, no scripts after). */
    only: { type: 'string' },
    /** Write a CPU profile of the uncached system's process into this directory (node --cpu-prof, at its exit). */
    'cpu-prof': { type: 'string' },
  },
});
const ONLY = args.only === undefined ? undefined : new RegExp(args.only, 'i');
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Math.max(3, Number(args.rounds));
const ADMIN_KEY = 'bench_admin_3e8b1d6f0a9c4e27b5d1f8a3c6e0b947';
const root = projectRoot();
const LOAD = { duration: DURATION, connections: CONNECTIONS, rounds: ROUNDS };
const wanted = (name: string) => !ONLY || ONLY.test(name);
const compare = async (s: Scenario) => {
  if (wanted(s.name)) await compareRounds(s, LOAD);
};
const TOPOLOGY = '(c) Gateway, cross-subgraph query: subgraphs in-process  vs  subgraphs over HTTP (4 processes)';

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `matchday_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const databaseUrl = server.replace(/\/[^/]*$/, `/${dbName}`);
  console.log(
    `Benchmark: ${CONNECTIONS} connections, ${DURATION} s per measurement after a 3 s warm-up, ${ROUNDS} alternating rounds; Node ${process.version}`,
  );

  // the real system, in one process (npm start's topology); the first model version is trained on a one-season window
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'matchday-bench-'));
  const rateLimit = '1000000000';
  const appEnv = {
    DATABASE_URL: databaseUrl,
    ADMIN_API_KEY: ADMIN_KEY,
    BACKTEST_SEASONS: '1',
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    DATA_DIR: dataDir,
    // every instance on this database seals and opens the same secrets
    MASTER_KEY: randomBytes(32).toString('base64'),
    REGISTRY_RATE_LIMIT: rateLimit,
    // every server it starts takes a free port, the application mailbox included
    APPLICATION_SMTP_PORT: '0',
    // the runtime settings of the release images (Dockerfile: malloc arenas, V8's young generation): the footprint is measured as shipped
    ...shippedRuntimeEnv(),
    // the request paths are measured, not the live feed: no pass fetches from the network or changes the data mid-run
    // (both sides read this setting: /api/ says whether a feed is configured)
    FOOTBALL_FEED_URLS: 'off',
  };
  // the uncached figures come from an instance without the response cache; the cached ones from a second instance, as `npm start` runs
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  const app = await run('dist/bench/servers/app.js', { ...appEnv, RESPONSE_CACHE: 'off' }, profile);
  console.log(`system up with data and model version 1 in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const cachedApp = await run('dist/bench/servers/app.js', appEnv);
  const created = await fetch(`${app.ready.gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    body: JSON.stringify({ query: 'mutation { createApiKey(input: { name: "bench", plan: enterprise, dailyLimit: 10000000 }) { key } }' }),
  }).then((r) => r.json() as Promise<{ data: { createApiKey: { key: string } } }>);
  const key = created.data.createApiKey.key;
  const auth = { authorization: `Bearer ${key}` };

  // the baseline answers /api/ with the same body: its constant parts (this surface's route table, the
  // mailbox's configured address) are configuration, read once at its start, as any server reads its own
  const baseline = await run('dist/bench/servers/baseline.js', {
    DATABASE_URL: databaseUrl,
    PORT: '0',
    FOOTBALL_FEED_URLS: appEnv.FOOTBALL_FEED_URLS,
    APPLY: JSON.stringify(((await fetch(`${app.ready.predictions}/api/`, { headers: auth }).then((r) => r.json())) as { apply: unknown }).apply),
  });

  const appPids = () => [app.child.pid!];
  // the footprint at rest (started, data loaded, model trained, a request served) and, from here, the peak under load
  await new Promise((r) => setTimeout(r, 2000));
  if (!ONLY) limit('RSS of the whole stack (one process, three products) at rest', rssMb(appPids()), 300, 'MB');
  resetPeakRss([app.child.pid!, cachedApp.child.pid!]);
  const basePids = () => [baseline.child.pid!];
  await compare({
    name: '(a)/(b) GET /api/ — REST adapter → gateway → 2 subgraphs → PostgreSQL  vs  Express + pg',
    a: { label: 'A: REST → gateway → subgraphs (in-process)', url: `${app.ready.predictions}/api/`, pids: appPids },
    b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}/api/`, pids: basePids },
    opts: { headers: auth },
    target: 1.0,
  });
  const latest = '/api/predictions/latest/';
  await compare({
    name: '(b) GET /api/predictions/latest/, uncached — REST → gateway → predictions subgraph (team names provided) → PostgreSQL  vs  Express + pg',
    a: { label: 'A: REST → gateway → subgraph (in-process)', url: `${app.ready.predictions}${latest}`, pids: appPids },
    b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}${latest}`, pids: basePids },
    opts: { headers: auth },
    target: 0.85,
  });
  await compare({
    name: '(b′) GET /api/predictions/latest/, response cache on (key check and metering per request)  vs  Express + pg',
    a: { label: 'A: REST → gateway → response cache', url: `${cachedApp.ready.predictions}${latest}`, pids: () => [cachedApp.child.pid!] },
    b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}${latest}`, pids: basePids },
    opts: { headers: auth },
    target: 1.5,
  });
  cachedApp.child.kill('SIGTERM');
  if (args.levers) await leverSweep(appEnv, baseline, auth);

  // the licence registry: update checks through the surface vs Express + pg; downloads through the presigned link vs a static server
  const registryBaseline = await run('dist/bench/servers/registry-baseline.js', { DATABASE_URL: databaseUrl, PORT: '0', REGISTRY_RATE_LIMIT: rateLimit });
  const licence = { 'x-license-key': app.ready.licenceKey };
  const checkUpdate = '/api/v1/releases/check-update?product=finance-node&channel=stable&current_version=1.0.0';
  // the links name each server's public address
  const ownAddress = (text: string, side: 'a' | 'b') => text.replaceAll(side === 'a' ? appEnv.PUBLIC_URL_REGISTRY : registryBaseline.ready.url, '<base>');
  await compare({
    name: '(d) GET /api/v1/releases/check-update — registry surface → gateway → licensing subgraph → PostgreSQL  vs  Express + pg',
    a: { label: 'A: REST → gateway → licensing (in-process)', url: `${app.ready.registry}${checkUpdate}`, pids: appPids },
    b: { label: 'B: hand-written Express + pg', url: `${registryBaseline.ready.url}${checkUpdate}`, pids: () => [registryBaseline.child.pid!] },
    opts: { headers: licence },
    sameBody: ownAddress,
    target: 0.85,
  });
  const files = await run('dist/bench/servers/static.js', { ROOT: app.ready.objectsRoot, PORT: '0' });
  await compare({
    name: '(e) Artifact download, 64 MB, 4 connections — presigned link on the registry port (HMAC check, streamed from disk)  vs  express.static',
    a: { label: 'A: registry presigned link', url: app.ready.objectUrl, pids: appPids },
    b: { label: 'B: plain static file server', url: `${files.ready.url}${app.ready.objectPath}`, pids: () => [files.child.pid!] },
    opts: {},
    measure: (url) => transfer(url, { duration: DURATION, connections: 4 }),
    metric: 'mbps',
    target: 1.0,
  });

  if (wanted(TOPOLOGY)) await topology(databaseUrl, app, auth);
  // the footprint: the whole stack (one process, every product), its peak under the load of every comparison above
  if (!ONLY) limit('peak RSS of the whole stack (one process, three products) under the load above', peakRssMb(appPids()), 300, 'MB');

  for (const c of children) c.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  const cleanup = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await cleanup.connect();
  await cleanup.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await cleanup.end();
  if (ONLY) return;
  const script = (file: string) =>
    new Promise<void>((resolve) => spawn(process.execPath, [join(root, file)], { stdio: 'inherit' }).on('exit', () => resolve()));
  console.log('');
  await script('dist/bench/team-resolver.js');
  console.log('');
  await script('dist/bench/start.js');
  if (!args['skip-model']) {
    console.log('\nModel fit and backtest times (dist/bench/model-fit.js):');
    await script('dist/bench/model-fit.js');
  }
}

/** (c) the same subgraphs over HTTP: one process per subgraph plus the gateway, as docker compose runs them. */
async function topology(databaseUrl: string, app: { child: ChildProcess; ready: Record<string, string> }, auth: Record<string, string>) {
  const appPids = () => [app.child.pid!];
  const [football, access, predictionsPort, gatewayPort, internalPort] = await freePorts(5);
  const ports = { football, access, predictions: predictionsPort, gateway: gatewayPort };
  const subgraphNames = ['football', 'access', 'predictions'] as const;
  // each process its own key pair, as `npm run service-keys` makes them for docker compose
  const keys = serviceKeyEnv(subgraphNames);
  const remoteEnv = {
    DATABASE_URL: databaseUrl,
    // the subgraphs' transport is compared: every request executes on both sides
    RESPONSE_CACHE: 'off',
    SUBGRAPH_MODE: 'remote',
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    FOOTBALL_FEED_URLS: 'off',
    // as the images run each process
    ...shippedRuntimeEnv(),
    APPLICATION_SMTP_PORT: '0',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    GATEWAY_PUBLIC_KEY: keys[keyVariable(GATEWAY_SERVICE, 'public')],
    SUBGRAPH_URL_FOOTBALL: `http://127.0.0.1:${ports.football}/graphql`,
    SUBGRAPH_URL_ACCESS: `http://127.0.0.1:${ports.access}/graphql`,
    SUBGRAPH_URL_PREDICTIONS: `http://127.0.0.1:${ports.predictions}/graphql`,
    ...Object.fromEntries(subgraphNames.map((name) => [`SERVICE_PUBLIC_KEY_${name.toUpperCase()}`, keys[keyVariable(name, 'public')]])),
    GATEWAY_URL: `http://127.0.0.1:${internalPort}/graphql`,
    GATEWAY_PORT: String(ports.gateway),
    GATEWAY_INTERNAL_PORT: String(internalPort),
  };
  const remote: ChildProcess[] = [];
  for (const name of subgraphNames) {
    const child = spawn(process.execPath, [join(root, `dist/${subgraphFolder(name)}/index.js`)], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...remoteEnv, SERVICE_PRIVATE_KEY: keys[keyVariable(name, 'private')], SUBGRAPH_PORT: String(ports[name]) },
      stdio: 'ignore',
    });
    children.push(child);
    remote.push(child);
    await waitFor(`http://127.0.0.1:${ports[name]}/healthz`);
  }
  const gw = spawn(process.execPath, [join(root, 'dist/gateway/main.js')], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...remoteEnv, SERVICE_PRIVATE_KEY: keys[keyVariable(GATEWAY_SERVICE, 'private')] },
    stdio: 'ignore',
  });
  children.push(gw);
  remote.push(gw);
  await waitFor(`http://127.0.0.1:${ports.gateway}/healthz`);
  const query = JSON.stringify({
    query: '{ upcomingPredictions(first: 20) { matchId match { homeTeam { name } awayTeam { name } } outcomeLabel expectedGoalDifference confidence } }',
  });
  await compare({
    name: TOPOLOGY,
    a: { label: 'A: gateway + in-process subgraphs', url: `${app.ready.gateway}/graphql`, pids: appPids },
    b: { label: 'B: gateway + HTTP subgraphs', url: `http://127.0.0.1:${ports.gateway}/graphql`, pids: () => remote.map((c) => c.pid!) },
    opts: { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: query },
    target: 3,
  });
}

/**
 * The latest-predictions path before and after each model lever, each in its own instance on the
 * same database, against the same baseline in the same run: levers added one at a time.
 */
async function leverSweep(appEnv: Record<string, string>, baseline: { child: ChildProcess; ready: Record<string, string> }, auth: Record<string, string>) {
  const variants: [string, Record<string, string>][] = [
    [
      'before the levers (plans executed by @apollo/gateway, a metering statement per request)',
      { GATEWAY_DIRECT_FETCH: 'off', METER_BATCH_MAX: '1', RESPONSE_CACHE: 'off' },
    ],
    ['+ single fetches sent as planned (no result shaping)', { METER_BATCH_MAX: '1', RESPONSE_CACHE: 'off' }],
    ['+ metering batched per key', { RESPONSE_CACHE: 'off' }],
    ['+ response cache', {}],
  ];
  for (const [label, env] of variants) {
    const variant = await run('dist/bench/servers/app.js', { ...appEnv, ...env });
    await compare({
      name: `(levers) GET /api/predictions/latest/, ${label}  vs  Express + pg`,
      a: { label: 'A: the system', url: `${variant.ready.predictions}/api/predictions/latest/`, pids: () => [variant.child.pid!] },
      b: { label: 'B: hand-written Express + pg', url: `${baseline.ready.url}/api/predictions/latest/`, pids: () => [baseline.child.pid!] },
      opts: { headers: auth },
      target: null,
    });
    variant.child.kill('SIGTERM');
    await new Promise((r) => variant.child.once('exit', r));
  }
}

main()
  .then(() => report(args.check ?? false))
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(stopChildren);
