import { GroupCommit } from '../../../../lib/group-commit';
import { IsNull, type EntityManager } from 'typeorm';
import type { Store } from '../../../../lib/database';
import { ApiKeyRow } from './entities';

import { KEY_CHANGED } from '../credential';

export interface KeyForAuth {
  id: string;
  prefix: string;
  hash: Buffer;
  name: string;
  role: 'client' | 'admin';
  planCode: 'free' | 'pro' | 'enterprise';
  dailyLimit: number | null;
  revokedAt: Date | null;
}

export type Metered = { revoked: true } | { revoked: false; count: number | undefined };

/** SQL for the access schema. The authentication path uses the pg pool with prepared statements. */
export class ApiKeyStore {
  /** By key, day and limit: the requests metered together (group commit), each with its time. */
  private readonly meters: GroupCommit<{ keyId: string; day: string; limit: number }, Date, Metered>;

  constructor(
    private readonly store: Store,
    /** Requests of one key counted by one metering statement at most (METER_BATCH_MAX; 1: a statement per request). */
    maxMeterBatch = 500,
  ) {
    this.meters = new GroupCommit(async (key, times) => {
      const { rows } = await this.store.pool.query<{ active: boolean; granted: number; used: number | null }>({
        name: 'access.meter',
        text: 'SELECT active, granted, used FROM access.meter($1, $2, $3, $4, $5)',
        values: [key.keyId, key.day, times.length, key.limit, times[times.length - 1]],
      });
      const { active, granted, used } = rows[0];
      return times.map((_, i) => (!active ? { revoked: true } : { revoked: false, count: i < granted ? used! - granted + i + 1 : undefined }));
    }, maxMeterBatch);
  }

  private get repo() {
    return this.store.dataSource.getRepository(ApiKeyRow);
  }

  async findForAuth(prefix: string): Promise<KeyForAuth | undefined> {
    const { rows } = await this.store.pool.query<KeyForAuth>({
      name: 'access.key_for_auth',
      text: `SELECT id, prefix, hash, name, role, plan_code AS "planCode", daily_limit AS "dailyLimit", revoked_at AS "revokedAt"
               FROM access.api_key WHERE prefix = $1`,
      values: [prefix],
    });
    return rows[0];
  }

  /**
   * Counts one request against today's quota, exactly under any concurrency: of the requests of one
   * key, only as many as the limit leaves are counted, under the count row's lock, and each learns
   * its own count. While a key's metering statement runs, the key's next requests wait and then go
   * together in one statement (group commit): under load a key costs one round trip per batch, not
   * per request; alone, a request goes at once. The same statement checks that the key is not
   * revoked (a cached key row may be stale: a revocation counts at once, in every process, whatever
   * became of its NOTIFY) and records the key's last use (at most every 30 s). `revoked`, or the new
   * count (undefined when the quota is used up).
   */
  meter(keyId: string, day: string, limit: number, now: Date): Promise<Metered> {
    return this.meters.submit(`${keyId} ${day} ${limit}`, { keyId, day, limit }, now);
  }

  /**
   * Gives back one unit of a key's count of `day`: the metered operation `ticket` was answered with
   * the server's fault. One statement: the ticket is recorded (a ticket given back before gives back
   * nothing), then the count goes down by one under its row lock (never below zero), so concurrent
   * give-backs and meterings of the key each see the other's count. The count after it, or undefined
   * when nothing was given back. Tickets of days before yesterday go in the same statement.
   */
  async giveBack(keyId: string, day: string, ticket: string): Promise<number | undefined> {
    const { rows } = await this.store.pool.query<{ count: number }>({
      name: 'access.give_back',
      text: `WITH old AS (DELETE FROM access.quota_give_back WHERE day < $2::date - 1),
             ticket AS (INSERT INTO access.quota_give_back (day, key_id, ticket) VALUES ($2, $1, $3) ON CONFLICT DO NOTHING RETURNING ticket)
             UPDATE access.daily_usage u SET count = u.count - 1 FROM ticket
              WHERE u.key_id = $1 AND u.day = $2 AND u.count > 0 RETURNING u.count`,
      values: [keyId, day, ticket],
    });
    return rows[0]?.count;
  }

  /** An unmetered use: checks that the key is not revoked (see `meter`) and records its last use. Whether it is still active. */
  async touch(keyId: string, now: Date): Promise<boolean> {
    const { rows } = await this.store.pool.query<{ active: number }>({
      name: 'access.touch',
      text: `WITH k AS (SELECT id, last_used_at FROM access.api_key WHERE id = $1 AND revoked_at IS NULL),
             touch AS (
               UPDATE access.api_key a SET last_used_at = $2 FROM k
                WHERE a.id = k.id AND (k.last_used_at IS NULL OR k.last_used_at < $2::timestamptz - interval '30 seconds'))
             SELECT count(*)::int AS active FROM k`,
      values: [keyId, now],
    });
    return rows[0].active > 0;
  }

