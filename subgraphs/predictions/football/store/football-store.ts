import type { PoolClient } from 'pg';
import { inTransaction, type Store } from '../../../../lib/database';
import type { MatchStatus } from '../domain/dataset';

/**
 * Two sources of one match (openfootball's JSON has rounds, football-data's CSV has none; the CSV has
 * half-time scores the JSON may lack): a field a file does not carry keeps what the other gave. A
 * half-time score goes with its full-time score: it is kept only while the full-time score is the same.
 */
const MERGED_ROUND = 'coalesce(EXCLUDED.round, m.round)';
/** A CSV cannot say "postponed" or "cancelled": a fixture it lists as plain, at the same kick-off, keeps that status. */
const MERGED_STATUS = `CASE WHEN EXCLUDED.status = 'scheduled' AND m.status IN ('postponed', 'cancelled') AND EXCLUDED.kickoff = m.kickoff
                            THEN m.status ELSE EXCLUDED.status END`;
const mergedHalfTime = (side: 'home' | 'away') =>
  `CASE WHEN EXCLUDED.home_goals IS NULL THEN NULL
        WHEN EXCLUDED.${side}_goals_ht IS NOT NULL THEN EXCLUDED.${side}_goals_ht
        WHEN (m.home_goals, m.away_goals) IS NOT DISTINCT FROM (EXCLUDED.home_goals, EXCLUDED.away_goals) THEN m.${side}_goals_ht
        ELSE NULL END`;

export interface CompetitionRow {
  id: number;
  code: string;
  name: string;
  country: string;
  tier: number;
  seasons: string[];
}

export interface TeamRow {
  id: number;
  name: string;
  country: string;
  aliases: string[];
  competitions: string[];
  lastPlayed: string | null;
  /** Date of its newest result (a played match with its score). */
  lastResult: string | null;
  /** The competition of its latest match in the data (where it plays now, as far as the data knows). */
  currentCompetition: string | null;
}

export interface MatchRow {
  id: number;
  competitionId: number;
  season: string;
  stage: string;
  round: string | null;
  date: string;
  kickoff: Date;
  homeTeamId: number;
  awayTeamId: number;
  status: MatchStatus;
  homeGoals: number | null;
  awayGoals: number | null;
  homeGoalsHalfTime: number | null;
  awayGoalsHalfTime: number | null;
}

export type MatchUpsert = Omit<MatchRow, 'id'>;

export interface MatchQuery {
  ids?: number[];
  competitionId?: number;
  season?: string;
  teamId?: number;
  status?: MatchStatus;
  from?: Date;
  to?: Date;
  after?: { kickoff: Date; id: number };
  descending: boolean;
  limit: number;
}

export interface OddsRow {
  matchId: number;
  bookmaker: string;
  home: number;
  draw: number;
  away: number;
}

export interface LeagueStatusRow {
  code: string;
  name: string;
  latestResultDate: string | null;
  updatedAt: Date | null;
  nextKickoff: Date | null;
  upcoming: number;
  awaitingResult: number;
}

export interface DatasetSummary {
  competitions: number;
  teams: number;
  matches: number;
  finished: number;
  scheduled: number;
  latestResult: string | null;
}

const MATCH_COLUMNS = `id, competition_id AS "competitionId", season, stage, round, to_char(match_date, 'YYYY-MM-DD') AS date, kickoff,
  home_team_id AS "homeTeamId", away_team_id AS "awayTeamId", status, home_goals AS "homeGoals", away_goals AS "awayGoals",
  home_goals_ht AS "homeGoalsHalfTime", away_goals_ht AS "awayGoalsHalfTime"`;

const BATCH = 4000;

