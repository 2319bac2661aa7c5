import pg from 'pg';
import { footballCache } from '../../../subgraphs/predictions/football/cache';
import { DATA_WORLD_NOW, startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

/**
 * GET /api/ carries the football data's extent (counts, per-league status, the feed's status). It is
 * kept in memory by the football subgraph and computed again only when the football tables announce a
 * change (their triggers' NOTIFY) or when the next kick-off passes; so a change the tables do not
 * announce is not seen until an announcement, and every change they announce is seen at once. Every
 * table of the football cache policy is either changed here (and the change checked in /api/) or
 * named as outside the extent: a new table fails this file until it is placed.
 */

let now = DATA_WORLD_NOW;
let t: TestApp;
let key: string;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp({ RESPONSE_CACHE: 'off' }, { clock: () => now });
  key = await t.createKey('pro');
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
}, 120_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

interface League {
  code: string;
  upcoming_matches: number;
  awaiting_result: number;
  next_kickoff: string | null;
}
interface Extent {
  competitions: number;
  teams: number;
  matches: number;
  scheduled_matches: number;
  leagues: League[];
  feed: { last_pass_at: string | null; last_success_at: string | null };
}

async function extent(): Promise<Extent> {
  const res = await http(`${t.urls.predictions}/api/`, { key });
  expect(res.status).toBe(200);
  return res.body.data as Extent;
}

/** The extent once `ok` holds (a NOTIFY arrives after its commit, asynchronously), or the last one seen. */
async function extentWhen(ok: (e: Extent) => boolean, ms = 10_000): Promise<Extent> {
  const until = Date.now() + ms;
  for (;;) {
    const e = await extent();
    if (ok(e) || Date.now() > until) return e;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const league = (e: Extent, code: string) => e.leagues.find((l) => l.code === code);

/** Per football table: a change by SQL by hand, and the difference it must make to /api/'s extent. */
const CHANGES: Record<string, { sql: string; seen: (before: Extent, after: Extent) => boolean }> = {
  competition: {
    sql: `INSERT INTO football.competition (code, name, country, tier) VALUES ('zz.1', 'Test League', 'Nowhere', 1)`,
    seen: (b, a) => a.competitions === b.competitions + 1 && league(a, 'zz.1') !== undefined,
  },
  team: {
    sql: `INSERT INTO football.team (name, country) VALUES ('Test Rovers', 'Nowhere'), ('Test United', 'Nowhere')`,
    seen: (b, a) => a.teams === b.teams + 2,
  },
  match: {
    sql: `INSERT INTO football.match (competition_id, season, stage, match_date, kickoff, home_team_id, away_team_id, status)
          SELECT (SELECT id FROM football.competition WHERE code = 'zz.1'), '2025-26', 'Regular Season', '2026-02-01', '2026-02-01T15:00:00Z',
                 (SELECT id FROM football.team WHERE name = 'Test Rovers'), (SELECT id FROM football.team WHERE name = 'Test United'), 'scheduled'`,
    seen: (b, a) => a.matches === b.matches + 1 && a.scheduled_matches === b.scheduled_matches + 1 && league(a, 'zz.1')?.upcoming_matches === 1,
  },
  feed_run: {
    sql: `INSERT INTO football.feed_run (trigger, started_at, finished_at, status, sources) VALUES ('api', '2025-12-30T10:00:00Z', '2025-12-30T10:00:05Z', 'succeeded', 0)`,
    seen: (b, a) => a.feed.last_pass_at !== b.feed.last_pass_at && a.feed.last_success_at !== null,
  },
};
/** Tables of the policy that /api/'s extent does not read, and why. */
const OUTSIDE_THE_EXTENT: Record<string, string> = {
  team_alias: 'spellings of team names: no count or status of /api/ reads them',
  feed_source: 'the state of each configured source: /api/ shows the passes (feed_run); no source is configured in this test',
};

it('every table of the football cache policy is placed: changed by this test, or outside the extent', () => {
  for (const table of footballCache.tables) expect([table, table in CHANGES || table in OUTSIDE_THE_EXTENT]).toEqual([table, true]);
});

it('a change the tables do not announce is not seen (served from memory) until an announcement', async () => {
  const before = await extent();
  await db.query('BEGIN');
  // replica mode: no trigger fires, so nothing is announced
  await db.query(`SET LOCAL session_replication_role = replica`);
  await db.query(`INSERT INTO football.competition (code, name, country, tier) VALUES ('zz.9', 'Silent League', 'Nowhere', 9)`);
  await db.query('COMMIT');
  await new Promise((r) => setTimeout(r, 500));
  const silent = await extent();
  expect(silent.competitions).toBe(before.competitions);
  expect(league(silent, 'zz.9')).toBeUndefined();
  await db.query(`SELECT pg_notify('data_changed', 'football')`);
  const announced = await extentWhen((e) => league(e, 'zz.9') !== undefined);
  expect(announced.competitions).toBe(before.competitions + 1);
  expect(league(announced, 'zz.9')).toBeDefined();
});

it.each(Object.keys(CHANGES))('a change to football.%s is in /api/ at once (its trigger announces it)', async (table) => {
  const before = await extent();
  await db.query(CHANGES[table].sql);
  const after = await extentWhen((e) => CHANGES[table].seen(before, e));
  expect(CHANGES[table].seen(before, after)).toBe(true);
});

it('a kick-off passing moves its match from upcoming to awaiting its result, with no write to any table', async () => {
  const before = await extent();
  const zz = league(before, 'zz.1')!;
  expect(zz).toMatchObject({ upcoming_matches: 1, awaiting_result: 0, next_kickoff: '2026-02-01T15:00:00.000Z' });
  now = new Date('2026-02-01T15:00:01Z');
  const after = league(await extent(), 'zz.1')!;
  expect(after).toMatchObject({ upcoming_matches: 0, awaiting_result: 1, next_kickoff: null });
});
