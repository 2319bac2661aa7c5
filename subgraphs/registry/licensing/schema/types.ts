import { GraphQLJSONObject } from 'graphql-scalars';
import { Directive, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum LicenceStatusEnum {
  Active = 'Active',
  Suspended = 'Suspended',
  Revoked = 'Revoked',
  Expired = 'Expired',
}
registerEnumType(LicenceStatusEnum, { name: 'LicenceStatus', description: 'Active; Suspended (reversible); Revoked (final); Expired (past its validity).' });

export enum ReleaseChannelEnum {
  stable = 'stable',
  rc = 'rc',
  beta = 'beta',
  alpha = 'alpha',
  dev = 'dev',
}
registerEnumType(ReleaseChannelEnum, {
  name: 'ReleaseChannel',
  description: 'A channel sees its own releases and those of more stable channels (rc: rc and stable; beta: beta, rc, stable; alpha: all four); dev sees only dev.',
});

export enum ReleaseStatusEnum {
  draft = 'draft',
  published = 'published',
  yanked = 'yanked',
}
registerEnumType(ReleaseStatusEnum, { name: 'ReleaseStatus' });

export enum ArtifactStatusEnum {
  waiting = 'waiting',
  uploaded = 'uploaded',
}
registerEnumType(ArtifactStatusEnum, { name: 'ArtifactStatus' });

export enum DeploymentStatusEnum {
  alive = 'alive',
  dead = 'dead',
}
registerEnumType(DeploymentStatusEnum, { name: 'DeploymentStatus', description: 'alive: holds a seat; dead: two heartbeat intervals plus drift missed, seat free.' });

export enum WorkspaceRoleEnum {
  owner = 'owner',
  member = 'member',
}
registerEnumType(WorkspaceRoleEnum, { name: 'WorkspaceRole' });

@ObjectType({ simpleResolvers: true, description: "A person of a customer organisation who uses the registry's workspace." })
export class WorkspaceUser {
  @Field(() => ID) id: string;
  @Field() email: string;
  @Field() name: string;
  @Field(() => WorkspaceRoleEnum) role: WorkspaceRoleEnum;
  @Field() createdAt: Date;
}

@ObjectType({ description: 'A customer of the vendor: holds licences; its people use the workspace.' })
export class RegistryOrganisation {
  @Field(() => ID) id: string;
  @Field() slug: string;
  @Field() name: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: "A plan of a product: node cap, heartbeat interval, entitlements (e.g. enterprise-whitelabel)." })
export class LicencePlan {
  @Field(() => ID) id: string;
  @Field() code: string;
  @Field() name: string;
  @Field(() => Int, { description: 'Maximum concurrently registered (alive) deployment nodes.' }) maxNodes: number;
  @Field(() => Int, { description: 'Seconds between heartbeats (six hours by default).' }) heartbeatIntervalSeconds: number;
  @Field(() => Int, { description: 'Slack after two missed intervals before a node is dead.' }) heartbeatDriftSeconds: number;
  @Field(() => [String]) entitlements: string[];
  productId: string;
}

@ObjectType({ description: 'A product the vendor distributes (e.g. finance-node).' })
export class LicensingProduct {
  @Field(() => ID) id: string;
  @Field() code: string;
  @Field() name: string;
  @Field(() => GraphQLJSONObject, { description: "Default manifest template of the product's new releases." }) manifestTemplate: Record<string, unknown>;
  @Field() createdAt: Date;
}

@ObjectType({ description: 'A licence: a key for one product on one plan, held by an organisation.' })
export class Licence {
  @Field(() => ID) id: string;
  @Field({ description: 'The key, masked (LIC-ABCD-****-****); administrators reveal it with licenceKey.' }) key: string;
  @Field(() => String, { nullable: true }) name: string | null;
  @Field(() => LicenceStatusEnum) status: LicenceStatusEnum;
  @Field({ description: 'YYYY-MM-DD: releases published after it are not downloadable on this licence.' }) maintenanceUntil: string;
  @Field(() => Date, { nullable: true, description: 'End of validity (then Expired); null: perpetual.' }) expiresAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
  organisationId: string;
  productId: string;
  planId: string;
}

