/**
 * `npm start` as a user runs it: no DATABASE_URL, so an embedded PostgreSQL under DATA_DIR; it
 * prints the URLs and working demo keys; SIGTERM stops everything (the embedded server included);
 * a second start reuses the data. Runs the compiled entry (dist/bin/start.js), like `npm start`.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, chmodSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../../../lib/paths';
import { freePorts } from '../../../../lib/server';
import { assertBuilt, testProcessEnv } from '../../../support/platform/child-app';
import { graphqlAt, http } from '../../../support/platform/http';
import { loginAt } from '../../../support/finance/node';

let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertBuilt('dist/bin/start.js');
  // the embedded server runs as the postgres user when we are root: its directory must be reachable
  dataDir = mkdtempSync(join(tmpdir(), 'matchday-npm-start-'));
  chmodSync(dataDir, 0o755);
  const [gateway, predictions, registry, finance, pg] = await freePorts(5);
  const ports = { GATEWAY_PORT: gateway, PREDICTIONS_PORT: predictions, REGISTRY_PORT: registry, PORT: finance, EMBEDDED_PG_PORT: pg };
  env = testProcessEnv({
    DATA_DIR: dataDir,
    // info: the log says whether the football data was loaded (first start) or reused (second)
    LOG_LEVEL: 'info',
    // keep the first training short: it runs in the background meanwhile
    BACKTEST_SEASONS: '1',
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  });
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [join(projectRoot(), 'dist/bin/start.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 60 s:\n${out}`)), 60_000);
    child.stdout.on('data', () => {
      if (out.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve({ child, output: () => out, exited });
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

/** The "football data loaded" log records of a start (JSON lines at level info): none when the data was reused. */
const dataLoads = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; inserted?: number; matches?: number })
    .filter((record) => record.msg === 'football data loaded');

const embeddedServers = () => {
  try {
    return execFileSync('pgrep', ['-f', `postgres -D ${dataDir}`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean).length;
  } catch {
    return 0;
  }
};

it('starts on an embedded PostgreSQL, prints URLs and working keys, stops cleanly on SIGTERM and reuses the data', async () => {
  const first = await start();
  const out = first.output();
  expect(out).toMatch(/Ready in [\d.]+ s\./);
  expect(dataLoads(out)).toEqual([expect.objectContaining({ inserted: 33322, matches: 33322 })]);
  expect(out).toContain(`http://127.0.0.1:${env.PREDICTIONS_PORT}/api/`);
  expect(out).toContain(`http://127.0.0.1:${env.GATEWAY_PORT}/graphql`);
  // no TELEGRAM_BOT_TOKEN: everything else runs, and it says so
  expect(out).toMatch(/Telegram bot\s+off \(set TELEGRAM_BOT_TOKEN to start it\)/);
  // the banner names the data directory in use (DATA_DIR), not the default .data/
  expect(out).toContain(`kept in ${join(dataDir, 'demo-credentials.json')}`);
  expect(out).not.toContain('.data/');
  const freeKey = /Free-plan key\s+(\S+)/.exec(out)![1];
  const adminKey = /Administrator key\s+(\S+)/.exec(out)![1];
  const api = await http(`http://127.0.0.1:${env.PREDICTIONS_PORT}/api/`, { key: freeKey });
  expect(api.status).toBe(200);
  expect(api.body.data.matches).toBe(33322);
  const keys = await graphqlAt(`http://127.0.0.1:${env.GATEWAY_PORT}`, '{ apiKeys { prefix role } }', { key: adminKey });
  expect(keys.body.data.apiKeys.map((k: { role: string }) => k.role)).toContain('admin');
  // the registry's demo: an Active licence of finance-node, its key printed like the API keys
  const licenceKey = /Licence key\s+(LIC-[A-Z0-9-]+)/.exec(out)![1];
  const licence = await http(`http://127.0.0.1:${env.REGISTRY_PORT}/api/v1/license`, { headers: { 'x-license-key': licenceKey } });
  expect(licence.body.data).toMatchObject({ status: 'Active', product: 'finance-node' });
  expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
  expect(statSync(join(dataDir, 'demo-credentials.json')).mode & 0o777).toBe(0o600);
  expect(embeddedServers()).toBeGreaterThan(0);

  // the finance node runs on the embedded registry's demo licence (normal mode); its demo user signs in and holds EUR, GBP and USD (to invest)
  expect(out).toContain('Finance licence        valid: normal mode');
  const demo = /Finance demo user\s+(\S+) \/ (\S+)/.exec(out)!;
  expect(/Finance admin\s+admin \/ \S+/.test(out)).toBe(true);
  const finance = `http://127.0.0.1:${env.PORT}`;
  const token = (await loginAt(finance, demo[1], demo[2])).body.access as string;
  const balance = await http(`${finance}/api/balance/`, { key: token });
  expect(balance.body.balances.map((b: { available: { amount: string; currency: string } }) => b.available)).toEqual([
    { amount: '1250.00', currency: 'EUR' },
    { amount: '800.00', currency: 'GBP' },
    { amount: '500.00', currency: 'USD' },
  ]);
  expect((await http(`${finance}/api/v1/node/`)).body.read_only).toBe(false);

  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(embeddedServers()).toBe(0);

  // second start: the same data, not loaded again (start times: bench/start.ts), the same keys
  const second = await start();
  expect(dataLoads(second.output())).toEqual([]);
  expect(second.output()).toContain(freeKey);
  const again = await http(`http://127.0.0.1:${env.PREDICTIONS_PORT}/api/`, { key: freeKey });
  expect(again.status).toBe(200);
  expect(again.body.data.matches).toBe(33322);
  expect(second.output()).toContain(`Finance demo user   ${demo[1]} / ${demo[2]}`);
  expect((await loginAt(finance, demo[1], demo[2])).status).toBe(200);
  expect(second.output()).toContain(licenceKey);
  second.child.kill('SIGINT');
  expect(await second.exited).toBe(0);
  expect(embeddedServers()).toBe(0);
}, 150_000);
