/**
 * PostgreSQL frozen (every one of its processes SIGSTOPped: the sockets stay open and
 * nothing answers, as on a hung host). Requests on connections the pool already holds used to wait
 * for as long as the freeze lasted (sign-in 60 s); every statement now has its bound
 * (DB_QUERY_TIMEOUT_MS), so each request gets 503 with Retry-After within ~5 s, sign-in included,
 * and everything answers again once PostgreSQL resumes. Runs its own PostgreSQL (never the shared one).
 */
import { rmSync } from 'node:fs';
import { DATABASE_CHECK_MEMO_MS } from '../../../../lib/probes';
import { gql, http } from '../../../support/platform/http';
import { loginAt } from '../../../support/finance/node';
import { startNodeApp, startOwnPostgres, until, type NodeApp, type OwnPostgres } from '../../../support/platform/faults';

let pg: OwnPostgres;
let app: NodeApp;
let key: string;

beforeAll(async () => {
  pg = await startOwnPostgres();
  app = await startNodeApp(pg.url, {
    env: {
      DB_QUERY_TIMEOUT_MS: process.env.FROZEN_DB_QUERY_TIMEOUT_MS ?? '5000',
      // a production node with its secrets (without them its sign-in answers 503 improperly_configured)
      SERVER_JWT_KEY: 'database-frozen-test-jwt-key-0123456789abcdef',
      FRAMEWORK_SECRET_KEY: 'database-frozen-test-framework-key-0123456789abcdef',
    },
  });
  const created = await gql(app, 'mutation { createApiKey(input: { name: "frozen", plan: enterprise }) { key } }');
  key = created.body.data.createApiKey.key;
}, 180_000);

afterAll(async () => {
  pg?.thaw();
  await app?.stop();
  await pg?.stop();
  if (app) rmSync(app.dataDir, { recursive: true, force: true });
});

const timed = async (send: () => Promise<{ status: number; headers: Headers; body: unknown }>) => {
  const started = Date.now();
  const res = await send();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), seconds: (Date.now() - started) / 1000 };
};
const latest = () => http(`${app.urls.predictions}/api/predictions/latest/?limit=5`, { key, signal: AbortSignal.timeout(30_000) });
/** A sign-in of a user that does not exist: 401 while PostgreSQL answers (only the database can say so). */
const unknownSignIn = () => loginAt(app.urls.finance, 'nobody', 'not the password', { signal: AbortSignal.timeout(30_000) });

it('answers 503 with Retry-After within ~5 s while PostgreSQL is frozen (a request on a held connection, sign-in), and recovers once it resumes', async () => {
  // warm: the pools hold open connections, the key is known
  expect((await latest()).status).toBe(200);
  const before = await unknownSignIn();
  expect([before.status, before.body.code]).toEqual([401, expect.any(String)]);

  pg.freeze();
  try {
    const [request, login] = await Promise.all([timed(latest), timed(unknownSignIn)]);
    expect({ ...request, seconds: request.seconds < 8 }).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/), seconds: true });
    expect({ ...login, seconds: login.seconds < 8 }).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/), seconds: true });
  } finally {
    pg.thaw();
  }
  // back without help
  await until(async () => (await latest()).status === 200 && (await unknownSignIn()).status === 401, 'the surfaces to answer again', 60_000, 500);
  expect(app.running()).toBe(true);
}, 180_000);

it('one readiness rule on every surface: with only the postmaster stopped (held connections still answer, no new one is taken), every /readyz says 503; all 200 again once it resumes', async () => {
  const surfaces = Object.entries(app.urls);
  const readyz = async () =>
    Promise.all(
      surfaces.map(async ([name, base]) => {
        const res = await http(`${base}/readyz`, { signal: AbortSignal.timeout(15_000) });
        return [name, res.status, res.status === 503 ? res.headers.get('retry-after') !== null : true] as const;
      }),
    );
  expect(await readyz()).toEqual(surfaces.map(([name]) => [name, 200, true]));
  const postmaster = pg.pid();
  process.kill(postmaster, 'SIGSTOP');
  try {
    // a database check's outcome answers the probes of the next second (lib/probes.ts): the last good one
    // may still be served that long
    await new Promise((r) => setTimeout(r, DATABASE_CHECK_MEMO_MS + 200));
    expect(await readyz()).toEqual(surfaces.map(([name]) => [name, 503, true]));
  } finally {
    process.kill(postmaster, 'SIGCONT');
  }
  await until(async () => (await readyz()).every(([, status]) => status === 200), 'every surface to be ready again', 60_000, 500);
}, 120_000);
