import pg from 'pg';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql, http, type GatewayOf } from '../../../support/platform/http';
import { startChildApp, type ChildApp } from '../../../support/platform/child-app';
import { DATA_CHANGED } from '../../../../lib/cache-policy';
import { createLicence } from '../../../support/registry/registry';
import { SubgraphCallRecorder } from '../../../support/platform/subgraph-calls';
import { nextScheduled } from '../../../support/predictions/matches';
import { waitFor } from '../../../support/platform/wait';

/**
 * The response cache (gateway/response-cache.ts), through the public surfaces of two instances of
 * the whole stack over one PostgreSQL (this process's, and a child process's): an answer that is the
 * same whoever asks is executed once, yet every request is still authenticated and metered exactly,
 * across both instances; every change to its data (a version activated, results or fixtures imported,
 * predictions resolved, any write to the tables) evicts it in both at once; a revocation reaches both
 * at once; nothing caller-dependent is shared between callers. The answers are kept for an hour
 * (RESPONSE_CACHE_TTL_SECONDS), so a missed eviction shows as a stale answer, never hidden by expiry.
 */
const ENV = { RESPONSE_CACHE_TTL_SECONDS: '3600' };
const recorder = new SubgraphCallRecorder();
let t: TestApp;
let replica: ChildApp;
let db: pg.Client;
let lastChange = Date.now();
beforeAll(async () => {
  t = await startTestApp(ENV, { decorateDataSource: recorder.decorate });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  db.on('notification', () => (lastChange = Date.now()));
  await db.query(`LISTEN ${DATA_CHANGED}`);
  replica = await startChildApp(ENV, { databaseUrl: t.databaseUrl });
}, 120_000);
afterAll(async () => {
  await replica?.stop();
  await db?.end();
  await t?.stop();
});

const latest = (base: string, key: string, requestId?: string) =>
  http(`${base}/api/predictions/latest/?competition=en.1`, { key, headers: requestId ? { 'x-request-id': requestId } : {} });

/** Once no data change has been announced for a while: the instances' start-up work (re-predicting the fixtures) is done. */
const settled = () => waitFor('the data to settle', 60_000, async () => (Date.now() - lastChange > 1500 ? true : undefined));

/** The prediction fetches of one request made through this process's gateway. */
const fetchesOf = async (work: (requestId: string) => Promise<unknown>) => (await recorder.forRequest(work)).calls.filter((c) => c.subgraph === 'predictions');

/** Matches imported through an instance's gateway, as its administrator. */
const importMatches = (instance: GatewayOf, season: string, matches: object[]) =>
  gql(instance, 'mutation($s: String!, $d: JSON!) { importMatches(competition: "en.1", season: $s, data: $d) { updated inserted } }', {
    variables: { s: season, d: { matches } },
  });

describe('the same answer for everyone, executed once, metered per request', () => {
  it('answers a public operation from the cache after its first execution, and meters every request exactly', async () => {
    const [other, key] = [await t.createKey('pro'), await t.createKey('enterprise', { dailyLimit: 10 })];
    await settled();
    // another caller of the same class (an API key, not an administrator's) filled the cache; this key's first request is a hit
    await latest(t.urls.predictions, other);
    const first = await fetchesOf((id) => latest(t.urls.predictions, key, id));
    expect(first).toHaveLength(0);
    const ids = Array.from({ length: 14 }, (_, i) => `cached-${i}-${Date.now()}`);
    const [answers, fetched] = [
      await Promise.all(ids.map((id) => latest(t.urls.predictions, key, id))),
      recorder.calls.filter((c) => ids.includes(c.requestId)),
    ];
    expect(fetched).toEqual([]);
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    // 10 a day: the first request above and 9 of these; each its own count
    expect([ok.length, refused.length]).toEqual([9, 5]);
    expect(ok.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    for (const a of ok) expect(a.body).toEqual(ok[0].body);
  });

  it('caches GraphQL queries through the gateway too', async () => {
    const query = '{ modelVersions { number accuracy live { results } } }';
    await gql(t, query);
    const again = await recorder.forRequest((id) => gql(t, query, { headers: { 'x-request-id': id } }));
    expect(again.result.status).toBe(200);
    expect(again.calls).toEqual([]);
  });

  it('keeps quotas exact across both instances (N of M concurrent requests)', async () => {
    const key = await t.createKey('enterprise', { dailyLimit: 30 });
    const burst = (base: string) => Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? http(`${base}/api/`, { key }) : latest(base, key)));
    const answers = await Promise.all([...burst(t.urls.predictions), ...burst(replica.urls.predictions)]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
    const { rows } = await db.query(`SELECT count FROM access.daily_usage u JOIN access.api_key k ON k.id = u.key_id WHERE k.prefix = $1`, [key.slice(0, 12)]);
    expect(rows[0].count).toBe(30);
  });

  it('refuses a revoked key at once in both instances, their caches full', async () => {
    const key = await t.createKey('pro');
    for (const base of [t.urls.predictions, replica.urls.predictions]) expect((await latest(base, key)).status).toBe(200);
    const revoked = await gql(t, 'mutation($p: ID!) { revokeApiKey(key: $p) { revokedAt } }', { variables: { p: key.slice(0, 12) } });
    expect(revoked.body.errors).toBeUndefined();
    for (const base of [t.urls.predictions, replica.urls.predictions]) expect((await latest(base, key)).status).toBe(401);
  });
});

