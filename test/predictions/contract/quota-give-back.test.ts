import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import pg from 'pg';
import type { ZodObject } from 'zod';
import type { GatewayContext } from '../../../gateway/context';
import type { SubgraphDataSource } from '../../../gateway/datasources';
import type { Route } from '../../../rest-adapter/core/route';
import { predictionRoutes } from '../../../rest-adapter/predictions/routes';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, http } from '../../support/platform/http';
import { trainingGate, type TrainingGate } from '../../support/predictions/training-gate';

/**
 * An answer that is the server's fault (5xx: a subgraph that fails, 503 model_not_ready)
 * costs the caller nothing — the unit its metering took goes back to the day's count before the
 * answer goes out — while a 2xx (and a client's mistake) costs one. Every metered route of the
 * prediction surface (from its route table: a credential, an operation) and the GraphQL endpoint,
 * each in three states: healthy, every subgraph fetch refused (ECONNREFUSED, as a downed remote
 * subgraph), and no model version active.
 */

/** Every query-plan fetch refused while `down` (the credential's verification and metering still answer). */
let down = false;
const failing = (_subgraph: string, inner: SubgraphDataSource): SubgraphDataSource => ({
  process: (options: GraphQLDataSourceProcessOptions<GatewayContext>) =>
    down ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' })) : inner.process(options),
  call: (...args) => inner.call(...args),
});

let t: TestApp;
let db: pg.Client;
let key: string;
let gate: TrainingGate;
/** Path parameters by name, with values that exist. */
const params: Record<string, string> = {};
/** Required query parameters by name. */
const QUERY_VALUES: Record<string, string> = { home: 'Arsenal', away: 'Chelsea' };

beforeAll(async () => {
  t = await startTestApp({ RESPONSE_CACHE: 'off' }, { decorateDataSource: failing });
  gate = trainingGate(t.app.services.predictions.training);
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  // a metered key that may use every route (administrators' routes too)
  key = await t.createKey('enterprise', { dailyLimit: 10_000, role: 'admin' });
  params.matchId = String((await db.query<{ id: number }>('SELECT min(id) AS id FROM football.match')).rows[0].id);
  const [job] = (await gql(t, '{ trainingJobs(first: 1) { id } }')).body.data.trainingJobs as { id: string }[];
  params.jobId = job.id;
}, 120_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const metered = predictionRoutes.filter((r) => r.security !== 'none' && r.operation && !r.reply);

function requestOf(route: Route): { path: string; init: RequestInit } {
  const path = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (!(name in params)) throw new Error(`no value for the path parameter ${name} of ${route.path}: add one to this test`);
    return params[name];
  });
  const shape = (route.query as ZodObject | undefined)?.shape ?? {};
  const query = new URLSearchParams();
  for (const [name, schema] of Object.entries(shape)) {
    if ((schema as { isOptional(): boolean }).isOptional()) continue;
    if (!(name in QUERY_VALUES)) throw new Error(`no value for the query parameter ${name} of ${route.path}: add one to this test`);
    query.set(name, QUERY_VALUES[name]);
  }
  return { path: `${path}${query.size ? `?${query.toString()}` : ''}`, init: { method: route.method } };
}

/** The requests left after a request, as its answer says. */
const remainingOf = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));

/** The key's count of today, from the store the meter writes. */
const usedToday = async () =>
  (
    await db.query<{ count: number }>(
      "SELECT count FROM access.daily_usage du JOIN access.api_key k ON k.id = du.key_id WHERE k.prefix = $1 AND day = (now() AT TIME ZONE 'UTC')::date",
      [key.slice(0, 12)],
    )
  ).rows[0]?.count ?? 0;

