import { GraphQLDataSourceRequestKind } from '@apollo/gateway/dist/datasources/types';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSubgraphs, PRODUCT_NAMES, subgraphFolder } from '../../../../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);
import { SignedRemoteDataSource } from '../../../../gateway/remote-datasource';
import type { GatewayContext } from '../../../../gateway/context';
import { freePorts } from '../../../../lib/server';
import { projectRoot } from '../../../../lib/paths';
import { GATEWAY, PRINCIPAL_HEADER, signRequestToken, verifyRequestToken, type Principal } from '../../../../lib/principal';
import { GATEWAY_SERVICE, keyVariable, parseServicePrivateKey, parseServicePublicKey, serviceKeyEnv } from '../../../../lib/service-keys';
import { TEST_ADMIN_KEY } from '../../../support/platform/app';
import { graphqlAt, graphqlBody, surface } from '../../../support/platform/http';
import { assertBuilt, testProcessEnv } from '../../../support/platform/child-app';
import { admin, createTestDatabase, serverUrl } from '../../../support/platform/database';
import { DATA_CHANGED } from '../../../../lib/cache-policy';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TEST_MASTER_KEY } from '../../../support/platform/keys';

/**
 * The docker-compose topology without Docker: every compiled entry point in its own process,
 * talking HTTP on free ports, against this file's own database, each service with its own key pair
 * (as `npm run service-keys` makes them). What compose adds on top (images, the networks, health
 * conditions) is checked by ../docker-compose.test.ts.
 */

const KEYS = serviceKeyEnv(SUBGRAPHS.map((s) => s.name));
const privateKeyOf = (service: string) => parseServicePrivateKey(KEYS[keyVariable(service, 'private')]);
const publicKeyOf = (service: string) => parseServicePublicKey(KEYS[keyVariable(service, 'public')]);
const ADMIN: Principal = {
  kind: 'api-key',
  keyId: '00000000-0000-0000-0000-000000000000',
  prefix: 'mpk_forged00',
  name: 'forged',
  role: 'admin',
  plan: 'enterprise',
  administrator: true,
};

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
/** The gateway's own database role, made by deploy/postgres/gateway-listener.sql (roles are server-wide: a name of this run's own). */
const gatewayRole = { name: `mdtest_gateway_${randomBytes(4).toString('hex')}`, password: randomBytes(12).toString('hex'), url: '' };
let services: Service[] = [];
/** The gateway's internal endpoint (the subgraphs' calls back to it), on its own port. */
let internal: string;
/** A service on its port (the ports are chosen in beforeAll). */
const at = (name: string) => surface(() => `http://127.0.0.1:${services.find((s) => s.name === name)!.port}`);
const gateway = at('gateway');
const adapter = at('rest-adapter');

/**
 * The Node that runs the services: the Docker image's own (IMAGE_NODE, which .ci/run fetches for the
 * major version of the Dockerfile's base, ARG NODE_IMAGE), else this one (the development machines' Node 20).
 */
const NODE = process.env.IMAGE_NODE || process.execPath;

