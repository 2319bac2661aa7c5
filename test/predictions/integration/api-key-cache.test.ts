/**
 * Unknown API keys do not cost a database round trip each: "no such key" is
 * remembered per prefix for a minute, for a bounded number of prefixes, and forgotten the moment a
 * key with that prefix is created, in this process or another (NOTIFY). The real service and store
 * on this file's own database; the store below only counts its lookups.
 */
import { createLogger } from '../../../lib/logger';
import { NotificationListener, openStore, type Store } from '../../../lib/database';
import { ApiKeyService } from '../../../subgraphs/predictions/access/domain/api-keys';
import { KEY_CHANGED } from '../../../subgraphs/predictions/access/credential';
import { ApiKeyStore, type KeyForAuth } from '../../../subgraphs/predictions/access/store/api-key-store';
import { accessStore } from '../../../subgraphs/predictions/access/store';
import { createTestDatabase } from '../../support/platform/database';

class CountingKeyStore extends ApiKeyStore {
  lookups = 0;
  override findForAuth(prefix: string): Promise<KeyForAuth | undefined> {
    this.lookups += 1;
    return super.findForAuth(prefix);
  }
}

const logger = createLogger('silent');
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
beforeAll(async () => {
  db = await createTestDatabase();
  store = await openStore(accessStore, { url: db.url, poolSize: 2, logger, migrate: false });
});
afterAll(async () => {
  await store?.close();
  await db?.release();
});

const unknownKey = (id: string) => `mpk_${id.padEnd(8, '0').slice(0, 8)}${'s'.repeat(40)}`;

it('looks an unknown prefix up once a minute, not once a request', async () => {
  let now = new Date('2026-05-01T12:00:00Z');
  const keys = new CountingKeyStore(store);
  const service = new ApiKeyService(keys, () => now);
  for (let i = 0; i < 5; i++) await expect(service.authenticate(unknownKey('gone0001'), { meter: true })).rejects.toMatchObject({ status: 401 });
  expect(keys.lookups).toBe(1);
  now = new Date('2026-05-01T12:01:01Z');
  await expect(service.authenticate(unknownKey('gone0001'), { meter: true })).rejects.toMatchObject({ status: 401 });
  expect(keys.lookups).toBe(2);
});

it('remembers a bounded number of unknown prefixes, the oldest going first', async () => {
  const keys = new CountingKeyStore(store);
  const service = new ApiKeyService(keys, undefined, 3);
  for (const id of ['a1', 'a2', 'a3', 'a4']) await expect(service.authenticate(unknownKey(id), { meter: false })).rejects.toMatchObject({ status: 401 });
  expect(keys.lookups).toBe(4);
  // a4, a3, a2 are remembered; a1 was pushed out
  for (const id of ['a4', 'a3', 'a2']) await expect(service.authenticate(unknownKey(id), { meter: false })).rejects.toMatchObject({ status: 401 });
  expect(keys.lookups).toBe(4);
  await expect(service.authenticate(unknownKey('a1'), { meter: false })).rejects.toMatchObject({ status: 401 });
  expect(keys.lookups).toBe(5);
});

it('accepts a key created after its prefix was looked up in vain, here and in another process', async () => {
  const here = new ApiKeyService(new CountingKeyStore(store));
  const elsewhere = new ApiKeyService(new CountingKeyStore(store));
  // another process hears of new keys as the access subgraph's start wires it
  let warmedUp!: () => void;
  const notified = new Promise<void>((resolve) => (warmedUp = resolve));
  const key = unknownKey('late0001');
  // other keys change meanwhile (other tests' administrators): wait for this key's prefix
  let heard!: () => void;
  const arrived = new Promise<void>((resolve) => (heard = resolve));
  const listener = new NotificationListener(db.url, logger);
  listener.listen(KEY_CHANGED, (prefix) => {
    if (prefix === 'warm-up') return warmedUp();
    elsewhere.forget(prefix);
    if (prefix === key.slice(0, 12)) heard();
  });
  try {
    await expect(here.authenticate(key, { meter: false })).rejects.toMatchObject({ status: 401 });
    await expect(elsewhere.authenticate(key, { meter: false })).rejects.toMatchObject({ status: 401 });
    // the LISTEN connection is up once a notification of ours comes back
    let listening = false;
    void notified.then(() => (listening = true));
    while (!listening) {
      await store.pool.query('SELECT pg_notify($1, $2)', [KEY_CHANGED, 'warm-up']);
      await Promise.race([notified, new Promise((r) => setTimeout(r, 100))]);
    }
    // an operator-chosen key (ADMIN_API_KEY) is the one whose prefix a caller can know in advance
    await here.bootstrapAdmin(key);
    expect((await here.authenticate(key, { meter: false })).principal.role).toBe('admin');
    await arrived;
    expect((await elsewhere.authenticate(key, { meter: false })).principal.role).toBe('admin');
  } finally {
    await listener.close();
  }
});
