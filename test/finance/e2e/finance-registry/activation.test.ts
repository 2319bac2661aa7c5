import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { adminSignIn, createUser, runCli } from '../../../support/finance/node';
import { beatStatus, LICENCE_KEY, LocalRegistry } from '../../../support/finance/local-registry';

/**
 * Activation with the licence registry and heartbeats, against a local server that answers exactly
 * the registry's endpoints and envelopes (the end-to-end test against the real registry joins when
 * both issues are merged): register → checkout → install; heartbeats on the registry's interval;
 * an unreachable registry never changes a node whose licence verifies offline.
 */
let registry: LocalRegistry;
let t: TestApp;

beforeAll(async () => {
  registry = new LocalRegistry();
  await registry.start();
  t = await startTestApp({ VENDOR_LICENSE_ENGINE_URL: registry.url, VENDOR_API_KEY: LICENCE_KEY, APP_VERSION: '4.5.6' });
});
afterAll(async () => {
  await t?.stop();
  await registry?.stop().catch(() => undefined);
});

describe('activation and heartbeats', () => {
  it('registers the node as a deployment at start (VENDOR_LICENSE_ENGINE_URL and VENDOR_API_KEY set), installs the licence it checks out, and the node leaves read-only mode', async () => {
    await t.app.services.node.registry.firstActivation();
    // every process hears the new licence (NOTIFY) and leaves read-only mode
    for (let i = 0; i < 100 && (await http(`${t.urls.finance}/api/v1/node/`)).body.read_only; i++) await new Promise((r) => setTimeout(r, 100));
    const [register, checkout] = registry.received;
    expect(register).toMatchObject({ method: 'POST', path: '/api/v1/deployments/register', licenceKey: LICENCE_KEY });
    // its seat: this node on this machine (its own id joins the host name), not the machine's alone
    expect(register.body).toEqual({
      hostname: expect.any(String),
      ipAddress: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      currentVersion: '4.5.6',
      machineFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(checkout).toMatchObject({ method: 'POST', path: '/api/v1/license/checkout', licenceKey: LICENCE_KEY, body: undefined });
    // the deployment and the licence's source are an administrator's to see
    const session = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
    const node = await http(`${t.urls.finance}/api/v1/node/`, { headers: { cookie: session.cookie } });
    expect(node.body).toMatchObject({ read_only: false, deployment_id: 'dep_0001', licence: { status: 'valid', source: 'registry' } });
  });

  it("sends heartbeats on the registry's interval with the deployment key", async () => {
    await registry.heartbeatsReach(2);
    // the node's own /readyz: healthy once it answers 200 (on a loaded machine a beat may say degraded first)
    for (let n = 3; n <= 30 && !registry.heartbeats().some((b) => beatStatus(b) === 'healthy'); n++) await registry.heartbeatsReach(n);
    for (const beat of registry.heartbeats()) {
      expect(beat).toMatchObject({ method: 'POST', licenceKey: LICENCE_KEY });
      expect(beat.body).toEqual({
        deploymentKey: 'dk_secret_0001',
        metrics: { status: expect.stringMatching(/^(healthy|degraded)$/), uptimeSeconds: expect.any(Number) },
      });
    }
    expect(registry.heartbeats().some((b) => beatStatus(b) === 'healthy')).toBe(true);
    const deployment = await t.app.services.node.registry.deployment();
    expect(deployment).toMatchObject({ deploymentKey: 'dk_secret_0001', lastHeartbeatStatus: 'alive', heartbeatIntervalSeconds: 1 });
    // one loop: each heartbeat waits the interval (1 s) after the previous one ended; activate and the
    // NOTIFY its licence causes both start the heartbeats, and once started two loops, two beats at once
    const beats = registry.heartbeats().map((b) => b.at);
    for (let i = 1; i < beats.length; i++) expect(beats[i] - beats[i - 1]).toBeGreaterThanOrEqual(900);
  });

  it('keeps the node in normal mode when the registry is unreachable (verification is offline)', async () => {
    await registry.stop();
    // a heartbeat already on its way when the registry stopped may still succeed; the next one cannot
    let ok = await t.app.services.node.registry.nextHeartbeat();
    if (ok) ok = await t.app.services.node.registry.nextHeartbeat();
    expect(ok).toBe(false);
    expect((await t.app.services.node.registry.deployment())?.lastHeartbeatStatus).toBe('unreachable');
    expect((await http(`${t.urls.finance}/api/v1/node/`)).body).toMatchObject({ read_only: false, licence: { status: 'valid' } });
    const user = await t.app.services.identity.identity.createUser({ username: 'after-outage', password: 'a long enough password' });
    expect(user.username).toBe('after-outage');
  });
});

describe('a node registered before (VENDOR_DEPLOYMENT_ID)', () => {
  it('sends its heartbeats with the deployment key from the environment when its tables have none', async () => {
    const other = new LocalRegistry();
    await other.start();
    const node = await startTestApp({ VENDOR_LICENSE_ENGINE_URL: other.url, VENDOR_API_KEY: LICENCE_KEY, VENDOR_DEPLOYMENT_ID: 'dk_from_environment' });
    try {
      await other.heartbeatsReach(1);
      // healthy, or degraded while the node's own /readyz does not answer 200 yet (a loaded machine)
      expect(other.heartbeats()[0].body).toEqual({
        deploymentKey: 'dk_from_environment',
        metrics: { status: expect.stringMatching(/^(healthy|degraded)$/), uptimeSeconds: expect.any(Number) },
      });
    } finally {
      await node.stop();
      await other.stop();
    }
  });
});

describe('npm run cli -- finance:activate', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let cliRegistry: LocalRegistry;
  beforeAll(async () => {
    assertBuilt('dist/bin/cli.js');
    db = await createTestDatabase();
    cliRegistry = new LocalRegistry();
    await cliRegistry.start();
  });
  afterAll(async () => {
    await cliRegistry?.stop();
    await db?.release();
  });

  it('activates from VENDOR_LICENSE_ENGINE_URL and VENDOR_API_KEY; a refusal (NODE_LIMIT_EXCEEDED) exits 1 with its message', async () => {
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'finance-activate-')),
      VENDOR_LICENSE_ENGINE_URL: cliRegistry.url,
      VENDOR_API_KEY: LICENCE_KEY,
    };
    cliRegistry.nodeLimitReached = true;
    const refused = await runCli(['finance:activate'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('The licence registry refused: This licence allows 3 nodes. (NODE_LIMIT_EXCEEDED).\n');
    cliRegistry.nodeLimitReached = false;
    const wrongKey = await runCli(['finance:activate'], { ...env, VENDOR_API_KEY: 'LIC-WRNG-0000-0000' });
    expect([wrongKey.code, wrongKey.stderr]).toEqual([1, expect.stringContaining('(UNAUTHORIZED)')]);
    const ok = await runCli(['finance:activate'], env);
    expect([ok.code, ok.stdout]).toEqual([
      0,
      expect.stringMatching(/^Registered as deployment dep_0001 \(heartbeat every 1 s\)\. Licence lic_test_0001 installed/),
    ]);
    const check = await runCli(['finance:check'], env);
    expect(check.stdout).not.toContain('(app.E001)');
  });
});
