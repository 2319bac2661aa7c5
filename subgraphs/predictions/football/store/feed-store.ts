import type { PoolClient } from 'pg';
import type { Store } from '../../../../lib/database';

export interface FeedSourceRow {
  key: string;
  competition: string;
  season: string;
  url: string;
  format: string | null;
  etag: string | null;
  lastModified: string | null;
  checksum: string | null;
  lastCheckedAt: Date | null;
  lastChangedAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastReport: Record<string, unknown> | null;
}

export interface FeedRunRow {
  id: number;
  trigger: string;
  startedAt: Date;
  finishedAt: Date | null;
  status: 'running' | 'succeeded' | 'failed';
  sources: number;
  sourcesDone: number;
  changed: number;
  failed: number;
  error: string | null;
}

const SOURCE_COLUMNS = `key, competition, season, url, format, etag, last_modified AS "lastModified", checksum, last_checked_at AS "lastCheckedAt",
  last_changed_at AS "lastChangedAt", last_success_at AS "lastSuccessAt", last_error AS "lastError", last_error_at AS "lastErrorAt", last_report AS "lastReport"`;
const RUN_COLUMNS = `id, trigger, started_at AS "startedAt", finished_at AS "finishedAt", status, sources, sources_done AS "sourcesDone", changed, failed, error`;

/** Lock key of a sync pass: one pass at a time across processes (the job, the CLI). */
const SYNC_LOCK = 'football.feed.sync';

/** The feed's state: per source what it last answered, per pass its progress and outcome. */
export class FeedStore {
  constructor(private readonly store: Store) {}

  /** Runs `work` holding the sync lock (waits for a pass in another process to end first). */
  async exclusively<T>(work: () => Promise<T>): Promise<T> {
    const client: PoolClient = await this.store.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [SYNC_LOCK]);
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [SYNC_LOCK]);
      }
    } finally {
      client.release();
    }
  }

  async sources(): Promise<FeedSourceRow[]> {
    const { rows } = await this.store.pool.query<FeedSourceRow>(`SELECT ${SOURCE_COLUMNS} FROM football.feed_source ORDER BY key`);
    return rows;
  }

  async source(key: string): Promise<FeedSourceRow | undefined> {
    const { rows } = await this.store.pool.query<FeedSourceRow>(`SELECT ${SOURCE_COLUMNS} FROM football.feed_source WHERE key = $1`, [key]);
    return rows[0];
  }

  /** A source's URL changed in the configuration: what was learnt from the old one no longer holds. */
  async register(s: { key: string; competition: string; season: string; url: string }): Promise<void> {
    await this.store.pool.query(
      `INSERT INTO football.feed_source (key, competition, season, url) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE SET url = EXCLUDED.url, etag = NULL, last_modified = NULL, checksum = NULL
        WHERE football.feed_source.url IS DISTINCT FROM EXCLUDED.url`,
      [s.key, s.competition, s.season, s.url],
    );
  }

  /** A pass over a source ended well: its validators and checksum are those of the content now imported. */
  async recordSuccess(
    key: string,
    r: { format: string | null; etag: string | null; lastModified: string | null; checksum: string | null; changed: boolean; report: Record<string, unknown> },
  ): Promise<void> {
    await this.store.pool.query(
      `UPDATE football.feed_source SET format = coalesce($2, format), etag = coalesce($3, etag), last_modified = coalesce($4, last_modified),
              checksum = coalesce($5, checksum), last_checked_at = now(), last_success_at = now(),
              last_changed_at = CASE WHEN $6 THEN now() ELSE last_changed_at END, last_report = $7
        WHERE key = $1`,
      [key, r.format, r.etag, r.lastModified, r.checksum, r.changed, JSON.stringify(r.report)],
    );
  }

  /** A pass over a source failed: its last good validators stay, so the next pass fetches the file again. */
  async recordFailure(key: string, error: string, report: Record<string, unknown>): Promise<void> {
    await this.store.pool.query(
      `UPDATE football.feed_source SET last_checked_at = now(), last_error = $2, last_error_at = now(), last_report = $3, etag = NULL, last_modified = NULL
        WHERE key = $1`,
      [key, error, JSON.stringify(report)],
    );
  }

  async startRun(trigger: string, sources: number): Promise<number> {
    const { rows } = await this.store.pool.query<{ id: number }>('INSERT INTO football.feed_run (trigger, sources) VALUES ($1, $2) RETURNING id', [
      trigger,
      sources,
    ]);
    return rows[0].id;
  }

  async progress(id: number, done: number): Promise<void> {
    await this.store.pool.query('UPDATE football.feed_run SET sources_done = $2 WHERE id = $1', [id, done]);
  }

  async finishRun(id: number, r: { changed: number; failed: number; error: string | null }): Promise<void> {
    await this.store.pool.query(
      `UPDATE football.feed_run SET finished_at = now(), status = CASE WHEN $4::text IS NULL THEN 'succeeded' ELSE 'failed' END,
              changed = $2, failed = $3, error = $4
        WHERE id = $1`,
      [id, r.changed, r.failed, r.error],
    );
  }

  /** A pass left running by a process that died is failed (when no process holds the sync lock). */
  async failAbandonedRuns(): Promise<void> {
    const client = await this.store.pool.connect();
    try {
      const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [SYNC_LOCK]);
      if (!rows[0].got) return;
      try {
        await client.query(
          `UPDATE football.feed_run SET finished_at = now(), status = 'failed', error = 'the process running it stopped' WHERE status = 'running'`,
        );
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [SYNC_LOCK]);
      }
    } finally {
      client.release();
    }
  }

  async lastRun(): Promise<FeedRunRow | undefined> {
    const { rows } = await this.store.pool.query<FeedRunRow>(`SELECT ${RUN_COLUMNS} FROM football.feed_run ORDER BY id DESC LIMIT 1`);
    return rows[0];
  }

  async lastRunWith(status: 'succeeded' | 'failed'): Promise<FeedRunRow | undefined> {
    const { rows } = await this.store.pool.query<FeedRunRow>(`SELECT ${RUN_COLUMNS} FROM football.feed_run WHERE status = $1 ORDER BY id DESC LIMIT 1`, [
      status,
    ]);
    return rows[0];
  }
}
