import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import pg from 'pg';
import { freePorts } from '../../../../lib/server';
import { projectRoot } from '../../../../lib/paths';
import { GATEWAY_SERVICE, keyVariable, serviceKeyEnv } from '../../../../lib/service-keys';
import { loadSubgraphs, PRODUCT_NAMES, subgraphFolder } from '../../../../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);
import { TEST_ADMIN_KEY } from '../../../support/platform/app';
import { http, graphqlAt } from '../../../support/platform/http';
import { assertBuilt, testProcessEnv } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { TEST_MASTER_KEY } from '../../../support/platform/keys';

/**
 * Scale-out on one machine, as Kubernetes runs it: two replicas of the gateway and of the REST
 * adapter, two of the subgraph that verifies keys (access) and of the one that trains models
 * (predictions), each pair behind a round-robin proxy, over one PostgreSQL. Quotas stay exact across
 * the replicas, a revocation made through one is seen by the other at once (the verified-key caches
 * of both access replicas are evicted by NOTIFY), and a retrain runs once whichever replicas take the
 * request and compete for the job. Only the prediction product's subgraphs run: the others are not
 * on these paths.
 */

const RUNNING = ['football', 'access', 'predictions'] as const;
const KEYS = serviceKeyEnv(SUBGRAPHS.map((s) => s.name));
const NODE = process.env.IMAGE_NODE || process.execPath;

interface Process {
  name: string;
  port: number;
  child: ChildProcess;
  exit: Promise<number | null>;
  output: string;
}

