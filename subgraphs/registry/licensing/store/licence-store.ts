import { GroupCommit } from '../../../../lib/group-commit';
import type pg from 'pg';
import type { Store } from '../../../../lib/database';
import { LICENCE_CHANGED } from '../credential';

export type LicenceStatus = 'Active' | 'Suspended' | 'Revoked' | 'Expired';
export const LICENCE_STATUSES: readonly LicenceStatus[] = ['Active', 'Suspended', 'Revoked', 'Expired'];

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** What verifying a licence key needs, in one indexed read (cached by the licence service). */
export interface LicenceForAuth {
  id: string;
  organisationId: string;
  productId: string;
  product: string;
  planId: string;
  plan: string;
  maxNodes: number;
  heartbeatIntervalSeconds: number;
  heartbeatDriftSeconds: number;
  entitlements: string[];
  status: LicenceStatus;
  /** YYYY-MM-DD */
  maintenanceUntil: string;
  expiresAt: Date | null;
  keyPrefix: string;
}

export interface LicenceRow {
  id: string;
  organisationId: string;
  productId: string;
  planId: string;
  name: string | null;
  keyPrefix: string;
  keySealed: string;
  status: LicenceStatus;
  maintenanceUntil: string;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const LICENCE_COLUMNS = `l.id, l.organisation_id AS "organisationId", l.product_id AS "productId", l.plan_id AS "planId", l.name,
  l.key_prefix AS "keyPrefix", l.key_sealed AS "keySealed", l.status, l.maintenance_until::text AS "maintenanceUntil",
  l.expires_at AS "expiresAt", l.created_at AS "createdAt", l.updated_at AS "updatedAt"`;

export interface LicenceFilter {
  organisationId?: string | null;
  productId?: string | null;
  status?: LicenceStatus | null;
}

/** SQL of licences. Changes that alter what a key may do NOTIFY every process (they evict their cached row). */
export class LicenceStore {
  /** By licence, window and limit: the requests metered together (group commit). */
  private readonly meters: GroupCommit<{ licenceId: string; windowStart: Date; limit: number }, null, number | undefined>;

  constructor(
    private readonly store: Store,
    /** Requests of one licence counted by one metering statement at most. */
    maxMeterBatch = 500,
  ) {
    this.meters = new GroupCommit(async (window, requests) => {
      const { rows } = await this.store.pool.query<{ granted: number; used: number }>({
        name: 'licensing.meter',
        text: 'SELECT granted, used FROM licensing.meter($1, $2, $3, $4)',
        values: [window.licenceId, window.windowStart, requests.length, window.limit],
      });
      const { granted, used } = rows[0];
      return requests.map((_, i) => (i < granted ? used - granted + i + 1 : undefined));
    }, maxMeterBatch);
  }

  get pool(): pg.Pool {
    return this.store.pool;
  }

  async findForAuth(keyHash: Buffer): Promise<LicenceForAuth | undefined> {
    return this.forAuth('key_hash', keyHash);
  }

  /** The same row by licence id (the workspace acts for its organisation's licences). */
  async findForAuthById(id: string): Promise<LicenceForAuth | undefined> {
    return this.forAuth('id', id);
  }

  private async forAuth(column: 'key_hash' | 'id', value: Buffer | string): Promise<LicenceForAuth | undefined> {
    const { rows } = await this.store.pool.query<LicenceForAuth>({
      name: `licensing.licence_for_auth_by_${column}`,
      text: `SELECT l.id, l.organisation_id AS "organisationId", l.product_id AS "productId", p.code AS product, l.plan_id AS "planId",
                    pl.code AS plan, pl.max_nodes AS "maxNodes", pl.heartbeat_interval_seconds AS "heartbeatIntervalSeconds",
                    pl.heartbeat_drift_seconds AS "heartbeatDriftSeconds", pl.entitlements, l.status,
                    l.maintenance_until::text AS "maintenanceUntil", l.expires_at AS "expiresAt", l.key_prefix AS "keyPrefix"
               FROM licensing.licence l
               JOIN licensing.plan pl ON pl.id = l.plan_id
               JOIN licensing.product p ON p.id = l.product_id
              WHERE l.${column} = $1`,
      values: [value],
    });
    return rows[0];
  }

  /**
   * Counts one request in the licence's current window, exactly under any concurrency: the count only
   * grows while under `limit`, and a new window starts afresh. Returns the request's own count, or
   * undefined when the limit is reached. While a licence's metering statement runs, its next requests
   * wait and then go together in one statement (group commit, `licensing.meter`): under load a licence
   * costs one round trip per batch, not per request; alone, a request goes at once.
   */
  meter(licenceId: string, windowStart: Date, limit: number): Promise<number | undefined> {
    return this.meters.submit(`${licenceId} ${windowStart.getTime()} ${limit}`, { licenceId, windowStart, limit }, null);
  }

  async insert(row: Omit<LicenceRow, 'createdAt' | 'updatedAt' | 'status'> & { keyHash: Buffer }, db: Queryable = this.store.pool): Promise<LicenceRow> {
    const { rows } = await db.query<LicenceRow>(
      `INSERT INTO licensing.licence AS l (id, organisation_id, product_id, plan_id, name, key_hash, key_prefix, key_sealed, maintenance_until, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${LICENCE_COLUMNS}`,
      [row.id, row.organisationId, row.productId, row.planId, row.name, row.keyHash, row.keyPrefix, row.keySealed, row.maintenanceUntil, row.expiresAt],
    );
    return rows[0];
  }

