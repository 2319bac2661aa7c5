/**
 * Soak: the whole system (one process, as `npm start` runs it) under mixed load for a long while,
 * with a retrain in the middle. Every 10 s it records the window's throughput, p50/p99 latency,
 * errors and the process's resident memory; the report compares the first minute (the baseline of
 * this same run) with the last, and the retrain's windows with the rest.
 *
 *   node dist/bench/soak.js [--minutes 10] [--connections 10] [--rate 50] [--hostile-mail 4]
 *
 * --rate: requests per second in all (autocannon's overallRate), instead of as many as the connections take.
 * --hostile-mail N: meanwhile N senders write to the application mailbox without pause, each message
 * in turn an 800 kB MIME bomb of 80,000 empty parts or a 1 MB application; the report
 * adds what the mailbox answered.
 *
 * Not part of `npm test`. Uses DATABASE_URL's server (default: the machine's PostgreSQL) with a
 * database of its own, dropped at the end.
 */
import autocannon from 'autocannon';
import nodemailer from 'nodemailer';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { projectRoot } from '../lib/paths';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    rate: { type: 'string' },
    'hostile-mail': { type: 'string', default: '0' },
  },
});
const MINUTES = Number(args.minutes);
const CONNECTIONS = Number(args.connections);
const RATE = args.rate === undefined ? undefined : Number(args.rate);
const HOSTILE_SENDERS = Number(args['hostile-mail']);
const WINDOW_S = 10;
// random-looking: the configuration refuses a too regular administrator key
const ADMIN_KEY = 'sOak_Adm1n_K3y_x7Qp2LmZ9vRt4WbN8cYh';

interface Window {
  t: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rssMb: number;
  retraining: boolean;
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
};

function start(databaseUrl: string): Promise<{ child: ChildProcess; urls: Record<string, string> }> {
  const child = spawn(process.execPath, [join(projectRoot(), 'dist/bench/servers/app.js')], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      ADMIN_API_KEY: ADMIN_KEY,
      BACKTEST_SEASONS: '1',
      NODE_ENV: 'production',
      FRONTEND_URL: 'http://127.0.0.1:8000/app/',
      PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
      PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
      APPLICATION_SMTP_PORT: '0',
      APPLICATION_MAIL_ADDRESS: MAILBOX,
      // every hostile message is read (the worst case for the mail worker), not refused by the per-address limit first
      APPLICATION_SMTP_MESSAGES_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve({ child, urls: JSON.parse(line.slice(6)) as Record<string, string> });
    });
    child.on('exit', (code) => reject(new Error(`the system exited (${code}): ${err.slice(-2000)}`)));
  });
}

/** One window of mixed load: REST (three endpoints) and GraphQL (two operations) at once. */
async function window(urls: Record<string, string>, key: string): Promise<Omit<Window, 't' | 'rssMb' | 'retraining'>> {
  const auth = { authorization: `Bearer ${key}` };
  const [rest, graphql] = await Promise.all([
    autocannon({
      url: urls.predictions,
      connections: Math.ceil(CONNECTIONS / 2),
      duration: WINDOW_S,
      ...(RATE ? { overallRate: Math.ceil(RATE / 2) } : {}),
      headers: auth,
      requests: [{ path: '/api/' }, { path: '/api/predictions/latest/?limit=20' }, { path: '/api/dashboard/overview/' }],
    }),
    autocannon({
      url: `${urls.gateway}/graphql`,
      connections: Math.floor(CONNECTIONS / 2),
      duration: WINDOW_S,
      ...(RATE ? { overallRate: Math.floor(RATE / 2) } : {}),
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      requests: [
        { body: JSON.stringify({ query: '{ upcomingPredictions(first: 10) { matchId match { homeTeam { name } awayTeam { name } } confidence } }' }) },
        { body: JSON.stringify({ query: '{ predict(home: "Arsenal", away: "Chelsea") { confidence outcomeLabel } }' }) },
      ],
    }),
  ]);
  const requests = rest.requests.total + graphql.requests.total;
  // the window's p50/p99 over both: weighted by request counts (close enough for a trend)
  const weighted = (k: 'p50' | 'p99') => (rest.latency[k] * rest.requests.total + graphql.latency[k] * graphql.requests.total) / Math.max(1, requests);
  return {
    rps: Math.round(requests / WINDOW_S),
    p50: Math.round(weighted('p50') * 10) / 10,
    p99: Math.max(rest.latency.p99, graphql.latency.p99),
    errors: rest.errors + rest.non2xx + graphql.errors + graphql.non2xx,
  };
}

const MAILBOX = 'apply@soak.example';

/** What the mailbox answered the hostile senders: SMTP reply codes (250 accepted) and their counts. */
const mailAnswers = new Map<string, number>();

