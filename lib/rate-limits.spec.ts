import type { MigrationInterface, QueryRunner } from 'typeorm';
import { openStore, type Store, type StoreDefinition } from './database';
import { createLogger } from './logger';
import { KeyedLimiter } from './rate-limits';
import { createTestDatabase } from '../test/support/platform/database';

/**
 * A limit holds across processes and replicas: two limiters on separate connection pools (as two
 * processes would have) share one count in PostgreSQL.
 */

/** A subgraph's store as lib/rate-limits.ts asks for it: its own schema, with the table its migrations create. */
class RateLimitTable1700000000000 implements MigrationInterface {
  name = 'RateLimitTable1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE rate_limits_spec.rate_limit (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_limits_spec.rate_limit');
  }
}
const specStore: StoreDefinition = { schema: 'rate_limits_spec', entities: [], migrations: [RateLimitTable1700000000000] };

let db: Awaited<ReturnType<typeof createTestDatabase>>;
const stores: Store[] = [];
const open = async () => {
  const store = await openStore(specStore, { url: db.url, poolSize: 2, logger: createLogger('silent'), migrate: false });
  stores.push(store);
  return store;
};

beforeAll(async () => {
  db = await createTestDatabase();
  await (await openStore(specStore, { url: db.url, poolSize: 1, logger: createLogger('silent'), migrate: true })).close();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await db?.release();
});

it('counts per key across processes, and answers 429 with the seconds until the window frees up', async () => {
  const [one, two] = [
    new KeyedLimiter(await open(), 'spec', { points: 3, durationSeconds: 600 }),
    new KeyedLimiter(await open(), 'spec', { points: 3, durationSeconds: 600 }),
  ];
  await one.consume('203.0.113.1', 'too many');
  await two.consume('203.0.113.1', 'too many');
  await one.consume('203.0.113.1', 'too many');
  const refused = await two.consume('203.0.113.1', 'too many').catch((e: unknown) => e);
  expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429, message: 'too many', extensions: { details: { retryAfterSeconds: expect.any(Number) } } });
  const seconds = (refused as { extensions: { details: { retryAfterSeconds: number } } }).extensions.details.retryAfterSeconds;
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(600);
  // another key, and another limit on the same key, have their own counts
  await two.consume('203.0.113.2', 'too many');
  await new KeyedLimiter(stores[0], 'other', { points: 1, durationSeconds: 600 }).consume('203.0.113.1', 'too many');
});

it('throttles failures: open until the allowance is used by failures, then refused for everyone on that key', async () => {
  const failures = new KeyedLimiter(await open(), 'failures', { points: 2, durationSeconds: 600 });
  await failures.assertOpen('198.51.100.7', 'blocked');
  expect(await failures.tryConsume('198.51.100.7')).toBe(true);
  await failures.assertOpen('198.51.100.7', 'blocked');
  expect(await failures.tryConsume('198.51.100.7')).toBe(true);
  await expect(failures.assertOpen('198.51.100.7', 'blocked')).rejects.toMatchObject({ code: 'RATE_LIMITED', message: 'blocked' });
  await failures.assertOpen('198.51.100.8', 'blocked');
  // no address at all: one shared allowance, never none
  expect(await failures.tryConsume(undefined)).toBe(true);
  expect(await failures.tryConsume('')).toBe(true);
  expect(await failures.tryConsume(undefined)).toBe(false);
});
