import { hostname } from 'node:os';
import { activateDemoNode, shipRegistryKey } from '../../../../subgraphs/finance/demo';
import { hostnameFingerprint } from '../../../../subgraphs/registry/licensing/domain/deployments';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { adminPost, adminSignIn, createUser, installValidLicence, licenceKeys, licenceToken } from '../../../support/finance/node';

/**
 * The registry and the finance node trust each other by what the node carries, not by what it learns,
 * against the real registry of an in-process vendor:
 *
 * - the demo node of `npm start` carries the key of the registry beside it (shipRegistryKey), activates
 *   with the printed licence key (activateDemoNode) and its heartbeats are accepted: they carry the
 *   licence key it activated with (before: 401 "Licence key required" at every start);
 * - a second node on the same machine takes a seat of its own, not the first one's deployment record
 *   (VENDOR_SEAT=machine: the machine's host-name seat, shared);
 * - the console's licence page activates with a LIC- key, as VENDOR_API_KEY does;
 * - in production a node learns no key: without one it carries, every licence is refused (app.E011);
 *   with the host's VENDOR_PUBLIC_KEY, a licence of another key is refused and nothing is pinned; an
 *   http:// registry other than loopback is refused before anything is sent.
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  FRONTEND_URL: 'http://127.0.0.1:8000/app/',
  FRAMEWORK_SECRET_KEY: 'f'.repeat(64),
  SERVER_JWT_KEY: 'j'.repeat(48),
  PUBLIC_URL_REGISTRY: 'https://registry.example.com',
  PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
};

let vendor: TestApp;
let licenceKey: string;
let registryKey: string;
const started: TestApp[] = [];
const start = async (env: Record<string, string>) => {
  const t = (await startTestApp(env, { products: ['finance'] })) as unknown as TestApp;
  started.push(t);
  return t;
};

beforeAll(async () => {
  vendor = (await startTestApp({}, { products: ['predictions', 'registry', 'finance'] })) as unknown as TestApp;
  licenceKey = (await vendor.app.services.licensing.demoLicence()).licenceKey;
  registryKey = (await vendor.app.services.licensing.signing.publicKey()).publicKey;
}, 120_000);
afterAll(async () => {
  for (const t of started) await t.stop();
  await vendor?.stop();
});

const deploymentsOfLicence = async () => {
  const id = (await vendor.app.services.licensing.licences.authenticate(licenceKey, { meter: false })).principal.licenceId;
  return vendor.app.services.licensing.deployments.list({ licenceIds: [id] });
};
const nodeOf = (t: TestApp) => t.app.services.node;
const pool = (t: TestApp) => t.app.services.ledger.store.pool;

describe("npm start's demo node", () => {
  it("carries the registry's key, activates with the demo licence key, and its heartbeat is accepted (no VENDOR_API_KEY)", async () => {
    shipRegistryKey(nodeOf(vendor), registryKey);
    const beat = nodeOf(vendor).registry.nextHeartbeat();
    expect(await activateDemoNode(vendor.config, nodeOf(vendor), vendor.urls.registry, licenceKey)).toBe(true);
    expect(await beat).toBe(true);
    expect(await nodeOf(vendor).registry.deployment()).toMatchObject({ licenceKey, lastHeartbeatStatus: 'alive' });
    expect((await nodeOf(vendor).node.licence()).publicKey).toBe(registryKey);
    // carried, not learned: nothing pinned, and a licence signed by another key is refused
    expect((await pool(vendor).query('SELECT count(*)::int AS n FROM node.vendor_key')).rows).toEqual([{ n: 0 }]);
    const own = licenceKeys({ fresh: true });
    await expect(nodeOf(vendor).installLicence(await licenceToken(own), own.publicKeyLine)).rejects.toMatchObject({ code: 'UNTRUSTED_VENDOR_KEY' });
    const [seat] = await deploymentsOfLicence();
    expect(seat).toMatchObject({ reportedStatus: expect.stringMatching(/^(healthy|degraded)$/), status: 'alive' });
  });

  it('a second node on the same machine takes a seat of its own; with VENDOR_SEAT=machine the machine shares one', async () => {
    const first = (await nodeOf(vendor).registry.deployment())!;
    const second = await start({ VENDOR_LICENSE_ENGINE_URL: vendor.urls.registry, VENDOR_API_KEY: licenceKey });
    await nodeOf(second).registry.firstActivation();
    const own = (await nodeOf(second).registry.deployment())!;
    expect(own.deploymentKey).not.toBe(first.deploymentKey);
    const seats = await deploymentsOfLicence();
    expect(seats).toHaveLength(2);
    expect(new Set(seats.map((s) => s.machineFingerprint)).size).toBe(2);
    // in development a node that carries no key pins its first licence's, and says so
    expect((await nodeOf(second).node.checks()).map((c) => c.id)).toContain('app.W013');

    // the console's licence page: a LIC- key activates (a node with VENDOR_SEAT=machine: the host name's seat)
    const shared = await start({ VENDOR_SEAT: 'machine' });
    const admin = await adminSignIn(shared, (await createUser(shared, undefined, { superuser: true })).username);
    const page = await http(`${shared.urls.finance}/admin/node/licence/`, { headers: { cookie: admin.cookie } });
    expect(page.body).toContain('action="/admin/node/licence/activate/"');
    expect(page.body).toContain('name="licence_key"');
    const malformed = await adminPost(shared, admin, '/admin/node/licence/activate/', { licence_key: 'not-a-key', registry_url: vendor.urls.registry });
    expect([malformed.status, malformed.body]).toEqual([400, expect.stringContaining('A licence key looks like LIC-XXXX-XXXX-XXXX.')]);
    const activated = await adminPost(shared, admin, '/admin/node/licence/activate/', { licence_key: licenceKey, registry_url: vendor.urls.registry });
    expect([activated.status, activated.headers.get('location')]).toEqual([302, '/admin/node/licence/?saved=1']);
    const state = await http(`${shared.urls.finance}/api/v1/node/`, { headers: { cookie: admin.cookie } });
    expect(state.body).toMatchObject({ read_only: false, licence: { status: 'valid', source: 'registry' } });
    const after = await deploymentsOfLicence();
    expect(after).toHaveLength(3);
    expect(after.map((s) => s.machineFingerprint)).toContain(hostnameFingerprint(hostname().toLowerCase()));
    const audit = await pool(shared).query(
      `SELECT action, actor FROM node.audit_log WHERE action IN ('licence.installed', 'deployment.registered') ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action).sort()).toEqual(['deployment.registered', 'licence.installed']);
    expect(audit.rows.every((r) => r.actor !== 'finance:activate')).toBe(true);
  });
});

describe('a production node', () => {
  it('carrying no vendor key installs no licence (app.E011), and refuses an http:// registry that is not on this machine', async () => {
    const node = await start(PRODUCTION);
    const vendorKeys = licenceKeys();
    await expect(nodeOf(node).installLicence(await licenceToken(vendorKeys), vendorKeys.publicKeyLine)).rejects.toMatchObject({
      code: 'UNTRUSTED_VENDOR_KEY',
      extensions: { details: { checks: ['app.E011'] } },
    });
    expect(
      (await pool(node).query('SELECT (SELECT count(*) FROM node.vendor_key)::int AS pins, (SELECT count(*) FROM node.licence)::int AS licences')).rows,
    ).toEqual([{ pins: 0, licences: 0 }]);
    expect((await nodeOf(node).node.checks()).map((c) => c.id)).toContain('app.E011');
    await expect(nodeOf(node).registry.activate({ url: 'http://registry.example.com', licenceKey })).rejects.toMatchObject({
      code: 'INSECURE_REGISTRY_URL',
      status: 400,
    });
    expect(await nodeOf(node).registry.deployment()).toBeUndefined();
  });

  it("with the host's VENDOR_PUBLIC_KEY: another key's licence is refused through the console, nothing is pinned; the vendor's installs", async () => {
    const vendorKeys = licenceKeys();
    const node = await start({ ...PRODUCTION, VENDOR_PUBLIC_KEY: vendorKeys.publicKeyLine });
    const admin = await adminSignIn(node, (await createUser(node, undefined, { superuser: true })).username);
    const own = licenceKeys({ fresh: true });
    const refused = await adminPost(node, admin, '/admin/node/licence/', { token: await licenceToken(own), public_key: own.publicKeyLine });
    expect([refused.status, refused.body]).toEqual([403, expect.stringContaining('signed by a key this node does not trust')]);
    expect((await pool(node).query('SELECT count(*)::int AS n FROM node.vendor_key')).rows).toEqual([{ n: 0 }]);
    const installed = await adminPost(node, admin, '/admin/node/licence/', { token: await licenceToken(vendorKeys), public_key: vendorKeys.publicKeyLine });
    expect(installed.status).toBe(302);
    const state = await http(`${node.urls.finance}/api/v1/node/`, { headers: { cookie: admin.cookie } });
    expect(state.body).toMatchObject({ read_only: false, licence: { status: 'valid', source: 'admin' } });
    // the production helper of the other tests does what the images do: the node carries the vendor's key
    await installValidLicence(node);
  });
});
