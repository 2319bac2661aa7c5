import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { inTransaction } from '../../../../lib/database';
import { badInput, DomainError, notFound } from '../../../../lib/errors';
import type { DeploymentRow, DeploymentStatus, DeploymentStore, HeartbeatRow } from '../store/deployment-store';
import type { LicenceStore } from '../store/licence-store';
import type { AuditLog } from './audit';
import { deploymentNotFound, nodeLimitExceeded } from './errors';
import { generateDeploymentKey } from './keys';
import type { LicencePrincipal } from './licences';
import { parseVersion } from '../versions';

export interface Registration {
  hostname: string;
  ipAddress: string;
  currentVersion: string;
  /**
   * The machine (its seat): SHA-256 hex the installer computes from /etc/machine-id and the product.
   * Without one (older installers) the host name stands for the machine, as it used to.
   */
  machineFingerprint?: string | null;
}

export interface Heartbeat {
  deploymentKey: string;
  metrics: { status: string; uptimeSeconds: number };
}

export interface SeatAnswer {
  deployment: DeploymentRow;
  heartbeatIntervalSeconds: number;
  nextHeartbeatAt: Date;
}

/** Heartbeats kept per deployment (metrics history) before the maintenance job trims them. */
export const HEARTBEAT_RETENTION_DAYS = 30;

const HOSTNAME_RE = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const STATUS_RE = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** Two missed intervals plus the plan's drift: then a deployment is dead and its seat free. */
export const deadlineAfter = (at: Date, licence: Pick<LicencePrincipal, 'heartbeatIntervalSeconds' | 'heartbeatDriftSeconds'>) =>
  new Date(at.getTime() + (2 * licence.heartbeatIntervalSeconds + licence.heartbeatDriftSeconds) * 1000);

/** Whether the deployment holds its seat now (alive and within its deadline, whether or not the cull job has run). */
export const holdsSeat = (d: Pick<DeploymentRow, 'status' | 'deadAfter'>, now: Date) => d.status === 'alive' && d.deadAfter.getTime() > now.getTime();

const FINGERPRINT_RE = /^[0-9a-f]{64}$/;

/** The seat of a registration without a fingerprint: its host name's (what a seat was before fingerprints). */
export const hostnameFingerprint = (hostname: string) => createHash('sha256').update(`hostname:${hostname}`).digest('hex');

function validRegistration(input: Registration): Required<Registration> & { machineFingerprint: string } {
  const fields: Record<string, string[]> = {};
  const hostname = typeof input.hostname === 'string' ? input.hostname.trim().toLowerCase().replace(/\.$/, '') : '';
  if (!HOSTNAME_RE.test(hostname)) fields.hostname = ['a host name (letters, digits, dashes and dots; at most 253 characters)'];
  const ipAddress = typeof input.ipAddress === 'string' ? input.ipAddress.trim() : '';
  if (!isIP(ipAddress)) fields.ipAddress = ['an IPv4 or IPv6 address'];
  const currentVersion = typeof input.currentVersion === 'string' ? parseVersion(input.currentVersion) : undefined;
  if (!currentVersion) fields.currentVersion = ['a SemVer version, e.g. 1.1.0'];
  const given = input.machineFingerprint;
  const fingerprint = typeof given === 'string' ? given.trim().toLowerCase() : undefined;
  if (given !== undefined && given !== null && !FINGERPRINT_RE.test(fingerprint ?? ''))
    fields.machineFingerprint = ['64 hexadecimal digits: the SHA-256 of the machine id and the product'];
  const names = Object.keys(fields);
  if (names.length) throw badInput(`Invalid ${names.join(', ')}: ${names.map((n) => fields[n][0]).join('; ')}.`, fields);
  return { hostname, ipAddress, currentVersion: currentVersion!, machineFingerprint: fingerprint || hostnameFingerprint(hostname) };
}

function validHeartbeat(input: Heartbeat): Heartbeat {
  const fields: Record<string, string[]> = {};
  if (typeof input.deploymentKey !== 'string' || !input.deploymentKey.trim()) fields.deploymentKey = ['the deploymentKey answered at registration'];
  const status = input.metrics?.status;
  if (typeof status !== 'string' || !STATUS_RE.test(status)) fields['metrics.status'] = ['a status word, e.g. healthy'];
  const uptime = input.metrics?.uptimeSeconds;
  if (!Number.isSafeInteger(uptime) || uptime < 0) fields['metrics.uptimeSeconds'] = ['a whole number of seconds, 0 or more'];
  const names = Object.keys(fields);
  if (names.length) throw badInput(`Invalid ${names.join(', ')}: ${names.map((n) => fields[n][0]).join('; ')}.`, fields);
  return { deploymentKey: input.deploymentKey.trim(), metrics: { status, uptimeSeconds: uptime } };
}

