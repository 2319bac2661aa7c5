import { openStore, type Store } from '../../../lib/database';
import { createLogger } from '../../../lib/logger';
import { ApiKeyService } from '../../../subgraphs/predictions/access/domain/api-keys';
import { accessStore } from '../../../subgraphs/predictions/access/store';
import { ApiKeyStore } from '../../../subgraphs/predictions/access/store/api-key-store';
import { startTestApp, type TestApp } from '../../support/platform/app';

/**
 * Each process keeps verified key rows for a short while. Two "processes" here: services on their own
 * connection pools, neither listening for NOTIFY, so every notification is lost. A revocation must
 * count at once all the same; any other change within the cache's bound (10 s), on an injected clock.
 */

let t: TestApp;
const stores: Store[] = [];
let now = new Date('2030-06-01T12:00:00Z');
const clock = () => now;

async function process_(): Promise<ApiKeyService> {
  const store = await openStore(accessStore, { url: t.databaseUrl, poolSize: 2, logger: createLogger('silent'), migrate: false });
  stores.push(store);
  return new ApiKeyService(new ApiKeyStore(store), clock);
}

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await t?.stop();
});

it('refuses a revoked key at once in a process that cached it and never heard of the revocation', async () => {
  const [serving, admin] = [await process_(), await process_()];
  for (const plan of ['free', 'enterprise'] as const) {
    // metered (free) and unmetered (enterprise without a limit) keys take different statements
    const key = await t.createKey(plan);
    expect((await serving.authenticate(key, { meter: true })).principal.plan).toBe(plan);
    await admin.revoke(key.slice(0, 12));
    await expect(serving.authenticate(key, { meter: true })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', message: expect.stringMatching(/revoked/) });
    await expect(serving.authenticate(key, { meter: false })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  }
});

it('sees another change (a new plan) within 10 s without its notification', async () => {
  const [serving, admin] = [await process_(), await process_()];
  const key = await t.createKey('free');
  expect((await serving.authenticate(key, { meter: true })).quota?.limit).toBe(50);
  await admin.changePlan(key.slice(0, 12), 'pro');
  now = new Date(now.getTime() + 9_000);
  expect((await serving.authenticate(key, { meter: true })).quota?.limit).toBe(50);
  now = new Date(now.getTime() + 1_001);
  expect((await serving.authenticate(key, { meter: true })).quota?.limit).toBe(5000);
});
