/**
 * PostgreSQL killed (`kill -9` of its postmaster) while the system trains its first model version in
 * the background and serves a steady load, then started again. The process must live through it:
 * every request answers 503 with Retry-After meanwhile (never 500, never a hang), liveness stays up
 * while readiness follows the database, and once PostgreSQL is back every surface answers again
 * without help, the training finishes, and nothing committed is lost.
 */
import { rmSync } from 'node:fs';
import { gql, http } from '../../../support/platform/http';
import { startNodeApp, startOwnPostgres, until, type NodeApp, type OwnPostgres } from '../../../support/platform/faults';

let pg: OwnPostgres;
let app: NodeApp;

beforeAll(async () => {
  pg = await startOwnPostgres();
  app = await startNodeApp(pg.url);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await pg?.stop();
  if (app) rmSync(app.dataDir, { recursive: true, force: true });
});

async function latestRun() {
  const run = (await gql(app, '{ trainingJobs(first: 1) { id status progress error versionNumber } }')).body.data?.trainingJobs?.[0] as
    { id: string; status: string; progress: number; error: string | null; versionNumber: number | null } | undefined;
  return run && { ...run, status: run.status.toLowerCase() };
}

/** Requests in a loop, as clients would keep sending them: every answer's status is recorded; none may hang. */
function steadyLoad(key: string) {
  const statuses = new Map<string, number[]>();
  const requests: [string, () => Promise<Response>][] = [
    [
      'REST GET /api/predictions/latest/',
      () => fetch(`${app.urls.predictions}/api/predictions/latest/?limit=5`, { headers: { authorization: `Bearer ${key}` } }),
    ],
    ['REST GET /api/dashboard/overview/', () => fetch(`${app.urls.predictions}/api/dashboard/overview/`, { headers: { authorization: `Bearer ${key}` } })],
    [
      'GraphQL competitions',
      () =>
        fetch(`${app.urls.gateway}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ competitions { code } }' }),
        }),
    ],
  ];
  let running = true;
  const loops = requests.map(async ([name, send]) => {
    while (running) {
      const res = await send().then(
        async (r) => (await r.arrayBuffer(), r.status),
        (err: Error) => `${err.name}: ${err.message}`,
      );
      const list = statuses.get(name) ?? [];
      statuses.set(name, list);
      if (typeof res === 'number') list.push(res);
      else throw new Error(`${name}: no answer (${res})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  return {
    statuses,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

it('lives through PostgreSQL killed during background work and under load, answers 503 meanwhile, and recovers by itself', async () => {
  // committed before the outage
  const created = await gql(app, 'mutation { createApiKey(input: { name: "before the outage", plan: enterprise }) { key } }');
  const key = created.body.data.createApiKey.key as string;
  // background work in progress: the first start trains version 1
  await until(async () => (await latestRun())?.status === 'running', 'the first training to run', 60_000, 200);
  const run = (await latestRun())!;

  const load = steadyLoad(key);
  await new Promise((r) => setTimeout(r, 500));
  await pg.kill();

  // the outage: the process lives, each surface says 503 with Retry-After and a code
  await until(async () => (await http(`${app.urls.gateway}/readyz`)).status === 503, 'readiness to report the outage', 15_000);
  const rest = await http(`${app.urls.predictions}/api/predictions/latest/`, { key });
  expect(rest.status).toBe(503);
  expect(rest.headers.get('retry-after')).toBe('5');
  expect(rest.body).toEqual({ detail: expect.any(String), code: 'service_unavailable' });
  const graphql = await gql(app, '{ competitions { code } }', { key });
  expect(graphql.status).toBe(503);
  expect(graphql.headers.get('retry-after')).toBe('5');
  expect(graphql.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
  for (const base of [app.urls.gateway, app.urls.predictions]) {
    const ready = await http(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(ready.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    // liveness does not follow the database: nothing here needs a restart
    for (const path of ['/healthz', '/livez']) expect((await http(`${base}${path}`)).status).toBe(200);
  }
  // a few seconds of outage with background work and load on it
  await new Promise((r) => setTimeout(r, 4_000));
  expect(app.running()).toBe(true);

  await pg.restart();
  await until(async () => (await http(`${app.urls.gateway}/readyz`)).status === 200, 'readiness after the restart', 30_000, 200);
  await until(async () => (await http(`${app.urls.predictions}/api/dashboard/overview/`, { key })).status === 200, 'the REST surface to answer', 30_000, 200);
  await load.stop();

  // under load, before, during and after: every request answered, with 200 or 503 only
  for (const [name, statuses] of load.statuses) {
    expect({ name, statuses: [...new Set(statuses)].sort() }).toEqual({ name, statuses: expect.arrayContaining([200, 503]) });
    expect({ name, others: statuses.filter((s) => s !== 200 && s !== 503) }).toEqual({ name, others: [] });
  }
  expect(app.running()).toBe(true);
  expect(app.output()).not.toMatch(/Unhandled rejection/);

  // the background work resumed and finished; nothing committed was lost
  await until(async () => ['succeeded', 'failed'].includes((await latestRun())!.status), 'the training to end', 120_000, 500);
  const ended = (await latestRun())!;
  expect(ended).toMatchObject({ id: run.id, status: 'succeeded', progress: 1, versionNumber: 1, error: null });
  expect((await http(`${app.urls.predictions}/api/`, { key })).status).toBe(200);
  // no job is stuck: a new retrain is accepted
  const retrain = await http(`${app.urls.predictions}/api/retrain/`, { method: 'POST', key: app.adminKey });
  expect(retrain.status).toBe(202);
}, 240_000);