@ObjectType({ simpleResolvers: true, description: 'A release artifact: one component as a `docker load` archive (.docker.tar.gz).' })
export class Artifact {
  @Field(() => ID) id: string;
  @Field({ description: 'e.g. backend, frontend' }) component: string;
  @Field() filename: string;
  @Field() mediaType: string;
  @Field(() => ArtifactStatusEnum) status: ArtifactStatusEnum;
  @Field(() => Float, { nullable: true, description: 'Bytes.' }) size: number | null;
  @Field(() => String, { nullable: true, description: 'Hex SHA-256 of the archive.' }) sha256: string | null;
  @Field(() => String, { nullable: true, description: 'repository:tag the archive loads as.' }) image: string | null;
  @Field(() => String, { nullable: true, description: 'sha256:<digest> of the image configuration (the image id).' }) imageId: string | null;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) uploadedAt: Date | null;
}

@ObjectType({ description: 'A release of a product (SemVer) on a channel.' })
export class Release {
  @Field(() => ID) id: string;
  @Field() version: string;
  @Field(() => ReleaseChannelEnum) channel: ReleaseChannelEnum;
  @Field(() => ReleaseStatusEnum) status: ReleaseStatusEnum;
  @Field() changelog: string;
  @Field(() => Date, { nullable: true }) publishedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'Maintenance coverage is judged by this date instead of publishedAt.' }) backdatedTo: Date | null;
  @Field(() => Date, { nullable: true }) yankedAt: Date | null;
  @Field(() => GraphQLJSONObject) manifestTemplate: Record<string, unknown>;
  @Field() createdAt: Date;
  productId: string;
}

@ObjectType({ simpleResolvers: true })
export class DeploymentHeartbeat {
  @Field() at: Date;
  @Field({ description: 'As the node reported it, e.g. healthy.' }) status: string;
  @Field(() => Int) uptimeSeconds: number;
}

@ObjectType({ description: 'A registered deployment node of a licence.' })
export class Deployment {
  @Field(() => ID) id: string;
  @Field() hostname: string;
  @Field() ipAddress: string;
  @Field() currentVersion: string;
  @Field(() => DeploymentStatusEnum) status: DeploymentStatusEnum;
  @Field() registeredAt: Date;
  @Field() lastHeartbeatAt: Date;
  @Field({ description: 'When it is dead without another heartbeat.' }) deadAfter: Date;
  @Field(() => String, { nullable: true }) reportedStatus: string | null;
  @Field(() => Int, { nullable: true }) uptimeSeconds: number | null;
  @Field(() => ID) licenceId: string;
}

@ObjectType({ simpleResolvers: true })
export class RegistryAuditEvent {
  @Field(() => ID) id: string;
  @Field() at: Date;
  @Field({ description: 'e.g. licence.suspended, artifact.downloaded, deployment.dead' }) action: string;
  @Field({ description: 'api-key:<prefix>, licence:<id>, download-token:<id>, cli:<user>, system' }) actor: string;
  @Field(() => ID, { nullable: true }) organisationId: string | null;
  @Field(() => ID, { nullable: true }) licenceId: string | null;
  @Field() subjectType: string;
  @Field() subjectId: string;
  @Field(() => GraphQLJSONObject) details: Record<string, unknown>;
}

// ---- what a licence key sees (the registry's REST answers; persisted queries alias nothing away) ----

@ObjectType('LicenceOrganisation', { simpleResolvers: true })
export class LicenceOrganisation {
  @Field(() => ID) id: string;
  @Field() name: string;
}

@ObjectType({ simpleResolvers: true, description: 'The calling licence, as its holder sees it (GET /api/v1/license).' })
export class LicenceSummary {
  @Field(() => ID) id: string;
  @Field({ description: 'Masked: LIC-ABCD-****-****' }) key: string;
  @Field(() => LicenceStatusEnum) status: LicenceStatusEnum;
  @Field({ description: 'Product code' }) product: string;
  @Field({ description: 'Plan code' }) plan: string;
  @Field(() => Int) maxNodes: number;
  @Field(() => Int) nodesInUse: number;
  @Field({ description: 'YYYY-MM-DD' }) maintenanceUntil: string;
  @Field(() => [String]) entitlements: string[];
  @Field(() => LicenceOrganisation) organisation: LicenceOrganisation;
}