/**
 * Deployment nodes and their seats. A node holds a seat while alive: registered, then heartbeating
 * at least every interval; after two missed intervals plus drift it is dead and its seat free (the
 * scheduled cull records it; seat counting never waits for the job). A heartbeat revives a dead node
 * when a seat is free. Seats are counted under the licence's row lock, so concurrent registrations
 * never exceed the plan's cap.
 */
export class DeploymentService {
  constructor(
    private readonly store: DeploymentStore,
    private readonly licences: LicenceStore,
    private readonly audit: AuditLog,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Registers a node, or answers the seat the same machine (fingerprint) already has (created: false). */
  async register(licence: LicencePrincipal, input: Registration): Promise<SeatAnswer & { created: boolean }> {
    const registration = validRegistration(input);
    const actor = `licence:${licence.licenceId}`;
    const base = { actor, organisationId: licence.organisationId, licenceId: licence.licenceId };
    return this.auditingRefusal(licence, { ...registration }, () =>
      inTransaction(this.store.pool, async (tx) => {
        await this.licences.lock(tx, licence.licenceId);
        const now = this.clock();
        const deadAfter = deadlineAfter(now, licence);
        const existing = await this.store.byMachine(tx, licence.licenceId, registration.machineFingerprint);
        if (existing) {
          const revived = !holdsSeat(existing, now);
          if (revived) await this.requireSeat(tx, licence, now);
          const deployment = await this.store.touch(tx, existing.id, {
            at: now,
            deadAfter,
            hostname: registration.hostname,
            ipAddress: registration.ipAddress,
            currentVersion: registration.currentVersion,
          });
          await this.audit.record(tx, {
            ...base,
            action: revived ? 'deployment.revived' : 'deployment.registered',
            subjectType: 'deployment',
            subjectId: deployment.id,
            details: { ...registration, existing: true },
          });
          return { created: false, ...this.answer(deployment, licence, now) };
        }
        await this.requireSeat(tx, licence, now);
        const deployment = await this.store.insert(tx, {
          licenceId: licence.licenceId,
          ...registration,
          deploymentKey: generateDeploymentKey(),
          registeredAt: now,
          deadAfter,
        });
        await this.audit.record(tx, {
          ...base,
          action: 'deployment.registered',
          subjectType: 'deployment',
          subjectId: deployment.id,
          details: { ...registration },
        });
        return { created: true, ...this.answer(deployment, licence, now) };
      }),
    );
  }

  /** A refusal for want of a seat is recorded: vendors watch for customers outgrowing their plan. */
  private async auditingRefusal<T>(licence: LicencePrincipal, details: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof DomainError && err.code === 'NODE_LIMIT_EXCEEDED') {
        await this.audit.record(undefined, {
          action: 'deployment.limit_exceeded',
          actor: `licence:${licence.licenceId}`,
          organisationId: licence.organisationId,
          licenceId: licence.licenceId,
          subjectType: 'licence',
          subjectId: licence.licenceId,
          details: { ...details, maxNodes: licence.maxNodes },
        });
      }
      throw err;
    }
  }

  /** A heartbeat: the node stays alive (or is revived if a seat is free); its metrics go into the history. */
  async heartbeat(licence: LicencePrincipal, input: Heartbeat): Promise<SeatAnswer> {
    const beat = validHeartbeat(input);
    const base = { actor: `licence:${licence.licenceId}`, organisationId: licence.organisationId, licenceId: licence.licenceId };
    return this.auditingRefusal(licence, { deploymentKey: beat.deploymentKey }, () => this.beat(licence, beat, base));
  }

  private beat(licence: LicencePrincipal, beat: Heartbeat, base: { actor: string; organisationId: string; licenceId: string }): Promise<SeatAnswer> {
    return inTransaction(this.store.pool, async (tx) => {
      await this.licences.lock(tx, licence.licenceId);
      const now = this.clock();
      const existing = await this.store.byKey(tx, licence.licenceId, beat.deploymentKey);
      if (!existing) throw deploymentNotFound();
      const revived = !holdsSeat(existing, now);
      if (revived) await this.requireSeat(tx, licence, now);
      const deployment = await this.store.touch(tx, existing.id, {
        at: now,
        deadAfter: deadlineAfter(now, licence),
        reportedStatus: beat.metrics.status,
        uptimeSeconds: beat.metrics.uptimeSeconds,
      });
      await this.store.recordHeartbeat(tx, deployment.id, { at: now, status: beat.metrics.status, uptimeSeconds: beat.metrics.uptimeSeconds });
      const subject = { subjectType: 'deployment', subjectId: deployment.id };
      if (revived)
        await this.audit.record(tx, {
          ...base,
          ...subject,
          action: 'deployment.revived',
          details: { hostname: deployment.hostname, deadSince: existing.deadAfter.toISOString() },
        });
      if (existing.reportedStatus !== null && existing.reportedStatus !== beat.metrics.status) {
        await this.audit.record(tx, {
          ...base,
          ...subject,
          action: 'deployment.status_changed',
          details: { hostname: deployment.hostname, from: existing.reportedStatus, to: beat.metrics.status },
        });
      }
      return this.answer(deployment, licence, now);
    });
  }

  /** Marks alive deployments past their deadline dead (their seats free) and trims old metrics; returns how many died. */
  async cull(now = this.clock()): Promise<number> {
    return inTransaction(this.store.pool, async (tx) => {
      const dead = await this.store.cull(tx, now);
      const organisations = await this.licences.organisationsOf(tx, [...new Set(dead.map((d) => d.licenceId))]);
      await this.audit.record(
        tx,
        ...dead.map((d) => ({
          action: 'deployment.dead' as const,
          actor: 'system',
          organisationId: organisations.get(d.licenceId) ?? null,
          licenceId: d.licenceId,
          subjectType: 'deployment',
          subjectId: d.id,
          at: now,
          details: { hostname: d.hostname, lastHeartbeatAt: d.lastHeartbeatAt.toISOString(), deadAfter: d.deadAfter.toISOString() },
        })),
      );
      await this.store.trimHeartbeats(tx, new Date(now.getTime() - HEARTBEAT_RETENTION_DAYS * 86_400_000));
      return dead.length;
    });
  }

  /** Frees a node's seat for good (administrators: a decommissioned host). */
  async deregister(id: string, actor: string): Promise<DeploymentRow> {
    return inTransaction(this.store.pool, async (tx) => {
      const row = await this.store.delete(tx, id);
      if (!row) throw notFound('No such deployment.');
      await this.audit.record(tx, {
        action: 'deployment.deregistered',
        actor,
        licenceId: row.licenceId,
        subjectType: 'deployment',
        subjectId: row.id,
        details: { hostname: row.hostname },
      });
      return row;
    });
  }

  /**
   * The customer frees one of their licence's seats (a machine taken out of service): the deployment is
   * removed and its key stops working. Another licence's deployment does not exist for them (404).
   */
  /** A workspace user frees a seat of one of the organisation's licences (the same release, audited likewise). */
  async releaseForOrganisation(organisationId: string, id: string, actor: string): Promise<DeploymentRow> {
    const found = /^[0-9a-f-]{36}$/i.test(id) ? await this.store.byId(id) : undefined;
    const licence = found && (await this.licences.byId(found.licenceId));
    if (!found || !licence || licence.organisationId !== organisationId) throw notFound('No deployment of your organisation has that id.');
    return this.release({ licenceId: licence.id, organisationId }, id, actor);
  }

  async release(licence: Pick<LicencePrincipal, 'licenceId' | 'organisationId'>, id: string, actor: string): Promise<DeploymentRow> {
    return inTransaction(this.store.pool, async (tx) => {
      await this.licences.lock(tx, licence.licenceId);
      const row = /^[0-9a-f-]{36}$/i.test(id) ? await this.store.delete(tx, id) : undefined;
      if (!row || row.licenceId !== licence.licenceId) throw notFound('No deployment of this licence has that id.');
      await this.audit.record(tx, {
        action: 'deployment.released',
        actor,
        organisationId: licence.organisationId,
        licenceId: licence.licenceId,
        subjectType: 'deployment',
        subjectId: row.id,
        details: { hostname: row.hostname, currentVersion: row.currentVersion },
      });
      return row;
    });
  }

  list(filter: { licenceIds?: readonly string[] | null; status?: DeploymentStatus | null }): Promise<DeploymentRow[]> {
    return this.store.list(filter);
  }

  heartbeats(deploymentIds: readonly string[], perDeployment: number): Promise<Map<string, HeartbeatRow[]>> {
    return this.store.heartbeats(deploymentIds, perDeployment);
  }

  /** The status a deployment has now (alive past its deadline is dead, culled or not). */
  statusOf(d: DeploymentRow): DeploymentStatus {
    return holdsSeat(d, this.clock()) ? 'alive' : 'dead';
  }

  private async requireSeat(tx: Parameters<DeploymentStore['aliveCount']>[0], licence: LicencePrincipal, now: Date): Promise<void> {
    if ((await this.store.aliveCount(tx, licence.licenceId, now)) >= licence.maxNodes) throw nodeLimitExceeded(licence.maxNodes);
  }

  private answer(deployment: DeploymentRow, licence: LicencePrincipal, now: Date): SeatAnswer {
    return {
      deployment,
      heartbeatIntervalSeconds: licence.heartbeatIntervalSeconds,
      nextHeartbeatAt: new Date(now.getTime() + licence.heartbeatIntervalSeconds * 1000),
    };
  }
}