function start(service: Service): void {
  const child = spawn(NODE, [service.entry], {
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
      ...service.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (service.output = (service.output + chunk.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  service.child = child;
  service.exit = once(child, 'exit').then(([code]) => code as number | null);
}

async function waitHealthy(service: Service, deadline: number): Promise<void> {
  let exitCode: number | null | undefined;
  void service.exit!.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${service.name} exited during start-up (code ${exitCode}):\n${service.output}`);
    const ok = await fetch(at(service.name).url('/healthz')).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service.name} was not healthy in time:\n${service.output}`);
}

beforeAll(async () => {
  for (const def of SUBGRAPHS) assertBuilt(`dist/${subgraphFolder(def.name)}/index.js`);
  assertBuilt('dist/gateway/main.js');
  assertBuilt('dist/rest-adapter/main.js');
  db = await createTestDatabase();
  await createGatewayRole();
  const ports = await freePorts(SUBGRAPHS.length + 5);
  const [gatewayPort, internalPort, predictionsPort, registryPort, financePort] = ports.splice(0, 5);
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}/graphql`;
  internal = `http://127.0.0.1:${internalPort}`;
  const subgraphs = SUBGRAPHS.map((def, i) => ({ def, port: ports[i] }));
  services = [
    ...subgraphs.map(({ def, port }) => ({
      name: def.name,
      entry: `dist/${subgraphFolder(def.name)}/index.js`,
      port,
      env: {
        SUBGRAPH_MODE: 'remote',
        SERVICE_PRIVATE_KEY: KEYS[keyVariable(def.name, 'private')],
        GATEWAY_PUBLIC_KEY: KEYS[keyVariable(GATEWAY_SERVICE, 'public')],
        DATABASE_URL: db.url,
        SUBGRAPH_PORT: String(port),
        GATEWAY_URL: `${internal}/graphql`,
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        APPLICATIONS_PER_HOUR: '1',
        MASTER_KEY: TEST_MASTER_KEY,
      },
      output: '',
    })),
    {
      name: 'gateway',
      entry: 'dist/gateway/main.js',
      port: gatewayPort,
      env: {
        SUBGRAPH_MODE: 'remote',
        SERVICE_PRIVATE_KEY: KEYS[keyVariable(GATEWAY_SERVICE, 'private')],
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_INTERNAL_PORT: String(internalPort),
        // its response cache hears the data changes there
        DATABASE_URL: gatewayRole.url,
        // the REST adapter (on loopback here) names the client in X-Forwarded-For
        TRUST_PROXY: 'loopback',
        ...Object.fromEntries(subgraphs.map(({ def, port }) => [`SUBGRAPH_URL_${def.name.toUpperCase()}`, `http://127.0.0.1:${port}/graphql`])),
        ...Object.fromEntries(subgraphs.map(({ def }) => [`SERVICE_PUBLIC_KEY_${def.name.toUpperCase()}`, KEYS[keyVariable(def.name, 'public')]])),
      },
      output: '',
    },
    {
      name: 'rest-adapter',
      entry: 'dist/rest-adapter/main.js',
      port: predictionsPort,
      env: {
        GATEWAY_URL: gatewayUrl,
        PREDICTIONS_PORT: String(predictionsPort),
        REGISTRY_PORT: String(registryPort),
        PORT: String(financePort),
        // stands in for a load balancer in front of the adapter
        TRUST_PROXY: 'loopback',
      },
      output: '',
    },
  ];
  services.forEach(start);
  const deadline = Date.now() + 150_000;
  await Promise.all(services.map((s) => waitHealthy(s, deadline)));
}, 180_000);

afterAll(async () => {
  for (const s of services) if (s.child && s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await Promise.all(services.map((s) => s.exit ?? Promise.resolve()));
  await db?.release();
  await admin(serverUrl(), (c) => c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(gatewayRole.name)}`));
});

/** Runs the shipped SQL, its psql variables (:"role", :'password') filled in as psql would. */
async function createGatewayRole(): Promise<void> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const sql = readFileSync(join(projectRoot(), 'deploy/postgres/gateway-listener.sql'), 'utf8')
      .replace(/:"role"/g, client.escapeIdentifier(gatewayRole.name))
      .replace(/:'password'/g, client.escapeLiteral(gatewayRole.password));
    await client.query(sql);
  } finally {
    await client.end();
  }
  const u = new URL(db.url);
  u.username = gatewayRole.name;
  u.password = gatewayRole.password;
  gatewayRole.url = u.toString();
}

describe('the docker-compose topology, over HTTP', () => {
  let key: string;

  it('issues a key through the gateway (createApiKey, administrator key)', async () => {
    const res = await graphqlAt(gateway.url(), 'mutation { createApiKey(input: {name: "remote topology", plan: free}) { key apiKey { plan } } }', {
      key: TEST_ADMIN_KEY,
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createApiKey.apiKey.plan).toBe('free');
    key = res.body.data.createApiKey.key;
  });

  it('serves GET /api/ through the REST adapter, gateway and subgraphs, with the quota headers', async () => {
    const res = await adapter.get('/api/', key);
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ name: 'remote topology', plan: 'free' });
    expect(res.body.data.matches).toBe(33322);
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('49');
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers 401 with WWW-Authenticate without a key', async () => {
    const res = await adapter.get('/api/');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
  });

  it('plans one GraphQL operation across subgraphs', async () => {
    const res = await graphqlAt(gateway.url(), '{ viewer { name plan } plans { code } footballData { matches } }', { key });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toMatchObject({ viewer: { name: 'remote topology', plan: 'free' }, footballData: { matches: 33322 } });
    expect(res.body.data.plans.map((p: { code: string }) => p.code)).toEqual(['free', 'pro', 'enterprise']);
  });

  it("carries the client's address from the REST adapter through the gateway to the subgraph (per-address limits)", async () => {
    const apply = (address: string, n: number) =>
      adapter.post(
        '/api/applications/',
        undefined,
        { name: `Remote ${n}`, usage: `A remote topology project, number ${n}.`, email: `remote${n}@topology.example` },
        { 'x-forwarded-for': address },
      );
    expect((await apply('203.0.113.50', 1)).status).toBe(202);
    const limited = await apply('203.0.113.50', 2);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await apply('203.0.113.51', 3)).status).toBe(202);
  });

  it("keeps a subgraph error's code and HTTP status across the hop, as in-process", async () => {
    const res = await graphqlAt(gateway.url(), '{ apiKeys { prefix } }', { key });
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['apiKeys'], extensions: { code: 'FORBIDDEN', serviceName: 'access' } })]);
  });
});

/** What a request token says, signed by `signer`'s key (the gateway's, or a subgraph's), for `audience`, over `body`. */
const token = (signer: string, audience: string, body: string, claims: { principal?: Principal; now?: number; issuer?: string } = {}) =>
  signRequestToken({ issuer: claims.issuer ?? signer, audience, privateKey: privateKeyOf(signer), body, principal: claims.principal, now: claims.now });

/** An administrator's query, and the body a request of it carries (what a token is signed over). */
const API_KEYS = '{ apiKeys { prefix } }';
const QUERY = graphqlBody(API_KEYS);
/** A GraphQL operation at `base` carrying `tokenValue` (none: unsigned) as its principal header. */
const presenting = (base: string, query: string, tokenValue?: string) =>
  graphqlAt(base, query, { headers: tokenValue === undefined ? {} : { [PRINCIPAL_HEADER]: tokenValue } });

describe('a subgraph reached directly', () => {
  const ask = (tokenValue?: string) => presenting(at('access').url(), API_KEYS, tokenValue);

  it('refuses an unsigned request with 401: nothing reaches the schema, not even as anonymous', async () => {
    const res = await ask();
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(res.body.data).toBeUndefined();
  });

  it('serves the principal the gateway signed for this subgraph and this body', async () => {
    const res = await ask(await token(GATEWAY_SERVICE, 'access', QUERY, { principal: ADMIN }));
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.apiKeys.length).toBeGreaterThan(0);
  });

  it('refuses an administrator minted by another subgraph, even one naming the gateway as its signer', async () => {
    for (const forged of [
      await token('football', 'access', QUERY, { principal: ADMIN }),
      await token('football', 'access', QUERY, { principal: ADMIN, issuer: GATEWAY_SERVICE }),
      'not-a-token',
    ]) {
      const res = await ask(forged);
      expect(res.status).toBe(401);
      expect(res.body.data).toBeUndefined();
    }
  });

  it("refuses the gateway's token for another subgraph, for another body, or expired", async () => {
    const cases = [
      await token(GATEWAY_SERVICE, 'football', QUERY, { principal: ADMIN }),
      await token(GATEWAY_SERVICE, 'access', graphqlBody('{ plans { code } }'), { principal: ADMIN }),
      await token(GATEWAY_SERVICE, 'access', QUERY, { principal: ADMIN, now: Date.now() - 60_000 }),
    ];
    for (const stale of cases) expect((await ask(stale)).status).toBe(401);
  });
});

describe("the gateway's endpoints", () => {
  it('refuses any signed principal on the public endpoint, even a valid service token (it would skip metering)', async () => {
    for (const signed of [await token('predictions', GATEWAY_SERVICE, QUERY), await token(GATEWAY_SERVICE, GATEWAY_SERVICE, QUERY, { principal: ADMIN })]) {
      const res = await presenting(gateway.url(), API_KEYS, signed);
      expect(res.status).toBe(401);
      expect(res.body.data).toBeUndefined();
    }
  });

  it('serves a subgraph on the internal endpoint as its service principal, never more', async () => {
    const query = '{ footballData { matches } }';
    const served = await presenting(internal, query, await token('predictions', GATEWAY_SERVICE, graphqlBody(query)));
    expect(served.status).toBe(200);
    expect(served.body.data.footballData.matches).toBe(33322);
    // an administrator field: the service principal is not one, whatever the token claims
    const admin = await presenting(internal, API_KEYS, await token('predictions', GATEWAY_SERVICE, QUERY, { principal: ADMIN }));
    expect(admin.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses on the internal endpoint what is unsigned, signed by an unknown key, for another audience or another body', async () => {
    const query = '{ footballData { matches } }';
    const body = graphqlBody(query);
    const cases: (string | undefined)[] = [
      undefined,
      await token('predictions', GATEWAY_SERVICE, body, { issuer: 'football' }),
      await token('predictions', 'access', body),
      await token('predictions', GATEWAY_SERVICE, QUERY),
    ];
    for (const tokenValue of cases) {
      const res = await presenting(internal, query, tokenValue);
      expect(res.status).toBe(401);
      expect(res.body.data).toBeUndefined();
    }
  });
});

describe("the gateway's response cache, on its listen-only database role", () => {
  let owner: pg.Client;
  const heard: string[] = [];
  beforeAll(async () => {
    owner = new pg.Client({ connectionString: db.url });
    await owner.connect();
    owner.on('notification', (n) => heard.push(n.payload ?? ''));
    await owner.query(`LISTEN ${DATA_CHANGED}`);
  });
  afterAll(() => owner?.end());

  const latest = () => adapter.get('/api/predictions/latest/?competition=en.1', TEST_ADMIN_KEY);
  const confidenceOf = async (matchId: number) =>
    ((await latest()).body as { match_id: number; confidence: number }[]).find((p) => p.match_id === matchId)?.confidence;

  it('keeps an answer that is the same for every caller until the database announces a change to its data', async () => {
    // these processes run on the real clock, after the shipped data's last fixture: one open en.1 match is
    // moved a month ahead so that it is upcoming (the trigger announces it before the case begins)
    await owner.query(
      `UPDATE predictions.prediction SET kickoff = now() + interval '30 days'
        WHERE match_id = (SELECT match_id FROM predictions.prediction WHERE actual_outcome IS NULL AND competition = 'en.1' ORDER BY kickoff DESC LIMIT 1)`,
    );
    const first = await latest();
    expect(first.status).toBe(200);
    const [{ match_id: matchId }] = first.body as { match_id: number }[];
    // a change the triggers do not announce (replica mode skips them): an answer from the cache does not show it
    for (let attempt = 1; ; attempt++) {
      const value = (100 + attempt) / 1000;
      const announcedBefore = heard.length;
      await confidenceOf(matchId);
      await owner.query('BEGIN');
      await owner.query(`SET LOCAL session_replication_role = replica`);
      await owner.query('UPDATE predictions.prediction SET confidence = $2 WHERE match_id = $1 AND actual_outcome IS NULL', [matchId, value]);
      await owner.query('COMMIT');
      const served = await confidenceOf(matchId);
      // another change announced meanwhile (the services' start-up work) may have evicted the answer: try again
      if (heard.length !== announcedBefore && attempt < 5) continue;
      expect(served).not.toBe(value);
      // announced: the gateway evicts the answer, the next one shows the change
      await owner.query('SELECT pg_notify($1, $2)', [DATA_CHANGED, 'predictions']);
      const deadline = Date.now() + 10_000;
      while ((await confidenceOf(matchId)) !== value && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await confidenceOf(matchId)).toBe(value);
      break;
    }
  });

  it('connects as a role that may listen and do nothing else: no table, no function, no schema of its own', async () => {
    const client = new pg.Client({ connectionString: gatewayRole.url });
    await client.connect();
    try {
      await client.query(`LISTEN ${DATA_CHANGED}`);
      const refused = (sql: string) =>
        client.query(sql).then(
          () => 'allowed',
          (e: { code?: string }) => e.code,
        );
      for (const sql of [
        'SELECT count(*) FROM predictions.prediction',
        'SELECT count(*) FROM access.api_key',
        'UPDATE football.team SET name = name',
        `SELECT access.meter('00000000-0000-0000-0000-000000000000'::uuid, current_date, 1, 1, now())`,
        'CREATE SCHEMA gateway_own',
      ])
        expect([sql, await refused(sql)]).toEqual([sql, '42501']);
      const { rows } = await client.query('SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication FROM pg_roles WHERE rolname = current_user');
      expect(rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolreplication: false }]);
    } finally {
      await client.end();
    }
  });
});

describe("the gateway's connections to a subgraph", () => {
  let server: Server;
  let connections = 0;
  const principals: (Principal | undefined)[] = [];
  let dataSource: SignedRemoteDataSource | undefined;
  const source = () =>
    (dataSource ??= new SignedRemoteDataSource(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, 'access', privateKeyOf(GATEWAY_SERVICE)));

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void verifyRequestToken(req.headers[PRINCIPAL_HEADER] as string | undefined, {
          audience: 'access',
          publicKeyOf: (issuer) => (issuer === GATEWAY_SERVICE ? publicKeyOf(GATEWAY_SERVICE) : undefined),
          body: Buffer.concat(chunks),
        }).then((verified) => {
          principals.push(verified?.principal);
          res.setHeader('content-type', 'application/json').end('{"data":{"ok":true}}');
        });
      });
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
  it("are kept alive for query plans (make-fetch-happen, the data source's default fetcher), with the signed principal", async () => {
    const context = { principal: ADMIN, requestId: 'keep-alive' } as GatewayContext;
    for (let i = 0; i < 20; i++) await source().process({ kind: GraphQLDataSourceRequestKind.HEALTH_CHECK, request: { query: '{ ok }' }, context });
    expect(connections).toBeLessThanOrEqual(2);
    expect(principals).toEqual(Array(20).fill(ADMIN));
  });

  it("are kept alive for credential checks (call(), on Node's fetch), with the signed principal", async () => {
    for (let i = 0; i < 20; i++) await source().call('{ ok }', {}, GATEWAY, { requestId: 'keep-alive' });
    expect(connections).toBeLessThanOrEqual(2);
    expect(principals).toEqual(Array(20).fill(GATEWAY));
  });
});

describe("the image's Node", () => {
  it('runs the services when IMAGE_NODE is set, and is then the major version the Dockerfile builds on', () => {
    if (!process.env.IMAGE_NODE) return;
    const from = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(readFileSync(join(projectRoot(), 'Dockerfile'), 'utf8'))![1];
    const version = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toMatch(new RegExp(`^v${from}\\.`));
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
