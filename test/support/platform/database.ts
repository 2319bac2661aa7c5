import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import pg from 'pg';
import { projectRoot } from '../../../lib/paths';
import { PRODUCT_NAMES, subgraphFolder, subgraphNamesOf } from '../../../subgraphs/products';

/** Where the tests' PostgreSQL is: DATABASE_URL, else the server on 127.0.0.1:5432, else an embedded one. */
export const TEST_SERVER_ENV = 'MATCHDAY_TEST_PG';
export const TEMPLATE_ENV = 'MATCHDAY_TEST_TEMPLATE';
/** Tags this jest run's databases, so that teardown drops only its own. */
export const RUN_ENV = 'MATCHDAY_TEST_RUN';

export function serverUrl(): string {
  const url = process.env[TEST_SERVER_ENV];
  if (!url) throw new Error(`${TEST_SERVER_ENV} is not set: run the tests through jest (globalSetup prepares the database)`);
  return url;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function admin<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fingerprint of everything that shapes the template database: migrations, job schema, data. */
export function templateFingerprint(): string {
  const hash = createHash('sha256');
  const root = projectRoot();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path.slice(root.length)).update(readFileSync(path));
    }
  };
  for (const name of subgraphNamesOf(PRODUCT_NAMES)) walk(join(root, subgraphFolder(name), 'store'));
  // the template holds the football data and model version 1, made by this code
  walk(join(root, subgraphFolder('football'), 'domain'));
  walk(join(root, subgraphFolder('predictions'), 'domain'));
  walk(join(root, 'data', 'football'));
  hash.update(readFileSync(join(root, 'package-lock.json')));
  return hash.digest('hex').slice(0, 12);
}

/**
 * Templates are named per checkout (`mdtpl_<checkout>_<fingerprint>`): several checkouts may run their
 * tests against one server at once, and each drops only its own outdated templates.
 */
export function templatePrefix(): string {
  return `mdtpl_${createHash('sha256').update(projectRoot()).digest('hex').slice(0, 6)}_`;
}

/**
 * A plain pool for a test's own connections. pg-pool's `end()` resolves once its idle clients are told
 * to close, not once they have closed; the `DROP DATABASE … WITH (FORCE)` after the file (startReaper) may
 * then terminate a backend still closing, and an idle client's error ("terminating connection due to
 * administrator command", 57P01) with no listener on the pool is an unhandled error that fails the
 * file. That one error is expected at teardown; any other reaches stderr.
 */
export function testPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', (err: Error & { code?: string }) => {
    if (err.code !== '57P01') console.error('test pool: an idle connection failed', err);
  });
  return pool;
}

/**
 * What a finished test file writes on its database: this run's reaper (startReaper, in jest's main process)
 * drops it. Dropping a database makes PostgreSQL take a checkpoint and wait for it, seconds on a loaded
 * machine, and no test needs to wait for that.
 */
export const FINISHED_MARK = 'matchday-test: finished';

/** A fresh database cloned from the migrated, loaded template: each test file gets its own. */
export async function createTestDatabase(): Promise<{
  url: string;
  /** Hands the database to the reaper (its connections, if any are left, are ended by the drop). */
  release(): Promise<void>;
}> {
  const server = serverUrl();
  const template = process.env[TEMPLATE_ENV]!;
  const name = `mdtest_${process.env[RUN_ENV]}_${randomBytes(4).toString('hex')}`;
  // two clones of one template at the same moment collide ("source database is being accessed"): retry
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(server, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      break;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 300));
    }
  }
  return {
    url: withDatabase(server, name),
    release: () => admin(server, (c) => c.query(`COMMENT ON DATABASE "${name}" IS '${FINISHED_MARK}'`)).then(() => undefined),
  };
}

/** This run's databases: the ones its test files created, finished or not. */
export function runDatabasesPattern(): string {
  return `mdtest\\_${process.env[RUN_ENV]}\\_%`;
}

/**
 * Drops this run's finished databases (FINISHED_MARK) one at a time, every `everyMs`, in the process that
 * starts it (jest's main process, from globalSetup). Returns what stops it, after the pass under way.
 */
export function startReaper(server: string, everyMs = 1000): () => Promise<void> {
  let client: pg.Client | undefined;
  let pass: Promise<void> = Promise.resolve();
  const reap = async () => {
    try {
      if (!client) {
        const c = new pg.Client({ connectionString: withDatabase(server, 'postgres') });
        // a lost connection is made again on the next pass
        c.on('error', () => undefined);
        await c.connect();
        client = c;
      }
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1 AND shobj_description(oid, 'pg_database') = $2`,
        [runDatabasesPattern(), FINISHED_MARK],
      );
      for (const r of rows) await client.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    } catch (err) {
      // the next pass tries again, and globalTeardown drops whatever is left
      console.error('test database reaper:', (err as Error).message);
      await client?.end().catch(() => undefined);
      client = undefined;
    }
  };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pass = reap().finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
    await client?.end().catch(() => undefined);
  };
}
