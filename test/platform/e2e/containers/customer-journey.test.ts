/**
 * A customer installs a finance node from the registry and it really starts, under podman:
 *
 *   the vendor's registry runs in a container (the project image, PRODUCTS=registry) on its own
 *   PostgreSQL container; the vendor ships release 1.0.0 with the CLI (`registry releases ship`: the
 *   real finance-node images saved, uploaded with size, SHA-256 and image id, published) →
 *   `install-node.sh` (downloads, verifies, loads the images into podman, starts the tailored compose
 *   file with podman-compose) → the node migrates its database, verifies its licence offline, registers
 *   and heartbeats with its own state and uptime → the vendor sees it alive with its version → 1.1.0
 *   is shipped → check-update says so → the installer updates → the node answers as 1.1.0 with its
 *   data. A licence whose maintenance ended before 1.1.0 installs 1.0.0; a revoked licence gets no
 *   update, and its node says so in /api/v1/node/.
 *
 * The containers reach each other on the compose project's network; this machine reaches them on
 * published loopback ports. (Containers here cannot reach the host, so the registry is a container too,
 * attached to the customer's network as `registry`, the URL the customer gives the node in .env.)
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parse } from 'yaml';
import { projectRoot } from '../../../../lib/paths';
import { freePorts } from '../../../../lib/server';
import { FINANCE_NODE_TEMPLATE } from '../../../../subgraphs/registry/licensing/domain/demo';
import { assertBuilt } from '../../../support/platform/child-app';
import { describeContainers, engine, images, removeByPrefix, waitFor, waitForStatus } from '../../../support/platform/containers';
import { TEST_MASTER_KEY } from '../../../support/platform/keys';
import { surface } from '../../../support/platform/http';
import { loginAt } from '../../../support/finance/node';

jest.setTimeout(20 * 60_000);

const prefix = `mcj${randomBytes(3).toString('hex')}`;
const PASSWORD = 'Correct-Horse-Battery-9';
let work: string;
let dataDir: string;
let ports: { pg: number; registry: number; backend: number; frontend: number };
let vendorDb: string;

/** A command of the vendor's CLI (dist/bin/cli.js) against the registry's database and object store. */
function cli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(projectRoot(), 'dist/bin/cli.js'), ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        FRONTEND_URL: 'http://127.0.0.1:8000/app/',
        PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
        PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
        DATABASE_URL: vendorDb,
        DATA_DIR: dataDir,
        MASTER_KEY: TEST_MASTER_KEY,
        CONTAINER_ENGINE: 'podman',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')} exited with ${code}:\n${out}`))));
  });
}

/** scripts/install-node.sh as the customer runs it (this machine: loopback http). */
function install(key: string, target: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(projectRoot(), 'scripts/install-node.sh'), `http://127.0.0.1:${ports.registry}`, key, target], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CONTAINER_ENGINE: 'podman', NODE_HOSTNAME: 'customer-node', MACHINE_ID: machineId, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      if (code === 0) return resolve({ code, output });
      // a failed install shows what the registry logged meanwhile (how a 503 came about, for one)
      execFile('podman', ['logs', '--tail', '40', `${prefix}-registry`], { maxBuffer: 4 * 1024 * 1024 }, (_err, stdout, stderr) =>
        resolve({ code, output: `${output}\n--- registry log (last 40 lines) ---\n${stdout ?? ''}${stderr ?? ''}` }),
      );
    });
  });
}

const machineId = randomBytes(16).toString('hex');
/** The customer's node on its published backend port (chosen in beforeAll). */
const backend = surface(() => `http://127.0.0.1:${ports.backend}`);

async function vendorQuery<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: vendorDb });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