/** A retrain a route started is ended at once (nothing is trained). */
async function endRetrain(route: Route, res: { status: number; body: { job_id?: string } }) {
  if (route.path !== '/api/retrain/' || res.status !== 202 || !res.body.job_id) return;
  gate.fail(res.body.job_id, 'ended by the give-back test');
  for (;;) {
    const job = await http(`${t.urls.predictions}/api/retrain/${res.body.job_id}/`, { key: t.adminKey });
    if (job.body.status === 'failed' || job.body.status === 'succeeded') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('the route table has metered routes, and every one has values to call it with', () => {
  expect(metered.length).toBeGreaterThan(5);
  for (const route of metered) expect(() => requestOf(route)).not.toThrow();
});

describe.each(metered.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  const call = async () => {
    const { path, init } = requestOf(route);
    const res = await http(`${t.urls.predictions}${path}`, { ...init, key });
    await endRetrain(route, res);
    return res;
  };

  it('a 5xx answer (every subgraph refusing) leaves the quota as it was; a 2xx costs one', async () => {
    const before = await call();
    expect(before.status).toBeLessThan(300);
    const usedBefore = await usedToday();

    down = true;
    let failed: Awaited<ReturnType<typeof call>>;
    try {
      failed = await call();
    } finally {
      down = false;
    }
    expect(failed.status).toBeGreaterThanOrEqual(500);
    // its headers say what is left after the give-back: what the answer before left
    expect(remainingOf(failed)).toBe(remainingOf(before));
    expect(await usedToday()).toBe(usedBefore);

    const after = await call();
    expect(after.status).toBeLessThan(300);
    expect(remainingOf(after)).toBe(remainingOf(before) - 1);
    expect(await usedToday()).toBe(usedBefore + 1);
  });
});

describe('while no model version is active (503 model_not_ready)', () => {
  beforeAll(async () => {
    await db.query('UPDATE predictions.model_version SET is_active = false');
    t.app.services.predictions.active.invalidate();
  });
  afterAll(async () => {
    await db.query('UPDATE predictions.model_version SET is_active = true WHERE number = 1');
    t.app.services.predictions.active.invalidate();
  });

  it('GraphQL predict answers 503 and costs nothing; a GraphQL answer that succeeds costs one', async () => {
    const ok = await gql(t, '{ plans { code } }', { key });
    expect(ok.status).toBe(200);
    const notReady = await gql(t, '{ predict(home: "Arsenal", away: "Chelsea") { confidence } }', { key });
    expect([notReady.status, notReady.body.errors[0].extensions.code]).toEqual([503, 'MODEL_NOT_READY']);
    expect(remainingOf(notReady)).toBe(remainingOf(ok));
    const next = await gql(t, '{ plans { code } }', { key });
    expect(remainingOf(next)).toBe(remainingOf(ok) - 1);
  });

  it.each(metered.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: a 5xx costs nothing, anything else one', async (_name, route) => {
    const { path, init } = requestOf(route);
    const first = await http(`${t.urls.predictions}${path}`, { ...init, key });
    await endRetrain(route, first);
    const second = await http(`${t.urls.predictions}${path}`, { ...init, key });
    await endRetrain(route, second);
    expect(second.status).toBe(first.status);
    expect(remainingOf(second)).toBe(remainingOf(first) - (second.status >= 500 ? 0 : 1));
  });
});

it('GraphQL: an operation whose subgraph fails costs nothing', async () => {
  const ok = await gql(t, '{ plans { code } }', { key });
  down = true;
  let failed: Awaited<ReturnType<typeof gql>>;
  try {
    failed = await gql(t, '{ plans { code } }', { key });
  } finally {
    down = false;
  }
  expect(failed.status).toBeGreaterThanOrEqual(500);
  expect(remainingOf(failed)).toBe(remainingOf(ok));
  expect(remainingOf(await gql(t, '{ plans { code } }', { key }))).toBe(remainingOf(ok) - 1);
});

it('a give-back asked twice for one ticket gives back once, and concurrent ones each exactly once', async () => {
  const access = t.app.services.access!.apiKeys;
  const ok = await gql(t, '{ plans { code } }', { key });
  const resetAt = new Date(Number(ok.headers.get('x-ratelimit-reset')) * 1000);
  const used = await usedToday();
  const ticket = '00000000-0000-4000-8000-000000000001';
  const twice = await Promise.all([access.giveBack(key, ticket, resetAt), access.giveBack(key, ticket, resetAt)]);
  expect(twice.filter((q) => q !== null)).toHaveLength(1);
  expect(await usedToday()).toBe(used - 1);
  const tickets = Array.from({ length: 5 }, (_, i) => `00000000-0000-4000-8000-00000000010${i}`);
  await Promise.all(tickets.map((tk) => access.giveBack(key, tk, resetAt)));
  expect(await usedToday()).toBe(used - 6);
});
