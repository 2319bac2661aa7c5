/**
 * The customer's installer (scripts/install-node.sh) end to end against the system as `npm start`
 * runs it (dist/bin/start.js, its own process), with the demo licence key the banner prints. The
 * script runs with a PATH that holds bash, curl, sha256sum and the handful of coreutils it uses: it
 * needs nothing else (no jq; without docker or podman it downloads and verifies, and says how to load).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../../../lib/paths';
import { freePorts } from '../../../../lib/server';
import { TEST_ADMIN_KEY } from '../../../support/app';
import { assertBuilt } from '../../../support/child-app';
import { createTestDatabase } from '../../../support/database';
import { TEST_MASTER_KEY } from '../../../support/keys';
import { call } from '../../../support/registry';

const TOOLS = ['bash', 'curl', 'sha256sum', 'base64', 'openssl', 'head', 'mkdir', 'mktemp', 'mv', 'rm', 'uname'];

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let child: ChildProcess;
let exited: Promise<number | null>;
let registry: string;
let gateway: string;
let licenceKey: string;
let toolDir: string;
let work: string;

beforeAll(async () => {
  assertBuilt('dist/bin/start.js');
  db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'installer-system-'));
  work = mkdtempSync(join(tmpdir(), 'installer-'));
  const [gatewayPort, predictions, registryPort, finance] = await freePorts(4);
  child = spawn(process.execPath, [join(projectRoot(), 'dist/bin/start.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      MASTER_KEY: TEST_MASTER_KEY,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      LOG_LEVEL: 'warn',
      GATEWAY_PORT: String(gatewayPort),
      PREDICTIONS_PORT: String(predictions),
      REGISTRY_PORT: String(registryPort),
      PORT: String(finance),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 60 s:\n${out}`)), 60_000);
    const read = (d: Buffer) => {
      out += String(d);
      if (out.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
  licenceKey = /Licence key\s+(LIC-[A-Z0-9-]+)/.exec(out)![1];
  registry = /Licence registry\s+(\S+)\/api\/v1\//.exec(out)![1];
  gateway = `http://127.0.0.1:${gatewayPort}`;
  expect(registry).toBe(`http://127.0.0.1:${registryPort}`);
  // the demo credentials file holds the licence key too, created 0600
  expect(JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')).licenceKey).toBe(licenceKey);

  toolDir = join(work, 'bin');
  mkdirSync(toolDir);
  for (const tool of TOOLS) {
    const path = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (!path) throw new Error(`${tool} is needed for this test`);
    symlinkSync(path, join(toolDir, tool));
  }
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await exited;
  }
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function install(target: string, env: Record<string, string> = {}, key = licenceKey) {
  const result = spawnSync(join(toolDir, 'bash'), [join(projectRoot(), 'scripts/install-node.sh'), registry, key, target], {
    env: { PATH: toolDir, NODE_HOSTNAME: 'customer-node-1', NODE_IP: '192.0.2.10', MACHINE_ID: 'machine-one', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

async function adminQuery(query: string) {
  const res = await call(`${gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_KEY}` },
    body: JSON.stringify({ query }),
  });
  return res.body.data;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

it('checks for updates, fetches the manifest, downloads and verifies every artifact, registers this machine, generates the secrets', async () => {
  const target = join(work, 'node');
  const { code, output } = install(target);
  expect([code, output]).toEqual([0, expect.stringContaining('Done: finance-node 1.1.0 installed')]);
  expect(output).toContain('Installing finance-node 1.1.0 (nothing installed yet, channel stable)');
  expect(output).toMatch(/finance-node-backend-1\.1\.0\.docker\.tar\.gz: \d+ bytes, sha256 verified/);
  expect(output).toMatch(/finance-node-frontend-1\.1\.0\.docker\.tar\.gz: \d+ bytes, sha256 verified/);
  expect(output).toContain('Registered customer-node-1 (192.0.2.10)');
  // the node sends the heartbeats (its own state and uptime), not the installer
  expect(output).not.toContain('Heartbeat');
  expect(output).toContain('Generated in');
  expect(output).toContain('Load the images where Docker runs');
  // the artifact list is signed with the registry's key, pinned at this first install
  expect(output).toContain("Pinned the registry's key");
  expect(output).toContain("The artifact list is signed by the registry's key");
  const registryKey = (await call(`${registry}/api/v1/license/public-key`)).body.data.publicKey;
  expect(readFileSync(join(target, '.registry-public-key'), 'utf8').trim()).toBe(registryKey);

  const releases = (await call(`${registry}/api/v1/releases`, { headers: { 'x-license-key': licenceKey } })).body.data;
  const release = releases.find((r: { version: string }) => r.version === '1.1.0');
  for (const a of release.artifacts) expect(sha256(join(target, 'artifacts', a.filename))).toBe(a.sha256);
  const compose = parse(readFileSync(join(target, 'docker-compose.yml'), 'utf8'));
  expect(compose['x-licence']).toMatchObject({ product: 'finance-node', release: '1.1.0' });
  expect(compose.services.backend.environment.VENDOR_API_KEY).toBe(licenceKey);
  expect(readFileSync(join(target, '.installed-version'), 'utf8').trim()).toBe('1.1.0');
  const deploymentKey = readFileSync(join(target, '.deployment-key'), 'utf8').trim();
  const env = readFileSync(join(target, '.env'), 'utf8');
  expect(env).toContain(`VENDOR_DEPLOYMENT_ID=${deploymentKey}`);
  expect(env).toContain(`VENDOR_MACHINE_FINGERPRINT=${createHash('sha256').update('machine-one:finance-node').digest('hex')}`);
  // every secret the compose file requires, generated once (64 hex digits each)
  for (const name of ['POSTGRES_PASSWORD', 'FRAMEWORK_SECRET_KEY', 'SERVER_JWT_KEY']) expect(env).toMatch(new RegExp(`^${name}=[0-9a-f]{64}$`, 'm'));

  // (the demo node of this `npm start` holds a seat of its own)
  const { registryDeployments } = await adminQuery('{ registryDeployments { hostname ipAddress currentVersion status reportedStatus heartbeats { status } } }');
  expect(registryDeployments.filter((d: { hostname: string; ipAddress: string }) => d.hostname !== 'vm' && d.ipAddress === '192.0.2.10')).toEqual([
    {
      hostname: 'customer-node-1',
      ipAddress: '192.0.2.10',
      currentVersion: '1.1.0',
      status: 'alive',
      reportedStatus: null,
      heartbeats: [],
    },
  ]);
});

it('run again: up to date, the same seat, the same secrets; on rc it updates to the release candidate', async () => {
  const target = join(work, 'node');
  const secrets = readFileSync(join(target, '.env'), 'utf8');
  const again = install(target);
  expect(again.code).toBe(0);
  expect(again.output).toContain('finance-node 1.1.0 is up to date');
  expect(again.output).not.toContain('Generated in');
  expect(readFileSync(join(target, '.env'), 'utf8')).toBe(secrets);
  const rc = install(target, { CHANNEL: 'rc' });
  expect(rc.output).toContain('Installing finance-node 1.2.0-rc.1 (1.1.0, channel rc)');
  expect(readdirSync(join(target, 'artifacts')).sort()).toEqual([
    'finance-node-backend-1.1.0.docker.tar.gz',
    'finance-node-backend-1.2.0-rc.1.docker.tar.gz',
    'finance-node-frontend-1.1.0.docker.tar.gz',
    'finance-node-frontend-1.2.0-rc.1.docker.tar.gz',
  ]);
  const { registryDeployments } = await adminQuery('{ registryDeployments { hostname ipAddress currentVersion } }');
  expect(registryDeployments.filter((d: { ipAddress: string }) => d.ipAddress === '192.0.2.10')).toEqual([
    { hostname: 'customer-node-1', ipAddress: '192.0.2.10', currentVersion: '1.2.0-rc.1' },
  ]);
});

it('refuses an archive whose SHA-256 does not match, and leaves nothing half-installed', async () => {
  // corrupt the stored bytes of one artifact (same length): the link still serves them, the installer must notice
  const root = join(dataDir, 'objects', 'data', 'artifacts');
  const dir = readdirSync(root).find((d) => readdirSync(join(root, d)).includes('finance-node-frontend-1.0.0.docker.tar.gz'))!;
  const file = join(root, dir, 'finance-node-frontend-1.0.0.docker.tar.gz');
  const bytes = readFileSync(file);
  bytes[bytes.length - 1] ^= 0xff;
  writeFileSync(file, bytes);
  const target = join(work, 'old');
  mkdirSync(target);
  writeFileSync(join(target, '.installed-version'), '0.9.0\n');
  // maintenance ended before 1.1.0: the installer falls back to 1.0.0, the newest covered release
  const licence = await adminQuery(
    `mutation { createLicence(input: { organisation: "demo", plan: "finance-node/standard", maintenanceUntil: "2025-03-01" }) { key } }`,
  );
  const { code, output } = install(target, { NODE_HOSTNAME: 'old-node' }, licence.createLicence.key);
  expect(code).toBe(1);
  expect(output).toContain('1.1.0 is not covered by your maintenance; installing 1.0.0 instead');
  expect(output).toMatch(/finance-node-frontend-1\.0\.0\.docker\.tar\.gz: SHA-256 [0-9a-f]{64} does not match/);
  expect(existsSync(join(target, 'docker-compose.yml'))).toBe(false);
  expect(readFileSync(join(target, '.installed-version'), 'utf8').trim()).toBe('0.9.0');
});

it("stops with the registry's code and message when the licence may not be used", async () => {
  const { licences } = await adminQuery('{ licences(organisation: "demo") { id key } }');
  const demo = licences.find((l: { key: string }) => l.key === `${licenceKey.slice(0, 8)}-****-****`);
  await adminQuery(`mutation { suspendLicence(licence: "${demo.id}") { status } }`);
  const { code, output } = install(join(work, 'suspended'));
  expect(code).toBe(1);
  expect(output).toContain('HTTP 403 LICENSE_SUSPENDED: This licence is suspended');
  await adminQuery(`mutation { reinstateLicence(licence: "${demo.id}") { status } }`);
});

it('refuses a registry that is not https (http only on this machine), before sending the licence key anywhere', () => {
  const result = spawnSync(
    join(toolDir, 'bash'),
    [join(projectRoot(), 'scripts/install-node.sh'), 'http://registry.example.com', licenceKey, join(work, 'plain')],
    {
      env: { PATH: toolDir, MACHINE_ID: 'machine-one' },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect([result.status, result.stderr]).toEqual([1, expect.stringContaining('the registry URL must start with https://')]);
  expect(existsSync(join(work, 'plain', '.env'))).toBe(false);
});

it('refuses a manifest whose artifact list does not verify with the registry key it was given or pinned, and installs nothing', () => {
  const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const given = install(join(work, 'given-key'), { REGISTRY_PUBLIC_KEY: other });
  expect([given.code, given.output]).toEqual([1, expect.stringContaining("the manifest's artifact list does not verify with the registry's key")]);
  expect(existsSync(join(work, 'given-key', 'docker-compose.yml'))).toBe(false);
  // a key pinned at an earlier install that the registry no longer signs with
  const pinned = join(work, 'pinned-key');
  mkdirSync(pinned);
  writeFileSync(join(pinned, '.registry-public-key'), `${other}\n`);
  const refused = install(pinned);
  expect([refused.code, refused.output]).toEqual([1, expect.stringContaining("the manifest's artifact list does not verify with the registry's key")]);
  expect(existsSync(join(pinned, 'artifacts', 'finance-node-backend-1.1.0.docker.tar.gz'))).toBe(false);
});
