import { startApp, type App } from '../../../bin/app';
import { createLogger } from '../../../lib/logger';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { createLicence, gql } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

/**
 * Two processes' worth of the system on one database (two apps, each with its own licence cache):
 * a suspension or revocation made through one is refused by the other at once, its cached licence
 * evicted by the NOTIFY of the change (not by the cache's 60 s lifetime).
 */
let t: TestApp;
let other: App;
beforeAll(async () => {
  t = await startTestApp();
  other = await startApp(t.config, createLogger('silent'), { databaseUrl: t.databaseUrl, randomPorts: true });
}, 90_000);
afterAll(async () => {
  await other?.stop();
  await t?.stop();
});

const licence = (base: string, key: string) => http(`${base}/api/v1/license`, { headers: { 'x-license-key': key } });

/** Resolves when the other process drops its cached row of this licence. */
const evictionOf = (id: string) =>
  new Promise<void>((resolve) => {
    const listener = (licenceId: string) => {
      if (licenceId !== id) return;
      other.services.licensing.licences.evictions.off('evicted', listener);
      resolve();
    };
    other.services.licensing.licences.evictions.on('evicted', listener);
  });

it.each([
  ['suspendLicence', 'LICENSE_SUSPENDED'],
  ['revokeLicence', 'LICENSE_REVOKED'],
])('%s in one process: the other refuses the key at once (%s)', async (mutation, code) => {
  const { key, id } = await createLicence(t);
  expect((await licence(other.urls.registry, key)).status).toBe(200);
  const evicted = evictionOf(id);
  const res = await gql(t, `mutation($l: String!) { ${mutation}(licence: $l, reason: "test") { status } }`, { l: id });
  expect(res.errors).toBeUndefined();
  await evicted;
  const refused = await licence(other.urls.registry, key);
  expect([refused.status, refused.body.error.code]).toEqual([403, code]);
});

it('a maintenance extension reaches the other process the same way', async () => {
  const { key, id } = await createLicence(t, { maintenanceUntil: '2025-03-01' });
  expect((await licence(other.urls.registry, key)).body.data.maintenanceUntil).toBe('2025-03-01');
  const evicted = evictionOf(id);
  await gql(t, 'mutation($l: String!) { extendLicenceMaintenance(licence: $l, until: "2030-12-31") { maintenanceUntil } }', { l: id });
  await evicted;
  const check = await http(`${other.urls.registry}/api/v1/releases/check-update?product=finance-node&channel=stable&current_version=1.0.0`, {
    headers: { 'x-license-key': key },
  });
  expect(check.body.data.maintenanceCovered).toBe(true);
});
