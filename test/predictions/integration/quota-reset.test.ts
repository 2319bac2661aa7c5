/**
 * Daily quotas are counted per UTC day: a key used up at 23:59:59 UTC works again at 00:00:00.
 * The real service and store on this file's own database, with the clock set by the test.
 */
import { createLogger } from '../../../lib/logger';
import { openStore, type Store } from '../../../lib/database';
import { ApiKeyService } from '../../../subgraphs/predictions/access/domain/api-keys';
import { ApiKeyStore } from '../../../subgraphs/predictions/access/store/api-key-store';
import { accessStore } from '../../../subgraphs/predictions/access/store';
import { createTestDatabase } from '../../support/platform/database';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
beforeAll(async () => {
  db = await createTestDatabase();
  store = await openStore(accessStore, { url: db.url, poolSize: 2, logger: createLogger('silent'), migrate: false });
});
afterAll(async () => {
  await store?.close();
  await db?.release();
});

it('resets the count at 00:00 UTC, and reports that instant as the reset', async () => {
  let now = new Date('2026-03-14T23:59:58Z');
  const service = new ApiKeyService(new ApiKeyStore(store), () => now);
  const { key } = await service.create({ name: 'reset test', plan: 'enterprise', dailyLimit: 2 });

  const first = await service.authenticate(key, { meter: true });
  expect(first.quota).toEqual({ limit: 2, used: 1, remaining: 1, resetAt: new Date('2026-03-15T00:00:00Z') });
  now = new Date('2026-03-14T23:59:59Z');
  expect((await service.authenticate(key, { meter: true })).quota!.remaining).toBe(0);
  await expect(service.authenticate(key, { meter: true })).rejects.toMatchObject({
    code: 'RATE_LIMITED',
    extensions: { details: { retryAfterSeconds: 1, resetAt: '2026-03-15T00:00:00.000Z' } },
  });

  now = new Date('2026-03-15T00:00:00Z');
  const next = await service.authenticate(key, { meter: true });
  expect(next.quota).toEqual({ limit: 2, used: 1, remaining: 1, resetAt: new Date('2026-03-16T00:00:00Z') });
});
