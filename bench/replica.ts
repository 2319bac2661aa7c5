/**
 * `npm run bench:replica`: what one replica of each process serves, and what it costs PostgreSQL, in
 * the Kubernetes topology (every subgraph, the gateway and the REST adapter in their own process,
 * talking HTTP, as the Deployments run them), against the hand-written Express + pg baseline in the
 * same run. While the replica set is under load it records each process's CPU (cores used, CPU time
 * per request), PostgreSQL's (its backends for this database), the connections each process holds,
 * and which statements PostgreSQL is running (sampled from pg_stat_activity): docs/scaling.md.
 *
 * Options: --duration <s> (10), --connections <n> (20), --rounds <n> (2).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { projectRoot } from '../lib/paths';
import { freePorts } from '../lib/server';
import { loadSubgraphs, PRODUCT_NAMES, subgraphFolder } from '../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);
import { children, load, peakRssMb, runServer, stopChildren, waitFor, type LoadOptions, type Measure } from './harness';

const { values: args } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' }, rounds: { type: 'string', default: '2' } },
});
const options: LoadOptions = { duration: Number(args.duration), connections: Number(args.connections), rounds: Number(args.rounds) };
const ADMIN_KEY = 'bench_admin_key_0123456789abcdefghijklmn';
const SECRET = 'bench-internal-secret-0123456789abcdefghij';
const DB = 'matchday_bench_replica';
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

interface Sampled {
  measure: Measure;
  seconds: number;
  cpu: Record<string, number>;
  connections: Record<string, number>;
  statements: Map<string, number>;
  samples: number;
}

/** One measurement of `url` while sampling CPU, connections and the statements PostgreSQL runs. */
async function sampled(url: string, headers: Record<string, string>, pids: Record<string, number>, db: pg.Client): Promise<Sampled> {
  const backends = async () =>
    (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [DB])).rows.map((r) => r.pid);
  const before: Record<string, number> = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)!]));
  const pgBefore = new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)]));
  const connections: Record<string, number> = {};
  const statements = new Map<string, number>();
  let samples = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const { rows } = await db.query<{ application_name: string; state: string | null; query: string; n: number }>(
        `SELECT application_name, state, query, count(*)::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() GROUP BY 1, 2, 3`,
        [DB],
      );
      const held: Record<string, number> = {};
      for (const r of rows) {
        // the processes of the replica set name their connections matchday:<what>
        if (r.application_name.startsWith('matchday:')) held[r.application_name] = (held[r.application_name] ?? 0) + r.n;
        if (r.state === 'active') {
          const statement = r.query.replace(/\s+/g, ' ').trim().slice(0, 110);
          statements.set(statement, (statements.get(statement) ?? 0) + r.n);
        }
      }
      for (const [name, n] of Object.entries(held)) connections[name] = Math.max(connections[name] ?? 0, n);
      samples++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = process.hrtime.bigint();
  const measure = await load(url, { ...options, headers });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  running = false;
  await sampler;
  const cpu: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) cpu[name] = cpuSeconds(pid)! - before[name];
  cpu.postgresql = 0;
  for (const [pid, at] of pgBefore) {
    const now = cpuSeconds(pid);
    if (now !== undefined && at !== undefined) cpu.postgresql += now - at;
  }
  return { measure, seconds, cpu, connections, statements, samples };
}

