import type pg from 'pg';
import type { Store } from '../../../../lib/database';
import type { Queryable } from './licence-store';

export type DeploymentStatus = 'alive' | 'dead';

export interface DeploymentRow {
  id: string;
  licenceId: string;
  hostname: string;
  /** The machine's identity (its seat): SHA-256 hex, computed by the installer. */
  machineFingerprint: string;
  ipAddress: string;
  currentVersion: string;
  deploymentKey: string;
  status: DeploymentStatus;
  registeredAt: Date;
  lastHeartbeatAt: Date;
  /** The heartbeat deadline: two missed intervals plus the plan's drift after the last heartbeat. */
  deadAfter: Date;
  diedAt: Date | null;
  reportedStatus: string | null;
  uptimeSeconds: number | null;
}

export interface HeartbeatRow {
  at: Date;
  status: string;
  uptimeSeconds: number;
}

const COLUMNS = `d.id, d.licence_id AS "licenceId", d.hostname, d.machine_fingerprint AS "machineFingerprint", d.ip_address AS "ipAddress", d.current_version AS "currentVersion",
  d.deployment_key AS "deploymentKey", d.status, d.registered_at AS "registeredAt", d.last_heartbeat_at AS "lastHeartbeatAt",
  d.dead_after AS "deadAfter", d.died_at AS "diedAt", d.reported_status AS "reportedStatus", d.uptime_seconds AS "uptimeSeconds"`;

/** SQL of deployment nodes, their heartbeats and seats. Seat changes run inside a transaction that holds the licence's row lock. */
export class DeploymentStore {
  constructor(private readonly store: Store) {}