/** `senders` loops writing to the mailbox until `running()` is false: MIME bombs and 1 MB applications in turn. */
function hostileMail(port: number, senders: number, running: () => boolean): Promise<void> {
  const head = (subject: string, type: string) =>
    [`From: x@hostile.example`, `To: ${MAILBOX}`, `Subject: ${subject}`, 'MIME-Version: 1.0', `Content-Type: ${type}`, '', ''].join('\r\n');
  const bomb = head('hello', 'multipart/mixed; boundary="bb"') + '--bb\r\n\r\n\r\n'.repeat(80_000) + '--bb--\r\n';
  const big = head('API Access Request', 'text/plain') + `Name: Soak\r\nUsage: ${'x'.repeat(1000)}\r\n`.repeat(1000);
  const count = (code: string) => mailAnswers.set(code, (mailAnswers.get(code) ?? 0) + 1);
  const sender = async (i: number) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, socketTimeout: 60_000 });
    for (let n = i; running(); n++) {
      await transport.sendMail({ envelope: { from: `s${i}@hostile.example`, to: [MAILBOX] }, raw: n % 2 ? big : bomb }).then(
        () => count('250'),
        (err: { responseCode?: number }) => count(String(err.responseCode ?? 'error')),
      );
    }
  };
  return Promise.all(Array.from({ length: senders }, (_, i) => sender(i))).then(() => undefined);
}

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `matchday_soak_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  // a connection terminated by the server (a restart, an administrator) must not crash the report
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  let app: ChildProcess | undefined;
  try {
    const started = Date.now();
    const system = await start(server.replace(/\/[^/]*$/, `/${dbName}`));
    app = system.child;
    console.log(
      `system up with data and model version 1 in ${((Date.now() - started) / 1000).toFixed(1)} s; ${MINUTES} min of mixed load, ${CONNECTIONS} connections` +
        `${RATE ? `, ${RATE} req/s` : ''}${HOSTILE_SENDERS ? `, ${HOSTILE_SENDERS} hostile mail senders` : ''}`,
    );
    let soaking = true;
    const hostile = HOSTILE_SENDERS ? hostileMail(Number(system.urls.smtpPort), HOSTILE_SENDERS, () => soaking) : Promise.resolve();
    const created = (await fetch(`${system.urls.gateway}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
      body: JSON.stringify({ query: 'mutation { createApiKey(input: { name: "soak", plan: enterprise }) { key } }' }),
    }).then((r) => r.json())) as { data: { createApiKey: { key: string } } };
    const key = created.data.createApiKey.key;

    const windows: Window[] = [];
    const total = Math.round((MINUTES * 60) / WINDOW_S);
    let retraining = false;
    let retrain: { accepted: number; status?: string; seconds?: number } | undefined;
    console.log(' t (s)    rps   p50 ms   p99 ms  errors  RSS MB');
    for (let i = 0; i < total; i++) {
      if (i === Math.floor(total / 2)) {
        // a retrain in the middle: background work on the same process, under the same load
        const res = await fetch(`${system.urls.predictions}/api/retrain/`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}` } });
        const job = (await res.json()) as { status_url: string };
        retrain = { accepted: res.status };
        retraining = true;
        const since = Date.now();
        void (async () => {
          for (;;) {
            await new Promise((r) => setTimeout(r, 1_000));
            const s = (await fetch(`${system.urls.predictions}${job.status_url}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }).then((r) =>
              r.json(),
            )) as { status: string };
            if (s.status === 'succeeded' || s.status === 'failed') {
              retrain!.status = s.status;
              retrain!.seconds = Math.round((Date.now() - since) / 1000);
              retraining = false;
              return;
            }
          }
        })();
      }
      const during = retraining;
      const w = { t: (i + 1) * WINDOW_S, ...(await window(system.urls, key)), rssMb: rssMb(app.pid!), retraining: during || retraining };
      windows.push(w);
      console.log(
        `${String(w.t).padStart(6)} ${String(w.rps).padStart(6)} ${w.p50.toFixed(1).padStart(8)} ${String(w.p99).padStart(8)} ${String(w.errors).padStart(7)} ${String(w.rssMb).padStart(7)}${w.retraining ? '  (retrain)' : ''}`,
      );
    }

    soaking = false;
    await hostile;
    const perMinute = 60 / WINDOW_S;
    const first = windows.slice(0, perMinute);
    const last = windows.slice(-perMinute);
    const avg = (ws: Window[], k: 'rps' | 'p99' | 'rssMb') => Math.round(ws.reduce((s, w) => s + w[k], 0) / ws.length);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const p99s = sorted(windows.map((w) => w.p99));
    const calm = windows.filter((w) => !w.retraining);
    const busy = windows.filter((w) => w.retraining);
    console.log('\nSummary');
    console.log(
      `  memory (RSS): first minute ${avg(first, 'rssMb')} MB, last minute ${avg(last, 'rssMb')} MB, growth ${avg(last, 'rssMb') - avg(first, 'rssMb')} MB; peak ${Math.max(...windows.map((w) => w.rssMb))} MB`,
    );
    console.log(
      `  p99 per 10 s window: median ${p99s[Math.floor(p99s.length / 2)]} ms, max ${p99s[p99s.length - 1]} ms; first minute ${avg(first, 'p99')} ms, last minute ${avg(last, 'p99')} ms`,
    );
    console.log(`  p99 without/with the retrain running: ${avg(calm, 'p99')} ms / ${busy.length ? avg(busy, 'p99') : '-'} ms (${busy.length} windows)`);
    console.log(
      `  throughput: first minute ${avg(first, 'rps')} rps, last minute ${avg(last, 'rps')} rps; errors (non-2xx or failed) ${windows.reduce((s, w) => s + w.errors, 0)}`,
    );
    console.log(`  hostile mail: ${HOSTILE_SENDERS ? [...mailAnswers].map(([code, n]) => `${n} × ${code}`).join(', ') : 'none'}`);
    console.log(
      `  retrain: ${retrain ? `accepted ${retrain.accepted}, ${retrain.status ?? 'still running'}${retrain.seconds ? ` after ${retrain.seconds} s` : ''}` : 'not started'}`,
    );
  } finally {
    if (app && app.exitCode === null) {
      app.kill('SIGTERM');
      await new Promise((r) => app!.once('exit', r));
    }
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
