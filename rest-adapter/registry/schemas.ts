import { z } from 'zod';
import { CHANNELS, isVersion } from '../../subgraphs/registry/licensing/contract';

/** Request and response shapes of the registry surface (validation and the OpenAPI document). */
const uuid = z.uuid({ error: 'not found' });
const isoTime = z.string().describe('ISO 8601 time (UTC)');

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const errorBody = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string().describe('Machine-readable code, e.g. UNAUTHORIZED, FORBIDDEN, LICENSE_SUSPENDED (see the list above)'),
    message: z.string(),
    details: z.unknown().optional().describe('Per-field messages (400) or the reason of a 403/422'),
  }),
});

export const releaseParams = z.object({ releaseId: uuid.describe('Release id (from the releases list or check-update)') });
export const artifactParams = z.object({ artifactId: uuid.describe('Artifact id (from the releases list or the manifest)') });
export const deploymentParams = z.object({ deploymentId: uuid.describe('Deployment id (from registration, or the workspace)') });
export const releasedSeat = z.object({ id: z.string(), hostname: z.string(), currentVersion: z.string(), status: z.literal('released') });
export const objectParams = z.object({ key: z.string().min(1).describe('Object key (URL-encoded)') });

export const channel = z.enum(CHANNELS);

export const releasesQuery = z.object({
  channel: channel.optional().describe('Only the releases this channel sees (stable; rc: rc and stable; beta; alpha; dev). Default: every channel.'),
});

export const checkUpdateQuery = z.object({
  product: z.string({ error: 'product is required (e.g. finance-node)' }).min(1).describe('Product code, e.g. finance-node'),
  channel: channel.describe('Channel the installation follows'),
  current_version: z
    .string({ error: 'current_version is required (SemVer, e.g. 1.1.0)' })
    .refine(isVersion, { message: 'current_version must be a SemVer version, e.g. 1.1.0 or 1.2.0-rc.1' })
    .describe('The installed version (SemVer)'),
});

export const manifestQuery = z.object({
  format: z
    .string()
    .default('compose')
    .describe('Manifest format: compose (Docker Compose) or kubernetes (the Kubernetes objects). Others answer 400 naming the supported ones.'),
});

export const downloadQuery = z.object({
  token: z.string().optional().describe('Single-use download token from authorize (instead of the licence key)'),
});

/** Checked by the object store itself (403 SIGNATURE_INVALID / LINK_EXPIRED), so optional here. */
export const objectQuery = z.object({
  expires: z.string().optional().describe('Unix time (seconds) after which the link is refused'),
  filename: z.string().optional().describe('Content-Disposition filename (signed)'),
  type: z.string().optional().describe('Content-Type (signed)'),
  signature: z.string().optional().describe('HMAC-SHA256 of method, key, expires, filename and type (base64url)'),
});

export const registerBody = z.object({
  hostname: z.string({ error: 'hostname is required: the host name of the node' }).describe('Host name of the node (shown in the workspace)'),
  ipAddress: z.string({ error: 'ipAddress is required: an IPv4 or IPv6 address' }).describe('IPv4 or IPv6 address'),
  currentVersion: z.string({ error: 'currentVersion is required: the installed version (SemVer)' }).describe('Installed version (SemVer)'),
  machineFingerprint: z
    .string()
    .optional()
    .describe(
      'The machine: SHA-256 hex of its machine id and the product (the installer computes it); one seat per machine. Without it, one seat per host name',
    ),
});

export const heartbeatBody = z.object({
  deploymentKey: z.string({ error: 'deploymentKey is required: the key registration answered' }).describe('From registration'),
  metrics: z.object(
    {
      status: z.string({ error: 'metrics.status is required, e.g. healthy' }).describe('e.g. healthy, degraded'),
      uptimeSeconds: z.number({ error: 'metrics.uptimeSeconds is required: whole seconds' }).int().min(0),
    },
    { error: 'metrics is required: {status, uptimeSeconds}' },
  ),
});

const artifact = z.object({
  id: z.string(),
  component: z.string().describe('e.g. backend, frontend'),
  filename: z.string().describe('<product>-<component>-<version>.docker.tar.gz'),
  mediaType: z.string(),
  size: z.number().int().describe('Bytes'),
  sha256: z.string().describe('Hex SHA-256 of the archive'),
  image: z.string().nullable().describe('repository:tag the archive loads as (docker load)'),
  imageId: z.string().nullable().describe('sha256:<digest> of the image configuration: the image id after docker load'),
});

export const releaseItem = z.object({
  id: z.string().describe('releaseId'),
  version: z.string().describe('SemVer'),
  channel,
  changelog: z.string().describe('Multi-line text'),
  publishedAt: isoTime,
  backdatedTo: isoTime.nullable().describe('Maintenance coverage is judged by this date when set'),
  maintenanceCovered: z.boolean().describe("Published (or backdated) no later than this licence's maintenance end"),
  manifestUrl: z.string().describe('The manifest URL with format=compose'),
  artifacts: z.array(artifact),
});

export const checkUpdate = z.object({
  updateAvailable: z.boolean(),
  latestVersion: z.string().describe('The newest release newer than current_version; without one, the channel’s newest release (or current_version)'),
  channel: z.string().describe('The channel of that release'),
  changelog: z.string(),
  maintenanceCovered: z.boolean(),
  releaseId: z.string().nullable(),
  downloadUrl: z.string().nullable().describe('The manifest URL with format=compose'),
  latestCovered: z
    .object({ version: z.string(), releaseId: z.string(), downloadUrl: z.string() })
    .nullable()
    .describe('When the latest release is not covered by maintenance: the newest newer one that is (else null)'),
});

export const authorization = z.object({ token: z.string().describe('Single-use download token (dlt_…)'), expiresAt: isoTime });

export const deploymentSeat = z.object({
  id: z.string(),
  deploymentKey: z.string().describe('Send it with every heartbeat'),
  status: z.literal('alive'),
  heartbeatIntervalSeconds: z.number().int(),
  nextHeartbeatAt: isoTime,
  registeredAt: isoTime,
});

export const heartbeatAck = z.object({
  status: z.enum(['alive', 'dead']),
  heartbeatIntervalSeconds: z.number().int(),
  nextHeartbeatAt: isoTime.describe('Send the next heartbeat by then'),
});

export const licence = z.object({
  id: z.string(),
  key: z.string().describe('Masked, e.g. LIC-ABCD-****-****'),
  status: z.enum(['Active', 'Suspended', 'Revoked', 'Expired']),
  product: z.string(),
  plan: z.string(),
  maxNodes: z.number().int(),
  nodesInUse: z.number().int(),
  maintenanceUntil: z.string().describe('YYYY-MM-DD'),
  entitlements: z.array(z.string()),
  organisation: z.object({ id: z.string(), name: z.string() }),
});

export const publicKey = z.object({
  algorithm: z.literal('EdDSA'),
  keyId: z.string().describe('RFC 7638 thumbprint; the kid of licence tokens'),
  publicKey: z.string().describe('Base64 of the SPKI DER (one line)'),
});

export const checkout = publicKey.extend({ token: z.string().describe('Licence token: JWT signed with EdDSA (Ed25519)'), expiresAt: isoTime });