  /** Seats held: alive deployments whose deadline has not passed (culled or not). */
  async aliveCount(tx: Queryable, licenceId: string, now: Date): Promise<number> {
    const { rows } = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM licensing.deployment WHERE licence_id = $1 AND status = 'alive' AND dead_after > $2`,
      [licenceId, now],
    );
    return rows[0].n;
  }

  async byMachine(tx: Queryable, licenceId: string, machineFingerprint: string): Promise<DeploymentRow | undefined> {
    const { rows } = await tx.query<DeploymentRow>(
      `SELECT ${COLUMNS} FROM licensing.deployment d WHERE d.licence_id = $1 AND d.machine_fingerprint = $2 FOR UPDATE`,
      [licenceId, machineFingerprint],
    );
    return rows[0];
  }

  async byKey(tx: Queryable, licenceId: string, deploymentKey: string): Promise<DeploymentRow | undefined> {
    const { rows } = await tx.query<DeploymentRow>(
      `SELECT ${COLUMNS} FROM licensing.deployment d WHERE d.deployment_key = $1 AND d.licence_id = $2 FOR UPDATE`,
      [deploymentKey, licenceId],
    );
    return rows[0];
  }

  async insert(
    tx: Queryable,
    row: Pick<DeploymentRow, 'licenceId' | 'hostname' | 'machineFingerprint' | 'ipAddress' | 'currentVersion' | 'deploymentKey' | 'registeredAt' | 'deadAfter'>,
  ): Promise<DeploymentRow> {
    const { rows } = await tx.query<DeploymentRow>(
      `INSERT INTO licensing.deployment AS d (licence_id, hostname, machine_fingerprint, ip_address, current_version, deployment_key, status, registered_at, last_heartbeat_at, dead_after)
       VALUES ($1, $2, $3, $4, $5, $6, 'alive', $7, $7, $8) RETURNING ${COLUMNS}`,
      [row.licenceId, row.hostname, row.machineFingerprint, row.ipAddress, row.currentVersion, row.deploymentKey, row.registeredAt, row.deadAfter],
    );
    return rows[0];
  }

  /** A heartbeat (or a registration of a known host): alive again, with a new deadline and what the node reports. */
  async touch(
    tx: Queryable,
    id: string,
    beat: { at: Date; deadAfter: Date; hostname?: string; ipAddress?: string; currentVersion?: string; reportedStatus?: string; uptimeSeconds?: number },
  ): Promise<DeploymentRow> {
    const { rows } = await tx.query<DeploymentRow>(
      `UPDATE licensing.deployment d SET status = 'alive', died_at = NULL, last_heartbeat_at = $2, dead_after = $3,
              ip_address = coalesce($4, ip_address), current_version = coalesce($5, current_version),
              reported_status = coalesce($6, reported_status), uptime_seconds = coalesce($7, uptime_seconds),
              hostname = coalesce($8, hostname)
        WHERE d.id = $1 RETURNING ${COLUMNS}`,
      [
        id,
        beat.at,
        beat.deadAfter,
        beat.ipAddress ?? null,
        beat.currentVersion ?? null,
        beat.reportedStatus ?? null,
        beat.uptimeSeconds ?? null,
        beat.hostname ?? null,
      ],
    );
    return rows[0];
  }

  async recordHeartbeat(tx: Queryable, deploymentId: string, beat: HeartbeatRow): Promise<void> {
    await tx.query('INSERT INTO licensing.deployment_heartbeat (deployment_id, at, status, uptime_seconds) VALUES ($1, $2, $3, $4)', [
      deploymentId,
      beat.at,
      beat.status,
      beat.uptimeSeconds,
    ]);
  }

  /** Alive deployments past their deadline become dead (their seats are free); returns them. */
  async cull(tx: Queryable, now: Date): Promise<DeploymentRow[]> {
    const { rows } = await tx.query<DeploymentRow>(
      `UPDATE licensing.deployment d SET status = 'dead', died_at = d.dead_after WHERE d.status = 'alive' AND d.dead_after <= $1 RETURNING ${COLUMNS}`,
      [now],
    );
    return rows;
  }

  async trimHeartbeats(tx: Queryable, before: Date): Promise<number> {
    const { rowCount } = await tx.query('DELETE FROM licensing.deployment_heartbeat WHERE at < $1', [before]);
    return rowCount ?? 0;
  }

  async list(filter: { licenceIds?: readonly string[] | null; status?: DeploymentStatus | null }): Promise<DeploymentRow[]> {
    const { rows } = await this.store.pool.query<DeploymentRow>(
      `SELECT ${COLUMNS} FROM licensing.deployment d
        WHERE ($1::uuid[] IS NULL OR d.licence_id = ANY($1)) AND ($2::text IS NULL OR d.status = $2)
        ORDER BY d.registered_at, d.id`,
      [filter.licenceIds ?? null, filter.status ?? null],
    );
    return rows;
  }

  async byId(id: string): Promise<DeploymentRow | undefined> {
    const { rows } = await this.store.pool.query<DeploymentRow>(`SELECT ${COLUMNS} FROM licensing.deployment d WHERE d.id = $1`, [id]);
    return rows[0];
  }

  async delete(tx: Queryable, id: string): Promise<DeploymentRow | undefined> {
    const { rows } = await tx.query<DeploymentRow>(`DELETE FROM licensing.deployment d WHERE d.id = $1 RETURNING ${COLUMNS}`, [id]);
    return rows[0];
  }

  /** The most recent heartbeats of each deployment (metrics history), newest first. */
  async heartbeats(deploymentIds: readonly string[], perDeployment: number): Promise<Map<string, HeartbeatRow[]>> {
    const { rows } = await this.store.pool.query<HeartbeatRow & { deploymentId: string }>(
      `SELECT h.deployment_id AS "deploymentId", h.at, h.status, h.uptime_seconds AS "uptimeSeconds"
         FROM unnest($1::uuid[]) AS ids(id)
         CROSS JOIN LATERAL (SELECT * FROM licensing.deployment_heartbeat WHERE deployment_id = ids.id ORDER BY at DESC LIMIT $2) h`,
      [deploymentIds, perDeployment],
    );
    const out = new Map<string, HeartbeatRow[]>();
    for (const { deploymentId, ...beat } of rows) {
      const list = out.get(deploymentId) ?? [];
      list.push(beat);
      out.set(deploymentId, list);
    }
    return out;
  }

  get pool(): pg.Pool {
    return this.store.pool;
  }
}
