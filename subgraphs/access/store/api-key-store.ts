import { IsNull, type EntityManager } from 'typeorm';
import type { Store } from '../../../lib/database';
import { ApiKeyRow } from './entities';

/** NOTIFY channel: a key was revoked or changed plan; the payload is its prefix. */
export const KEY_CHANGED = 'access_key_changed';

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

/** SQL for the access schema. The authentication path uses the pg pool with prepared statements. */
export class ApiKeyStore {
  constructor(private readonly store: Store) {}

  private get repo() {
    return this.store.dataSource.getRepository(ApiKeyRow);
  }

  async findForAuth(prefix: string): Promise<KeyForAuth | undefined> {
    const { rows } = await this.store.pool.query({
      name: 'access.key_for_auth',
      text: `SELECT id, prefix, hash, name, role, plan_code AS "planCode", daily_limit AS "dailyLimit", revoked_at AS "revokedAt"
               FROM access.api_key WHERE prefix = $1`,
      values: [prefix],
    });
    return rows[0];
  }

  /**
   * Counts one request against today's quota, atomically: the row is only incremented while it is
   * under `limit`, so N concurrent requests can never push it past the limit. Returns the new count,
   * or undefined when the quota is used up. Also records the key's last use (at most every 30 s).
   */
  async meter(keyId: string, day: string, limit: number, now: Date): Promise<number | undefined> {
    const { rows } = await this.store.pool.query({
      name: 'access.meter',
      text: `WITH touch AS (
               UPDATE access.api_key SET last_used_at = $4
                WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $4::timestamptz - interval '30 seconds'))
             INSERT INTO access.daily_usage AS u (key_id, day, count) VALUES ($1, $2, 1)
             ON CONFLICT (key_id, day) DO UPDATE SET count = u.count + 1 WHERE u.count < $3
             RETURNING count`,
      values: [keyId, day, limit, now],
    });
    return rows[0]?.count;
  }

  async touch(keyId: string, now: Date): Promise<void> {
    await this.store.pool.query({
      name: 'access.touch',
      text: `UPDATE access.api_key SET last_used_at = $2
              WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '30 seconds')`,
      values: [keyId, now],
    });
  }

  async usage(keyIds: readonly string[], day: string): Promise<Map<string, number>> {
    const { rows } = await this.store.pool.query(
      'SELECT key_id, count FROM access.daily_usage WHERE key_id = ANY($1::uuid[]) AND day = $2',
      [keyIds, day],
    );
    return new Map(rows.map((r: { key_id: string; count: number }) => [r.key_id, r.count]));
  }

  /** `tx`: insert inside that transaction (a key issued together with an application's approval). */
  insert(row: Omit<ApiKeyRow, 'id' | 'createdAt' | 'revokedAt' | 'lastUsedAt'>, tx?: EntityManager): Promise<ApiKeyRow> {
    const repo = tx ? tx.getRepository(ApiKeyRow) : this.repo;
    return repo.save(repo.create(row));
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
}
