import type { AuditEventRow } from '../store/audit-store';
import type { DeploymentRow } from '../store/deployment-store';
import type { OrganisationRow, PlanRow, ProductRow } from '../store/entities';
import type { LicenceRow } from '../store/licence-store';
import type { ArtifactRow, ReleaseRow } from '../store/release-store';
import { effectiveStatus } from '../domain/licences';
import { maskedKey } from '../domain/keys';
import {
  Artifact,
  ArtifactStatusEnum,
  Deployment,
  DeploymentStatusEnum,
  Licence,
  LicenceStatusEnum,
  LicencePlan,
  LicensingProduct,
  RegistryAuditEvent,
  RegistryOrganisation,
  Release,
  ReleaseChannelEnum,
  ReleaseStatusEnum,
} from './types';

/** Store rows → GraphQL objects (ids of related rows kept for the field resolvers). */
export const toOrganisation = (r: OrganisationRow): RegistryOrganisation => ({ id: r.id, slug: r.slug, name: r.name, createdAt: r.createdAt });

export const toProduct = (r: ProductRow): LicensingProduct => ({
  id: r.id,
  code: r.code,
  name: r.name,
  manifestTemplate: r.manifestTemplate as Record<string, unknown>,
  createdAt: r.createdAt,
});

export const toPlan = (r: PlanRow): LicencePlan => ({
  id: r.id,
  code: r.code,
  name: r.name,
  maxNodes: r.maxNodes,
  heartbeatIntervalSeconds: r.heartbeatIntervalSeconds,
  heartbeatDriftSeconds: r.heartbeatDriftSeconds,
  entitlements: r.entitlements,
  productId: r.productId,
});

export const toLicence = (r: LicenceRow, now = new Date()): Licence => ({
  id: r.id,
  key: maskedKey(r.keyPrefix),
  name: r.name,
  status: effectiveStatus(r.status, r.expiresAt, now) as LicenceStatusEnum,
  maintenanceUntil: r.maintenanceUntil,
  expiresAt: r.expiresAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  organisationId: r.organisationId,
  productId: r.productId,
  planId: r.planId,
});

export const toRelease = (r: ReleaseRow): Release => ({
  id: r.id,
  version: r.version,
  channel: r.channel as ReleaseChannelEnum,
  status: r.status as ReleaseStatusEnum,
  changelog: r.changelog,
  publishedAt: r.publishedAt,
  backdatedTo: r.backdatedTo,
  yankedAt: r.yankedAt,
  manifestTemplate: r.manifestTemplate as Record<string, unknown>,
  createdAt: r.createdAt,
  productId: r.productId,
});

export const toArtifact = (r: ArtifactRow): Artifact => ({
  id: r.id,
  component: r.component,
  filename: r.filename,
  mediaType: r.mediaType,
  status: r.status as ArtifactStatusEnum,
  size: r.size,
  sha256: r.sha256,
  image: r.image,
  imageId: r.imageId,
  createdAt: r.createdAt,
  uploadedAt: r.uploadedAt,
});

export const toDeployment = (r: DeploymentRow, status: DeploymentStatusEnum): Deployment => ({
  id: r.id,
  hostname: r.hostname,
  ipAddress: r.ipAddress,
  currentVersion: r.currentVersion,
  status,
  registeredAt: r.registeredAt,
  lastHeartbeatAt: r.lastHeartbeatAt,
  deadAfter: r.deadAfter,
  reportedStatus: r.reportedStatus,
  uptimeSeconds: r.uptimeSeconds,
  licenceId: r.licenceId,
});

export const toAuditEvent = (r: AuditEventRow): RegistryAuditEvent => ({ ...r, id: String(r.id) });
