import { GraphQLDataSourceRequestKind } from '@apollo/gateway/dist/datasources/types';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SUBGRAPHS } from '../../../bin/subgraphs';
import { SignedRemoteDataSource } from '../../../gateway/datasources';
import type { GatewayContext } from '../../../gateway/context';
import { freePorts } from '../../../lib/server';
import { projectRoot } from '../../../lib/paths';
import { GATEWAY, PRINCIPAL_HEADER, signPrincipal, verifyPrincipal, type Principal } from '../../../lib/principal';
import { http, TEST_ADMIN_KEY } from '../../support/app';
import { assertBuilt } from '../../support/child-app';
import { createTestDatabase } from '../../support/database';

/**
 * The docker-compose topology without Docker: every compiled entry point in its own process,
 * talking HTTP on free ports, against this file's own database. What compose adds on top (images,
 * the network, health conditions) is checked by ../docker-compose.test.ts.
 */

const SECRET = randomBytes(32).toString('hex');
const ADMIN: Principal = { kind: 'api-key', keyId: '00000000-0000-0000-0000-000000000000', prefix: 'mpk_forged00', name: 'forged', role: 'admin', plan: 'enterprise' };

interface Service {
  name: string;
  entry: string;
  /** The port /healthz answers on. */
  port: number;
  env: Record<string, string>;
  child?: ChildProcess;
  exit?: Promise<number | null>;
  output: string;
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let services: Service[] = [];
const url = (name: string, path = '') => `http://127.0.0.1:${services.find((s) => s.name === name)!.port}${path}`;

function start(service: Service): void {
  const child = spawn(process.execPath, [service.entry], {
    cwd: projectRoot(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', LOG_LEVEL: 'warn', DB_POOL_SIZE: '3', ...service.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (service.output = (service.output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  service.child = child;
  service.exit = once(child, 'exit').then(([code]) => code as number | null);
}

async function waitHealthy(service: Service, deadline: number): Promise<void> {
  let exitCode: number | null | undefined;
  void service.exit!.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${service.name} exited during start-up (code ${exitCode}):\n${service.output}`);
    const ok = await fetch(url(service.name, '/healthz')).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service.name} was not healthy in time:\n${service.output}`);
}

async function graphql(target: string, query: string, headers: Record<string, string> = {}) {
  return http(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
}

beforeAll(async () => {
  for (const def of SUBGRAPHS) assertBuilt(`dist/subgraphs/${def.name}/index.js`);
  assertBuilt('dist/gateway/main.js');
  assertBuilt('dist/rest-adapter/main.js');
  db = await createTestDatabase();
  const ports = await freePorts(SUBGRAPHS.length + 4);
  const [gatewayPort, predictionsPort, registryPort, financePort] = ports.splice(0, 4);
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}/graphql`;
  const subgraphs = SUBGRAPHS.map((def, i) => ({ def, port: ports[i] }));
  services = [
    ...subgraphs.map(({ def, port }) => ({
      name: def.name,
      entry: `dist/subgraphs/${def.name}/index.js`,
      port,
      env: {
        SUBGRAPH_MODE: 'remote',
        INTERNAL_SECRET: SECRET,
        DATABASE_URL: db.url,
        SUBGRAPH_PORT: String(port),
        GATEWAY_URL: gatewayUrl,
        ADMIN_API_KEY: TEST_ADMIN_KEY,
      },
      output: '',
    })),
    {
      name: 'gateway',
      entry: 'dist/gateway/main.js',
      port: gatewayPort,
      env: {
        SUBGRAPH_MODE: 'remote',
        INTERNAL_SECRET: SECRET,
        GATEWAY_PORT: String(gatewayPort),
        ...Object.fromEntries(subgraphs.map(({ def, port }) => [`SUBGRAPH_URL_${def.name.toUpperCase()}`, `http://127.0.0.1:${port}/graphql`])),
      },
      output: '',
    },
    {
      name: 'rest-adapter',
      entry: 'dist/rest-adapter/main.js',
      port: predictionsPort,
      env: { GATEWAY_URL: gatewayUrl, PREDICTIONS_PORT: String(predictionsPort), REGISTRY_PORT: String(registryPort), PORT: String(financePort) },
      output: '',
    },
  ];
  services.forEach(start);
  const deadline = Date.now() + 45_000;
  await Promise.all(services.map((s) => waitHealthy(s, deadline)));
}, 60_000);

