import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { projectRoot } from '../../../lib/paths';
import { freePorts } from '../../../lib/server';
import { assertBuilt } from '../../support/platform/child-app';

/**
 * The app never restarted its embedded PostgreSQL after it died. Now `npm start`
 * supervises it (lib/embedded-postgres.ts `supervise`): a server killed by its PID is started again,
 * with back-off while it fails; when it cannot be, the process exits 1 for its own supervisor.
 * The compiled module runs in a child process, as npm start runs it (see embedded-postgres.test.ts).
 */

const CHILD = `
const { startEmbeddedPostgres } = require('./dist/lib/embedded-postgres.js');
const { createLogger } = require('./dist/lib/logger.js');
const opts = JSON.parse(process.argv[1]);
const supervise = { checkMs: 200, maxFailures: opts.maxFailures, giveUp: (err) => { process.stdout.write('GAVE UP ' + err.message + '\\n'); process.exit(1); } };
startEmbeddedPostgres({ ...opts, logger: createLogger('silent'), supervise }).then((pg) => {
  process.stdout.write('URL ' + pg.url + '\\n');
  process.stdin.resume().on('end', () => pg.stop().then(() => process.exit(0)));
}, (err) => { process.stderr.write(String(err.stack || err)); process.exit(1); });
`;

let dataDir: string;
let port: number;
let child: ChildProcess | undefined;
let out = '';
let exited: Promise<unknown[]>;

const postmasterPid = () => Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

async function start(maxFailures: number): Promise<string> {
  out = '';
  child = spawn(
    process.execPath,
    ['-e', CHILD, JSON.stringify({ dir: join(dataDir, 'pg'), passwordFile: join(dataDir, 'pg-password'), port, database: 'matchday', maxFailures })],
    {
      cwd: projectRoot(),
    },
  );
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  exited = once(child, 'exit');
  return new Promise<string>((resolve, reject) => {
    child!.stdout!.on('data', () => {
      const m = /^URL (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`embedded PostgreSQL did not start:\n${out}`)));
  });
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

beforeAll(async () => {
  assertBuilt('dist/lib/embedded-postgres.js');
  dataDir = mkdtempSync(join(tmpdir(), 'matchday-embedded-pg-restart-'));
  chmodSync(dataDir, 0o755);
  [port] = await freePorts(1);
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.stdin!.end();
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('starts the server again after it was killed by its PID', async () => {
  const url = await start(6);
  expect(await answers(url)).toBe(true);
  const pid = postmasterPid();
  process.kill(pid, 'SIGKILL');
  let back = false;
  for (let i = 0; i < 120 && !back; i++) {
    await new Promise((r) => setTimeout(r, 250));
    back = await answers(url);
  }
  expect(back).toBe(true);
  expect(postmasterPid()).not.toBe(pid);
  expect(child!.exitCode).toBeNull();
  child!.stdin!.end();
  await exited;
}, 120_000);

it('exits 1 (for its own supervisor) when the server cannot be started again', async () => {
  await start(2);
  const pid = postmasterPid();
  process.kill(pid, 'SIGKILL');
  // its port taken by someone else: every start fails
  let blocker: Server | undefined;
  for (let i = 0; i < 100 && !blocker; i++) {
    blocker = await new Promise<Server | undefined>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(undefined));
      s.listen(port, '127.0.0.1', () => resolve(s));
    });
    if (!blocker) await new Promise((r) => setTimeout(r, 50));
  }
  try {
    expect(blocker).toBeDefined();
    const [code] = await exited;
    expect(code).toBe(1);
    expect(out).toMatch(/GAVE UP the embedded PostgreSQL in .* did not start again after 2 attempts/);
  } finally {
    await new Promise((r) => blocker?.close(r));
  }
}, 120_000);
