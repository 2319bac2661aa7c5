/**
 * `npm start` as a user runs it: no DATABASE_URL, so an embedded PostgreSQL under DATA_DIR; it
 * prints the URLs and working demo keys; SIGTERM stops everything (the embedded server included);
 * a second start reuses the data. Runs the compiled entry (dist/bin/start.js), like `npm start`.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { freePorts } from '../../../lib/server';
import { assertBuilt } from '../../support/child-app';
import { http } from '../../support/app';

let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertBuilt('dist/bin/start.js');
  // the embedded server runs as the postgres user when we are root: its directory must be reachable
  dataDir = mkdtempSync(join(tmpdir(), 'matchday-npm-start-'));
  chmodSync(dataDir, 0o755);
  const [gateway, predictions, registry, finance, pg] = await freePorts(5);
  const ports = { GATEWAY_PORT: gateway, PREDICTIONS_PORT: predictions, REGISTRY_PORT: registry, PORT: finance, EMBEDDED_PG_PORT: pg };
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // keep the first training short: it runs in the background meanwhile
    BACKTEST_SEASONS: '1',
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  };
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [join(projectRoot(), 'dist/bin/start.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      if (out.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve({ child, output: () => out, exited });
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

const embeddedServers = () => {
  try {
    return execFileSync('pgrep', ['-f', `postgres -D ${dataDir}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

it('starts on an embedded PostgreSQL, prints URLs and working keys, stops cleanly on SIGTERM and reuses the data', async () => {
  const first = await start();
  const out = first.output();
  const ready = Number(/Ready in ([\d.]+) s/.exec(out)![1]);
  expect(ready).toBeLessThan(15);
  expect(out).toContain(`http://127.0.0.1:${env.PREDICTIONS_PORT}/api/`);
  expect(out).toContain(`http://127.0.0.1:${env.GATEWAY_PORT}/graphql`);
  const freeKey = /Free-plan key\s+(\S+)/.exec(out)![1];
  const adminKey = /Administrator key\s+(\S+)/.exec(out)![1];
  const api = await http(`http://127.0.0.1:${env.PREDICTIONS_PORT}/api/`, { key: freeKey });
  expect(api.status).toBe(200);
  expect(api.body.data.matches).toBe(33322);
  const gql = await http(`http://127.0.0.1:${env.GATEWAY_PORT}/graphql`, {
    method: 'POST',
    key: adminKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ apiKeys { prefix role } }' }),
  });
  expect(gql.body.data.apiKeys.map((k: { role: string }) => k.role)).toContain('admin');
  expect(embeddedServers()).toBeGreaterThan(0);

  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(embeddedServers()).toBe(0);

  // second start: same data (no reload), same keys, faster
  const second = await start();
  const again = Number(/Ready in ([\d.]+) s/.exec(second.output())![1]);
  expect(second.output()).toContain(freeKey);
  expect((await http(`http://127.0.0.1:${env.PREDICTIONS_PORT}/api/`, { key: freeKey })).status).toBe(200);
  expect(again).toBeLessThan(ready);
  second.child.kill('SIGINT');
  expect(await second.exited).toBe(0);
  expect(embeddedServers()).toBe(0);
}, 150_000);
