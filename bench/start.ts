/**
 * `npm start` times (what the removed "under 15 s" and "second start faster" test assertions
 * claimed), with a baseline measured in the same run: a bare `node` process that loads the same
 * compiled modules (dist/bin/app.js) and exits, the part of any start that is not ours to speed up.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/start.js [--runs 2]
 *
 * Each run: a first start on an empty DATA_DIR (embedded PostgreSQL initialised, football data
 * loaded, first training started in the background) and a second start on the same folder (data
 * reused). Figures: wall time from spawning the process to its "Ctrl-C stops everything" line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../lib/paths';
import { freePorts } from '../lib/server';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
const RUNS = Number(args.runs);
const root = projectRoot();

/** Seconds from spawn to the ready line; the process is then stopped with SIGTERM and awaited. */
async function timedStart(env: NodeJS.ProcessEnv): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(root, 'dist/bin/start.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const seconds = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ctrl-C stops everything')) resolve(Number(process.hrtime.bigint() - started) / 1e9);
    });
    child.stderr.on('data', (d) => (out += d));
    void exited.then(() => reject(new Error(`start exited before it was ready:\n${out.slice(-2000)}`)));
  });
  child.kill('SIGTERM');
  await exited;
  return seconds;
}

function baseline(): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', "require('reflect-metadata'); require('./dist/bin/app.js')"], { cwd: root, stdio: 'ignore' });
  if (r.status !== 0) throw new Error('baseline process failed');
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main() {
  const rows: { first: number; second: number; base: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'matchday-bench-start-'));
    // the embedded server runs as the postgres user when we are root: its directory must be reachable
    chmodSync(dataDir, 0o755);
    try {
      const [gateway, predictions, registry, finance, pg] = await freePorts(5);
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        BACKTEST_SEASONS: '1',
        GATEWAY_PORT: String(gateway),
        PREDICTIONS_PORT: String(predictions),
        REGISTRY_PORT: String(registry),
        PORT: String(finance),
        EMBEDDED_PG_PORT: String(pg),
        APPLICATION_SMTP_PORT: '0',
      };
      const base = baseline();
      const first = await timedStart(env);
      const second = await timedStart(env);
      rows.push({ first, second, base });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const mean = (k: keyof (typeof rows)[number]) => rows.reduce((t, r) => t + r[k], 0) / rows.length;
  console.log(`npm start (dist/bin/start.js, embedded PostgreSQL), ${RUNS} run(s):`);
  console.log(`  baseline: node loading dist/bin/app.js   ${mean('base').toFixed(2).padStart(6)} s   [${rows.map((r) => r.base.toFixed(2)).join(', ')}]`);
  console.log(`  first start (empty DATA_DIR)             ${mean('first').toFixed(2).padStart(6)} s   [${rows.map((r) => r.first.toFixed(2)).join(', ')}]`);
  console.log(`  second start (data reused)               ${mean('second').toFixed(2).padStart(6)} s   [${rows.map((r) => r.second.toFixed(2)).join(', ')}]`);
  console.log(`  ratios to the baseline: first ${(mean('first') / mean('base')).toFixed(1)}×, second ${(mean('second') / mean('base')).toFixed(1)}×`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
