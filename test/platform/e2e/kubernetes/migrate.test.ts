import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadSubgraphs, PRODUCT_NAMES } from '../../../../subgraphs/products';

/** Every subgraph of the three products. */
const SUBGRAPHS = loadSubgraphs(PRODUCT_NAMES);
import { projectRoot } from '../../../../lib/paths';
import { assertBuilt } from '../../../support/platform/child-app';
import { RUN_ENV, admin, serverUrl, withDatabase } from '../../../support/platform/database';

/**
 * The migration Job's command (`node dist/bin/migrate.js`): on an empty server it creates the
 * database, every subgraph's schema with all its migrations and the job queue's schema, then exits;
 * run again (the next release's Job), it changes nothing.
 */

const exec = promisify(execFile);
const name = `mdtest_${process.env[RUN_ENV]}_${randomBytes(4).toString('hex')}`;
let url: string;

const migrate = (env: Record<string, string>) =>
  exec(process.execPath, [join(projectRoot(), 'dist/bin/migrate.js')], { env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env } })
    .then((r) => ({ code: 0, stderr: r.stderr }))
    .catch((e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }));

async function applied(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const def of SUBGRAPHS) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${def.store.schema}".migrations`);
      counts[def.store.schema] = rows[0].n;
    }
    const jobs = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'jobs'`);
    counts.jobs = jobs.rows[0].n;
    return counts;
  } finally {
    await client.end();
  }
}

beforeAll(() => {
  assertBuilt('dist/bin/migrate.js');
  url = withDatabase(serverUrl(), name);
});
afterAll(() => admin(serverUrl(), (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));

it('creates the database and applies every migration and the job queue schema, then exits; a second run is a no-op', async () => {
  const first = await migrate({ DATABASE_URL: url });
  expect([first.code, first.stderr]).toEqual([0, '']);
  const after = await applied();
  const expected = Object.fromEntries(SUBGRAPHS.map((def) => [def.store.schema, def.store.migrations.length]));
  expect(after).toEqual({ ...expected, jobs: expect.any(Number) });
  expect(after.jobs).toBeGreaterThan(0);

  const second = await migrate({ DATABASE_URL: url });
  expect([second.code, second.stderr]).toEqual([0, '']);
  expect(await applied()).toEqual(after);
});

it('refuses to run without DATABASE_URL, saying so', async () => {
  const run = await migrate({});
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/DATABASE_URL: required by the migration job/);
});
