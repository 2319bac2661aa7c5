import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dataChangeTriggers } from '../../../../../lib/cache-policy';

/**
 * The live data feed: what each configured source last answered (its validators for conditional
 * requests, the checksum of the content last imported, the last success and error), each sync pass
 * with its progress, and the bookmakers' odds a CSV source carries.
 */
export class FootballFeed1732700000100 implements MigrationInterface {
  name = 'FootballFeed1732700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE football.feed_source (
        key text PRIMARY KEY,
        competition text NOT NULL,
        season text NOT NULL,
        url text NOT NULL,
        format text,
        etag text,
        last_modified text,
        checksum text,
        last_checked_at timestamptz,
        last_changed_at timestamptz,
        last_success_at timestamptz,
        last_error text,
        last_error_at timestamptz,
        last_report jsonb
      )`);
    await q.query(`
      CREATE TABLE football.feed_run (
        id serial PRIMARY KEY,
        trigger text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
        sources integer NOT NULL,
        sources_done integer NOT NULL DEFAULT 0,
        changed integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        error text
      )`);
    await q.query('CREATE INDEX feed_run_started_idx ON football.feed_run (started_at DESC)');
    // the feed's status is cached with the rest of the football data: its changes evict it (lib/cache-policy.ts)
    for (const statement of dataChangeTriggers('football', ['feed_source', 'feed_run'], 'row').up) await q.query(statement);
    await q.query(`
      CREATE TABLE football.match_odds (
        match_id integer NOT NULL REFERENCES football.match(id) ON DELETE CASCADE,
        bookmaker text NOT NULL,
        home numeric(8, 3) NOT NULL CHECK (home > 1),
        draw numeric(8, 3) NOT NULL CHECK (draw > 1),
        away numeric(8, 3) NOT NULL CHECK (away > 1),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (match_id, bookmaker)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['match_odds', 'feed_run', 'feed_source']) await q.query(`DROP TABLE football.${t}`);
    // the function stays: the other tables' triggers use it
  }
}