function report(path: string, a: Sampled[], b: Measure[]) {
  const mean = (xs: number[]) => xs.reduce((t, x) => t + x, 0) / xs.length;
  const rps = mean(a.map((x) => x.measure.rps));
  const base = mean(b.map((x) => x.rps));
  console.log(`\nGET ${path}`);
  console.log(
    `  A: one replica of each process (HTTP between them)   ${rps.toFixed(0).padStart(6)} rps  p50 ${mean(a.map((x) => x.measure.p50)).toFixed(1)} ms  p99 ${mean(a.map((x) => x.measure.p99)).toFixed(1)} ms  errors ${mean(a.map((x) => x.measure.errors))}  [rounds: ${a.map((x) => x.measure.rps.toFixed(0)).join(', ')}]`,
  );
  console.log(
    `  B: hand-written Express + pg (baseline, same run)    ${base.toFixed(0).padStart(6)} rps  p50 ${mean(b.map((x) => x.p50)).toFixed(1)} ms  p99 ${mean(b.map((x) => x.p99)).toFixed(1)} ms  [rounds: ${b.map((x) => x.rps.toFixed(0)).join(', ')}]`,
  );
  console.log(`  ratio A/B = ${(rps / base).toFixed(2)}`);
  // the warm-up (3 s) is not in autocannon's average but is in the CPU: count its requests at the same rate
  const requests = (s: Sampled) => s.measure.rps * s.seconds;
  console.log('  CPU while A is loaded (cores = CPU seconds / wall seconds; ms of CPU per request):');
  for (const name of Object.keys(a[0].cpu)) {
    const cores = mean(a.map((s) => s.cpu[name] / s.seconds));
    const perRequest = mean(a.map((s) => (s.cpu[name] / requests(s)) * 1000));
    console.log(`    ${name.padEnd(14)} ${cores.toFixed(2)} cores  ${perRequest.toFixed(3)} ms/request`);
  }
  const held: Record<string, number> = {};
  for (const s of a) for (const [n, c] of Object.entries(s.connections)) held[n] = Math.max(held[n] ?? 0, c);
  console.log(
    `  PostgreSQL connections held (peak, by application_name): ${Object.entries(held)
      .sort()
      .map(([n, c]) => `${n} ${c}`)
      .join(', ')}; total ${Object.values(held).reduce((t, c) => t + c, 0)}`,
  );
  const counts = new Map<string, number>();
  for (const s of a) for (const [q, n] of s.statements) counts.set(q, (counts.get(q) ?? 0) + n);
  const total = [...counts.values()].reduce((t, n) => t + n, 0);
  const samples = a.reduce((t, s) => t + s.samples, 0);
  console.log(`  Statements PostgreSQL was running (${samples} samples, ${(total / samples).toFixed(2)} active backends on average):`);
  for (const [q, n] of [...counts].sort((x, y) => y[1] - x[1]).slice(0, 5)) console.log(`    ${((n / total) * 100).toFixed(0).padStart(3)} %  ${q}`);
}

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  const databaseUrl = server.replace(/\/[^/]*$/, `/${DB}`);
  console.log(
    `Per-replica benchmark: ${options.connections} connections, ${options.duration} s per measurement after a 3 s warm-up, ${options.rounds} alternating rounds; Node ${process.version}`,
  );

  // the data and model version 1, made once by the whole system in one process, which then stops
  const setup = await runServer('dist/bench/servers/app.js', {
    DATABASE_URL: databaseUrl,
    ADMIN_API_KEY: ADMIN_KEY,
    BACKTEST_SEASONS: '1',
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
  });
  const created = await fetch(`${setup.ready.gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    body: JSON.stringify({ query: 'mutation { createApiKey(input: { name: "bench", plan: enterprise, dailyLimit: 10000000 }) { key } }' }),
  }).then((r) => r.json() as Promise<{ data: { createApiKey: { key: string } } }>);
  const auth = { authorization: `Bearer ${created.data.createApiKey.key}` };
  setup.child.kill('SIGTERM');
  await new Promise((r) => setup.child.once('exit', r));

  // the Kubernetes topology: one process per Deployment, settings as the manifests give them (DB_POOL_SIZE at its default)
  const names = SUBGRAPHS.map((s) => s.name);
  const ports = await freePorts(names.length + 2);
  const port = Object.fromEntries([...names, 'gateway', 'rest-adapter'].map((n, i) => [n, ports[i]]));
  const env = {
    ...process.env,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SUBGRAPH_MODE: 'remote',
    INTERNAL_SECRET: SECRET,
    GATEWAY_URL: `http://127.0.0.1:${port.gateway}/graphql`,
    GATEWAY_PORT: String(port.gateway),
    PREDICTIONS_PORT: String(port['rest-adapter']),
    REGISTRY_PORT: '0',
    PORT: '0',
    ...Object.fromEntries(names.map((n) => [`SUBGRAPH_URL_${n.toUpperCase()}`, `http://127.0.0.1:${port[n]}/graphql`])),
  };
  const pids: Record<string, number> = {};
  const start = async (name: string, entry: string, extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [join(projectRoot(), entry)], { env: { ...env, ...extra }, stdio: 'ignore' });
    children.push(child);
    pids[name] = child.pid!;
    await waitFor(`http://127.0.0.1:${port[name]}/healthz`, 120_000);
  };
  for (const n of names) await start(n, `dist/${subgraphFolder(n)}/index.js`, { SUBGRAPH_PORT: String(port[n]) });
  await start('gateway', 'dist/gateway/main.js');
  await start('rest-adapter', 'dist/rest-adapter/main.js');
  const baseline = await runServer('dist/bench/servers/baseline.js', { DATABASE_URL: databaseUrl, PORT: '0' });

  const db = new pg.Client({ connectionString: databaseUrl, application_name: 'bench:sampler' });
  await db.connect();
  for (const path of ['/api/', '/api/predictions/latest/']) {
    const a: Sampled[] = [];
    const b: Measure[] = [];
    for (let i = 0; i < options.rounds; i++) {
      a.push(await sampled(`http://127.0.0.1:${port['rest-adapter']}${path}`, auth, pids, db));
      b.push(await load(`${baseline.ready.url}${path}`, { ...options, headers: auth }));
    }
    report(path, a, b);
  }
  console.log(
    `\n  peak RSS per process (MB): ${Object.entries(pids)
      .map(([n, pid]) => `${n} ${peakRssMb([pid])}`)
      .join(', ')}; baseline ${peakRssMb([baseline.child.pid!])}`,
  );
  await db.end();
  stopChildren();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(stopChildren);
