import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { createLogger } from '../../../lib/logger';
import { openStore, type Store } from '../../../lib/database';
import type { DisputeState } from '../../../subgraphs/finance/commerce/domain/catalogue';
import {
  DISPUTE_TRANSITIONS,
  FINAL_DISPUTE_STATES,
  INITIAL_DISPUTE_STATE,
  type DisputeAction,
} from '../../../subgraphs/finance/commerce/domain/dispute-transitions';
import { commerceStore } from '../../../subgraphs/finance/commerce/store';
import { CommerceStore } from '../../../subgraphs/finance/commerce/store/commerce-store';
import { createTestDatabase } from '../../support/platform/database';

/**
 * The database agrees with the disputes' declared state machine (domain/dispute-transitions.ts):
 * every declared state is stored, reached from the initial one by the store's own moves along the
 * table (each a row of the history), and a status the table does not declare is refused; one live
 * dispute per transaction holds in exactly the states an action leads on from (a closed case may be
 * followed by another dispute, a live one may not). The states come from the table: a new state
 * without its migration fails here, not as a 500 in production.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
let commerce: CommerceStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = await openStore(commerceStore, { url: db.url, poolSize: 4, logger: createLogger('silent'), migrate: false });
  commerce = new CommerceStore(store);
});
afterAll(async () => {
  await store?.close();
  await db?.release();
});

const STATES = Object.keys(DISPUTE_TRANSITIONS) as DisputeState[];

/** A shortest path of moves from the initial state to each state the table reaches. */
function pathsFromInitial(): Map<DisputeState, { action: DisputeAction; to: DisputeState }[]> {
  const paths = new Map<DisputeState, { action: DisputeAction; to: DisputeState }[]>([[INITIAL_DISPUTE_STATE, []]]);
  const queue = [INITIAL_DISPUTE_STATE];
  for (let s = queue.shift(); s; s = queue.shift())
    for (const [action, to] of Object.entries(DISPUTE_TRANSITIONS[s]) as [DisputeAction, DisputeState][])
      if (!paths.has(to)) {
        paths.set(to, [...paths.get(s)!, { action, to }]);
        queue.push(to);
      }
  return paths;
}

async function inTx<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await store.pool.connect();
  try {
    await c.query('BEGIN');
    const result = await work(c);
    await c.query('COMMIT');
    return result;
  } catch (err) {
    await c.query('ROLLBACK');
    throw err;
  } finally {
    c.release();
  }
}

const raise = (transferId: string) =>
  inTx((c) =>
    commerce.insertDispute(c, {
      userId: randomUUID(),
      transferId,
      amount: 1000n,
      currency: 'EUR',
      reason: 'other',
      description: 'A dispute of the state test.',
      status: INITIAL_DISPUTE_STATE,
    }),
  );

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'stored',
    (err: Error & { code?: string }) => err.code ?? err.message,
  );

it.each(STATES)('stores %s, reached by the moves of the table, and allows another dispute of its transaction only when it is final', async (state) => {
  const path = pathsFromInitial().get(state);
  expect(path).toBeDefined();
  const transferId = randomUUID();
  const dispute = await raise(transferId);
  let from: DisputeState = INITIAL_DISPUTE_STATE;
  for (const { action, to } of path!) {
    await inTx((c) => commerce.moveDispute(c, dispute.id, from, to, `test:${action}`));
    from = to;
  }
  expect((await commerce.dispute(dispute.id))!.status).toBe(state);
  expect((await commerce.disputeHistory(dispute.id)).map((h) => h.toStatus)).toEqual([INITIAL_DISPUTE_STATE, ...path!.map((p) => p.to)]);
  expect(await codeOf(raise(transferId))).toBe(FINAL_DISPUTE_STATES.includes(state) ? 'stored' : '23505');
});

it('refuses a status the table does not declare', async () => {
  const dispute = await raise(randomUUID());
  expect(await codeOf(inTx((c) => commerce.moveDispute(c, dispute.id, INITIAL_DISPUTE_STATE, 'escalated', 'test')))).toBe('23514');
  expect((await commerce.dispute(dispute.id))!.status).toBe(INITIAL_DISPUTE_STATE);
});