/** SQL of the football schema (raw pg: bulk loads and hot reads). */
export class FootballStore {
  constructor(private readonly store: Store) {}

  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.store.pool, work);
  }

  async upsertCompetitions(client: PoolClient, rows: { code: string; name: string; country: string; tier: number }[]): Promise<Map<string, number>> {
    const { rows: out } = await client.query(
      `INSERT INTO football.competition (code, name, country, tier)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::smallint[])
       ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, country = EXCLUDED.country, tier = EXCLUDED.tier
       RETURNING id, code`,
      [rows.map((r) => r.code), rows.map((r) => r.name), rows.map((r) => r.country), rows.map((r) => r.tier)],
    );
    return new Map(out.map((r: { id: number; code: string }) => [r.code, r.id]));
  }

  /** Teams by canonical name; aliases are added, never removed. */
  async upsertTeams(client: PoolClient, teams: { name: string; country: string; aliases: string[] }[]): Promise<Map<string, number>> {
    const { rows } = await client.query(
      `INSERT INTO football.team (name, country) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (name) DO UPDATE SET country = EXCLUDED.country
       RETURNING id, name`,
      [teams.map((t) => t.name), teams.map((t) => t.country)],
    );
    const ids = new Map<string, number>(rows.map((r: { id: number; name: string }) => [r.name, r.id]));
    const aliasTeam: number[] = [];
    const aliases: string[] = [];
    for (const t of teams)
      for (const a of t.aliases) {
        aliasTeam.push(ids.get(t.name)!);
        aliases.push(a);
      }
    await client.query(`INSERT INTO football.team_alias (team_id, alias) SELECT * FROM unnest($1::int[], $2::text[]) ON CONFLICT DO NOTHING`, [
      aliasTeam,
      aliases,
    ]);
    return ids;
  }

  /** Inserts new matches, updates changed ones (same competition, season, stage, home, away); unchanged rows are left alone. */
  async upsertMatches(client: PoolClient, rows: MatchUpsert[]): Promise<{ inserted: number; updated: number; ids: number[] }> {
    let inserted = 0;
    let updated = 0;
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      const col = <K extends keyof MatchUpsert>(k: K) => batch.map((r) => r[k]);
      const { rows: out } = await client.query(
        `INSERT INTO football.match AS m (competition_id, season, stage, round, match_date, kickoff, home_team_id, away_team_id,
                                          status, home_goals, away_goals, home_goals_ht, away_goals_ht)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::date[], $6::timestamptz[], $7::int[], $8::int[],
                              $9::text[], $10::smallint[], $11::smallint[], $12::smallint[], $13::smallint[])
         ON CONFLICT (competition_id, season, stage, home_team_id, away_team_id) DO UPDATE SET
           round = ${MERGED_ROUND}, match_date = EXCLUDED.match_date, kickoff = EXCLUDED.kickoff, status = ${MERGED_STATUS},
           home_goals = EXCLUDED.home_goals, away_goals = EXCLUDED.away_goals,
           home_goals_ht = ${mergedHalfTime('home')}, away_goals_ht = ${mergedHalfTime('away')}, updated_at = now()
         WHERE (m.round, m.match_date, m.kickoff, m.status, m.home_goals, m.away_goals, m.home_goals_ht, m.away_goals_ht)
               IS DISTINCT FROM
               (${MERGED_ROUND}, EXCLUDED.match_date, EXCLUDED.kickoff, ${MERGED_STATUS}, EXCLUDED.home_goals, EXCLUDED.away_goals,
                ${mergedHalfTime('home')}, ${mergedHalfTime('away')})
         RETURNING id, (xmax = 0) AS inserted`,
        [
          col('competitionId'),
          col('season'),
          col('stage'),
          col('round'),
          col('date'),
          col('kickoff'),
          col('homeTeamId'),
          col('awayTeamId'),
          col('status'),
          col('homeGoals'),
          col('awayGoals'),
          col('homeGoalsHalfTime'),
          col('awayGoalsHalfTime'),
        ],
      );
      for (const r of out as { id: number; inserted: boolean }[]) {
        if (r.inserted) inserted++;
        else updated++;
        ids.push(r.id);
      }
    }
    return { inserted, updated, ids };
  }

  /** The ids of matches by their identity (competition, season, stage, home, away), in the order given. */
  async matchIdsOf(client: PoolClient, rows: Pick<MatchUpsert, 'competitionId' | 'season' | 'stage' | 'homeTeamId' | 'awayTeamId'>[]): Promise<number[]> {
    const { rows: out } = await client.query<{ i: number; id: number }>(
      `SELECT k.i, m.id FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[]) WITH ORDINALITY AS k(c, s, st, h, a, i)
         JOIN football.match m ON m.competition_id = k.c AND m.season = k.s AND m.stage = k.st AND m.home_team_id = k.h AND m.away_team_id = k.a`,
      [rows.map((r) => r.competitionId), rows.map((r) => r.season), rows.map((r) => r.stage), rows.map((r) => r.homeTeamId), rows.map((r) => r.awayTeamId)],
    );
    const byIndex = new Map(out.map((r) => [Number(r.i), r.id]));
    return rows.map((_, i) => byIndex.get(i + 1)!);
  }

  /** Bookmakers' odds of matches: a bookmaker's newer odds replace its older ones. */
  async upsertOdds(client: PoolClient, odds: { matchId: number; bookmaker: string; home: number; draw: number; away: number }[]): Promise<void> {
    for (let i = 0; i < odds.length; i += BATCH) {
      const b = odds.slice(i, i + BATCH);
      await client.query(
        `INSERT INTO football.match_odds AS o (match_id, bookmaker, home, draw, away)
         SELECT * FROM unnest($1::int[], $2::text[], $3::numeric[], $4::numeric[], $5::numeric[])
         ON CONFLICT (match_id, bookmaker) DO UPDATE SET home = EXCLUDED.home, draw = EXCLUDED.draw, away = EXCLUDED.away, updated_at = now()
         WHERE (o.home, o.draw, o.away) IS DISTINCT FROM (EXCLUDED.home, EXCLUDED.draw, EXCLUDED.away)`,
        [b.map((o) => o.matchId), b.map((o) => o.bookmaker), b.map((o) => o.home), b.map((o) => o.draw), b.map((o) => o.away)],
      );
    }
  }

  /** Stored odds of matches, by match id. */
  async oddsOf(matchIds: readonly number[]): Promise<OddsRow[]> {
    const { rows } = await this.store.pool.query<OddsRow>(
      `SELECT match_id AS "matchId", bookmaker, home::float8 AS home, draw::float8 AS draw, away::float8 AS away
         FROM football.match_odds WHERE match_id = ANY($1::int[]) ORDER BY match_id, bookmaker`,
      [matchIds],
    );
    return rows;
  }

  async recordImport(client: PoolClient, rec: { source: string; checksum: string; matches: number; inserted: number; updated: number }) {
    await client.query('INSERT INTO football.data_import (source, checksum, matches, inserted, updated) VALUES ($1, $2, $3, $4, $5)', [
      rec.source,
      rec.checksum,
      rec.matches,
      rec.inserted,
      rec.updated,
    ]);
  }

  async lastChecksum(source: string): Promise<string | undefined> {
    const { rows } = await this.store.pool.query<{ checksum: string }>('SELECT checksum FROM football.data_import WHERE source = $1 ORDER BY id DESC LIMIT 1', [
      source,
    ]);
    return rows[0]?.checksum;
  }

  async competitions(): Promise<CompetitionRow[]> {
    const { rows } = await this.store.pool.query<CompetitionRow>(
      `SELECT c.id, c.code, c.name, c.country, c.tier,
              coalesce(array_agg(DISTINCT m.season ORDER BY m.season) FILTER (WHERE m.season IS NOT NULL), '{}') AS seasons
         FROM football.competition c LEFT JOIN football.match m ON m.competition_id = c.id
        GROUP BY c.id ORDER BY c.country, c.tier, c.code`,
    );
    return rows;
  }

  async teams(): Promise<TeamRow[]> {
    const { rows } = await this.store.pool.query<TeamRow>(
      `SELECT t.id, t.name, t.country,
              coalesce((SELECT array_agg(a.alias ORDER BY a.alias) FROM football.team_alias a WHERE a.team_id = t.id AND a.alias <> t.name), '{}') AS aliases,
              coalesce((SELECT array_agg(DISTINCT c.code) FROM football.match m JOIN football.competition c ON c.id = m.competition_id
                         WHERE m.home_team_id = t.id OR m.away_team_id = t.id), '{}') AS competitions,
              (SELECT to_char(max(m.match_date), 'YYYY-MM-DD') FROM football.match m
                WHERE (m.home_team_id = t.id OR m.away_team_id = t.id)) AS "lastPlayed",
              (SELECT to_char(max(m.match_date), 'YYYY-MM-DD') FROM football.match m
                WHERE (m.home_team_id = t.id OR m.away_team_id = t.id) AND m.home_goals IS NOT NULL) AS "lastResult",
              (SELECT c.code FROM football.match m JOIN football.competition c ON c.id = m.competition_id
                WHERE (m.home_team_id = t.id OR m.away_team_id = t.id) ORDER BY m.kickoff DESC, m.id DESC LIMIT 1) AS "currentCompetition"
         FROM football.team t ORDER BY t.name`,
    );
    return rows;
  }

  async competitionIds(): Promise<Map<string, number>> {
    const { rows } = await this.store.pool.query<{ id: number; code: string }>('SELECT id, code FROM football.competition');
    return new Map(rows.map((r: { id: number; code: string }) => [r.code, r.id]));
  }

  async teamsForResolution(): Promise<{ name: string; country: string; aliases: string[] }[]> {
    const { rows } = await this.store.pool.query<{ name: string; country: string; aliases: string[] }>(
      `SELECT t.name, t.country, coalesce(array_agg(a.alias) FILTER (WHERE a.alias IS NOT NULL), '{}') AS aliases
         FROM football.team t LEFT JOIN football.team_alias a ON a.team_id = t.id GROUP BY t.id`,
    );
    return rows;
  }

  async matchesByIds(ids: readonly number[]): Promise<MatchRow[]> {
    const { rows } = await this.store.pool.query<MatchRow>({
      name: 'football.matches_by_ids',
      text: `SELECT ${MATCH_COLUMNS} FROM football.match WHERE id = ANY($1::int[])`,
      values: [ids],
    });
    return rows;
  }

  async findMatches(q: MatchQuery): Promise<MatchRow[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      values.push(v);
      where.push(sql.replace('?', `$${values.length}`));
    };
    if (q.ids !== undefined) add('id = ANY(?::int[])', q.ids);
    if (q.competitionId !== undefined) add('competition_id = ?', q.competitionId);
    if (q.season !== undefined) add('season = ?', q.season);
    if (q.teamId !== undefined) {
      values.push(q.teamId);
      where.push(`(home_team_id = $${values.length} OR away_team_id = $${values.length})`);
    }
    if (q.status !== undefined) add('status = ?', q.status);
    if (q.from !== undefined) add('kickoff >= ?', q.from);
    if (q.to !== undefined) add('kickoff <= ?', q.to);
    if (q.after) {
      values.push(q.after.kickoff, q.after.id);
      where.push(`(kickoff, id) ${q.descending ? '<' : '>'} ($${values.length - 1}, $${values.length})`);
    }
    values.push(q.limit);
    const dir = q.descending ? 'DESC' : 'ASC';
    const { rows } = await this.store.pool.query<MatchRow>(
      `SELECT ${MATCH_COLUMNS} FROM football.match ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY kickoff ${dir}, id ${dir} LIMIT $${values.length}`,
      values,
    );
    return rows;
  }

  /** The earliest scheduled match without a result that kicks off after `now` (optionally in one competition). */
  async nextScheduled(now: Date, competitionId?: number): Promise<MatchRow | undefined> {
    const { rows } = await this.store.pool.query<MatchRow>({
      name: competitionId === undefined ? 'football.next_match' : 'football.next_match_in',
      text: `SELECT ${MATCH_COLUMNS} FROM football.match
              WHERE status = 'scheduled' AND home_goals IS NULL AND kickoff > $1 ${competitionId === undefined ? '' : 'AND competition_id = $2'}
              ORDER BY kickoff, id LIMIT 1`,
      values: competitionId === undefined ? [now] : [now, competitionId],
    });
    return rows[0];
  }

  /**
   * Per competition: its newest result, when its data last changed (the last feed pass that changed it;
   * null: the shipped data, never updated — not when the shipped data was loaded), its next kick-off after `now` and how many of its matches kicked off without a result.
   */
  async leagueStatus(now: Date): Promise<LeagueStatusRow[]> {
    const { rows } = await this.store.pool.query<LeagueStatusRow>(
      `SELECT c.code, c.name,
              to_char(max(m.match_date) FILTER (WHERE m.home_goals IS NOT NULL), 'YYYY-MM-DD') AS "latestResultDate",
              (SELECT max(fs.last_changed_at) FROM football.feed_source fs WHERE fs.competition = c.code) AS "updatedAt",
              min(m.kickoff) FILTER (WHERE m.status = 'scheduled' AND m.home_goals IS NULL AND m.kickoff > $1) AS "nextKickoff",
              count(*) FILTER (WHERE m.status = 'scheduled' AND m.home_goals IS NULL AND m.kickoff > $1)::int AS upcoming,
              count(*) FILTER (WHERE m.status = 'scheduled' AND m.home_goals IS NULL AND m.kickoff <= $1)::int AS "awaitingResult"
         FROM football.competition c LEFT JOIN football.match m ON m.competition_id = c.id
        GROUP BY c.id ORDER BY c.country, c.tier, c.code`,
      [now],
    );
    return rows;
  }

  /** The first kick-off after `after` of a match without a result (when the upcoming lists next change by time alone). */
  async nextKickoffAfter(after: Date): Promise<Date | undefined> {
    const { rows } = await this.store.pool.query<{ k: Date | null }>(
      `SELECT min(kickoff) AS k FROM football.match WHERE status = 'scheduled' AND home_goals IS NULL AND kickoff > $1`,
      [after],
    );
    return rows[0]?.k ?? undefined;
  }

  async summary(): Promise<DatasetSummary> {
    const { rows } = await this.store.pool.query<DatasetSummary>(
      `SELECT (SELECT count(*) FROM football.competition) AS competitions,
              (SELECT count(*) FROM football.team) AS teams,
              count(*) AS matches,
              count(*) FILTER (WHERE status = 'finished' AND home_goals IS NOT NULL) AS finished,
              count(*) FILTER (WHERE status = 'scheduled') AS scheduled,
              to_char(max(match_date) FILTER (WHERE home_goals IS NOT NULL), 'YYYY-MM-DD') AS "latestResult"
         FROM football.match`,
    );
    return rows[0];
  }

  /** Latest date with a known score in a competition: scoreless matches before it were played (quirk 3). */
  /** The names of the teams that have played in a competition (any season). */
  async teamsOfCompetition(competitionId: number): Promise<Set<string>> {
    const { rows } = await this.store.pool.query<{ name: string }>(
      `SELECT t.name FROM football.team t
        WHERE EXISTS (SELECT 1 FROM football.match m WHERE m.competition_id = $1 AND (m.home_team_id = t.id OR m.away_team_id = t.id))`,
      [competitionId],
    );
    return new Set(rows.map((r) => r.name));
  }

  async resultCutoff(competitionId: number): Promise<string | null> {
    const { rows } = await this.store.pool.query<{ d: string | null }>(
      `SELECT to_char(max(match_date), 'YYYY-MM-DD') AS d FROM football.match WHERE competition_id = $1 AND home_goals IS NOT NULL`,
      [competitionId],
    );
    return rows[0]?.d ?? null;
  }
}
