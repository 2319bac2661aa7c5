import { inTransaction, type Store } from '../../../../lib/database';

export interface FollowRow {
  teamId: number;
  teamName: string;
}

/** A notice due: a followed team's next prediction, published or about to kick off. */
export interface DueNotice {
  subscriber: string;
  matchId: number;
  kind: 'published' | 'reminder';
  kickoff: Date;
  competition: string;
  homeTeamName: string;
  awayTeamName: string;
  predictedOutcome: string;
  confidence: number;
  timeZone: string | null;
}

/** Subscribers, their follows and time zones, and the notices sent to them (SQL of the predictions schema). */
export class FollowStore {
  constructor(private readonly store: Store) {}

  async follow(owner: string, subscriber: string, team: { id: number; name: string }): Promise<void> {
    await inTransaction(this.store.pool, async (client) => {
      await client.query('INSERT INTO predictions.subscriber (owner, subscriber) VALUES ($1, $2) ON CONFLICT DO NOTHING', [owner, subscriber]);
      await client.query('INSERT INTO predictions.follow (owner, subscriber, team_id, team_name) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
        owner,
        subscriber,
        team.id,
        team.name,
      ]);
    });
  }

  /** Unfollows one team, or all (teamId undefined); returns how many follows went. */
  async unfollow(owner: string, subscriber: string, teamId?: number): Promise<number> {
    const { rowCount } = await this.store.pool.query(
      `DELETE FROM predictions.follow WHERE owner = $1 AND subscriber = $2 ${teamId === undefined ? '' : 'AND team_id = $3'}`,
      teamId === undefined ? [owner, subscriber] : [owner, subscriber, teamId],
    );
    return rowCount ?? 0;
  }

  async follows(owner: string, subscriber: string): Promise<FollowRow[]> {
    const { rows } = await this.store.pool.query<FollowRow>(
      'SELECT team_id AS "teamId", team_name AS "teamName" FROM predictions.follow WHERE owner = $1 AND subscriber = $2 ORDER BY team_name',
      [owner, subscriber],
    );
    return rows;
  }

  async setTimeZone(owner: string, subscriber: string, zone: string): Promise<void> {
    await this.store.pool.query(
      `INSERT INTO predictions.subscriber (owner, subscriber, time_zone) VALUES ($1, $2, $3)
       ON CONFLICT (owner, subscriber) DO UPDATE SET time_zone = EXCLUDED.time_zone`,
      [owner, subscriber, zone],
    );
  }

  async timeZone(owner: string, subscriber: string): Promise<string | null> {
    const { rows } = await this.store.pool.query<{ z: string | null }>(
      'SELECT time_zone AS z FROM predictions.subscriber WHERE owner = $1 AND subscriber = $2',
      [owner, subscriber],
    );
    return rows[0]?.z ?? null;
  }

  /**
   * For each follow of this owner: the followed team's next open prediction of the version (kicking
   * off after `now`), as a `published` notice unless sent, and as a `reminder` unless sent once it
   * kicks off within `reminderBefore`.
   */
  async due(owner: string, versionId: number, now: Date, reminderBefore: Date, limit: number): Promise<DueNotice[]> {
    const { rows } = await this.store.pool.query<DueNotice>(
      `WITH next AS (
         SELECT DISTINCT ON (f.subscriber, f.team_id) f.subscriber, p.match_id, p.kickoff, p.competition, p.home_team_name, p.away_team_name,
                p.predicted_outcome, p.confidence
           FROM predictions.follow f
           JOIN predictions.prediction p ON p.version_id = $2 AND p.actual_outcome IS NULL AND p.kickoff > $3
                                        AND (p.home_team_id = f.team_id OR p.away_team_id = f.team_id)
          WHERE f.owner = $1
          ORDER BY f.subscriber, f.team_id, p.kickoff, p.match_id
       ), wanted AS (
         SELECT n.*, k.kind FROM next n CROSS JOIN (VALUES ('published'), ('reminder')) AS k(kind)
          WHERE k.kind = 'published' OR n.kickoff <= $4
       )
       SELECT DISTINCT ON (w.subscriber, w.match_id, w.kind) w.subscriber, w.match_id AS "matchId", w.kind, w.kickoff, w.competition,
              w.home_team_name AS "homeTeamName", w.away_team_name AS "awayTeamName", w.predicted_outcome AS "predictedOutcome", w.confidence,
              s.time_zone AS "timeZone"
         FROM wanted w JOIN predictions.subscriber s ON s.owner = $1 AND s.subscriber = w.subscriber
        WHERE NOT EXISTS (SELECT 1 FROM predictions.follow_notice fn
                           WHERE fn.owner = $1 AND fn.subscriber = w.subscriber AND fn.match_id = w.match_id AND fn.kind = w.kind)
        ORDER BY w.subscriber, w.match_id, w.kind
        LIMIT $5`,
      [owner, versionId, now, reminderBefore, limit],
    );
    return rows;
  }

  /** Notices delivered: never due again. */
  async markSent(owner: string, notices: { subscriber: string; matchId: number; kind: string }[]): Promise<void> {
    if (!notices.length) return;
    await this.store.pool.query(
      `INSERT INTO predictions.follow_notice (owner, subscriber, match_id, kind)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[]) ON CONFLICT DO NOTHING`,
      [owner, notices.map((n) => n.subscriber), notices.map((n) => n.matchId), notices.map((n) => n.kind)],
    );
  }
}
