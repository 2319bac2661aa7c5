import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { projectRoot } from '../../../lib/paths';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql } from '../../support/platform/http';

/**
 * The football data as loaded (the template database holds it: test/support/platform/global-setup.ts),
 * checked against the shipped files and their README with SQL, and through the GraphQL API.
 * Tests that change the data (imports) come last.
 */

const DATA = join(projectRoot(), 'data', 'football');
const LEAGUES = ['en.1', 'en.2', 'de.1', 'es.1', 'it.1', 'fr.1'] as const;

interface RawMatch {
  date: string;
  team1: string;
  team2: string;
  round?: string;
  stage?: string;
  time?: string;
  score?: { ft?: number[]; ht?: number[] };
  status?: string;
}
interface SeasonFile {
  season: string;
  competition: string;
  matches: RawMatch[];
}

interface ReadmeRow {
  season: string;
  competition: string;
  matches: number;
  withScore: number;
  withoutScore: number;
  first: string;
  last: string;
  flags: Record<string, number>;
}

/** The README's per-file table. */
function readmeTable(): ReadmeRow[] {
  const readme = readFileSync(join(DATA, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Per-file counts'), readme.indexOf('## Known quirks'));
  return [...section.matchAll(/^\| `(\d{4}-\d{2})\/([a-z]{2}\.\d)\.json` \| [^|]+ \| (\d+) \| (\d+) \| (\d+) \| (\S+) \| (\S+) \| (\S+) \| \d+ \|$/gm)].map(
    (m) => ({
      season: m[1],
      competition: m[2],
      matches: Number(m[3]),
      withScore: Number(m[4]),
      withoutScore: Number(m[5]),
      first: m[6],
      last: m[7],
      flags: m[8] === '-' ? {} : Object.fromEntries(m[8].split(',').map((f) => [f.split(':')[0], Number(f.split(':')[1])])),
    }),
  );
}

let parsed: SeasonFile[] | undefined;
/** The 85 match files as shipped (parsed once). */
function seasonFiles(): SeasonFile[] {
  if (parsed) return parsed;
  const files: SeasonFile[] = [];
  for (const season of readdirSync(DATA)
    .filter((d) => /^\d{4}-\d{2}$/.test(d))
    .sort()) {
    for (const name of readdirSync(join(DATA, season))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const json = JSON.parse(readFileSync(join(DATA, season, name), 'utf8')) as { matches: RawMatch[] };
      files.push({ season, competition: name.replace(/\.json$/, ''), matches: json.matches });
    }
  }
  parsed = files;
  return files;
}

let t: TestApp;
let db: pg.Client;
const sql = async <R = any>(text: string, values: unknown[] = []): Promise<R[]> => (await db.query(text, values)).rows as R[];
async function data(query: string, variables?: Record<string, unknown>) {
  const res = await gql(t, query, { variables });
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}
const teamId = async (name: string): Promise<number> => (await sql<{ id: number }>('SELECT id FROM football.team WHERE name = $1', [name]))[0].id;
/** The teams a spelling (canonical name or alias) names. */
const teamsBySpelling = (spelling: string) =>
  sql<{ id: number; name: string }>(
    `SELECT DISTINCT t.id, t.name FROM football.team t LEFT JOIN football.team_alias a ON a.team_id = t.id WHERE t.name = $1 OR a.alias = $1`,
    [spelling],
  );

beforeAll(async () => {
  t = await startTestApp();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

describe('what was loaded, against the README', () => {
  it("the README table has the 85 files, whose totals are the README's", () => {
    const rows = readmeTable();
    expect(rows).toHaveLength(85);
    expect(rows.map((r) => `${r.season}/${r.competition}`).sort()).toEqual(
      seasonFiles()
        .map((f) => `${f.season}/${f.competition}`)
        .sort(),
    );
    const total = (key: 'matches' | 'withScore', league?: string) => rows.filter((r) => !league || r.competition === league).reduce((s, r) => s + r[key], 0);
    expect([total('matches'), total('withScore')]).toEqual([33322, 31986]);
    // files and matches per league as the README's summary line gives them; its "with score" figures there
    // (5,991 / 7,572 / 4,815 / 5,200 / 4,830 / 4,156) add up to 32,564, not 31,986: these are the files' own
    const perLeague = {
      'en.1': [16, 6080, 5886],
      'en.2': [14, 7748, 7483],
      'de.1': [16, 4896, 4725],
      'es.1': [14, 5320, 5101],
      'it.1': [13, 4940, 4716],
      'fr.1': [12, 4338, 4075],
    };
    for (const [league, expected] of Object.entries(perLeague)) {
      expect([rows.filter((r) => r.competition === league).length, total('matches', league), total('withScore', league)]).toEqual(expected);
    }
  });

  it("holds, per league and season, exactly the README's matches, scores, dates and status flags", async () => {
    const loaded = await sql(`
      SELECT c.code, m.season, count(*)::int AS matches, count(m.home_goals)::int AS "withScore",
             to_char(min(m.match_date), 'YYYY-MM-DD') AS first, to_char(max(m.match_date), 'YYYY-MM-DD') AS last,
             count(*) FILTER (WHERE m.status = 'cancelled')::int AS cancelled, count(*) FILTER (WHERE m.status = 'awarded')::int AS awarded,
             count(*) FILTER (WHERE m.status = 'postponed')::int AS postponed
        FROM football.match m JOIN football.competition c ON c.id = m.competition_id GROUP BY c.code, m.season`);
    const byFile = new Map(loaded.map((r) => [`${r.season}/${r.code}`, r]));
    const rows = readmeTable();
    expect(byFile.size).toBe(rows.length);
    // the README gives the 2019-20 English dates as the files spell them (quirk 1); the loaded ones are corrected
    const corrected: Record<string, { first: string; last: string }> = {
      '2019-20/en.1': { first: '2019-08-09', last: '2020-07-26' },
      '2019-20/en.2': { first: '2019-08-02', last: '2020-07-22' },
    };
    const mismatches: string[] = [];
    for (const r of rows) {
      const file = `${r.season}/${r.competition}`;
      const got = byFile.get(file);
      const dates = corrected[file] ?? { first: r.first, last: r.last };
      const expected = {
        matches: r.matches,
        withScore: r.withScore,
        first: dates.first,
        last: dates.last,
        cancelled: r.flags.cancelled ?? 0,
        awarded: r.flags.awarded ?? 0,
        postponed: r.flags.postponed ?? 0,
      };
      const actual = got && {
        matches: got.matches,
        withScore: got.withScore,
        first: got.first,
        last: got.last,
        cancelled: got.cancelled,
        awarded: got.awarded,
        postponed: got.postponed,
      };
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        mismatches.push(`${file}: expected ${JSON.stringify(expected)}, loaded ${JSON.stringify(actual)}`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe('quirk 1: the 2019-20 restart dates', () => {
  it('dates no English 2019-20 match before the season start, and the restart in July 2020', async () => {
    const rows = await sql(`
      SELECT c.code, to_char(min(m.match_date), 'YYYY-MM-DD') AS first, to_char(max(m.match_date), 'YYYY-MM-DD') AS last,
             count(*) FILTER (WHERE m.match_date < '2019-08-01')::int AS "beforeAugust",
             count(*) FILTER (WHERE m.match_date BETWEEN '2020-07-01' AND '2020-07-31')::int AS "july2020",
             count(*) FILTER (WHERE m.match_date BETWEEN '2020-07-01' AND '2020-07-14')::int AS "july2020FirstHalf"
        FROM football.match m JOIN football.competition c ON c.id = m.competition_id
       WHERE m.season = '2019-20' AND c.code IN ('en.1', 'en.2') GROUP BY c.code ORDER BY c.code`);
    // every row a file dates 2019-07-xx (66 and 77) was played in July 2020; the README counts the 37 and 48 of 1–14 July
    const raw = (league: string) =>
      seasonFiles()
        .find((f) => f.season === '2019-20' && f.competition === league)!
        .matches.filter((m) => m.date.startsWith('2019-07')).length;
    expect([raw('en.1'), raw('en.2')]).toEqual([66, 77]);
    expect(rows).toEqual([
      { code: 'en.1', first: '2019-08-09', last: '2020-07-26', beforeAugust: 0, july2020: 66, july2020FirstHalf: 37 },
      { code: 'en.2', first: '2019-08-02', last: '2020-07-22', beforeAugust: 0, july2020: 77, july2020FirstHalf: 48 },
    ]);
  });

  it("corrects no other file: every other match lies between July of its season's first year and June of the next", async () => {
    const [{ outside }] = await sql(`
      SELECT count(*)::int AS outside FROM football.match
       WHERE match_date < make_date(left(season, 4)::int, 7, 1) OR match_date > make_date(left(season, 4)::int + 1, 8, 31)`);
    expect(outside).toBe(0);
  });
});

describe('quirk 2: team names', () => {
  it('resolves every raw name of every file to exactly one team, with the same number of matches', async () => {
    const spellings = await sql<{ id: number; spelling: string }>(
      'SELECT id, name AS spelling FROM football.team UNION SELECT team_id, alias FROM football.team_alias',
    );
    const idsOf = new Map<string, number[]>();
    for (const s of spellings) idsOf.set(s.spelling, [...(idsOf.get(s.spelling) ?? []), s.id]);
    const appearances = await sql<{ code: string; season: string; team: number; n: number }>(`
      SELECT c.code, m.season, v.team, count(*)::int AS n
        FROM football.match m JOIN football.competition c ON c.id = m.competition_id,
             LATERAL (VALUES (m.home_team_id), (m.away_team_id)) v(team)
       GROUP BY 1, 2, 3`);
    const loaded = new Map<string, Map<number, number>>();
    for (const a of appearances) {
      const key = `${a.season}/${a.code}`;
      if (!loaded.has(key)) loaded.set(key, new Map());
      loaded.get(key)!.set(a.team, a.n);
    }
    const problems: string[] = [];
    for (const file of seasonFiles()) {
      const key = `${file.season}/${file.competition}`;
      const teams = loaded.get(key)!;
      const counted = new Map<number, number>();
      for (const raw of file.matches.flatMap((m) => [m.team1, m.team2])) {
        const ids = (idsOf.get(raw) ?? []).filter((id) => teams.has(id));
        if (ids.length !== 1) {
          problems.push(`${key}: "${raw}" → ${JSON.stringify(ids)}`);
          continue;
        }
        counted.set(ids[0], (counted.get(ids[0]) ?? 0) + 1);
      }
      if (JSON.stringify([...counted].sort()) !== JSON.stringify([...teams].sort())) problems.push(`${key}: appearances differ`);
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  it('keeps one team through a change of name (Manchester United → Manchester United FC, Watford / Watford FC)', async () => {
    const raw = (season: string, league: string, name: string) =>
      seasonFiles()
        .find((f) => f.season === season && f.competition === league)!
        .matches.filter((m) => m.team1 === name || m.team2 === name).length;
    expect(raw('2010-11', 'en.1', 'Manchester United')).toBe(38);
    expect(raw('2010-11', 'en.1', 'Manchester United FC')).toBe(0);
    expect(raw('2020-21', 'en.1', 'Manchester United FC')).toBe(38);
    // one of the nine away-team names of 2025-26 en.2 that lack "FC"
    expect([raw('2025-26', 'en.2', 'Watford FC'), raw('2025-26', 'en.2', 'Watford')]).toEqual([45, 1]);

    const perSeason = async (id: number, league: string, season: string) =>
      (
        await sql(
          `SELECT count(*)::int AS n FROM football.match m JOIN football.competition c ON c.id = m.competition_id
                   WHERE c.code = $2 AND m.season = $3 AND $1 IN (m.home_team_id, m.away_team_id)`,
          [id, league, season],
        )
      )[0].n;
    const united = await teamId('Manchester United FC');
    expect([await perSeason(united, 'en.1', '2010-11'), await perSeason(united, 'en.1', '2020-21')]).toEqual([38, 38]);
    const watford = await teamId('Watford FC');
    expect(await perSeason(watford, 'en.2', '2025-26')).toBe(46);
    const named = await sql(`SELECT t.name FROM football.team t WHERE t.name IN ('Manchester United', 'Watford', 'RC Celta', 'Gazélec FC Ajaccio')`);
    expect(named).toEqual([]);
  });

  it("counts the README's distinct raw names and distinct clubs per league", async () => {
    const files = seasonFiles();
    const rawNames = Object.fromEntries(
      LEAGUES.map((l) => [l, new Set(files.filter((f) => f.competition === l).flatMap((f) => f.matches.flatMap((m) => [m.team1, m.team2]))).size]),
    );
    expect(rawNames).toEqual({ 'en.1': 54, 'en.2': 80, 'de.1': 39, 'es.1': 42, 'it.1': 47, 'fr.1': 40 });
    const clubs = await sql(`
      SELECT c.code, count(DISTINCT v.team)::int AS n FROM football.match m JOIN football.competition c ON c.id = m.competition_id,
             LATERAL (VALUES (m.home_team_id), (m.away_team_id)) v(team) GROUP BY c.code`);
    // README: es.1 42 → 33 (+"RC Celta"), fr.1 40 → 33 (+"Gazélec FC Ajaccio"). "RC Celta" (2012-20) is the club the
    // lists call RC Celta Vigo ("RC Celta de Vigo" from 2020-21): one club, 33 in all. Gazélec is a club of its own: 34.
    expect(Object.fromEntries(clubs.map((r) => [r.code, r.n]))).toEqual({ 'en.1': 41, 'en.2': 52, 'de.1': 32, 'es.1': 33, 'it.1': 38, 'fr.1': 34 });
  });

  it('has RC Celta (14 seasons, one team) and Gazélec FC Ajaccio (2015-16), the two names missing from the alias lists', async () => {
    const teamOf = teamsBySpelling;
    const celta = await teamOf('RC Celta');
    expect(celta).toHaveLength(1);
    expect(await teamOf('RC Celta de Vigo')).toEqual(celta);
    const seasons = await sql(`SELECT m.season, count(*)::int AS n FROM football.match m WHERE $1 IN (m.home_team_id, m.away_team_id) GROUP BY 1 ORDER BY 1`, [
      celta[0].id,
    ]);
    expect(seasons).toHaveLength(14);
    expect(seasons.every((s) => s.n === 38)).toBe(true);

    const gazelec = await teamOf('Gazélec FC Ajaccio');
    expect(gazelec).toHaveLength(1);
    expect(gazelec[0].id).not.toBe((await teamOf('AC Ajaccio'))[0].id);
    const gazelecSeasons = await sql(`SELECT m.season, count(*)::int AS n FROM football.match m WHERE $1 IN (m.home_team_id, m.away_team_id) GROUP BY 1`, [
      gazelec[0].id,
    ]);
    expect(gazelecSeasons).toEqual([{ season: '2015-16', n: 38 }]);
  });
});

describe('quirks 3 and 4: scores that are not results', () => {
  it('keeps the 10 + 10 scoreless last-round matches of 2024-25 La Liga and Serie A as finished with an unknown score', async () => {
    const rows = await sql(`
      SELECT c.code, count(*)::int AS n, to_char(min(m.match_date), 'YYYY-MM-DD') AS first, to_char(max(m.match_date), 'YYYY-MM-DD') AS last
        FROM football.match m JOIN football.competition c ON c.id = m.competition_id
       WHERE m.status = 'finished' AND m.home_goals IS NULL GROUP BY c.code, m.season ORDER BY c.code`);
    expect(rows).toEqual([
      { code: 'es.1', n: 10, first: '2025-05-23', last: '2025-05-25' },
      { code: 'it.1', n: 10, first: '2025-05-23', last: '2025-05-25' },
    ]);
    const { matches } = await data(
      `query { matches(filter: {competition: "es.1", season: "2024-25", from: "2025-05-23T00:00:00Z", to: "2025-05-26T00:00:00Z"}, first: 50) { nodes { status score { home away } } } }`,
    );
    expect(matches.nodes).toHaveLength(10);
    expect(matches.nodes.every((n: { status: string; score: unknown }) => n.status === 'FINISHED' && n.score === null)).toBe(true);
  });

  it('excludes the scoreless, the awarded (6) and the cancelled (102) matches from the finished results', async () => {
    const [s] = await sql(`
      SELECT count(*)::int AS matches,
             count(*) FILTER (WHERE status = 'finished')::int AS finished,
             count(*) FILTER (WHERE status = 'finished' AND home_goals IS NOT NULL)::int AS results,
             count(*) FILTER (WHERE status = 'awarded')::int AS awarded, count(*) FILTER (WHERE status = 'awarded' AND home_goals IS NOT NULL)::int AS "awardedWithScore",
             count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled, count(*) FILTER (WHERE status = 'cancelled' AND home_goals IS NOT NULL)::int AS "cancelledWithScore",
             count(*) FILTER (WHERE status = 'postponed')::int AS postponed, count(*) FILTER (WHERE status = 'scheduled')::int AS scheduled,
             count(*) FILTER (WHERE status = 'scheduled' AND home_goals IS NOT NULL)::int AS "scheduledWithScore"
        FROM football.match`);
    // README: 31,986 matches with a full-time score, 6 of them awarded
    expect(s).toEqual({
      matches: 33322,
      finished: 32000,
      results: 31980,
      awarded: 6,
      awardedWithScore: 6,
      cancelled: 102,
      cancelledWithScore: 0,
      postponed: 2,
      scheduled: 1212,
      scheduledWithScore: 0,
    });
    const { footballData } = await data('{ footballData { competitions teams matches finishedMatches scheduledMatches latestResultDate } }');
    const [{ latest, teams }] = await sql(
      `SELECT to_char(max(match_date), 'YYYY-MM-DD') AS latest, (SELECT count(*)::int FROM football.team) AS teams FROM football.match WHERE home_goals IS NOT NULL`,
    );
    expect(footballData).toEqual({ competitions: 6, teams, matches: 33322, finishedMatches: 31980, scheduledMatches: 1212, latestResultDate: latest });
    expect(latest < '2026-01-01').toBe(true);
  });
});

describe('the GraphQL API over the data', () => {
  it('searches teams case- and accent-insensitively', async () => {
    for (const search of ['munchen', 'MÜNCHEN', 'München', 'bayern munchen']) {
      const { teams } = await data('query ($s: String) { teams(search: $s) { name } }', { s: search });
      expect(teams[0]).toEqual({ name: 'Bayern München' });
    }
    const { teams } = await data('{ teams(search: "ATLETICO") { name } }');
    expect(teams[0]).toEqual({ name: 'Atlético Madrid' });
  });

  it('resolves what people type to one team, and says when a name is ambiguous', async () => {
    const resolveName = async (name: string) =>
      (await data('query ($n: String!) { resolveTeam(name: $n) { status team { name } candidates { name } } }', { n: name })).resolveTeam;
    expect(await resolveName('Man Utd')).toEqual({ status: 'FOUND', team: { name: 'Manchester United FC' }, candidates: [] });
    expect(await resolveName('spurs')).toEqual({ status: 'FOUND', team: { name: 'Tottenham Hotspur FC' }, candidates: [] });
    expect(await resolveName('Bayern')).toEqual({ status: 'FOUND', team: { name: 'Bayern München' }, candidates: [] });
    expect(await resolveName('atletico')).toEqual({ status: 'FOUND', team: { name: 'Atlético Madrid' }, candidates: [] });
    const manchester = await resolveName('Manchester');
    expect(manchester.status).toBe('AMBIGUOUS');
    expect(manchester.team).toBeNull();
    expect(manchester.candidates.map((c: { name: string }) => c.name).sort()).toEqual(['Manchester City FC', 'Manchester United FC']);
  });

  it('filters matches by competition, season, team, status and kick-off range, as SQL counts them', async () => {
    const arsenal = await teamId('Arsenal FC');
    const count = async (filter: Record<string, unknown>) => {
      let n = 0;
      let after: string | null = null;
      for (;;) {
        const { matches }: any = await data(
          'query ($f: MatchFilterInput, $after: String) { matches(filter: $f, first: 200, after: $after) { nodes { season competition { code } homeTeam { id } awayTeam { id } status kickoff } pageInfo { hasNextPage endCursor } } }',
          { f: filter, after },
        );
        for (const m of matches.nodes) {
          if (filter.competition) expect(m.competition.code).toBe(filter.competition);
          if (filter.season) expect(m.season).toBe(filter.season);
          if (filter.teamId) expect([m.homeTeam.id, m.awayTeam.id]).toContain(filter.teamId);
          if (filter.status) expect(m.status).toBe(filter.status);
          if (filter.from) expect(Date.parse(m.kickoff)).toBeGreaterThanOrEqual(Date.parse(filter.from as string));
          if (filter.to) expect(Date.parse(m.kickoff)).toBeLessThanOrEqual(Date.parse(filter.to as string));
        }
        n += matches.nodes.length;
        if (!matches.pageInfo.hasNextPage) return n;
        after = matches.pageInfo.endCursor;
      }
    };
    const sqlCount = async (where: string, values: unknown[]) =>
      (await sql(`SELECT count(*)::int AS n FROM football.match m JOIN football.competition c ON c.id = m.competition_id WHERE ${where}`, values))[0].n;

    expect(await count({ competition: 'en.1', season: '2023-24' })).toBe(380);
    expect(await count({ competition: 'en.1', season: '2023-24', team: 'Arsenal' })).toBe(38);
    expect(await count({ season: '2025-26', teamId: arsenal, status: 'SCHEDULED' })).toBe(
      await sqlCount(`m.season = '2025-26' AND $1 IN (m.home_team_id, m.away_team_id) AND m.status = 'scheduled'`, [arsenal]),
    );
    expect(await count({ season: '2025-26', teamId: arsenal, status: 'FINISHED' })).toBe(
      await sqlCount(`m.season = '2025-26' AND $1 IN (m.home_team_id, m.away_team_id) AND m.status = 'finished'`, [arsenal]),
    );
    const from = '2023-12-01T00:00:00.000Z';
    const to = '2024-01-31T23:59:59.000Z';
    expect(await count({ team: 'Arsenal', from, to })).toBe(
      await sqlCount('$1 IN (m.home_team_id, m.away_team_id) AND m.kickoff BETWEEN $2 AND $3', [arsenal, from, to]),
    );
    expect(await count({ competition: 'fr.1', season: '2019-20', status: 'CANCELLED' })).toBe(101);
    expect(await count({ competition: 'de.1', from, to })).toBe(await sqlCount(`c.code = 'de.1' AND m.kickoff BETWEEN $1 AND $2`, [from, to]));

    const ambiguous = await gql(t, '{ matches(filter: {team: "Manchester"}) { nodes { id } } }');
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(ambiguous.body.errors[0].message).toMatch(/^"Manchester" is ambiguous: /);
  });

  it("pages through one team's season by cursor, both ways, with no duplicate and no gap", async () => {
    const arsenal = await teamId('Arsenal FC');
    const expected = (
      await sql(
        `SELECT m.id FROM football.match m JOIN football.competition c ON c.id = m.competition_id
                  WHERE c.code = 'en.1' AND m.season = '2025-26' AND $1 IN (m.home_team_id, m.away_team_id) ORDER BY m.kickoff, m.id`,
        [arsenal],
      )
    ).map((r) => r.id);
    expect(expected).toHaveLength(38);
    for (const order of ['ASC', 'DESC']) {
      const seen: number[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const { matches }: any = await data(
          'query ($after: String, $order: SortOrder!) { matches(filter: {competition: "en.1", season: "2025-26", team: "Arsenal"}, first: 5, after: $after, order: $order) { edges { cursor node { id } } nodes { id } pageInfo { hasNextPage endCursor } } }',
          { after, order },
        );
        pages++;
        expect(matches.nodes.map((n: { id: number }) => n.id)).toEqual(matches.edges.map((e: { node: { id: number } }) => e.node.id));
        expect(matches.pageInfo.endCursor).toBe(matches.edges[matches.edges.length - 1].cursor);
        seen.push(...matches.nodes.map((n: { id: number }) => n.id));
        if (!matches.pageInfo.hasNextPage) break;
        expect(matches.nodes).toHaveLength(5);
        after = matches.pageInfo.endCursor;
      }
      expect(pages).toBe(8);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(order === 'ASC' ? expected : [...expected].reverse());
    }
    const bad = await gql(t, '{ matches(after: "not-a-cursor") { nodes { id } } }');
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors[0].message).toBe('Invalid cursor.');
  });

  it('gives as next match the earliest scheduled match without a result, overall and per competition', async () => {
    const next = async (code?: string) =>
      (
        await sql(
          `SELECT m.id FROM football.match m JOIN football.competition c ON c.id = m.competition_id
                   WHERE m.status = 'scheduled' AND m.home_goals IS NULL ${code ? 'AND c.code = $1' : ''} ORDER BY m.kickoff, m.id LIMIT 1`,
          code ? [code] : [],
        )
      )[0].id;
    const overall = await data('{ nextMatch { id status score { home } competition { code } homeTeam { name } awayTeam { name } kickoff } }');
    expect(overall.nextMatch.id).toBe(await next());
    expect(overall.nextMatch.status).toBe('SCHEDULED');
    expect(overall.nextMatch.score).toBeNull();
    for (const code of LEAGUES) {
      const { nextMatch } = await data('query ($c: String) { nextMatch(competition: $c) { id competition { code } } }', { c: code });
      expect(nextMatch).toEqual({ id: await next(code), competition: { code } });
    }
  });
});

describe('loading again', () => {
  // how long a load takes: the first start in bench/start.ts
  it('is idempotent: a forced reload of the shipped files inserts and updates nothing', async () => {
    const snapshot = () => sql(`SELECT count(*)::int AS n, max(updated_at) AS changed, (SELECT count(*)::int FROM football.team) AS teams FROM football.match`);
    const before = await snapshot();
    const report = await t.app.services.football.loader.loadShipped({ force: true });
    expect(report).toEqual({ source: 'shipped', matches: 33322, inserted: 0, updated: 0, unchanged: 33322, skipped: false });
    expect(await snapshot()).toEqual(before);
    // unforced, an unchanged data set is not even read
    expect(await t.app.services.football.loader.loadShipped()).toMatchObject({ skipped: true, inserted: 0, updated: 0 });
  });
});

describe('importing a season file (importMatches, through the gateway)', () => {
  const IMPORT =
    'mutation ($c: String!, $s: String!, $d: JSON!) { importMatches(competition: $c, season: $s, data: $d) { source matches inserted updated unchanged } }';
  const file = () => JSON.parse(readFileSync(join(DATA, '2025-26', 'en.2.json'), 'utf8')) as { name: string; matches: RawMatch[] };
  const state = () =>
    sql(`SELECT count(*)::int AS matches, max(updated_at) AS changed, sum(coalesce(home_goals, 0) + coalesce(away_goals, 0))::int AS goals,
                (SELECT count(*)::int FROM football.data_import) AS imports, (SELECT count(*)::int FROM football.team) AS teams FROM football.match`);
  const changedIndex = (matches: RawMatch[]) => matches.findIndex((m) => m.team1 === 'Watford FC' && m.score?.ft?.length === 2);

  it('reports exactly one updated score and one new fixture, and the data shows them', async () => {
    const season = file();
    const i = changedIndex(season.matches);
    const changed = season.matches[i];
    const [home, away] = changed.score!.ft!;
    changed.score = { ...changed.score, ft: [home + 1, away] };
    // a promotion play-off semi-final: a pairing the regular season does not have
    season.matches.push({
      stage: 'Playoffs',
      round: 'Semi-finals',
      date: '2026-05-09',
      time: '12:30',
      team1: 'Coventry City FC',
      team2: 'Middlesbrough FC',
      score: {},
    });

    const res = await gql(t, IMPORT, { variables: { c: 'en.2', s: '2025-26', d: season } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.importMatches).toEqual({ source: 'import:en.2:2025-26', matches: 553, inserted: 1, updated: 1, unchanged: 551 });

    const [awayTeam] = await teamsBySpelling(changed.team2);
    const [row] = await sql(
      `SELECT home_goals AS home, away_goals AS away, status FROM football.match WHERE season = '2025-26' AND stage = 'Regular' AND home_team_id = $1 AND away_team_id = $2`,
      [await teamId('Watford FC'), awayTeam.id],
    );
    expect(row).toEqual({ home: home + 1, away, status: 'finished' });
    const playoff = await data(
      '{ matches(filter: {competition: "en.2", season: "2025-26", team: "Coventry", from: "2026-05-09T00:00:00Z"}) { nodes { stage round date status score { home } homeTeam { name } awayTeam { name } } } }',
    );
    expect(playoff.matches.nodes).toEqual([
      {
        stage: 'Playoffs',
        round: 'Semi-finals',
        date: '2026-05-09',
        status: 'SCHEDULED',
        score: null,
        homeTeam: { name: 'Coventry City FC' },
        awayTeam: { name: 'Middlesbrough FC' },
      },
    ]);
    const { footballData } = await data('{ footballData { matches scheduledMatches } }');
    expect(footballData).toEqual({ matches: 33323, scheduledMatches: 1213 });

    // the same file again changes nothing
    const again = await gql(t, IMPORT, { variables: { c: 'en.2', s: '2025-26', d: season } });
    expect(again.body.data.importMatches).toMatchObject({ matches: 553, inserted: 0, updated: 0, unchanged: 553 });
  });

  it.each([
    [
      'an unknown team',
      (m: RawMatch[]) => m.push({ date: '2026-05-10', team1: 'Atlantis FC', team2: 'Watford FC' }),
      /^matches\[552\]: unknown team "Atlantis FC"$/,
    ],
    [
      'a bad date',
      (m: RawMatch[]) => m.push({ date: '2026-13-45', team1: 'Coventry City FC', team2: 'Watford FC' }),
      /^matches\[552\]: date must be YYYY-MM-DD$/,
    ],
    [
      'a malformed score',
      (m: RawMatch[]) => m.push({ date: '2026-05-10', team1: 'Coventry City FC', team2: 'Watford FC', score: { ft: [1] } }),
      /^matches\[552\]: score.ft must be \[home, away\] goals$/,
    ],
  ])('refuses a file with %s (BAD_USER_INPUT, 400) and changes nothing, not even its valid rows', async (_label, spoil, message) => {
    const season = file();
    const i = changedIndex(season.matches);
    season.matches[i].score = { ft: [9, 9] };
    spoil(season.matches);
    const before = await state();
    const res = await gql(t, IMPORT, { variables: { c: 'en.2', s: '2025-26', d: season } });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toMatch(message);
    expect(await state()).toEqual(before);
  });

  it.each([
    ['matches that is not an array', 'en.2', '2025-26', { matches: { '0': { date: '2026-05-10' } } }, 'expected an object with a "matches" array'],
    ['no matches at all', 'en.2', '2025-26', { name: 'x' }, 'expected an object with a "matches" array'],
    ['an unknown competition', 'xx.9', '2025-26', { matches: [] }, /^Unknown competition "xx\.9"/],
    ['a malformed season', 'en.2', '2025/26', { matches: [] }, 'season must look like 2025-26, got "2025/26"'],
  ])('refuses %s (BAD_USER_INPUT, 400) and changes nothing', async (_label, competition, season, payload, message) => {
    const before = await state();
    const res = await gql(t, IMPORT, { variables: { c: competition, s: season, d: payload } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    if (typeof message === 'string') expect(res.body.errors[0].message).toBe(message);
    else expect(res.body.errors[0].message).toMatch(message);
    expect(await state()).toEqual(before);
  });

  it("is an administrator's mutation: a client key gets FORBIDDEN", async () => {
    const key = await t.createKey('enterprise');
    const before = await state();
    const res = await gql(t, IMPORT, { variables: { c: 'en.2', s: '2025-26', d: file() }, key });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await state()).toEqual(before);
  });
});
