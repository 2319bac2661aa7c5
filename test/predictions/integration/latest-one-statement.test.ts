/**
 * The latest predictions cost one SQL statement, whichever list they are: the upcoming fixtures, else
 * (none known: off-season, a feed behind) the most recent played matches. The real queries and store on
 * this file's own database (the shipped data and model version 1, its open predictions included); the
 * pool below only counts the statements it is given. For clock times across the data and beyond, every
 * competition of the data and none, and any length, the answer is the list's definition, read here
 * with one statement per list.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { createLogger } from '../../../lib/logger';
import { openStore, type Store } from '../../../lib/database';
import { ActiveModel } from '../../../subgraphs/predictions/predictions/domain/active-model';
import { PredictionQueries } from '../../../subgraphs/predictions/predictions/domain/queries';
import { Statistics } from '../../../subgraphs/predictions/predictions/domain/statistics';
import { predictionsStore } from '../../../subgraphs/predictions/predictions/store';
import { PredictionStore } from '../../../subgraphs/predictions/predictions/store/prediction-store';
import { createTestDatabase } from '../../support/platform/database';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
let statements = 0;
let counted: Store;
beforeAll(async () => {
  db = await createTestDatabase();
  store = await openStore(predictionsStore, { url: db.url, poolSize: 2, logger: createLogger('silent'), migrate: false });
  // the real pool; each statement it is given is counted
  const pool = new Proxy(store.pool, {
    get(target, name) {
      if (name !== 'query') return Reflect.get(target, name, target) as unknown;
      return (...args: Parameters<pg.Pool['query']>) => {
        statements += 1;
        return (target.query as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  counted = { ...store, schema: store.schema, url: store.url, dataSource: store.dataSource, pool, close: () => store.close() };
}, 60_000);
afterAll(async () => {
  await store?.close();
  await db?.release();
});

/** The definition: open predictions kicking off after now, soonest first (ties by match); else the played ones, latest first. */
async function expected(now: Date, first: number, competition: string | undefined): Promise<{ state: string; ids: number[] }> {
  const active = `p.version_id = (SELECT id FROM predictions.model_version WHERE is_active)`;
  const inCompetition = competition === undefined ? '' : 'AND p.competition = $3';
  const upcoming = await store.pool.query<{ match_id: number }>(
    `SELECT p.match_id FROM predictions.prediction p WHERE ${active} AND p.actual_outcome IS NULL AND p.kickoff > $1 ${inCompetition.replace('$3', '$2')}
      ORDER BY p.kickoff, p.match_id LIMIT ${first}`,
    competition === undefined ? [now] : [now, competition],
  );
  if (upcoming.rows.length) return { state: 'upcoming', ids: upcoming.rows.map((r) => r.match_id) };
  const recent = await store.pool.query<{ match_id: number }>(
    `SELECT p.match_id FROM predictions.prediction p WHERE ${active} AND p.actual_outcome IS NOT NULL ${inCompetition.replace('$3', '$1')}
      ORDER BY p.kickoff DESC, p.match_id DESC LIMIT ${first}`,
    competition === undefined ? [] : [competition],
  );
  return { state: recent.rows.length ? 'recent' : 'none', ids: recent.rows.map((r) => r.match_id) };
}

it('answers either list in one statement, as the lists are defined', async () => {
  const { rows: span } = await store.pool.query<{ from: Date; to: Date }>('SELECT min(kickoff) AS "from", max(kickoff) AS "to" FROM predictions.prediction');
  const { rows: leagues } = await store.pool.query<{ code: string }>('SELECT DISTINCT competition AS code FROM predictions.prediction ORDER BY 1');
  // a competition without predictions answers none
  const competitions = [undefined, ...leagues.map((l) => l.code), 'xx.9'];
  const from = span[0].from.getTime() - 86_400_000;
  const to = span[0].to.getTime() + 365 * 86_400_000;
  let now = new Date(from);
  const pstore = new PredictionStore(counted);
  const active = new ActiveModel(pstore);
  const queries = new PredictionQueries(
    pstore,
    active,
    new Statistics(pstore, active),
    { resolveTeam: () => Promise.reject(new Error('latest resolves no team')) },
    () => now,
  );
  // the active version is loaded once and kept: its statement is not the list's
  await active.get();
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: from, max: to }), fc.constantFrom(...competitions), fc.integer({ min: 1, max: 100 }), async (at, competition, first) => {
      now = new Date(at);
      statements = 0;
      const latest = await queries.latest(first, competition);
      expect(statements).toBe(1);
      const want = await expected(now, first, competition);
      expect({ state: latest.state, ids: latest.rows.map((r) => r.matchId) }).toEqual(want);
      seen.add(latest.state);
    }),
    // the ends of the span and a competition without predictions, beside the random ones
    {
      numRuns: 60,
      examples: [
        [from, undefined, 20],
        [to, undefined, 20],
        [from, 'xx.9', 5],
      ],
    },
  );
  // the search reached both lists (and a competition with neither)
  expect([...seen].sort()).toEqual(['none', 'recent', 'upcoming']);
});
