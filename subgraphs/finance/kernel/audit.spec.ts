import pg from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { inTransaction, openStore, type Store, type StoreDefinition } from '../../../lib/database';
import { createLogger } from '../../../lib/logger';
import { createTestDatabase, testPool } from '../../../test/support/platform/database';
import { AuditOutbox, auditOutboxDdl, type AuditDelivery, type AuditEntry } from './audit';

/**
 * The finance subgraphs' audit outbox on a real PostgreSQL: an entry exists exactly when the
 * transaction of its change commits; the relay delivers it until the receiver took it, and a re-send
 * (a lost answer, a crash before `sent_at`) reaches a receiver that inserts by id once.
 */

class SpecOutbox1700000000000 implements MigrationInterface {
  name = 'SpecOutbox1700000000000';
  async up(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('audit_spec').up) await q.query(sql);
    await q.query('CREATE TABLE audit_spec.change (id serial PRIMARY KEY, what text NOT NULL)');
    // the receiver, as node.audit_log takes entries: by id, once
    await q.query('CREATE TABLE audit_spec.received (outbox_id uuid PRIMARY KEY, actor text NOT NULL, action text NOT NULL, detail jsonb NOT NULL)');
  }
  async down(q: QueryRunner): Promise<void> {
    for (const sql of auditOutboxDdl('audit_spec').down) await q.query(sql);
    await q.query('DROP TABLE audit_spec.change, audit_spec.received');
  }
}
const specStore: StoreDefinition = { schema: 'audit_spec', entities: [], migrations: [SpecOutbox1700000000000] };

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
/** The receiver's own pool: in the node it is another subgraph's (node.audit_log), never the outbox's. */
let receiver: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  store = await openStore(specStore, { url: db.url, poolSize: 4, logger: createLogger('silent'), migrate: true });
  receiver = testPool(db.url, 2);
});
afterAll(async () => {
  await receiver?.end();
  await store?.close();
  await db?.release();
});
beforeEach(async () => {
  await store.pool.query('TRUNCATE audit_spec.audit_outbox, audit_spec.change, audit_spec.received');
});

/** The receiver's side of delivery: an insert by id, ON CONFLICT DO NOTHING (what recordNodeAudit does). */
const receive: AuditDelivery = async (e: AuditEntry) => {
  await receiver.query('INSERT INTO audit_spec.received VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (outbox_id) DO NOTHING', [
    e.id,
    e.actor,
    e.action,
    JSON.stringify(e.detail),
  ]);
};
const received = async () =>
  (await store.pool.query<{ action: string; actor: string; detail: unknown }>('SELECT actor, action, detail FROM audit_spec.received')).rows;
const outboxRows = async () =>
  (
    await store.pool.query<{ sentAt: Date | null; attempts: number; lastError: string | null }>(
      'SELECT sent_at AS "sentAt", attempts, last_error AS "lastError" FROM audit_spec.audit_outbox ORDER BY created_at',
    )
  ).rows;

/** A change and its audit entry, in one transaction. */
const decide = (outbox: AuditOutbox, what: string, fail = false) =>
  inTransaction(store.pool, async (c) => {
    await c.query('INSERT INTO audit_spec.change (what) VALUES ($1)', [what]);
    await outbox.record(c, 'admin:ops', 'thing.decided', { what });
    if (fail) throw new Error('the change fails after its audit entry was written');
  });

it('an entry exists exactly when its change commits', async () => {
  const outbox = new AuditOutbox('audit_spec', store.pool, receive);
  await decide(outbox, 'kept');
  await expect(decide(outbox, 'rolled back', true)).rejects.toThrow('the change fails');
  expect(await outbox.pendingCount()).toBe(1);
  expect((await store.pool.query('SELECT what FROM audit_spec.change')).rows).toEqual([{ what: 'kept' }]);
  expect(await outbox.relay()).toEqual({ sent: 1, pending: 0 });
  expect(await received()).toEqual([{ actor: 'admin:ops', action: 'thing.decided', detail: { what: 'kept' } }]);
  // nothing left to send: a second pass sends nothing
  expect(await outbox.relay()).toEqual({ sent: 0, pending: 0 });
  expect(await received()).toHaveLength(1);
});

it('while the receiver fails, entries stay pending (the failure recorded); once it works they arrive once, in order', async () => {
  let down = true;
  const outbox = new AuditOutbox('audit_spec', store.pool, async (e) => {
    if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:1');
    await receive(e);
  });
  await decide(outbox, 'first');
  await decide(outbox, 'second');
  const failed = await outbox.relay();
  expect(failed).toMatchObject({ sent: 0, pending: 2, error: 'connect ECONNREFUSED 127.0.0.1:1' });
  // the relay stops at the first failure: the second was not tried
  expect(await outboxRows()).toEqual([
    { sentAt: null, attempts: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:1' },
    { sentAt: null, attempts: 0, lastError: null },
  ]);
  expect(await received()).toEqual([]);
  down = false;
  expect(await outbox.relay()).toEqual({ sent: 2, pending: 0 });
  expect((await received()).map((r) => r.detail)).toEqual([{ what: 'first' }, { what: 'second' }]);
  expect((await outboxRows()).map((r) => [r.sentAt !== null, r.lastError])).toEqual([
    [true, null],
    [true, null],
  ]);
});

it('a delivery whose answer is lost (as a crash before sent_at) is sent again and received once', async () => {
  let loseAnswer = true;
  const outbox = new AuditOutbox('audit_spec', store.pool, async (e) => {
    await receive(e);
    if (loseAnswer) throw new Error('socket hang up');
  });
  await decide(outbox, 'once');
  expect(await outbox.relay()).toMatchObject({ sent: 0, pending: 1 });
  loseAnswer = false;
  expect(await outbox.relay()).toEqual({ sent: 1, pending: 0 });
  expect(await received()).toHaveLength(1);
  expect((await outboxRows())[0]).toMatchObject({ attempts: 2, lastError: null });
});

it('two relays at once (two replicas) deliver each entry once', async () => {
  let deliveries = 0;
  const slow: AuditDelivery = async (e) => {
    deliveries++;
    await new Promise((r) => setTimeout(r, 5));
    await receive(e);
  };
  const [a, b] = [new AuditOutbox('audit_spec', store.pool, slow), new AuditOutbox('audit_spec', store.pool, slow)];
  for (let i = 0; i < 12; i++) await decide(a, `change ${i}`);
  const [one, two] = await Promise.all([a.relay(5), b.relay(5)]);
  expect(one.sent + two.sent).toBe(12);
  expect(deliveries).toBe(12);
  expect(await received()).toHaveLength(12);
});

it('an entry names its action as <object>.<verb> and its actor', async () => {
  const outbox = new AuditOutbox('audit_spec', store.pool, receive);
  await expect(outbox.recordAlone('admin:ops', 'Not An Action')).rejects.toThrow('<object>.<verb>');
  await expect(outbox.recordAlone('', 'thing.decided')).rejects.toThrow('actor');
  expect(() => new AuditOutbox('bad; schema', store.pool, receive)).toThrow('not a schema name');
  expect(await outbox.pendingCount()).toBe(0);
});
