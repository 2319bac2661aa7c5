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
 * to close, not once they have closed; the `DROP DATABASE … WITH (FORCE)` of the file's teardown may
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

/** A fresh database cloned from the migrated, loaded template: each test file gets its own. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
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
    drop: () => admin(server, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
