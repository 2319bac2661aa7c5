/**
 * The Node process killed (`kill -9`) in the middle of a retrain, then started again on the same
 * database: the run it owned is found at once (its lease died with it) and failed with a reason, and
 * a new retrain is accepted right away instead of a 409 for minutes.
 */
import { rmSync } from 'node:fs';
import pg from 'pg';
import { http } from '../../../support/platform/http';
import { startNodeApp, startOwnPostgres, until, type NodeApp, type OwnPostgres } from '../../../support/platform/faults';

let postgres: OwnPostgres;
let first: NodeApp | undefined;
let second: NodeApp | undefined;

beforeAll(async () => {
  postgres = await startOwnPostgres();
}, 120_000);

afterAll(async () => {
  for (const app of [first, second]) {
    await app?.stop();
    if (app) rmSync(app.dataDir, { recursive: true, force: true });
  }
  await postgres?.stop();
});

const job = async (app: NodeApp, id: string) => (await http(`${app.urls.predictions}/api/retrain/${id}/`, { key: app.adminKey })).body;

it('fails the run of a killed process at its next start, with a reason, and accepts a new retrain at once', async () => {
  first = await startNodeApp(postgres.url);
  const app = first;
  // the first start's training first (version 1), so that the retrain below is the only run
  const firstRun = async () =>
    (
      await http(`${app.urls.gateway}/graphql`, {
        method: 'POST',
        key: app.adminKey,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ trainingJobs(first: 1) { status } }' }),
      })
    ).body.data?.trainingJobs?.[0]?.status as string | undefined;
  await until(async () => (await firstRun()) === 'SUCCEEDED', 'the first training', 120_000, 500);
  const accepted = await http(`${app.urls.predictions}/api/retrain/`, { method: 'POST', key: app.adminKey });
  expect(accepted.status).toBe(202);
  const id = accepted.body.job_id as string;
  // mid-retrain: running, with progress reported
  await until(async () => (await job(app, id)).status === 'running', 'the retrain to run', 60_000, 100);
  const before = await job(app, id);

  await first.kill();
  expect(first.running()).toBe(false);
  // as the killed process left it
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  try {
    const { rows } = await db.query('SELECT status FROM predictions.training_run WHERE id = $1', [id]);
    expect(rows[0].status).toBe('running');
  } finally {
    await db.end();
  }

  // the next start finds it before it serves anything
  second = await startNodeApp(postgres.url);
  const after = await job(second, id);
  expect(after).toMatchObject({ job_id: id, status: 'failed', error: expect.stringMatching(/^interrupted: the process running it stopped/) });
  expect(after.progress).toBeGreaterThanOrEqual(before.progress);
  expect(after.finished_at).not.toBeNull();
  // a stuck run blocks nothing: a new retrain is accepted at once, and runs to the end
  const next = await http(`${second.urls.predictions}/api/retrain/`, { method: 'POST', key: second.adminKey });
  expect(next.status).toBe(202);
  const app2 = second;
  await until(async () => ['succeeded', 'failed'].includes((await job(app2, next.body.job_id)).status), 'the new retrain to end', 120_000, 500);
  expect(await job(app2, next.body.job_id)).toMatchObject({ status: 'succeeded', version: 'version_2' });
}, 300_000);