const licenceKey = (out: string) => /(LIC-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\s*$/.exec(out.trim())![1];

describeContainers('the customer journey under podman', () => {
  let key: string;
  let target: string;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    assertBuilt('dist/bin/cli.js');
    work = mkdtempSync(join(tmpdir(), 'customer-journey-'));
    dataDir = join(work, 'registry-data');
    mkdirSync(dataDir);
    chmodSync(work, 0o755);
    const [pgPort, registry, backendPort, frontend] = await freePorts(4);
    ports = { pg: pgPort, registry, backend: backendPort, frontend };
    const img = images();
    // the vendor: PostgreSQL and the registry, in containers
    await engine(['network', 'create', `${prefix}-vendor`]);
    await engine([
      'run', '-d', '--name', `${prefix}-vendor-pg`, '--network', `${prefix}-vendor`,
      '-e', 'POSTGRES_USER=registry', '-e', 'POSTGRES_PASSWORD=registry-pw', '-e', 'POSTGRES_DB=registry',
      '-p', `127.0.0.1:${pgPort}:5432`, img.postgres,
    ]); // prettier-ignore
    vendorDb = `postgres://registry:registry-pw@127.0.0.1:${pgPort}/registry`;
    await waitFor('the vendor database', 120_000, async () => {
      await vendorQuery('SELECT 1');
      return true;
    });
    // the catalogue, with the vendor's CLI (it migrates the registry's schema on first use)
    const templateFile = join(work, 'template.json');
    writeFileSync(templateFile, JSON.stringify(FINANCE_NODE_TEMPLATE));
    await cli(['registry', 'organisations', 'create', '--name', 'Acme Bank', '--slug', 'acme']);
    await cli(['registry', 'products', 'create', '--code', 'finance-node', '--name', 'Finance Node', '--template', templateFile]);
    await cli(['registry', 'plans', 'create', '--product', 'finance-node', '--code', 'standard', '--name', 'Standard', '--max-nodes', '3']);
    key = licenceKey(await cli(['registry', 'licences', 'create', '--organisation', 'acme', '--plan', 'finance-node/standard']));
    const started = Date.now();
    const shipped = await cli([
      'registry', 'releases', 'ship', '--product', 'finance-node', '--version', '1.0.0', '--channel', 'stable', '--backdated-to', '2025-01-15',
      '--image', `backend=${img.backend}`, '--image', `frontend=${img.frontend}`,
    ]); // prettier-ignore
    timings.shipSeconds = (Date.now() - started) / 1000;
    expect(shipped).toMatch(
      /backend: finance-node-backend-1\.0\.0\.docker\.tar\.gz, \d+ bytes, sha256 [0-9a-f]{64}, image localhost\/finance-node\/backend:1\.0\.0 sha256:[0-9a-f]{64}/,
    );
    expect(shipped).toContain('Published 1.0.0 on stable');
    // the registry reaches its database by address, not by name: it is also on the customer's network,
    // which the installer's `compose down`/`up` churns, and name lookups inside it then stalled past the
    // pool's 5 s connection timeout (a CI run: the registry answered 503 for 15 s after the update)
    const vendorPgAddress = (
      await engine(['inspect', '-f', `{{(index .NetworkSettings.Networks "${prefix}-vendor").IPAddress}}`, `${prefix}-vendor-pg`])
    ).trim();
    expect(vendorPgAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await engine([
      'run', '-d', '--name', `${prefix}-registry`, '--network', `${prefix}-vendor`, '--user', 'root',
      '-v', `${dataDir}:/var/lib/matchday`, '-e', 'NODE_ENV=production', '-e', 'PRODUCTS=registry', '-e', `PUBLIC_URL_REGISTRY=http://127.0.0.1:${registry}`, '-e', 'HOST=0.0.0.0',
      // (on the customer's network, `postgres` is the customer's database)
      '-e', 'REGISTRY_PORT=8090', '-e', `DATABASE_URL=postgres://registry:registry-pw@${vendorPgAddress}:5432/registry`,
      '-e', 'DATA_DIR=/var/lib/matchday', '-e', `MASTER_KEY=${TEST_MASTER_KEY}`, '-e', 'LOG_LEVEL=warn',
      '-p', `127.0.0.1:${registry}:8090`, img.app, 'node', 'dist/bin/start.js',
    ]); // prettier-ignore
    await waitForStatus(`http://127.0.0.1:${registry}/healthz`, 200, 180_000).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await engine(['logs', `${prefix}-registry`]).catch(() => '')}`);
    });
    // the customer's side: the compose project's network exists before the installer starts it, with
    // the registry on it (how this customer's node reaches the vendor), and the customer's settings
    target = join(work, `${prefix}-node`);
    mkdirSync(target);
    await engine(['network', 'create', `${prefix}-node_default`]);
    await engine(['network', 'connect', '--alias', 'registry', `${prefix}-node_default`, `${prefix}-registry`]);
    writeFileSync(
      join(target, '.env'),
      [
        `POSTGRES_IMAGE=${img.postgres}`,
        'VENDOR_LICENSE_ENGINE_URL=http://registry:8090',
        // the registry container on this compose network: http, which production refuses unless told the network is trusted
        'VENDOR_REGISTRY_ALLOW_HTTP=true',
        'ALLOWED_HOSTS=localhost,127.0.0.1',
        `BACKEND_PORT=${backendPort}`,
        `FRONTEND_PORT=${frontend}`,
        `API_URL=http://127.0.0.1:${backendPort}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
  });

  afterAll(() => {
    removeByPrefix(prefix);
    if (work) rmSync(work, { recursive: true, force: true });
    console.log(`customer journey timings: ${JSON.stringify(timings)}`);
  });

  it('installs 1.0.0: verified, loaded, started; the node migrates, is licensed, registers and heartbeats with its own state', async () => {
    const started = Date.now();
    const first = await install(key, target);
    expect([first.code, first.output]).toEqual([0, expect.stringContaining('Done: finance-node 1.0.0 installed')]);
    expect(first.output).toMatch(/finance-node-backend-1\.0\.0\.docker\.tar\.gz: \d+ bytes, sha256 verified/);
    expect(first.output).toMatch(/localhost\/finance-node\/backend:1\.0\.0: loaded \(sha256:[0-9a-f]{64}\)/);
    expect(first.output).toContain('Generated in');
    await waitForStatus(backend.url('/readyz'), 200, 300_000);
    timings.installToReadySeconds = (Date.now() - started) / 1000;

    // licensed offline (the token of the tailored manifest): not read-only, version 1.0.0
    const node = await waitFor('the node licensed', 120_000, async () => {
      const res = await fetch(backend.url('/api/v1/node/'));
      const body = (await res.json()) as { version: string; read_only: boolean };
      return body.read_only === false ? body : undefined;
    });
    expect(node.version).toBe('1.0.0');
    // the web client, from the frontend image, naming the backend
    const page = await fetch(`http://127.0.0.1:${ports.frontend}/app/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<meta name="finance-api-base" content="http://127.0.0.1:${ports.backend}" />`);

    // the vendor sees one seat (the installer's registration and the node's own are the same machine),
    // alive, at 1.0.0, reported healthy by the node with its own uptime (not this machine's)
    const [seat] = await waitFor('a heartbeat of the node', 120_000, async () => {
      const rows = await vendorQuery<{ hostname: string; current_version: string; status: string; reported_status: string; uptime_seconds: number }>(
        'SELECT hostname, current_version, status, reported_status, uptime_seconds FROM licensing.deployment',
      );
      return rows.length && rows[0].reported_status ? rows : undefined;
    });
    expect(seat).toMatchObject({ current_version: '1.0.0', status: 'alive', reported_status: 'healthy' });
    expect(seat.uptime_seconds).toBeLessThan((Date.now() - started) / 1000 + 5);
    expect(await vendorQuery('SELECT 1 FROM licensing.deployment')).toHaveLength(1);
    const shown = await cli(['registry', 'licences', 'show', key.slice(0, 8)]);
    expect(shown).toMatch(/alive .* v1\.0\.0 .*\(healthy\)/);

    // data of the customer's: an operator account, created in the running node
    const compose = parse(readFileSync(join(target, 'docker-compose.yml'), 'utf8')) as { 'x-artifacts': { imageId: string }[] };
    expect(compose['x-artifacts'].every((a) => /^sha256:[0-9a-f]{64}$/.test(a.imageId))).toBe(true);
    await engine([
      'exec',
      '-e',
      `SUPERUSER_PASSWORD=${PASSWORD}`,
      `${prefix}-node_backend_1`,
      'node',
      'dist/bin/cli.js',
      'finance:createsuperuser',
      '--username',
      'operator',
    ]);
    expect((await loginAt(backend.url(), 'operator', PASSWORD)).status).toBe(200);
  });

  it('1.1.0 is shipped: check-update says so, the installer updates, the node answers as 1.1.0 with its data', async () => {
    const img = images();
    await cli([
      'registry',
      'releases',
      'ship',
      '--product',
      'finance-node',
      '--version',
      '1.1.0',
      '--channel',
      'stable',
      '--image',
      `backend=${img.backend}`,
      '--image',
      `frontend=${img.frontend}`,
    ]);
    const check = await fetch(`http://127.0.0.1:${ports.registry}/api/v1/releases/check-update?product=finance-node&channel=stable&current_version=1.0.0`, {
      headers: { 'x-license-key': key },
    });
    expect(((await check.json()) as { data: unknown }).data).toMatchObject({ updateAvailable: true, latestVersion: '1.1.0', maintenanceCovered: true });
    const started = Date.now();
    const update = await install(key, target);
    expect([update.code, update.output]).toEqual([0, expect.stringContaining('Installing finance-node 1.1.0 (1.0.0, channel stable)')]);
    await waitFor('the node at 1.1.0', 300_000, async () => {
      const res = await fetch(backend.url('/api/v1/node/'));
      const body = (await res.json()) as { version: string };
      return body.version === '1.1.0' ? true : undefined;
    });
    await waitForStatus(backend.url('/readyz'), 200, 120_000);
    timings.updateToReadySeconds = (Date.now() - started) / 1000;
    expect((await loginAt(backend.url(), 'operator', PASSWORD)).status).toBe(200);
    const seats = await vendorQuery<{ current_version: string }>('SELECT current_version FROM licensing.deployment');
    expect(seats).toEqual([{ current_version: '1.1.0' }]);
  });

  it('a licence whose maintenance ended before 1.1.0 installs 1.0.0, the last release it covers', async () => {
    const lapsed = licenceKey(
      await cli(['registry', 'licences', 'create', '--organisation', 'acme', '--plan', 'finance-node/standard', '--maintenance-until', '2025-03-01']),
    );
    const other = join(work, 'lapsed');
    const res = await install(lapsed, other, { SKIP_DOCKER_LOAD: '1', MACHINE_ID: randomBytes(16).toString('hex') });
    expect([res.code, res.output]).toEqual([0, expect.stringContaining('1.1.0 is not covered by your maintenance; installing 1.0.0 instead')]);
    expect(readFileSync(join(other, '.installed-version'), 'utf8').trim()).toBe('1.0.0');
  });

  it('a revoked licence gets no update, and its node says so in /api/v1/node/', async () => {
    await cli(['registry', 'licences', 'revoke', key.slice(0, 8), '--reason', 'contract ended']);
    const res = await install(key, target);
    expect([res.code, res.output]).toEqual([1, expect.stringContaining('LICENSE_REVOKED')]);
    // the node hears it at its next heartbeat: restart it to send one now
    await engine(['restart', '-t', '5', `${prefix}-node_backend_1`]);
    const node = await waitFor('the node told of the revocation', 180_000, async () => {
      const body = (await (await fetch(backend.url('/api/v1/node/'))).json()) as { registry: { last_heartbeat_status: string } | null };
      return body.registry?.last_heartbeat_status === 'license_revoked' ? body : undefined;
    });
    expect(node.registry).toMatchObject({ last_heartbeat_status: 'license_revoked' });
  });
});
