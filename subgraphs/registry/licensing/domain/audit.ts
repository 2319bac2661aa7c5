import { userInfo } from 'node:os';
import type { Principal } from '../../../../lib/principal';
import type { AuditEventRow, AuditFilter, AuditStore, NewAuditEvent } from '../store/audit-store';
import type { Queryable } from '../store/licence-store';

/**
 * What the audit trail records (and administrators query): licence changes, releases, downloads,
 * deployment registrations and heartbeat state changes.
 */
export const AUDIT_ACTIONS = [
  'organisation.created',
  'workspace_user.added',
  'product.created',
  'plan.created',
  'licence.created',
  'licence.suspended',
  'licence.reinstated',
  'licence.revoked',
  'licence.expired',
  'licence.maintenance_extended',
  'licence.checked_out',
  'release.created',
  'release.published',
  'release.yanked',
  'artifact.uploaded',
  'artifact.download_authorized',
  'artifact.downloaded',
  'deployment.registered',
  'deployment.limit_exceeded',
  'deployment.dead',
  'deployment.revived',
  'deployment.status_changed',
  'deployment.deregistered',
  'deployment.released',
  'workspace_user.invited',
  'workspace_user.signed_in',
  'workspace_user.password_set',
  'entitlement.granted',
  'entitlement.revoked',
  'branding.saved',
  'frontend_build.requested',
  'frontend_build.succeeded',
  'frontend_build.failed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditEvent = NewAuditEvent & { action: AuditAction };

/** Who did it, as the trail shows it. */
export function actorOf(principal: Principal): string {
  switch (principal.kind) {
    case 'api-key':
      return `api-key:${principal.prefix}`;
    case 'licence':
      return `licence:${principal.licenceId}`;
    case 'download-token':
      return `download-token:${principal.tokenId}`;
    case 'service':
      return `service:${principal.name}`;
    case 'workspace-user':
      return `workspace-user:${principal.userId}`;
    default:
      return principal.kind;
  }
}

export const cliActor = () => `cli:${userInfo().username}`;
export const SYSTEM_ACTOR = 'system';

export class AuditLog {
  constructor(private readonly store: AuditStore) {}

  /** Records events; pass the transaction of the change they describe, so both commit or neither. */
  record(db: Queryable | undefined, ...events: AuditEvent[]): Promise<void> {
    return this.store.insert(db, events);
  }

  list(filter: AuditFilter): Promise<AuditEventRow[]> {
    return this.store.list(filter);
  }
}
