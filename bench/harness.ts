import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { projectRoot } from '../lib/paths';

/** What the benchmarks share: servers as child processes, autocannon measurements, A/B rounds and their report. */
export interface LoadOptions {
  duration: number;
  connections: number;
  rounds: number;
}

export const children: ChildProcess[] = [];

/** The runtime settings of the release images that bear on speed and footprint (malloc arenas, V8's heap). */
const SHIPPED_SETTINGS = ['MALLOC_ARENA_MAX', 'NODE_OPTIONS'];

/**
 * Those settings as an image of the Dockerfile sets them (`runtime`: every service of the app image and
 * the whole stack; `finance-backend`: the finance node alone), read from its stage and the stages it is
 * built FROM: the benchmarks run the product as shipped.
 */
export function shippedRuntimeEnv(stage: 'runtime' | 'finance-backend' = 'runtime'): Record<string, string> {
  const dockerfile = readFileSync(join(projectRoot(), 'Dockerfile'), 'utf8');
  const stages = new Map<string, { from: string; body: string }>();
  for (const part of dockerfile.split(/^(?=FROM )/m).slice(1)) {
    const [, from, name] = /^FROM (\S+) AS (\S+)/.exec(part) ?? [];
    if (name) stages.set(name, { from, body: part });
  }
  const chain: string[] = [];
  for (let at: string | undefined = stage; at && stages.has(at); at = stages.get(at)!.from) chain.unshift(stages.get(at)!.body);
  const env: Record<string, string> = {};
  for (const body of chain)
    for (const [, name, value] of body.matchAll(/^ENV ([A-Z_]+)=("[^"]*"|\S+)$/gm))
      if (SHIPPED_SETTINGS.includes(name)) env[name] = value.replace(/^"|"$/g, '');
  for (const name of SHIPPED_SETTINGS) if (!(name in env)) throw new Error(`Dockerfile: the ${stage} image sets no ${name}`);
  return env;
}

/** Starts `node <script>` and resolves with the JSON after its `READY ` line. */
export function runServer(
  script: string,
  env: Record<string, string>,
  /** Node's own flags (`--cpu-prof`, which NODE_OPTIONS may not carry). */
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; ready: Record<string, string> }> {
  const child = spawn(process.execPath, [...nodeArgs, join(projectRoot(), script)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve({ child, ready: JSON.parse(line.slice(6)) as Record<string, string> });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}): ${err.slice(-2000)}`)));
  });
}

export async function waitFor(url: string, timeoutMs = 60_000) {
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

/** Resident memory now, in MB (VmRSS), summed over the processes. */
export function rssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/**
 * Starts the peak (VmHWM) afresh at the current RSS (Linux: `5` to /proc/<pid>/clear_refs), so that the
 * peak read later is the one under the load since, not the start's (the data import, the first training).
 */
export function resetPeakRss(pids: number[]): void {
  for (const pid of pids) writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export function peakRssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    kb += m ? Number(m[1]) : 0;
  }
  return Math.round(kb / 1024);
}

/**
 * CPU time (user + system) the processes have used so far, in ms, from /proc/<pid>/stat (Linux; clock
 * ticks of 1/CLK_TCK s, 100 on every Linux this runs on). A side's CPU per request does not depend on
 * what else the machine runs the way its requests per second do: on a loaded machine it is the figure to
 * compare.
 */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

export interface Measure {
  rps: number;
  /** Response bytes per second, in MB (10^6). */
  mbps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU time per request, in ms (when its processes were given). */
  cpuPerRequest?: number;
}

export async function load(
  url: string,
  opts: LoadOptions & { headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string },
  pids?: () => number[],
): Promise<Measure> {
  const base = { url, connections: opts.connections, headers: opts.headers, method: opts.method ?? 'GET', body: opts.body };
  await autocannon({ ...base, duration: 3 }); // warm-up
  const cpuBefore = pids ? cpuMs(pids()) : 0;
  const r = await autocannon({ ...base, duration: opts.duration });
  const cpuPerRequest = pids && r.requests.total > 0 ? (cpuMs(pids()) - cpuBefore) / r.requests.total : undefined;
  return { rps: r.requests.average, mbps: r.throughput.average / 1e6, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, cpuPerRequest };
}

/**
 * Large downloads: `connections` clients each fetching `url` back to back for `duration` seconds (after a
 * 3 s warm-up), bodies read and dropped. autocannon parses every body itself and tops out near 40 MB/s,
 * far below what either server does, so downloads are measured with Node's own HTTP client.
 */
export async function transfer(url: string, o: { duration: number; connections: number }): Promise<Measure> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const fetchOne = () =>
    new Promise<{ bytes: number; ms: number; ok: boolean }>((resolve) => {
      const started = process.hrtime.bigint();
      let bytes = 0;
      const done = (ok: boolean) => resolve({ bytes, ms: Number(process.hrtime.bigint() - started) / 1e6, ok });
      http
        .get(url, { agent }, (res) => {
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => done(res.statusCode === 200));
          res.on('error', () => done(false));
        })
        .on('error', () => done(false));
    });
  const during = async (seconds: number) => {
    const until = Date.now() + seconds * 1000;
    const results: { bytes: number; ms: number; ok: boolean }[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: o.connections }, async () => {
        while (Date.now() < until) results.push(await fetchOne());
      }),
    );
    return { results, seconds: (Date.now() - started) / 1000 };
  };
  await during(3);
  const { results, seconds } = await during(o.duration);
  agent.destroy();
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
  return {
    rps: results.length / seconds,
    mbps: results.reduce((t, r) => t + r.bytes, 0) / 1e6 / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors: results.filter((r) => !r.ok).length,
  };
}

export interface Scenario {
  name: string;
  a: { label: string; url: string; pids: () => number[] };
  b: { label: string; url: string; pids: () => number[] };
  opts: { headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string; connections?: number };
  /** The least ratio A/B that is acceptable; null: none (a figure to read, not a line to hold). */
  target: number | null;
  /** What the ratio compares: requests per second (default) or MB per second. */
  metric?: 'rps' | 'mbps';
  /** How one side is measured (default: autocannon with `opts`). */
  measure?: (url: string, pids: () => number[]) => Promise<Measure>;
  /**
   * Both sides must answer the same body for the ratio to mean anything: each side's body (as text) is
   * passed through this (e.g. each server's own address replaced) before they are compared. Default: as
   * they are (JSON compared as values). `false`: not comparable (each answer of a write is its own), said so.
   */
  sameBody?: ((text: string, side: 'a' | 'b') => string) | false;
}

export interface Outcome {
  name: string;
  ratio: number | null;
  target: number | null;
  /** Why no ratio was reported, or why it does not hold. */
  verdict: 'ok' | 'BELOW TARGET' | 'REFUSED: the bodies differ' | 'no target';
}

/** Every comparison of this process, in order, for the closing table and `--check`. */
export const outcomes: Outcome[] = [];

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One side's body: JSON as a canonical value, anything else as its SHA-256 (a 64 MB download included). */
async function bodyOf(url: string, opts: Scenario['opts']): Promise<string> {
  const res = await fetch(url, { method: opts.method ?? 'GET', headers: opts.headers, body: opts.body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const text = type.includes('json') ? bytes.toString('utf8') : createHash('sha256').update(bytes).digest('hex');
  return `${res.status} ${text}`;
}

/** JSON with its keys sorted: two bodies are the same when their values are, whatever the order of their keys. */
const sortKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortKeys)
    : typeof v === 'object' && v !== null
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
        )
      : v;

const canonical = (text: string) => {
  const space = text.indexOf(' ');
  try {
    return `${text.slice(0, space)} ${JSON.stringify(sortKeys(JSON.parse(text.slice(space + 1))))}`;
  } catch {
    return text;
  }
};

/** Where two JSON bodies first differ (a path and both values), for the refusal's message. */
function firstDifference(x: unknown, y: unknown, path = '$'): string {
  if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) {
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const d = firstDifference((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return '';
  }
  return x === y ? '' : `${path}: ${JSON.stringify(x)?.slice(0, 200)}  vs  ${JSON.stringify(y)?.slice(0, 200)}`;
}

/** Whether both sides answer the same body; prints the verdict. */
async function sameBodies(s: Scenario): Promise<boolean> {
  if (s.sameBody === false) {
    console.log('  bodies: not comparable (each answer of a write is its own)');
    return true;
  }
  const project = s.sameBody ?? ((t: string) => t);
  const [a, b] = await Promise.all([bodyOf(s.a.url, s.opts), bodyOf(s.b.url, s.opts)]);
  const [x, y] = [canonical(project(a, 'a')), canonical(project(b, 'b'))];
  if (x === y) {
    console.log('  same body from both sides: yes');
    return true;
  }
  const parse = (t: string) => {
    try {
      return JSON.parse(t.slice(t.indexOf(' ') + 1)) as unknown;
    } catch {
      return t;
    }
  };
  const where = firstDifference(parse(x), parse(y)) || `${x.slice(0, 300)}  vs  ${y.slice(0, 300)}`;
  console.log(`  same body from both sides: NO (${x.slice(0, x.indexOf(' '))} vs ${y.slice(0, y.indexOf(' '))}) — ${where}`);
  return false;
}

/**
 * Alternating A/B rounds (at least 3), then one line per side (medians) and the ratio A/B: the median of
 * the rounds' ratios, against the target. No ratio is reported when the two sides' bodies differ.
 */
export async function compare(s: Scenario, o: LoadOptions): Promise<Outcome> {
  console.log(`\n${s.name}`);
  if (!(await sameBodies(s))) {
    const outcome: Outcome = { name: s.name, ratio: null, target: s.target, verdict: 'REFUSED: the bodies differ' };
    console.log(`  no ratio: the baseline does not answer what the product answers; target ${targetText(s.target)}  ${outcome.verdict}`);
    outcomes.push(outcome);
    return outcome;
  }
  const options = { ...o, ...s.opts, connections: s.opts.connections ?? o.connections };
  const ra: Measure[] = [];
  const rb: Measure[] = [];
  const measure = s.measure ?? ((url: string, pids: () => number[]) => load(url, options, pids));
  for (let i = 0; i < Math.max(3, o.rounds); i++) {
    ra.push(await measure(s.a.url, s.a.pids));
    rb.push(await measure(s.b.url, s.b.pids));
  }
  const metric = s.metric ?? 'rps';
  const unit = metric === 'rps' ? 'rps' : 'MB/s';
  const med = (xs: Measure[], k: 'rps' | 'mbps' | 'p50' | 'p99') => median(xs.map((x) => x[k]));
  const cpuOf = (xs: Measure[]) => (xs.every((x) => x.cpuPerRequest !== undefined) ? median(xs.map((x) => x.cpuPerRequest!)) : undefined);
  const row = (label: string, xs: Measure[], pids: number[]) => {
    const cpu = cpuOf(xs);
    return `  ${label.padEnd(44)} ${med(xs, metric).toFixed(0).padStart(7)} ${unit.padEnd(4)}  p50 ${med(xs, 'p50').toFixed(1).padStart(6)} ms  p99 ${med(xs, 'p99').toFixed(1).padStart(6)} ms  ${cpu === undefined ? '' : `CPU ${cpu.toFixed(2)} ms/req  `}peak RSS ${String(peakRssMb(pids)).padStart(4)} MB  errors ${xs.reduce((t, x) => t + x.errors, 0)}  [rounds: ${xs.map((x) => x[metric].toFixed(0)).join(', ')}]`;
  };
  console.log(row(s.a.label, ra, s.a.pids()));
  console.log(row(s.b.label, rb, s.b.pids()));
  const [cpuA, cpuB] = [cpuOf(ra), cpuOf(rb)];
  // the same comparison in CPU per request (B's over A's: above 1 when A spends less), which a loaded machine moves less than throughput
  if (cpuA && cpuB)
    console.log(`  CPU per request B/A = ${(cpuB / cpuA).toFixed(2)} (the throughput ratio's counterpart when the machine is busy with other work)`);
  const perRound = ra.map((x, i) => x[metric] / rb[i][metric]);
  const ratio = median(perRound);
  const errors = [...ra, ...rb].some((x) => x.errors > 0);
  const verdict = s.target === null ? 'no target' : ratio >= s.target && !errors ? 'ok' : 'BELOW TARGET';
  console.log(
    `  ratio A/B = ${ratioText(ratio, s.target)} (median of the rounds: ${perRound.map((r) => r.toFixed(2)).join(', ')}); target ${targetText(s.target)}${verdict === 'BELOW TARGET' ? `  BELOW TARGET${errors ? ' (errors)' : ''}` : ''}`,
  );
  const outcome: Outcome = { name: s.name, ratio, target: s.target, verdict };
  outcomes.push(outcome);
  return outcome;
}

const targetText = (t: number | null) => (t === null ? '—' : `≥ ${t}`);

/** A limit that is not a ratio (a footprint), held like the targets. */
export function limit(name: string, value: number, max: number, unit: string): Outcome {
  const ok = value <= max;
  console.log(`\n${name}: ${value} ${unit}; limit ≤ ${max} ${unit}${ok ? '' : '  BELOW TARGET (over the limit)'}`);
  const outcome: Outcome = { name, ratio: value, target: max, verdict: ok ? 'ok' : 'BELOW TARGET' };
  outcomes.push(outcome);
  return outcome;
}

/**
 * A ratio with two decimals, or as many more as it takes not to round it onto its target from below
 * (0.996 of a target of 1 reads "0.996", not a "1.00" beside BELOW TARGET).
 */
export function ratioText(ratio: number, target: number | null): string {
  let digits = 2;
  while (target !== null && ratio < target && Number(ratio.toFixed(digits)) >= target && digits < 6) digits++;
  return ratio.toFixed(digits);
}

/** The closing table; with `check`, a non-zero exit code when a row does not hold its line. */
export function report(check: boolean): void {
  console.log('\nSummary');
  for (const r of outcomes) {
    const figure = r.ratio === null ? '—' : ratioText(r.ratio, r.target);
    console.log(`  ${r.verdict.padEnd(26)} ${figure.padStart(8)}  target ${r.target ?? '—'}  ${r.name.slice(0, 110)}`);
  }
  const failing = outcomes.filter((r) => r.verdict === 'BELOW TARGET' || r.verdict.startsWith('REFUSED'));
  if (check && failing.length) {
    console.log(`--check: ${failing.length} row(s) do not hold their target`);
    process.exitCode = 1;
  } else if (check) console.log('--check: every row holds its target');
}

export function stopChildren() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
}
