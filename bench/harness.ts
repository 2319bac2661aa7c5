import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/** Starts `node <script>` and resolves with the JSON after its `READY ` line. */
export function runServer(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; ready: Record<string, string> }> {
  const child = spawn(process.execPath, [join(projectRoot(), script)], {
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

export function peakRssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    kb += m ? Number(m[1]) : 0;
  }
  return Math.round(kb / 1024);
}

export interface Measure {
  rps: number;
  /** Response bytes per second, in MB (10^6). */
  mbps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(url: string, opts: LoadOptions & { headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string }): Promise<Measure> {
  const base = { url, connections: opts.connections, headers: opts.headers, method: opts.method ?? 'GET', body: opts.body };
  await autocannon({ ...base, duration: 3 }); // warm-up
  const r = await autocannon({ ...base, duration: opts.duration });
  return { rps: r.requests.average, mbps: r.throughput.average / 1e6, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
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
  target: string;
  /** What the ratio compares: requests per second (default) or MB per second. */
  metric?: 'rps' | 'mbps';
  /** How one side is measured (default: autocannon with `opts`). */
  measure?: (url: string) => Promise<Measure>;
}

/** Alternating A/B rounds, then one line per side and the ratio A/B. */
export async function compare(s: Scenario, o: LoadOptions) {
  const options = { ...o, ...s.opts, connections: s.opts.connections ?? o.connections };
  const ra: Measure[] = [];
  const rb: Measure[] = [];
  const measure = s.measure ?? ((url: string) => load(url, options));
  for (let i = 0; i < o.rounds; i++) {
    ra.push(await measure(s.a.url));
    rb.push(await measure(s.b.url));
  }
  const metric = s.metric ?? 'rps';
  const unit = metric === 'rps' ? 'rps' : 'MB/s';
  const mean = (xs: Measure[], k: keyof Measure) => xs.reduce((t, x) => t + x[k], 0) / xs.length;
  const row = (label: string, xs: Measure[], pids: number[]) =>
    `  ${label.padEnd(44)} ${mean(xs, metric).toFixed(0).padStart(7)} ${unit.padEnd(4)}  p50 ${mean(xs, 'p50').toFixed(1).padStart(6)} ms  p99 ${mean(xs, 'p99').toFixed(1).padStart(6)} ms  peak RSS ${String(peakRssMb(pids)).padStart(4)} MB  errors ${mean(xs, 'errors')}  [rounds: ${xs.map((x) => x[metric].toFixed(0)).join(', ')}]`;
  console.log(`\n${s.name}`);
  console.log(row(s.a.label, ra, s.a.pids()));
  console.log(row(s.b.label, rb, s.b.pids()));
  const ratio = mean(ra, metric) / mean(rb, metric);
  console.log(`  ratio A/B = ${ratio.toFixed(2)} (per round: ${ra.map((x, i) => (x[metric] / rb[i][metric]).toFixed(2)).join(', ')}); target ${s.target}`);
  return { a: ra, b: rb, ratio };
}

export function stopChildren() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
}
