import type pg from 'pg';

/** A scheduled match as the football schema holds it (what a test imports results or moves dates for). */
export interface Scheduled {
  id: number;
  code: string;
  season: string;
  date: string;
  home: string;
  away: string;
  homeId: number;
  awayId: number;
}

/** The earliest scheduled matches of a competition (default: the Premier League), by kick-off. */
export async function nextScheduled(db: pg.Client, n: number, competition = 'en.1'): Promise<Scheduled[]> {
  const { rows } = await db.query<Scheduled>(
    `SELECT m.id, c.code, m.season, m.match_date::text AS date, h.name AS home, a.name AS away, h.id AS "homeId", a.id AS "awayId"
       FROM football.match m JOIN football.competition c ON c.id = m.competition_id
       JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id
      WHERE c.code = $2 AND m.status = 'scheduled' ORDER BY m.kickoff, m.id LIMIT $1`,
    [n, competition],
  );
  return rows;
}
