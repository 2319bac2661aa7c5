import { createHash } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { createLicence, database, gql, registryClient, type RegistryClient } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

let t: TestApp;
let client: RegistryClient;
beforeAll(async () => {
  t = await startTestApp();
  client = registryClient(t, (await t.app.services.licensing.demoLicence()).licenceKey);
});
afterAll(() => t?.stop());

const node = (hostname: string, currentVersion = '1.1.0') => ({ hostname, ipAddress: '10.0.0.7', currentVersion });
const HOUR = 3_600_000;

describe('POST /api/v1/deployments/register', () => {
  it('201 with the deploymentKey, id, status, heartbeat interval, next heartbeat and registration time', async () => {
    const { key } = await createLicence(t);
    const before = Date.now();
    const res = await client.post('/api/v1/deployments/register', node('node-a.example.com'), { key });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const d = res.body.data;
    expect(Object.keys(d)).toEqual(['id', 'deploymentKey', 'status', 'heartbeatIntervalSeconds', 'nextHeartbeatAt', 'registeredAt']);
    expect(d).toMatchObject({ status: 'alive', heartbeatIntervalSeconds: 21600 });
    expect(d.deploymentKey).toMatch(/^dep_[0-9A-Za-z]{32}$/);
    expect(new Date(d.nextHeartbeatAt).getTime() - new Date(d.registeredAt).getTime()).toBe(21600 * 1000);
    expect(new Date(d.registeredAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await client.get('/api/v1/license', { key })).body.data.nodesInUse).toBe(1);
  });

  it('the same host again gets its existing seat (200, same id and key), not a second one', async () => {
    const { key } = await createLicence(t, { maxNodes: 1 });
    const first = await client.post('/api/v1/deployments/register', node('Node-B.example.com.'), { key });
    const again = await client.post('/api/v1/deployments/register', { ...node('node-b.example.com', '1.2.0'), ipAddress: '10.0.0.8' }, { key });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.deploymentKey).toBe(first.body.data.deploymentKey);
    expect(Object.keys(again.body.data)).toEqual(Object.keys(first.body.data));
    const [row] = await t.app.services.licensing.deployments.list({ licenceIds: [(await client.get('/api/v1/license', { key })).body.data.id] });
    expect(row).toMatchObject({ hostname: 'node-b.example.com', ipAddress: '10.0.0.8', currentVersion: '1.2.0' });
  });

  it('a machine is its fingerprint, not its host name: the same machine renamed keeps its seat; another machine of the same name takes a new one and never gets the first key', async () => {
    const { key } = await createLicence(t, { maxNodes: 3 });
    const machine = (n: string) => createHash('sha256').update(`machine-${n}:finance-node`).digest('hex');
    const first = await client.post('/api/v1/deployments/register', { ...node('shared-name'), machineFingerprint: machine('a') }, { key });
    const renamed = await client.post('/api/v1/deployments/register', { ...node('renamed-host'), machineFingerprint: machine('a').toUpperCase() }, { key });
    const other = await client.post('/api/v1/deployments/register', { ...node('shared-name'), machineFingerprint: machine('b') }, { key });
    expect([first.status, renamed.status, other.status]).toEqual([201, 200, 201]);
    expect(renamed.body.data.deploymentKey).toBe(first.body.data.deploymentKey);
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect(other.body.data.deploymentKey).not.toBe(first.body.data.deploymentKey);
    // a registration without a fingerprint is a machine of its own too: not the one that registered with one
    const legacy = await client.post('/api/v1/deployments/register', node('shared-name'), { key });
    expect(legacy.status).toBe(201);
    expect([first.body.data.deploymentKey, other.body.data.deploymentKey]).not.toContain(legacy.body.data.deploymentKey);
    const licenceId = (await client.get('/api/v1/license', { key })).body.data.id;
    const rows = await t.app.services.licensing.deployments.list({ licenceIds: [licenceId] });
    expect(rows.map((r) => r.hostname).sort()).toEqual(['renamed-host', 'shared-name', 'shared-name']);
    const bad = await client.post('/api/v1/deployments/register', { ...node('x'), machineFingerprint: 'not-a-hash' }, { key });
    expect([bad.status, bad.body.error.code, Object.keys(bad.body.error.details)]).toEqual([400, 'INVALID', ['machineFingerprint']]);
  });

  it('the customer frees a seat over the API: audited, the key stops working, the seat is free; another licence cannot', async () => {
    const { key } = await createLicence(t, { maxNodes: 1 });
    const other = await createLicence(t);
    const seat = await client.post('/api/v1/deployments/register', node('retired-host'), { key });
    expect((await client.post('/api/v1/deployments/register', node('new-host'), { key })).status).toBe(422);
    const foreign = await client.post(`/api/v1/deployments/${seat.body.data.id}/release`, undefined, { key: other.key });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const released = await client.post(`/api/v1/deployments/${seat.body.data.id}/release`, undefined, { key });
    expect([released.status, released.body]).toEqual([
      200,
      { success: true, data: { id: seat.body.data.id, hostname: 'retired-host', currentVersion: '1.1.0', status: 'released' } },
    ]);
    const beat = await client.post(
      '/api/v1/deployments/heartbeat',
      { deploymentKey: seat.body.data.deploymentKey, metrics: { status: 'healthy', uptimeSeconds: 1 } },
      { key },
    );
    expect(beat.status).toBe(404);
    expect((await client.post('/api/v1/deployments/register', node('new-host'), { key })).status).toBe(201);
    const again = await client.post(`/api/v1/deployments/${seat.body.data.id}/release`, undefined, { key });
    expect(again.status).toBe(404);
    const audit = await gql(t, 'query($l: String) { registryAuditEvents(licence: $l) { action subjectId } }', {
      l: (await client.get('/api/v1/license', { key })).body.data.id,
    });
    expect(audit.data.registryAuditEvents).toEqual(expect.arrayContaining([{ action: 'deployment.released', subjectId: seat.body.data.id }]));
  });

  it("422 NODE_LIMIT_EXCEEDED beyond the plan's cap", async () => {
    const { key } = await createLicence(t, { maxNodes: 2 });
    for (const host of ['n1', 'n2']) expect((await client.post('/api/v1/deployments/register', node(host), { key })).status).toBe(201);
    const res = await client.post('/api/v1/deployments/register', node('n3'), { key });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({
      code: 'NODE_LIMIT_EXCEEDED',
      message: 'This licence allows 2 concurrent nodes, and all are in use.',
      details: { maxNodes: 2 },
    });
  });

  it('400 naming the field for an invalid body; 400 PARSE_ERROR for broken JSON; 415 for another content type', async () => {
    const cases: [unknown, string][] = [
      [{ ipAddress: '10.0.0.1', currentVersion: '1.0.0' }, 'hostname'],
      [{ hostname: 'h', currentVersion: '1.0.0' }, 'ipAddress'],
      [{ hostname: 'h', ipAddress: '10.0.0.1' }, 'currentVersion'],
      [{ hostname: 'h', ipAddress: '10.0.0.300', currentVersion: '1.0.0' }, 'ipAddress'],
      [{ hostname: 'h', ipAddress: '10.0.0.1', currentVersion: 'latest' }, 'currentVersion'],
      [{ hostname: 'bad host!', ipAddress: '10.0.0.1', currentVersion: '1.0.0' }, 'hostname'],
      [{ hostname: 7, ipAddress: '10.0.0.1', currentVersion: '1.0.0' }, 'hostname'],
    ];
    for (const [body, field] of cases) {
      const res = await client.post('/api/v1/deployments/register', body);
      expect([JSON.stringify(body), res.status, res.body.error.code]).toEqual([JSON.stringify(body), 400, 'INVALID']);
      expect(Object.keys(res.body.error.details)).toEqual([field]);
      expect(res.body.error.message + JSON.stringify(res.body.error.details)).toContain(field);
    }
    const key = (await t.app.services.licensing.demoLicence()).licenceKey;
    const broken = await http(`${t.urls.registry}/api/v1/deployments/register`, {
      method: 'POST',
      headers: { 'x-license-key': key, 'content-type': 'application/json' },
      body: '{"hostname":',
    });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'PARSE_ERROR']);
    const form = await http(`${t.urls.registry}/api/v1/deployments/register`, {
      method: 'POST',
      headers: { 'x-license-key': key, 'content-type': 'text/plain' },
      body: 'hostname=h',
    });
    expect([form.status, form.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });
});

