import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Follows: a client of the API (its key, `owner`) keeps, per subscriber of its own (the bot: a
 * Telegram chat), the teams followed, a time zone, and which notices were sent (a prediction published,
 * a reminder before kick-off), so each goes out once whatever the restarts.
 */
export class Follows1732700000200 implements MigrationInterface {
  name = 'Follows1732700000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE predictions.subscriber (
        owner text NOT NULL,
        subscriber text NOT NULL CHECK (length(subscriber) BETWEEN 1 AND 64),
        time_zone text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner, subscriber)
      )`);
    await q.query(`
      CREATE TABLE predictions.follow (
        owner text NOT NULL,
        subscriber text NOT NULL,
        team_id integer NOT NULL,
        team_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner, subscriber, team_id),
        FOREIGN KEY (owner, subscriber) REFERENCES predictions.subscriber (owner, subscriber) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX follow_team_idx ON predictions.follow (team_id)');
    await q.query(`
      CREATE TABLE predictions.follow_notice (
        owner text NOT NULL,
        subscriber text NOT NULL,
        match_id integer NOT NULL,
        kind text NOT NULL CHECK (kind IN ('published', 'reminder')),
        sent_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner, subscriber, match_id, kind)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['follow_notice', 'follow', 'subscriber']) await q.query(`DROP TABLE predictions.${t}`);
  }
}