/** A round-robin HTTP proxy over `upstreams`, counting what each served. */
interface Proxy {
  url: string;
  served: number[];
  server: Server;
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
const processes: Process[] = [];
const proxies: Proxy[] = [];
let adapters: Proxy;
let accessReplicas: Proxy;
let predictionReplicas: Proxy;
let gatewayUrls: string[];
let adapterUrls: string[];

function start(name: string, entry: string, port: number, env: Record<string, string>): Process {
  const child = spawn(NODE, [entry], {
    cwd: projectRoot(),
    env: testProcessEnv({
      NODE_ENV: 'production',
      FRONTEND_URL: 'http://127.0.0.1:8000/app/',
      // each process's own application mailbox on a free port (several run at once here)
      APPLICATION_SMTP_PORT: '0',
      PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
      PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '3',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const p: Process = { name, port, child, exit: once(child, 'exit').then(([code]) => code as number | null), output: '' };
  const keep = (chunk: Buffer) => (p.output = (p.output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  processes.push(p);
  return p;
}

async function healthy(p: Process, deadline: number): Promise<void> {
  let exited: number | null | undefined;
  void p.exit.then((code) => (exited = code));
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`${p.name} exited during start-up (code ${exited}):\n${p.output}`);
    if (
      await fetch(`http://127.0.0.1:${p.port}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${p.name} was not healthy in time:\n${p.output}`);
}

async function roundRobin(upstreams: string[]): Promise<Proxy> {
  let next = 0;
  const served = upstreams.map(() => 0);
  const server = createServer((req, res) => {
    const i = next++ % upstreams.length;
    served[i]++;
    const target = new URL(req.url ?? '/', upstreams[i]);
    const forward = request(target, { method: req.method, headers: req.headers }, (upstream) => {
      res.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const proxy = { url: `http://127.0.0.1:${port}`, served, server };
  proxies.push(proxy);
  return proxy;
}

beforeAll(async () => {
  for (const name of RUNNING) assertBuilt(`dist/${subgraphFolder(name)}/index.js`);
  assertBuilt('dist/gateway/main.js');
  assertBuilt('dist/rest-adapter/main.js');
  db = await createTestDatabase();
  // football ×1, access ×2, predictions ×2, gateway ×2 (public and internal ports), adapter ×2 (three surfaces each)
  const ports = await freePorts(5 + 4 + 6);
  const [football, access1, access2, predictions1, predictions2] = ports.splice(0, 5);
  const [gateway1, internal1, gateway2, internal2] = ports.splice(0, 4);
  gatewayUrls = [`http://127.0.0.1:${gateway1}`, `http://127.0.0.1:${gateway2}`];
  accessReplicas = await roundRobin([`http://127.0.0.1:${access1}`, `http://127.0.0.1:${access2}`]);
  predictionReplicas = await roundRobin([`http://127.0.0.1:${predictions1}`, `http://127.0.0.1:${predictions2}`]);
  const internals = await roundRobin([`http://127.0.0.1:${internal1}`, `http://127.0.0.1:${internal2}`]);

  const subgraph = (name: string, port: number) =>
    start(`${name}:${port}`, `dist/${subgraphFolder(name)}/index.js`, port, {
      SUBGRAPH_MODE: 'remote',
      SERVICE_PRIVATE_KEY: KEYS[keyVariable(name, 'private')],
      GATEWAY_PUBLIC_KEY: KEYS[keyVariable(GATEWAY_SERVICE, 'public')],
      DATABASE_URL: db.url,
      SUBGRAPH_PORT: String(port),
      GATEWAY_URL: `${internals.url}/graphql`,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      MASTER_KEY: TEST_MASTER_KEY,
    });
  const urls: Record<string, string> = {
    football: `http://127.0.0.1:${football}/graphql`,
    access: `${accessReplicas.url}/graphql`,
    predictions: `${predictionReplicas.url}/graphql`,
  };
  const gateway = (port: number, internal: number) =>
    start(`gateway:${port}`, 'dist/gateway/main.js', port, {
      SUBGRAPH_MODE: 'remote',
      SERVICE_PRIVATE_KEY: KEYS[keyVariable(GATEWAY_SERVICE, 'private')],
      GATEWAY_PORT: String(port),
      GATEWAY_INTERNAL_PORT: String(internal),
      TRUST_PROXY: 'loopback',
      ...Object.fromEntries(RUNNING.map((name) => [`SUBGRAPH_URL_${name.toUpperCase()}`, urls[name]])),
      ...Object.fromEntries(SUBGRAPHS.map(({ name }) => [`SERVICE_PUBLIC_KEY_${name.toUpperCase()}`, KEYS[keyVariable(name, 'public')]])),
    });
  const adapter = (gatewayPort: number, [predictions, registry, finance]: number[]) =>
    start(`adapter:${predictions}`, 'dist/rest-adapter/main.js', predictions, {
      GATEWAY_URL: `http://127.0.0.1:${gatewayPort}/graphql`,
      PREDICTIONS_PORT: String(predictions),
      REGISTRY_PORT: String(registry),
      PORT: String(finance),
      TRUST_PROXY: 'loopback',
    });

  const deadline = Date.now() + 90_000;
  const started = [
    subgraph('football', football),
    subgraph('access', access1),
    subgraph('access', access2),
    subgraph('predictions', predictions1),
    subgraph('predictions', predictions2),
    gateway(gateway1, internal1),
    gateway(gateway2, internal2),
  ];
  const adapterPorts = [ports.splice(0, 3), ports.splice(0, 3)];
  started.push(adapter(gateway1, adapterPorts[0]), adapter(gateway2, adapterPorts[1]));
  adapterUrls = adapterPorts.map(([p]) => `http://127.0.0.1:${p}`);
  adapters = await roundRobin(adapterUrls);
  await Promise.all(started.map((p) => healthy(p, deadline)));
}, 120_000);

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all(processes.map((p) => Promise.race([p.exit, new Promise((r) => setTimeout(r, 15_000))])));
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(proxies.map((p) => new Promise((resolve) => p.server.close(resolve))));
  await db?.release();
}, 60_000);

const newKey = async (plan: 'free' | 'pro', name: string): Promise<string> => {
  const res = await graphqlAt(gatewayUrls[0], 'mutation ($name: String!, $plan: PlanCode!) { createApiKey(input: { name: $name, plan: $plan }) { key } }', {
    key: TEST_ADMIN_KEY,
    variables: { name, plan },
  });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createApiKey.key as string;
};

it('keeps a daily quota exact across two adapters, two gateways and two access replicas: 50 of 80 concurrent requests', async () => {
  const key = await newKey('free', 'replicas quota');
  const before = [...adapters.served];
  const statuses = await Promise.all(Array.from({ length: 80 }, () => http(`${adapters.url}/api/`, { key }).then((r) => r.status)));
  expect(statuses.filter((s) => s === 200)).toHaveLength(50);
  expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  // both adapters took their share
  expect(adapters.served.map((n, i) => n - before[i])).toEqual([40, 40]);
}, 60_000);

it('revokes a key through one replica and refuses it on the other at once (both access caches evicted)', async () => {
  const key = await newKey('pro', 'replicas revocation');
  // verified, and so cached, by both access replicas (the proxy alternates), through both adapters
  for (const adapter of [...adapterUrls, ...adapterUrls]) expect((await http(`${adapter}/api/`, { key })).status).toBe(200);
  const prefix = key.slice(0, 12);
  const revoked = await graphqlAt(gatewayUrls[0], 'mutation ($key: ID!) { revokeApiKey(key: $key) { revokedAt } }', {
    key: TEST_ADMIN_KEY,
    variables: { key: prefix },
  });
  expect(revoked.body.errors).toBeUndefined();
  // the next request through each adapter, gateway and access replica is refused
  for (const adapter of [...adapterUrls, ...adapterUrls]) expect((await http(`${adapter}/api/`, { key })).status).toBe(401);
}, 60_000);

it('runs a retrain once, whichever replica accepted it and whichever took the job', async () => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const versionsBefore = Number((await client.query('SELECT count(*) FROM predictions.model_version')).rows[0].count);
    const runsBefore = (await client.query('SELECT id FROM predictions.training_run')).rows.map((r: { id: string }) => r.id);
    const accepted = await http(`${adapters.url}/api/retrain/`, {
      method: 'POST',
      key: TEST_ADMIN_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'elo' }),
    });
    expect([accepted.status, accepted.body]).toEqual([202, expect.anything()]);
    // a second request on the other replicas while it runs: one at a time, whoever asks
    const second = await http(`${adapters.url}/api/retrain/`, {
      method: 'POST',
      key: TEST_ADMIN_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'elo' }),
    });
    expect(second.status).toBe(409);
    const id = accepted.body.job_id as string;
    let status = 'queued';
    for (let i = 0; i < 600 && !['succeeded', 'failed'].includes(status); i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await http(`${adapters.url}/api/retrain/${id}/`, { key: TEST_ADMIN_KEY })).body.status as string;
    }
    expect(status).toBe('succeeded');
    const runs = await client.query('SELECT status, owner FROM predictions.training_run WHERE NOT id = ANY($1::uuid[])', [runsBefore]);
    expect(runs.rows).toEqual([{ status: 'succeeded', owner: expect.any(String) }]);
    expect(Number((await client.query('SELECT count(*) FROM predictions.model_version')).rows[0].count)).toBe(versionsBefore + 1);
  } finally {
    await client.end();
  }
}, 360_000);