afterAll(async () => {
  for (const s of services) if (s.child && s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await Promise.all(services.map((s) => s.exit));
  await db?.drop();
});

describe('the docker-compose topology, over HTTP', () => {
  let key: string;

  it('issues a key through the gateway (createApiKey, administrator key)', async () => {
    const res = await graphql(url('gateway', '/graphql'), 'mutation { createApiKey(input: {name: "remote topology", plan: free}) { key apiKey { plan } } }', {
      authorization: `Bearer ${TEST_ADMIN_KEY}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createApiKey.apiKey.plan).toBe('free');
    key = res.body.data.createApiKey.key;
  });

  it('serves GET /api/ through the REST adapter, gateway and subgraphs, with the quota headers', async () => {
    const res = await http(url('rest-adapter', '/api/'), { key });
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ name: 'remote topology', plan: 'free' });
    expect(res.body.data.matches).toBe(33322);
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('49');
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers 401 with WWW-Authenticate without a key', async () => {
    const res = await http(url('rest-adapter', '/api/'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
  });

  it('plans one GraphQL operation across subgraphs', async () => {
    const res = await graphql(url('gateway', '/graphql'), '{ viewer { name plan } plans { code } footballData { matches } }', { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toMatchObject({ viewer: { name: 'remote topology', plan: 'free' }, footballData: { matches: 33322 } });
    expect(res.body.data.plans.map((p: { code: string }) => p.code)).toEqual(['free', 'pro', 'enterprise']);
  });

  it('keeps a subgraph error\'s code and HTTP status across the hop, as in-process', async () => {
    const res = await graphql(url('gateway', '/graphql'), '{ apiKeys { prefix } }', { authorization: `Bearer ${key}` });
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['apiKeys'], extensions: { code: 'FORBIDDEN', serviceName: 'access' } })]);
  });
});

describe('a subgraph reached directly', () => {
  const ask = (principalHeader?: string) =>
    graphql(url('access', '/graphql'), '{ apiKeys { prefix } }', principalHeader === undefined ? {} : { [PRINCIPAL_HEADER]: principalHeader });

  it('rejects a forged principal with 401', async () => {
    for (const forged of [signPrincipal(ADMIN, randomBytes(32).toString('hex')), 'not-a-token', `${signPrincipal(ADMIN, SECRET).split('.')[0]}.`]) {
      const res = await ask(forged);
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(res.body.data).toBeUndefined();
    }
  });

  it('rejects an expired principal with 401', async () => {
    const res = await ask(signPrincipal(ADMIN, SECRET, Date.now() - 5 * 60_000));
    expect(res.status).toBe(401);
  });

  it('treats a request without a principal as anonymous: an @Authorized field is UNAUTHENTICATED', async () => {
    const res = await ask();
    // an executed operation: 200 to the gateway, the status the client gets rides in the error
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } });
  });

  it('serves a principal signed with the shared secret', async () => {
    const res = await ask(signPrincipal(ADMIN, SECRET));
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.apiKeys.length).toBeGreaterThan(0);
  });
});

describe('the gateway\'s connections to a subgraph', () => {
  let server: Server;
  let connections = 0;
  const principals: (Principal | undefined)[] = [];
  let dataSource: SignedRemoteDataSource | undefined;
  const source = () => (dataSource ??= new SignedRemoteDataSource(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, SECRET));

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      principals.push(verifyPrincipal(req.headers[PRINCIPAL_HEADER] as string | undefined, SECRET));
      req.resume().on('end', () => res.setHeader('content-type', 'application/json').end('{"data":{"ok":true}}'));
    });
    server.on('connection', () => connections++);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  beforeEach(() => {
    connections = 0;
    principals.length = 0;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  // Without keep-alive, each request would open its own connection. (Node's fetch may open a second
  // socket when the next request is sent before the previous one's socket is back in its pool.)
  it('are kept alive for query plans (make-fetch-happen, the data source\'s default fetcher), with the signed principal', async () => {
    const context = { principal: ADMIN, requestId: 'keep-alive' } as GatewayContext;
    for (let i = 0; i < 20; i++) await source().process({ kind: GraphQLDataSourceRequestKind.HEALTH_CHECK, request: { query: '{ ok }' }, context });
    expect(connections).toBeLessThanOrEqual(2);
    expect(principals).toEqual(Array(20).fill(ADMIN));
  });

  it('are kept alive for credential checks (call(), on Node\'s fetch), with the signed principal', async () => {
    for (let i = 0; i < 20; i++) await source().call('{ ok }', {}, GATEWAY, 'keep-alive');
    expect(connections).toBeLessThanOrEqual(2);
    expect(principals).toEqual(Array(20).fill(GATEWAY));
  });
});

describe('shutdown', () => {
  it('stops every process on SIGTERM, with exit code 0', async () => {
    // callers first, so that nothing is in flight towards a stopped subgraph
    for (const s of [...services].reverse()) {
      s.child!.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([s.exit!, new Promise((r) => (timer = setTimeout(() => r('still running after 15 s'), 15_000)))]);
      clearTimeout(timer);
      expect([s.name, code]).toEqual([s.name, 0]);
    }
  }, 60_000);
});
