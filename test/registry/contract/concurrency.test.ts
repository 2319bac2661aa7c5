import { startTestApp, type TestApp } from '../../support/platform/app';
import { createLicence, database, demoReleases, registryClient, type RegistryClient } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

let t: TestApp;
let client: RegistryClient;
beforeAll(async () => {
  t = await startTestApp();
  client = registryClient(t, (await t.app.services.licensing.demoLicence()).licenceKey);
});
afterAll(() => t?.stop());

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

it('50 concurrent downloads with one token: exactly one 302, the others 410 DOWNLOAD_TOKEN_USED', async () => {
  const artifact = (await demoReleases(client))['1.1.0'].artifacts[0];
  const { token } = (await client.post(`/api/v1/artifacts/${artifact.id}/authorize`)).body.data;
  const results = await Promise.all(Array.from({ length: 50 }, () => http(`${t.urls.registry}/api/v1/artifacts/${artifact.id}/download?token=${token}`)));
  const statuses = results.map((r) => r.status);
  expect(count(statuses, 302)).toBe(1);
  expect(count(statuses, 410)).toBe(49);
  expect(new Set(results.filter((r) => r.status === 410).map((r) => r.body.error.code))).toEqual(new Set(['DOWNLOAD_TOKEN_USED']));
  const downloads = await t.app.services.licensing.audit.list({ actions: ['artifact.downloaded'], first: 100 });
  expect(downloads.filter((e) => e.details.via === 'download-token')).toHaveLength(1);
});

it('50 concurrent registrations of distinct hosts against a cap of 5: exactly 5 seats', async () => {
  const { key, id } = await createLicence(t, { maxNodes: 5 });
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      client.post('/api/v1/deployments/register', { hostname: `host-${i}`, ipAddress: `10.1.0.${i + 1}`, currentVersion: '1.1.0' }, { key }),
    ),
  );
  const statuses = results.map((r) => r.status);
  expect(count(statuses, 201)).toBe(5);
  expect(count(statuses, 422)).toBe(45);
  expect(new Set(results.filter((r) => r.status === 422).map((r) => r.body.error.code))).toEqual(new Set(['NODE_LIMIT_EXCEEDED']));
  const db = await database(t);
  try {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM licensing.deployment WHERE licence_id = $1 AND status = 'alive'`, [id]);
    expect(rows[0].n).toBe(5);
  } finally {
    await db.end();
  }
  expect((await client.get('/api/v1/license', { key })).body.data.nodesInUse).toBe(5);
});

it('the same host registering 20 times at once holds one seat', async () => {
  const { key, id } = await createLicence(t, { maxNodes: 5 });
  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      client.post('/api/v1/deployments/register', { hostname: 'same-host', ipAddress: '10.2.0.1', currentVersion: '1.1.0' }, { key }),
    ),
  );
  expect(
    count(
      results.map((r) => r.status),
      201,
    ),
  ).toBe(1);
  expect(
    count(
      results.map((r) => r.status),
      200,
    ),
  ).toBe(19);
  expect(new Set(results.map((r) => r.body.data.deploymentKey)).size).toBe(1);
  expect(await t.app.services.licensing.deployments.list({ licenceIds: [id] })).toHaveLength(1);
});
