import pg from 'pg';
import { NODE_STATE_CHANGED, type NodeGate } from '../../../subgraphs/finance/kernel/gate';
import { startTestApp, type TestApp } from '../../support/platform/app';

/**
 * NOTIFY listeners (lib/database.ts): the subgraphs of one process share ONE LISTEN connection per
 * database, the channels multiplexed on it, and it comes back after its backend is terminated, so
 * that caches are still evicted by NOTIFY in every subgraph.
 */

let t: TestApp;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const databaseName = () => decodeURIComponent(new URL(t.databaseUrl).pathname.slice(1));

/** This app's LISTEN connections (backend pids). */
async function listenConnections(): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'matchday:listen%' ORDER BY pid",
    [databaseName()],
  );
  return rows.map((r) => r.pid);
}

/** Notifies NODE_STATE_CHANGED until every finance subgraph's gate has evicted its node state (each hears it only through the listener). */
async function everyGateEvicts(): Promise<void> {
  const gates = Object.values(t.app.services as Record<string, object>).flatMap((s) => ('gate' in s ? [s.gate as NodeGate] : []));
  expect(gates.length).toBeGreaterThanOrEqual(10);
  const before = gates.map((g) => g.evictions);
  let evicted = false;
  const all = Promise.all(gates.map((g, i) => g.evictedAfter(before[i]))).then(() => (evicted = true));
  // the connection may still be (re)connecting: notify again until it hears
  while (!evicted) {
    await db.query('SELECT pg_notify($1, $2)', [NODE_STATE_CHANGED, 'test']);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
}

it('every subgraph of the process listens over one connection to the database, and evicts by NOTIFY', async () => {
  await everyGateEvicts();
  expect(await listenConnections()).toHaveLength(1);
});

it('reconnects after its backend is terminated, LISTENs again on every channel, and NOTIFY still evicts in every subgraph', async () => {
  await everyGateEvicts();
  const [before] = await listenConnections();
  const { rows } = await db.query<{ terminated: boolean }>('SELECT pg_terminate_backend($1) AS terminated', [before]);
  expect(rows[0].terminated).toBe(true);
  await everyGateEvicts();
  const after = await listenConnections();
  expect(after).toHaveLength(1);
  expect(after[0]).not.toBe(before);
});