  async usage(keyIds: readonly string[], day: string): Promise<Map<string, number>> {
    const { rows } = await this.store.pool.query('SELECT key_id, count FROM access.daily_usage WHERE key_id = ANY($1::uuid[]) AND day = $2', [keyIds, day]);
    return new Map(rows.map((r: { key_id: string; count: number }) => [r.key_id, r.count]));
  }

  /**
   * `tx`: insert inside that transaction (a key issued together with an application's approval).
   * Every process that remembers the prefix as unknown hears of the new key (NOTIFY, on commit).
   */
  async insert(row: Omit<ApiKeyRow, 'id' | 'createdAt' | 'revokedAt' | 'lastUsedAt' | 'bootstrap'>, tx?: EntityManager): Promise<ApiKeyRow> {
    const manager = tx ?? this.store.dataSource.manager;
    const repo = manager.getRepository(ApiKeyRow);
    const saved = await repo.save(repo.create(row));
    await manager.query('SELECT pg_notify($1, $2)', [KEY_CHANGED, saved.prefix]);
    return saved;
  }

  /**
   * Makes `row` the seeded administrator key (inserted unless it exists) and revokes every other
   * seeded one, in one transaction under a lock (replicas starting together do it once), telling
   * every process that caches keys (NOTIFY). Returns the prefixes of the keys it revoked.
   */
  async replaceBootstrapAdmin(row: Pick<ApiKeyRow, 'prefix' | 'hash' | 'name'>, now: Date): Promise<string[]> {
    return this.store.dataSource.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('access:bootstrap-admin'))`);
      await tx.query(
        `INSERT INTO access.api_key (prefix, hash, name, role, plan_code, daily_limit, bootstrap)
         VALUES ($1, $2, $3, 'admin', 'enterprise', NULL, true) ON CONFLICT (prefix) DO UPDATE SET bootstrap = true`,
        [row.prefix, row.hash, row.name],
      );
      // a process that looked this prefix up in vain forgets that
      await tx.query('SELECT pg_notify($1, $2)', [KEY_CHANGED, row.prefix]);
      const revoked = (await tx.query(
        `WITH k AS (UPDATE access.api_key SET revoked_at = $2 WHERE bootstrap AND revoked_at IS NULL AND prefix <> $1 RETURNING prefix)
         SELECT prefix, pg_notify($3, prefix) FROM k`,
        [row.prefix, now, KEY_CHANGED],
      )) as { prefix: string }[];
      return revoked.map((r) => r.prefix);
    });
  }

  findById(id: string): Promise<ApiKeyRow | null> {
    return this.repo.findOneBy({ id });
  }

  findByPrefix(prefix: string): Promise<ApiKeyRow | null> {
    return this.repo.findOneBy({ prefix });
  }

  list(opts: { includeRevoked: boolean }): Promise<ApiKeyRow[]> {
    const qb = this.repo.createQueryBuilder('k').orderBy('k.created_at', 'DESC');
    if (!opts.includeRevoked) qb.where('k.revoked_at IS NULL');
    return qb.getMany();
  }

  /** Revokes a key and tells every process that caches keys (NOTIFY). */
  async revoke(id: string, now: Date): Promise<ApiKeyRow | null> {
    await this.store.pool.query(
      `WITH k AS (UPDATE access.api_key SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING prefix)
       SELECT pg_notify($3, prefix) FROM k`,
      [id, now, KEY_CHANGED],
    );
    return this.findById(id);
  }

  async setPlan(id: string, planCode: ApiKeyRow['planCode'], dailyLimit: number | null): Promise<ApiKeyRow | null> {
    await this.store.pool.query(
      `WITH k AS (UPDATE access.api_key SET plan_code = $2, daily_limit = $3 WHERE id = $1 RETURNING prefix)
       SELECT pg_notify($4, prefix) FROM k`,
      [id, planCode, dailyLimit, KEY_CHANGED],
    );
    return this.findById(id);
  }

  async hasActiveAdmin(): Promise<boolean> {
    return (await this.repo.countBy({ role: 'admin', revokedAt: IsNull() })) > 0;
  }

  /** Marks a generated administrator key as the seeded one. */
  async markBootstrap(id: string): Promise<void> {
    await this.store.pool.query('UPDATE access.api_key SET bootstrap = true WHERE id = $1', [id]);
  }
}