describe('POST /api/v1/deployments/heartbeat', () => {
  it('200 with the status, the interval and the next expected heartbeat; metrics go into the history', async () => {
    const { key, id } = await createLicence(t, { heartbeatIntervalSeconds: 600 });
    const { deploymentKey } = (await client.post('/api/v1/deployments/register', node('hb-1'), { key })).body.data;
    const res = await client.post('/api/v1/deployments/heartbeat', { deploymentKey, metrics: { status: 'healthy', uptimeSeconds: 120 } }, { key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['status', 'heartbeatIntervalSeconds', 'nextHeartbeatAt']);
    expect(res.body.data).toMatchObject({ status: 'alive', heartbeatIntervalSeconds: 600 });
    const [row] = await t.app.services.licensing.deployments.list({ licenceIds: [id] });
    expect(new Date(res.body.data.nextHeartbeatAt).getTime()).toBe(row.lastHeartbeatAt.getTime() + 600_000);
    await client.post('/api/v1/deployments/heartbeat', { deploymentKey, metrics: { status: 'degraded', uptimeSeconds: 180 } }, { key });
    const history = await gql(
      t,
      'query($l: String) { registryDeployments(licence: $l) { hostname reportedStatus uptimeSeconds heartbeats(first: 5) { status uptimeSeconds } } }',
      {
        l: id,
      },
    );
    expect(history.data.registryDeployments).toEqual([
      {
        hostname: 'hb-1',
        reportedStatus: 'degraded',
        uptimeSeconds: 180,
        heartbeats: [
          { status: 'degraded', uptimeSeconds: 180 },
          { status: 'healthy', uptimeSeconds: 120 },
        ],
      },
    ]);
    const changes = await t.app.services.licensing.audit.list({ licenceId: id, actions: ['deployment.status_changed'], first: 10 });
    expect(changes.map((e) => e.details)).toEqual([{ hostname: 'hb-1', from: 'healthy', to: 'degraded' }]);
  });

  it("404 for an unknown key, or another licence's; 400 naming the field", async () => {
    const { key } = await createLicence(t);
    const unknown = await client.post(
      '/api/v1/deployments/heartbeat',
      { deploymentKey: 'dep_nope', metrics: { status: 'healthy', uptimeSeconds: 1 } },
      { key },
    );
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'DEPLOYMENT_NOT_FOUND']);
    const { deploymentKey } = (await client.post('/api/v1/deployments/register', node('theirs'))).body.data;
    const theirs = await client.post('/api/v1/deployments/heartbeat', { deploymentKey, metrics: { status: 'healthy', uptimeSeconds: 1 } }, { key });
    expect(theirs.status).toBe(404);
    for (const [body, field] of [
      [{ metrics: { status: 'healthy', uptimeSeconds: 1 } }, 'deploymentKey'],
      [{ deploymentKey }, 'metrics'],
      [{ deploymentKey, metrics: { uptimeSeconds: 1 } }, 'metrics.status'],
      [{ deploymentKey, metrics: { status: 'healthy', uptimeSeconds: -1 } }, 'metrics.uptimeSeconds'],
      [{ deploymentKey, metrics: { status: 'healthy', uptimeSeconds: 1.5 } }, 'metrics.uptimeSeconds'],
    ] as const) {
      const res = await client.post('/api/v1/deployments/heartbeat', body);
      expect([JSON.stringify(body), res.status, Object.keys(res.body.error.details)]).toEqual([JSON.stringify(body), 400, [field]]);
    }
  });
});