  async byId(id: string, db: Queryable = this.store.pool): Promise<LicenceRow | undefined> {
    const { rows } = await db.query<LicenceRow>(`SELECT ${LICENCE_COLUMNS} FROM licensing.licence l WHERE l.id = $1`, [id]);
    return rows[0];
  }

  async byIds(ids: readonly string[]): Promise<LicenceRow[]> {
    const { rows } = await this.store.pool.query<LicenceRow>(`SELECT ${LICENCE_COLUMNS} FROM licensing.licence l WHERE l.id = ANY($1::uuid[])`, [ids]);
    return rows;
  }

  async ofOrganisations(organisationIds: readonly string[]): Promise<LicenceRow[]> {
    const { rows } = await this.store.pool.query<LicenceRow>(
      `SELECT ${LICENCE_COLUMNS} FROM licensing.licence l WHERE l.organisation_id = ANY($1::uuid[]) ORDER BY l.created_at DESC, l.id`,
      [organisationIds],
    );
    return rows;
  }

  /** Licences whose key starts with `prefix` (LIC-ABCD), for look-ups by what a listing shows. */
  async byPrefix(prefix: string): Promise<LicenceRow[]> {
    const { rows } = await this.store.pool.query<LicenceRow>(`SELECT ${LICENCE_COLUMNS} FROM licensing.licence l WHERE l.key_prefix = $1`, [prefix]);
    return rows;
  }

  async list(filter: LicenceFilter): Promise<LicenceRow[]> {
    const { rows } = await this.store.pool.query<LicenceRow>(
      `SELECT ${LICENCE_COLUMNS} FROM licensing.licence l
        WHERE ($1::uuid IS NULL OR l.organisation_id = $1) AND ($2::uuid IS NULL OR l.product_id = $2) AND ($3::text IS NULL OR l.status = $3)
        ORDER BY l.created_at DESC, l.id`,
      [filter.organisationId ?? null, filter.productId ?? null, filter.status ?? null],
    );
    return rows;
  }

  /** Locks the licence row for the rest of `tx` (seat counting: concurrent registrations queue here). */
  async lock(tx: pg.PoolClient, id: string): Promise<LicenceRow | undefined> {
    const { rows } = await tx.query<LicenceRow>(`SELECT ${LICENCE_COLUMNS} FROM licensing.licence l WHERE l.id = $1 FOR UPDATE`, [id]);
    return rows[0];
  }

  /** Sets the status (only from one of `from`), and tells every process. Undefined when the licence was not in `from`. */
  async setStatus(tx: Queryable, id: string, status: LicenceStatus, from: readonly LicenceStatus[]): Promise<LicenceRow | undefined> {
    const { rows } = await tx.query<LicenceRow>(
      `WITH l AS (UPDATE licensing.licence SET status = $2, updated_at = now() WHERE id = $1 AND status = ANY($3::text[]) RETURNING *),
            n AS (SELECT pg_notify($4, id::text) FROM l)
       SELECT ${LICENCE_COLUMNS} FROM l, (SELECT count(*) FROM n) AS notified`,
      [id, status, from, LICENCE_CHANGED],
    );
    return rows[0];
  }

  async setMaintenance(tx: Queryable, id: string, maintenanceUntil: string): Promise<LicenceRow | undefined> {
    const { rows } = await tx.query<LicenceRow>(
      `WITH l AS (UPDATE licensing.licence SET maintenance_until = $2, updated_at = now() WHERE id = $1 RETURNING *),
            n AS (SELECT pg_notify($3, id::text) FROM l)
       SELECT ${LICENCE_COLUMNS} FROM l, (SELECT count(*) FROM n) AS notified`,
      [id, maintenanceUntil, LICENCE_CHANGED],
    );
    return rows[0];
  }

  /** Active licences whose validity ended become Expired (the scheduled maintenance job); returns them. */
  async expireDue(tx: Queryable, now: Date): Promise<LicenceRow[]> {
    const { rows } = await tx.query<LicenceRow>(
      `WITH l AS (UPDATE licensing.licence SET status = 'Expired', updated_at = now() WHERE status = 'Active' AND expires_at <= $1 RETURNING *),
            n AS (SELECT pg_notify($2, id::text) FROM l)
       SELECT ${LICENCE_COLUMNS} FROM l, (SELECT count(*) FROM n) AS notified`,
      [now, LICENCE_CHANGED],
    );
    return rows;
  }

  /** Each licence's organisation (audit rows of system work name both). */
  async organisationsOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
    const { rows } = await db.query<{ id: string; organisationId: string }>(
      'SELECT id, organisation_id AS "organisationId" FROM licensing.licence WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.organisationId]));
  }

  /** Seats in use per licence: alive deployments whose heartbeat deadline has not passed. */
  async nodesInUse(licenceIds: readonly string[], now: Date, db: Queryable = this.store.pool): Promise<Map<string, number>> {
    const { rows } = await db.query<{ licenceId: string; n: number }>(
      `SELECT licence_id AS "licenceId", count(*)::int AS n FROM licensing.deployment
        WHERE licence_id = ANY($1::uuid[]) AND status = 'alive' AND dead_after > $2 GROUP BY licence_id`,
      [licenceIds, now],
    );
    return new Map(rows.map((r) => [r.licenceId, r.n]));
  }
}