@ObjectType({ simpleResolvers: true, description: 'A release as a licence sees it (GET /api/v1/releases items).' })
export class LicensedRelease {
  @Field(() => ID) id: string;
  @Field() version: string;
  @Field(() => ReleaseChannelEnum) channel: ReleaseChannelEnum;
  @Field() changelog: string;
  @Field() publishedAt: Date;
  @Field(() => Date, { nullable: true }) backdatedTo: Date | null;
  @Field({ description: "Whether this licence's maintenance covers it (else manifest and downloads answer 403)." }) maintenanceCovered: boolean;
  @Field() manifestUrl: string;
  @Field(() => [Artifact]) artifacts: Artifact[];
}

@ObjectType({ simpleResolvers: true })
export class CoveredRelease {
  @Field() version: string;
  @Field(() => ID) releaseId: string;
  @Field() downloadUrl: string;
}

@ObjectType({ simpleResolvers: true, description: 'GET /api/v1/releases/check-update' })
export class ReleaseUpdate {
  @Field() updateAvailable: boolean;
  @Field() latestVersion: string;
  @Field() channel: string;
  @Field() changelog: string;
  @Field() maintenanceCovered: boolean;
  @Field(() => ID, { nullable: true }) releaseId: string | null;
  @Field(() => String, { nullable: true, description: 'The manifest URL with format=compose.' }) downloadUrl: string | null;
  @Field(() => CoveredRelease, { nullable: true, description: 'When the latest is not covered by maintenance: the newest newer release that is.' })
  latestCovered: CoveredRelease | null;
}

@ObjectType({ simpleResolvers: true })
export class ReleaseManifest {
  @Field() content: string;
  @Field() contentType: string;
  @Field() filename: string;
}