describe('nothing caller-dependent is shared', () => {
  it('answers a credential of another product with its refusal, not with the answer an API key cached', async () => {
    const query = '{ upcomingPredictions(first: 3) { matchId } }';
    expect((await gql(t, query)).status).toBe(200);
    const { key: licenceKey } = await createLicence(t);
    const asLicence = await gql(t, query, { key: null, headers: { 'x-license-key': licenceKey } });
    expect(asLicence.body.data?.upcomingPredictions ?? null).toBeNull();
    expect(asLicence.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anonymous = await gql(t, query, { key: null });
    expect(anonymous.status).toBe(401);
  });

  it('executes every request of an operation with a caller-dependent field (each key sees its own)', async () => {
    const [a, b] = [await t.createKey('pro'), await t.createKey('free')];
    for (let i = 0; i < 2; i++) {
      expect((await http(`${t.urls.predictions}/api/`, { key: a })).body.key.prefix).toBe(a.slice(0, 12));
      expect((await http(`${t.urls.predictions}/api/`, { key: b })).body.key).toMatchObject({ prefix: b.slice(0, 12), plan: 'free' });
    }
  });
});

// before the imports below: their background work (the strengths' refit) re-predicts the fixtures on its own time
it('serves nothing from the cache while the change notifications may be missed, and starts again once they arrive', async () => {
  const cache = t.app.gateway.cache!;
  await waitFor('the cache serving', 30_000, async () => (cache.active ? true : undefined));
  const [first] = ((await latest(t.urls.predictions, t.adminKey)).body as { match_id: number }[]).map((p) => p.match_id);
  // the LISTEN connections of this database go (both instances'), and a change is made before they are back
  await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'matchday:listen'`);
  await waitFor('the listener lost', 30_000, async () => (cache.active ? undefined : true));
  await db.query(`UPDATE predictions.prediction SET confidence = 0.876 WHERE match_id = $1 AND actual_outcome IS NULL`, [first]);
  const during = await fetchesOf((id) => latest(t.urls.predictions, t.adminKey, id));
  expect(during).toHaveLength(1);
  await waitFor('the listener back', 30_000, async () => (cache.active ? true : undefined));
  const body = (await latest(t.urls.predictions, t.adminKey)).body as { match_id: number; confidence: number }[];
  expect(body.find((p) => p.match_id === first)!.confidence).toBe(0.876);
  // and serving again
  await latest(t.urls.predictions, t.adminKey);
  expect(await fetchesOf((id) => latest(t.urls.predictions, t.adminKey, id))).toHaveLength(0);
}, 60_000);

describe('every change evicts the answers it touches, in every instance', () => {
  /**
   * Both instances have the answer cached; then `change`; then both show what `fresh` expects. (Not
   * that they show the same answer twice before: the background work of an import, the strengths'
   * refit, re-predicts the fixtures on its own time.)
   */
  async function evictedEverywhere<T>(read: (base: string) => Promise<T>, change: () => Promise<void>, fresh: (value: T) => boolean) {
    const bases = [t.urls.predictions, replica.urls.predictions];
    // read twice: the answers are cached in both
    for (let i = 0; i < 2; i++) for (const value of await Promise.all(bases.map(read))) expect(fresh(value)).toBe(false);
    await change();
    for (const base of bases)
      await waitFor(`the change seen at ${base}`, 30_000, async () => ((value) => (fresh(value) ? value : undefined))(await read(base)));
  }

  const latestIds = async (base: string) => ((await latest(base, t.adminKey)).body as { match_id: number }[]).map((p) => p.match_id);

  it('a write to the predictions by any path (SQL here)', async () => {
    const [first] = await latestIds(t.urls.predictions);
    const confidence = async (base: string) =>
      ((await latest(base, t.adminKey)).body as { match_id: number; confidence: number }[]).find((p) => p.match_id === first)!.confidence;
    await evictedEverywhere(
      confidence,
      async () => {
        await db.query(`UPDATE predictions.prediction SET confidence = 0.987 WHERE match_id = $1 AND actual_outcome IS NULL`, [first]);
      },
      (c) => c === 0.987,
    );
  });

  it('results imported: the played matches resolved and gone from the fixtures', async () => {
    const played = await nextScheduled(db, 2);
    await evictedEverywhere(
      latestIds,
      async () => {
        const res = await importMatches(
          replica,
          played[0].season,
          played.map((m) => ({ round: 'Matchday', date: m.date, team1: m.home, team2: m.away, score: { ft: [2, 1] } })),
        );
        expect(res.body.errors).toBeUndefined();
      },
      (ids) => !ids.some((id) => played.some((m) => m.id === id)),
    );
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM predictions.prediction WHERE match_id = ANY($1::int[]) AND actual_outcome IS NOT NULL`, [
      played.map((m) => m.id),
    ]);
    expect(rows[0].n).toBeGreaterThan(0);
  }, 60_000);

  it('fixtures imported: the next fixture, moved back a week, is no longer listed first', async () => {
    const [next] = await nextScheduled(db, 1);
    const date = new Date(Date.parse(`${next.date}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    await evictedEverywhere(
      async (base) => (await latestIds(base))[0],
      async () => {
        const res = await importMatches(t, next.season, [{ round: 'Matchday', date, team1: next.home, team2: next.away }]);
        expect(res.body.data.importMatches.updated).toBe(1);
      },
      (first) => first !== next.id,
    );
    expect((await db.query('SELECT match_date::text AS date, status FROM football.match WHERE id = $1', [next.id])).rows[0]).toEqual({
      date,
      status: 'scheduled',
    });
  }, 60_000);

  it('a version activated: every answer from the new one', async () => {
    // a copy of the active version as the next one (a retrain would make the same row, in minutes)
    const copied = [
      'kind',
      'hyper',
      'state',
      'training_from',
      'trained_through',
      'match_count',
      'evaluation',
      'metrics',
      'training_ms',
      'results_tracked_from',
      'ratings_through',
    ];
    const { rows } = await db.query(
      `INSERT INTO predictions.model_version (number, ${copied.join(', ')})
       SELECT (SELECT max(number) + 1 FROM predictions.model_version), ${copied.join(', ')} FROM predictions.model_version WHERE is_active RETURNING number`,
    );
    const number = rows[0].number as number;
    const versions = async (base: string) => {
      const res = await gql(base === t.urls.predictions ? t : replica, '{ upcomingPredictions(first: 5) { versionNumber } activeModelVersion { number } }');
      return res.body.data as { upcomingPredictions: { versionNumber: number }[]; activeModelVersion: { number: number } };
    };
    await evictedEverywhere(
      versions,
      async () => {
        const res = await gql(replica, 'mutation($n: Int!) { activateModelVersion(number: $n) { number active } }', { variables: { n: number } });
        expect(res.body.data.activateModelVersion).toEqual({ number, active: true });
      },
      (v) => v.activeModelVersion.number === number && v.upcomingPredictions.every((p) => p.versionNumber === number),
    );
  }, 60_000);
});