describe('heartbeat lifecycle', () => {
  it('a node is dead after two missed intervals plus drift: the cull frees its seat, a heartbeat revives it when a seat is free', async () => {
    const licensing = t.app.services.licensing;
    const { key, id } = await createLicence(t, { maxNodes: 1, heartbeatIntervalSeconds: 3600, heartbeatDriftSeconds: 300 });
    const first = (await client.post('/api/v1/deployments/register', node('life-1'), { key })).body.data;
    expect((await client.post('/api/v1/deployments/register', node('life-2'), { key })).status).toBe(422);

    // 2 × 1 h + 5 min after the registration it still holds its seat; a second later it does not
    const registered = new Date(first.registeredAt).getTime();
    const status = async () => (await licensing.deployments.list({ licenceIds: [id] })).map((d) => d.status);
    await licensing.deployments.cull(new Date(registered + 2 * HOUR + 300_000 - 1000));
    expect(await status()).toEqual(['alive']);
    expect(await licensing.deployments.cull(new Date(registered + 2 * HOUR + 300_000 + 1000))).toBeGreaterThanOrEqual(1);
    expect(await status()).toEqual(['dead']);
    expect((await client.get('/api/v1/license', { key })).body.data.nodesInUse).toBe(0);

    const second = await client.post('/api/v1/deployments/register', node('life-2'), { key });
    expect(second.status).toBe(201);
    const beat = { deploymentKey: first.deploymentKey, metrics: { status: 'healthy', uptimeSeconds: 9000 } };
    const refused = await client.post('/api/v1/deployments/heartbeat', beat, { key });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'NODE_LIMIT_EXCEEDED']);

    const removed = await gql(t, 'mutation($id: ID!) { deregisterDeployment(id: $id) { hostname } }', { id: second.body.data.id });
    expect(removed.data.deregisterDeployment.hostname).toBe('life-2');
    const revived = await client.post('/api/v1/deployments/heartbeat', beat, { key });
    expect([revived.status, revived.body.data.status]).toEqual([200, 'alive']);

    const actions = (await licensing.audit.list({ licenceId: id, first: 50 })).map((e) => e.action).reverse();
    expect(actions).toEqual([
      'licence.created',
      'deployment.registered',
      'deployment.limit_exceeded',
      'deployment.dead',
      'deployment.registered',
      'deployment.limit_exceeded',
      'deployment.deregistered',
      'deployment.revived',
    ]);
  });

  it('the scheduled upkeep (pg-boss) is registered, and runs on demand through GraphQL', async () => {
    const db = await database(t);
    try {
      const { rows } = await db.query(`SELECT name, cron FROM jobs.schedule WHERE name = 'licensing-upkeep'`);
      expect(rows).toEqual([{ name: 'licensing-upkeep', cron: '* * * * *' }]);
    } finally {
      await db.end();
    }
    const res = await gql(t, 'mutation { runRegistryUpkeep { dead expired purgedTokens } }');
    expect(res.data.runRegistryUpkeep).toEqual({ dead: expect.any(Number), expired: expect.any(Number), purgedTokens: expect.any(Number) });
  });
});
