/**
 * The finance node as customers self-host it: `PRODUCTS=finance npm start` (the compiled entry, as
 * `npm start` runs it) answers on PORT only — the prediction API's and the registry's ports stay
 * closed — and is read-only until it is licensed; given VENDOR_LICENSE_ENGINE_URL and VENDOR_API_KEY
 * of a running registry (here: a registry-only app of its own, over HTTP), it activates at start and
 * runs in normal mode. The node never loads the registry's code (its process runs only its own
 * subgraphs), so the licence can only have come over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../../../lib/paths';
import { freePorts } from '../../../../lib/server';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { graphqlAt, surface } from '../../../support/platform/http';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { loginAt, PASSWORD } from '../../../support/finance/node';
import { createLicence } from '../../../support/registry/registry';

let registry: TestApp<'registry'>;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let ports: { finance: number; gateway: number; predictions: number; registry: number };

beforeAll(async () => {
  assertBuilt('dist/bin/start.js');
  registry = await startTestApp({}, { products: ['registry'] });
  db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'matchday-finance-alone-'));
  const [finance, gateway, predictions, registryPort] = await freePorts(4);
  ports = { finance, gateway, predictions, registry: registryPort };
});

afterAll(async () => {
  await registry?.stop();
  await db?.release();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

function startFinanceNode(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [join(projectRoot(), 'dist/bin/start.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PRODUCTS: 'finance',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PORT: String(ports.finance),
      GATEWAY_PORT: String(ports.gateway),
      // the other products' ports, which must stay closed
      PREDICTIONS_PORT: String(ports.predictions),
      REGISTRY_PORT: String(ports.registry),
      SUPERUSER_USERNAME: 'operator',
      SUPERUSER_PASSWORD: PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stopNode = async () => {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 90 s:\n${out}`)), 90_000);
    child.stdout.on('data', () => {
      if (out.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve({ child, output: () => out, stop: stopNode });
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The node's own port (each start of this file's node answers there). */
const finance = surface(() => `http://127.0.0.1:${ports.finance}`);

it('runs alone on its port, read-only until licensed, and activates over HTTP with a registry named in its settings', async () => {
  // 1. no registry configured: the finance node alone, read-only
  const alone = await startFinanceNode({});
  try {
    const banner = alone.output();
    expect(banner).toContain(`Finance node           http://127.0.0.1:${ports.finance}/`);
    expect(banner).toMatch(/Finance licence {8}READ-ONLY/);
    expect(banner).not.toContain('Match prediction API');
    expect(banner).not.toContain('Licence registry');
    expect(await listening(ports.finance)).toBe(true);
    expect(await listening(ports.predictions)).toBe(false);
    expect(await listening(ports.registry)).toBe(false);
    const node = await finance.get('/api/v1/node/');
    expect([node.status, node.body.read_only]).toEqual([200, true]);
    // the supergraph of this process is the finance node's own: no prediction or registry field
    const graphql = await graphqlAt(`http://127.0.0.1:${ports.gateway}`, '{ __schema { queryType { fields { name } } } }');
    const fields = (graphql.body.data.__schema.queryType.fields as { name: string }[]).map((f) => f.name);
    expect(fields).toContain('nodeInfo');
    expect(fields).not.toContain('upcomingPredictions');
    expect(fields).not.toContain('releases');
    // writes are refused while unlicensed
    const session = await loginAt(finance.url(), 'operator');
    expect(session.status).toBe(200);
    const write = await finance.post('/api/v1/transfers/', session.body.access as string, { recipient: 'nobody', amount: '1.00', currency: 'EUR' });
    expect(write.status).toBe(403);
  } finally {
    await alone.stop();
  }

  // 2. a registry and its licence key in the settings: activation over HTTP at start, normal mode
  const licence = await createLicence(registry);
  const licensed = await startFinanceNode({ VENDOR_LICENSE_ENGINE_URL: registry.urls.registry, VENDOR_API_KEY: licence.key });
  try {
    expect(licensed.output()).toContain('Finance licence        valid: normal mode');
    const node = await finance.get('/api/v1/node/');
    expect(node.status).toBe(200);
    expect(node.body.read_only).toBe(false);
    // anyone learns the licence's state; where it came from is for administrators (the registry did answer: activation above)
    expect(node.body.licence.valid).toBe(true);
    // the registry knows the node: one deployment on that licence
    const deployments = await registry.app.services.licensing.deployments.list({ licenceIds: [licence.id] });
    expect(deployments).toHaveLength(1);
  } finally {
    await licensed.stop();
  }
});
