/**
 * The customer's installer (scripts/install-node.sh) end to end against the system as `npm start`
 * runs it (dist/bin/start.js, its own process), with the demo licence key the banner prints. The
 * script runs with a PATH that holds bash, curl, sha256sum and the handful of coreutils it uses: it
 * needs nothing else (no jq; without docker or podman it downloads and verifies, and says how to load).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../../../lib/paths';
import { freePorts } from '../../../../lib/server';
import { TEST_ADMIN_KEY } from '../../../support/platform/app';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { TEST_MASTER_KEY } from '../../../support/platform/keys';
import { http } from '../../../support/platform/http';

const TOOLS = ['bash', 'curl', 'sha256sum', 'base64', 'openssl', 'head', 'mkdir', 'mktemp', 'mv', 'rm', 'uname', 'basename', 'sleep'];

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let child: ChildProcess;
let exited: Promise<number | null>;
let registry: string;
let gateway: string;
let licenceKey: string;
let banner: string;
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
  banner = out;
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
  await db?.release();
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

/** install(), without blocking this process (an HTTP peer of the test must answer the installer meanwhile). */
function installAsync(target: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(toolDir, 'bash'), [join(projectRoot(), 'scripts/install-node.sh'), registry, licenceKey, target], {
      env: { PATH: toolDir, NODE_HOSTNAME: 'customer-node-1', NODE_IP: '192.0.2.10', MACHINE_ID: 'machine-one', ...env },
      timeout: 60_000,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function adminQuery(query: string) {
  const res = await http(`${gateway}/graphql`, {
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
  // without docker or podman nothing is started, and so nothing is "Done"
  expect([code, output]).toEqual([0, expect.stringContaining(`Downloaded and verified: finance-node 1.1.0 in ${target}, not started`)]);
  expect(output).not.toContain('Done');
  expect(output).toContain('Installing finance-node 1.1.0 (nothing installed yet, channel stable)');
  expect(output).toMatch(/finance-node-backend-1\.1\.0\.docker\.tar\.gz: \d+ bytes, sha256 verified/);
  expect(output).toMatch(/finance-node-frontend-1\.1\.0\.docker\.tar\.gz: \d+ bytes, sha256 verified/);
  expect(output).toContain('Registered customer-node-1 (192.0.2.10)');
  // the node sends the heartbeats (its own state and uptime), not the installer
  expect(output).not.toContain('Heartbeat');
  expect(output).toContain('Generated in');
  expect(output).toContain('Load the images where Docker runs');
  // the manifest is signed whole with the registry's key, pinned at this first install
  expect(output).toContain("Pinned the registry's key");
  expect(output).toContain("The manifest (its services and artifact list) is signed by the registry's key");
  const registryKey = (await http(`${registry}/api/v1/license/public-key`)).body.data.publicKey;
  expect(readFileSync(join(target, '.registry-public-key'), 'utf8').trim()).toBe(registryKey);

  const releases = (await http(`${registry}/api/v1/releases`, { headers: { 'x-license-key': licenceKey } })).body.data;
  const release = releases.find((r: { version: string }) => r.version === '1.1.0');
  for (const a of release.artifacts) expect(sha256(join(target, 'artifacts', a.filename))).toBe(a.sha256);
  const compose = parse(readFileSync(join(target, 'docker-compose.yml'), 'utf8'));
  expect(compose['x-licence']).toMatchObject({ product: 'finance-node', release: '1.1.0' });
  expect(compose.services.backend.environment.VENDOR_API_KEY).toBe(licenceKey);
  expect(readFileSync(join(target, '.installed-version'), 'utf8').trim()).toBe('1.1.0');
  const deploymentKey = readFileSync(join(target, '.deployment-key'), 'utf8').trim();
  const env = readFileSync(join(target, '.env'), 'utf8');
  expect(env).toContain(`VENDOR_DEPLOYMENT_ID=${deploymentKey}`);
  // this installation's seat: the machine, the product and the installation's own id (another directory: another seat)
  const nodeId = readFileSync(join(target, '.node-id'), 'utf8').trim();
  expect(nodeId).toMatch(/^[0-9a-f]{32}$/);
  expect(env).toContain(`VENDOR_MACHINE_FINGERPRINT=${createHash('sha256').update(`machine-one:finance-node:${nodeId}`).digest('hex')}`);
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

it('refuses a manifest that does not verify with the registry key it was given or pinned, and installs nothing', () => {
  const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const given = install(join(work, 'given-key'), { REGISTRY_PUBLIC_KEY: other });
  expect([given.code, given.output]).toEqual([1, expect.stringContaining("the manifest does not verify with the registry's key")]);
  expect(existsSync(join(work, 'given-key', 'docker-compose.yml'))).toBe(false);
  // a key pinned at an earlier install that the registry no longer signs with
  const pinned = join(work, 'pinned-key');
  mkdirSync(pinned);
  writeFileSync(join(pinned, '.registry-public-key'), `${other}\n`);
  const refused = install(pinned);
  expect([refused.code, refused.output]).toEqual([1, expect.stringContaining("the manifest does not verify with the registry's key")]);
  expect(existsSync(join(pinned, 'artifacts', 'finance-node-backend-1.1.0.docker.tar.gz'))).toBe(false);
});

it('the start banner says which release images the registry distributes: the ones built here, else how to build them', () => {
  expect(banner).toMatch(
    /Release images {9}(not built here: the installer below would install placeholder images that cannot run\. Build them with `npm run images`|localhost\/finance-node\/backend:\S+ and its frontend, built here: the registry distributes them)/,
  );
});

it("npm start's demo node carries the registry's key and its heartbeats are accepted (none refused with 401)", async () => {
  const demoNode = async () => {
    const { registryDeployments } = await adminQuery('{ registryDeployments { ipAddress reportedStatus heartbeats { status } } }');
    return registryDeployments.find((d: { ipAddress: string; heartbeats: unknown[] }) => d.ipAddress !== '192.0.2.10' && d.heartbeats.length > 0);
  };
  let seen = await demoNode();
  // its first heartbeat waits for its own /readyz (30 s at most)
  for (let i = 0; i < 90 && !seen; i++) {
    await new Promise((r) => setTimeout(r, 500));
    seen = await demoNode();
  }
  expect(seen).toMatchObject({ reportedStatus: expect.stringMatching(/^(healthy|degraded)$/) });
});

it('refuses an installed manifest whose services were changed, or with anything after its signature', () => {
  const target = join(work, 'tampered');
  expect(install(target).code).toBe(0);
  const file = join(target, 'docker-compose.yml');
  const signed = readFileSync(file, 'utf8');
  expect(signed).toContain('    image: finance-node/backend:1.1.0\n');
  writeFileSync(file, signed.replace('    image: finance-node/backend:1.1.0\n', '    image: attacker.example/backend:1.1.0\n'));
  const changed = install(target);
  expect([changed.code, changed.output]).toEqual([
    1,
    expect.stringContaining(`${file} does not verify with the registry's key (its services or artifacts were changed`),
  ]);
  writeFileSync(file, `${signed}services:\n  backend:\n    image: attacker.example/backend:1.1.0\n`);
  const appended = install(target);
  expect([appended.code, appended.output]).toEqual([1, expect.stringContaining(`${file}: something follows the registry's signature`)]);
  writeFileSync(file, signed);
  expect(install(target)).toEqual({ code: 0, output: expect.stringContaining('finance-node 1.1.0 is up to date') });
});

describe('the installer says Done only once the node answers /readyz', () => {
  // podman and podman-compose stand-ins (this machine runs no containers here): podman knows the images of
  // the manifest as loaded; podman-compose "starts" and prints a container log; the node is a local HTTP peer
  let fakeTools: string;
  let peer: Server;
  let peerPort: number;
  let answers: number[] = [];
  beforeAll(async () => {
    fakeTools = join(work, 'fake-bin');
    mkdirSync(fakeTools);
    for (const tool of readdirSync(toolDir)) symlinkSync(join(toolDir, tool), join(fakeTools, tool));
    const bash = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      join(fakeTools, 'podman'),
      `#!${bash}\n[ "$1 $2" = "image inspect" ] || exit 0\nwhile read -r name id; do [ "$name" = "\${@: -1}" ] && { echo "$id"; exit 0; }; done <"$FAKE_IMAGES"\nexit 1\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      join(fakeTools, 'podman-compose'),
      `#!${bash}\necho "$*" >>"$FAKE_CALLS"\ncase " $* " in *" logs "*) echo 'backend_1 | Error: connect ECONNREFUSED postgres:5432 (the container log)';; esac\nexit 0\n`,
      { mode: 0o755 },
    );
    peer = createServer((req, res) => {
      const status = req.url === '/readyz' ? (answers.shift() ?? 200) : 404;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: status === 200 ? 'ok' : 'starting' }));
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    peerPort = (peer.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => peer?.close(resolve)));

  async function prepared(name: string) {
    const target = join(work, name);
    mkdirSync(target);
    writeFileSync(join(target, '.env'), `BACKEND_PORT=${peerPort}\n`);
    const releases = (await http(`${registry}/api/v1/releases`, { headers: { 'x-license-key': licenceKey } })).body.data;
    const release = releases.find((r: { version: string }) => r.version === '1.1.0');
    const manifest = await http(release.manifestUrl, { headers: { 'x-license-key': licenceKey } });
    const images = join(target, 'fake-images');
    const artifacts = parse(manifest.text)['x-artifacts'] as { image: string; imageId: string }[];
    writeFileSync(images, artifacts.map((a) => `${a.image} ${a.imageId}\n`).join(''));
    return { target, env: { PATH: fakeTools, CONTAINER_ENGINE: 'podman', FAKE_IMAGES: images, FAKE_CALLS: join(target, 'fake-calls'), READY_TIMEOUT: '6' } };
  }

  it('waits while /readyz answers 503, then prints the URL to open', async () => {
    const { target, env } = await prepared('ready');
    answers = [503, 503];
    const { code, output } = await installAsync(target, env);
    expect([code, output]).toEqual([0, expect.stringContaining(`Waiting for the node to be ready (http://127.0.0.1:${peerPort}/readyz, at most 6 s)`)]);
    expect(output).toContain(
      `Done: finance-node 1.1.0 installed in ${target} and ready. Open http://127.0.0.1:${peerPort}/admin/ (the console) and http://127.0.0.1:${peerPort}/app/ (the web client).`,
    );
    expect(answers).toEqual([]);
    expect(readFileSync(join(target, 'fake-calls'), 'utf8')).toBe('-p ready up -d --force-recreate\n');
  });

  it("fails with the containers' log when the node does not become ready in time", async () => {
    const { target, env } = await prepared('not-ready');
    answers = Array.from({ length: 100 }, () => 503);
    const { code, output } = await installAsync(target, env);
    expect(code).toBe(1);
    expect(output).not.toContain('Done');
    expect(output).toContain('backend_1 | Error: connect ECONNREFUSED postgres:5432 (the container log)');
    expect(output).toContain(
      `install-node: the node did not become ready within 6 s (http://127.0.0.1:${peerPort}/readyz last answered HTTP 503); its log is above`,
    );
    expect(readFileSync(join(target, 'fake-calls'), 'utf8')).toBe('-p not-ready up -d --force-recreate\n-p not-ready logs --tail 100\n');
  });
});
