/**
 * Idempotent requests (lib/idempotency.ts) on a real PostgreSQL: one run per (owner, key), the first
 * outcome replayed, 409 while in flight, 422 for another request under the key, faults forgotten,
 * a dead request's lease taken over with the same downstream ids, keys new again after 24 hours.
 */
import pg from 'pg';
import { DomainError } from '../../../lib/errors';
import { IDEMPOTENCY_LEASE_SECONDS, IdempotentRequests, idempotencyTableSql, type DerivedIds } from '../../../lib/idempotency';
import { createTestDatabase, testPool } from '../../support/platform/database';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;
const schema = 'idempotency_test';

beforeAll(async () => {
  db = await createTestDatabase();
  pool = testPool(db.url, 4);
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(idempotencyTableSql(schema));
});
afterAll(async () => {
  await pool?.end();
  await db?.release();
});

let now = new Date('2026-11-01T12:00:00Z');
const clock = () => now;
const requests = () => new IdempotentRequests({ pool, schema }, clock);

/** A transfer-like piece of work that counts its runs and answers with what a resolver would return. */
function countedTransfer(runs: string[]) {
  return async (ids: DerivedIds) => {
    const id = ids('debit');
    runs.push(id);
    return { id, amount: 1050n, at: new Date('2026-11-01T12:00:01Z'), note: 'rent' };
  };
}

const request = (key: string | undefined, input: unknown = { to: 'bob', amount: '10.50' }) => ({
  owner: 'user:alice',
  key,
  operation: 'createTransfer',
  input,
});

it('runs a request once per key and answers every repeat with the first result, dates and minor units intact', async () => {
  const runs: string[] = [];
  const first = await requests().run(request('k-1'), countedTransfer(runs));
  const again = await requests().run(request('k-1', { amount: '10.50', to: 'bob' }), countedTransfer(runs));
  expect(runs).toHaveLength(1);
  expect(again).toEqual(first);
  expect(again.amount).toBe(1050n);
  expect(again.at).toBeInstanceOf(Date);
});

it('refuses the same key for a different request with 422 and runs nothing', async () => {
  const runs: string[] = [];
  await requests().run(request('k-2'), countedTransfer(runs));
  await expect(requests().run(request('k-2', { to: 'carol', amount: '10.50' }), countedTransfer(runs))).rejects.toMatchObject({
    code: 'IDEMPOTENCY_KEY_REUSED',
    status: 422,
  });
  await expect(requests().run({ ...request('k-2'), operation: 'createCard' }, countedTransfer(runs))).rejects.toMatchObject({ status: 422 });
  expect(runs).toHaveLength(1);
});

it('answers 409 with Retry-After while the first request with the key is still running', async () => {
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  const runs: string[] = [];
  const first = requests().run(request('k-3'), async (ids) => {
    await held;
    return countedTransfer(runs)(ids);
  });
  // the first has claimed the key once its row exists
  for (;;) {
    const { rowCount } = await pool.query(`SELECT 1 FROM ${schema}.idempotency_key WHERE key = 'k-3'`);
    if (rowCount) break;
    await new Promise((r) => setImmediate(r));
  }
  const concurrent = await requests()
    .run(request('k-3'), countedTransfer(runs))
    .catch((e: unknown) => e);
  expect(concurrent).toMatchObject({ code: 'IDEMPOTENCY_IN_FLIGHT', status: 409, extensions: { details: { retryAfterSeconds: 1 } } });
  finish();
  await first;
  expect(runs).toHaveLength(1);
});

it("remembers a client error (the request's outcome) and replays it without running again", async () => {
  let runs = 0;
  const refuse = async () => {
    runs++;
    throw new DomainError('INSUFFICIENT_FUNDS', 422, 'Insufficient funds.', { available: '3.00' });
  };
  await expect(requests().run(request('k-4'), refuse)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
  const replayed = await requests()
    .run(request('k-4'), refuse)
    .catch((e: unknown) => e);
  expect(replayed).toBeInstanceOf(DomainError);
  expect(replayed).toMatchObject({ code: 'INSUFFICIENT_FUNDS', status: 422, message: 'Insufficient funds.', extensions: { details: { available: '3.00' } } });
  expect(runs).toBe(1);
});

it('forgets a fault: the retry with the same key runs, with the same downstream ids', async () => {
  const runs: string[] = [];
  await expect(
    requests().run(request('k-5'), async (ids) => {
      runs.push(ids('debit'));
      throw new Error('connection reset');
    }),
  ).rejects.toThrow('connection reset');
  await requests().run(request('k-5'), countedTransfer(runs));
  expect(runs).toHaveLength(2);
  expect(runs[1]).toBe(runs[0]);
});

it('takes over a request whose process died once its lease is over, with the same downstream ids; not before', async () => {
  const runs: string[] = [];
  // a request that never finishes: its process was killed mid-work
  void requests().run(request('k-6'), async (ids) => {
    runs.push(ids('debit'));
    return new Promise(() => undefined);
  });
  for (;;) {
    if (runs.length) break;
    await new Promise((r) => setImmediate(r));
  }
  await expect(requests().run(request('k-6'), countedTransfer(runs))).rejects.toMatchObject({ status: 409 });
  const started = now;
  now = new Date(started.getTime() + (IDEMPOTENCY_LEASE_SECONDS + 1) * 1000);
  try {
    const result = await requests().run(request('k-6'), countedTransfer(runs));
    expect(runs).toEqual([runs[0], runs[0]]);
    expect(result.id).toBe(runs[0]);
  } finally {
    now = started;
  }
});

it('keeps a key for 24 hours: after that the same key is a new request', async () => {
  const runs: string[] = [];
  await requests().run(request('k-7'), countedTransfer(runs));
  const started = now;
  now = new Date(started.getTime() + 25 * 3600_000);
  try {
    await requests().run(request('k-7', { to: 'dave', amount: '1.00' }), countedTransfer(runs));
    expect(runs).toHaveLength(2);
    // the sweep removes every record past its 24 hours; the replaced one is fresh
    expect(await requests().sweep()).toBeGreaterThan(0);
    const { rows } = await pool.query<{ key: string }>(`SELECT key FROM ${schema}.idempotency_key`);
    expect(rows.map((r) => r.key)).toEqual(['k-7']);
  } finally {
    now = started;
  }
});

it('scopes keys per owner, runs keyless requests every time, and refuses a malformed key with 400', async () => {
  const runs: string[] = [];
  await requests().run(request('shared'), countedTransfer(runs));
  await requests().run({ ...request('shared'), owner: 'user:bob' }, countedTransfer(runs));
  expect(runs).toHaveLength(2);
  expect(runs[0]).not.toBe(runs[1]);
  await requests().run(request(undefined), countedTransfer(runs));
  await requests().run(request(undefined), countedTransfer(runs));
  expect(new Set(runs).size).toBe(4);
  for (const bad of ['has space', 'x'.repeat(256), 'é']) {
    await expect(requests().run(request(bad), countedTransfer(runs))).rejects.toMatchObject({ code: 'BAD_USER_INPUT', status: 400 });
  }
  expect(runs).toHaveLength(4);
});