@ObjectType({ simpleResolvers: true })
export class DownloadAuthorization {
  @Field({ description: 'Single-use download token (?token= on the download route).' }) token: string;
  @Field() expiresAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class ArtifactDownload {
  @Field(() => String, { nullable: true, description: 'Presigned link (302 target); null for a probe.' }) url: string | null;
  @Field(() => Date, { nullable: true }) expiresAt: Date | null;
  @Field(() => Artifact) artifact: Artifact;
}

@ObjectType({ simpleResolvers: true, description: 'A node and its seat, as registration answers it.' })
export class DeploymentSeat {
  @Field(() => ID) id: string;
  @Field() deploymentKey: string;
  @Field(() => DeploymentStatusEnum) status: DeploymentStatusEnum;
  @Field(() => Int) heartbeatIntervalSeconds: number;
  @Field() nextHeartbeatAt: Date;
  @Field() registeredAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class DeploymentRegistration {
  @Field({ description: 'false: the host already had this seat.' }) created: boolean;
  @Field(() => DeploymentSeat) deployment: DeploymentSeat;
}

@ObjectType({ simpleResolvers: true })
export class HeartbeatAck {
  @Field(() => DeploymentStatusEnum) status: DeploymentStatusEnum;
  @Field(() => Int) heartbeatIntervalSeconds: number;
  @Field() nextHeartbeatAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class LicensingPublicKey {
  @Field({ description: 'Always EdDSA (Ed25519).' }) algorithm: string;
  @Field({ description: 'RFC 7638 thumbprint; the kid of the tokens.' }) keyId: string;
  @Field({ description: 'Base64 of the SPKI DER, one line.' }) publicKey: string;
}

@ObjectType({ simpleResolvers: true, description: 'A signed licence token (JWT, EdDSA) for offline verification.' })
export class LicenceCheckout {
  @Field() token: string;
  @Field() expiresAt: Date;
  @Field() algorithm: string;
  @Field() keyId: string;
  @Field() publicKey: string;
}

@ObjectType({ simpleResolvers: true })
export class CreatedLicence {
  @Field({ description: 'The full key (also kept sealed: licenceKey shows it again).' }) key: string;
  @Field(() => Licence) licence: Licence;
}

@ObjectType({ simpleResolvers: true })
export class ArtifactUpload {
  @Field(() => Artifact) artifact: Artifact;
  @Field({ description: 'PUT the archive here (Content-Type as given), then call completeArtifactUpload.' }) uploadUrl: string;
  @Field() contentType: string;
  @Field() expiresAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class RegistryUpkeep {
  @Field(() => Int) dead: number;
  @Field(() => Int) expired: number;
  @Field(() => Int) purgedTokens: number;
}

/** What the gateway learns when it verifies a licence key. Internal. */
@Directive('@inaccessible')
@ObjectType({ simpleResolvers: true })
export class LicenceAuthentication {
  @Field(() => ID) licenceId: string;
  @Field(() => ID) organisationId: string;
  @Field(() => ID) productId: string;
  @Field() product: string;
  @Field(() => ID) planId: string;
  @Field() plan: string;
  @Field(() => Int) maxNodes: number;
  @Field(() => Int) heartbeatIntervalSeconds: number;
  @Field(() => Int) heartbeatDriftSeconds: number;
  @Field() maintenanceUntil: string;
  @Field(() => [String]) entitlements: string[];
  @Field(() => Int) limit: number;
  @Field(() => Int) remaining: number;
  @Field() resetAt: Date;
}

/** What the gateway learns when it verifies a download token. Internal. */
@Directive('@inaccessible')
@ObjectType({ simpleResolvers: true })
export class DownloadTokenAuthentication {
  @Field(() => ID) tokenId: string;
  @Field(() => ID) artifactId: string;
  @Field(() => ID) licenceId: string;
  @Field(() => Int) limit: number;
  @Field(() => Int) remaining: number;
  @Field() resetAt: Date;
}

// ---- inputs ----

@InputType()
export class CreateRegistryOrganisationInput {
  @Field() name: string;
  @Field(() => String, { nullable: true, description: 'Default: from the name.' }) slug?: string | null;
}

@InputType()
export class AddWorkspaceUserInput {
  @Field({ description: 'Organisation id or slug' }) organisation: string;
  @Field() email: string;
  @Field() name: string;
  @Field(() => WorkspaceRoleEnum, { defaultValue: WorkspaceRoleEnum.member }) role: WorkspaceRoleEnum;
}

@InputType()
export class CreateLicensingProductInput {
  @Field() code: string;
  @Field() name: string;
  @Field(() => GraphQLJSONObject, { description: 'Deployment template of its releases (services, environment, volumes).' }) manifestTemplate: Record<string, unknown>;
}

@InputType()
export class CreateLicencePlanInput {
  @Field({ description: 'Product id or code' }) product: string;
  @Field() code: string;
  @Field() name: string;
  @Field(() => Int) maxNodes: number;
  @Field(() => Int, { nullable: true }) heartbeatIntervalSeconds?: number | null;
  @Field(() => Int, { nullable: true }) heartbeatDriftSeconds?: number | null;
  @Field(() => [String], { nullable: true }) entitlements?: string[] | null;
}

@InputType()
export class CreateLicenceInput {
  @Field({ description: 'Organisation id or slug' }) organisation: string;
  @Field({ description: 'Plan id or <product>/<plan>' }) plan: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD; default a year from today' }) maintenanceUntil?: string | null;
  @Field(() => Date, { nullable: true }) expiresAt?: Date | null;
  @Field(() => String, { nullable: true }) name?: string | null;
}

@InputType()
export class CreateReleaseInput {
  @Field({ description: 'Product id or code' }) product: string;
  @Field({ description: 'SemVer, e.g. 1.2.0 or 1.2.0-rc.1' }) version: string;
  @Field(() => ReleaseChannelEnum) channel: ReleaseChannelEnum;
  @Field(() => String, { nullable: true }) changelog?: string | null;
  @Field(() => Date, { nullable: true }) backdatedTo?: Date | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: "Default: the product's template." }) manifestTemplate?: Record<string, unknown> | null;
}

@InputType()
export class CreateArtifactUploadInput {
  @Field({ description: 'Release id or <product>@<version> (a draft)' }) release: string;
  @Field() component: string;
  @Field(() => String, { nullable: true }) filename?: string | null;
  @Field(() => String, { nullable: true }) mediaType?: string | null;
}

@InputType()
export class RegisterDeploymentInput {
  @Field() hostname: string;
  @Field() ipAddress: string;
  @Field() currentVersion: string;
  @Field(() => String, {
    nullable: true,
    description: 'The machine (its seat): SHA-256 hex of its machine id and the product; without it the host name stands for the machine',
  })
  machineFingerprint?: string | null;
}

@InputType()
export class HeartbeatMetricsInput {
  @Field({ description: 'e.g. healthy' }) status: string;
  @Field(() => Int) uptimeSeconds: number;
}

@InputType()
export class DeploymentHeartbeatInput {
  @Field() deploymentKey: string;
  @Field(() => HeartbeatMetricsInput) metrics: HeartbeatMetricsInput;
}
