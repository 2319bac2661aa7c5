import { Readable } from 'node:stream';
import { FilesystemObjectStore, objectStoreFor } from '../../lib/object-store';
import { DomainError } from '../../lib/errors';
import { downloadTokenCredential, licenceKeyCredential } from '../../subgraphs/registry/licensing/credential';
import type { Reply, Route, RouteInput } from '../core/route';
import * as schemas from './schemas';
import { workspaceRoutes, type WorkspaceSecurity } from './workspace/routes';
import type { z } from 'zod';
import { route } from './operation';
import type { ReleaseChannel } from './operations/types.generated';

export const API_VERSION = '1.0.0';
export const DOCS_PATH = '/api/docs/';
export const OPENAPI_PATH = '/api/openapi.json';

/** How a route is authorised, as the OpenAPI document names it. */
export type RegistrySecurity = 'licenceKey' | 'downloadTokenOrLicenceKey' | 'none' | WorkspaceSecurity;

const ok = (data: unknown, status = 200) => ({ kind: 'json' as const, status, body: { success: true, data } });
const notUploaded: Reply = {
  kind: 'json',
  status: 409,
  body: { success: false, error: { code: 'ARTIFACT_NOT_UPLOADED', message: 'This artifact has not been uploaded yet.' } },
};

/**
 * The base URL of links in answers: PUBLIC_URL_REGISTRY, else the address the client used (so that
 * links work through whatever host and port the client reached).
 */
const baseUrl = ({ req, config }: Pick<RouteInput, 'req' | 'config'>) => (config.PUBLIC_URL_REGISTRY ? null : `${req.protocol}://${req.get('host')}`);

/** Routes that need the licence key (header x-license-key, or ?licenseKey=). */
const LICENCE = [licenceKeyCredential] as const;

/** The licence registry's route table: the contract's paths (docs/contracts/licence-registry.md §4) and the finance node's three. */
export const registryRoutes: Route<RegistrySecurity>[] = [
  {
    method: 'GET',
    path: '/api/v1/',
    summary: 'Service information and the list of endpoints',
    tags: ['Service'],
    security: 'none',
    credentials: [],
    operationId: 'ServiceIndex',
    reply: async () =>
      ok({
        service: 'Licence Registry',
        version: API_VERSION,
        documentation: DOCS_PATH,
        openapi: OPENAPI_PATH,
        endpoints: registryRoutes
          .filter((r) => r.documented !== false)
          .map((r) => ({ method: r.method, path: r.path, description: r.summary, auth: r.security })),
      }),
    response: { description: 'Service information' },
  },
  route({
    method: 'GET',
    path: '/api/v1/releases',
    summary: 'The releases this licence may see',
    description:
      "Published releases of the licence's product, newest first by SemVer precedence; drafts and yanked releases are not listed. " +
      'Without `channel`, every channel; with it, the releases that channel sees. Each item carries its artifacts (size, SHA-256, image) ' +
      "and whether the licence's maintenance covers it.",
    tags: ['Releases'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'Releases',
    query: schemas.releasesQuery,
    variables: (input: RouteInput<Record<string, string>, { channel?: ReleaseChannel }>) => ({ channel: input.query.channel ?? null, baseUrl: baseUrl(input) }),
    respond: (data) => ok(data.releases),
    response: { description: 'Releases, newest first', schema: schemas.envelope(schemas.releaseItem.array()) },
  }),
  route({
    method: 'GET',
    path: '/api/v1/releases/check-update',
    summary: 'Is there a newer release on the channel?',
    description:
      'Compares `current_version` with the published releases of `product` in `channel` and the more stable channels it sees ' +
      '(rc sees stable; beta sees rc and stable; alpha sees beta and above; dev sees only dev), by SemVer 2.0 precedence ' +
      '(1.2.0-rc.1 < 1.2.0). Without a newer release: 200 with `updateAvailable: false`. `maintenanceCovered`: the release was ' +
      "published (or is backdated to a date) no later than the licence's maintenance end; when it is not, `latestCovered` names the " +
      'newest newer release that is. Missing parameter or invalid version: 400; unknown product: 404; another product than the licence’s: 403.',
    tags: ['Releases'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'CheckUpdate',
    query: schemas.checkUpdateQuery,
    variables: (input: RouteInput<Record<string, string>, { product: string; channel: string; current_version: string }>) => ({
      product: input.query.product,
      channel: input.query.channel,
      currentVersion: input.query.current_version,
      baseUrl: baseUrl(input),
    }),
    respond: (data) => ok(data.update),
    response: { description: 'The update check', schema: schemas.envelope(schemas.checkUpdate) },
    errors: [403, 404],
  }),
  route({
    method: 'GET',
    path: '/api/v1/releases/:releaseId/manifest',
    summary: 'The release’s deployment, tailored to this licence',
    description:
      'format=compose: a Docker Compose file (application/yaml, as an attachment) with the release’s images (tag, image id and archive ' +
      'SHA-256 as labels), the finance node’s environment with this licence’s values filled in (VENDOR_LICENSE_ENGINE_URL, VENDOR_API_KEY, ' +
      'VENDOR_LICENSE_TOKEN: a signed licence token, VENDOR_PUBLIC_KEY) and the secrets the customer chooses left as required variables ' +
      '(`${NAME:?…}`). `x-artifacts` lists the archives to download and verify. format=kubernetes: the finance node’s Kubernetes ' +
      'objects (one multi-document YAML: Namespace, the licence’s values in a Secret, the customer’s credentials referenced from a Secret ' +
      'they create, Deployments with probes, resources and the release’s images pinned by image id, Services, Ingress, HPA, PDB, ConfigMap). ' +
      'Other formats: 400 naming the supported ones. ' +
      'A release published after the maintenance end: 403 FORBIDDEN; yanked: 410.',
    tags: ['Releases'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'ReleaseManifest',
    params: schemas.releaseParams,
    query: schemas.manifestQuery,
    variables: (input: RouteInput<{ releaseId: string }, { format: string }>) => ({
      releaseId: input.params.releaseId,
      format: input.query.format,
      baseUrl: baseUrl(input),
    }),
    respond: (data) => ({
      kind: 'file',
      body: data.manifest.content,
      contentType: data.manifest.contentType,
      filename: data.manifest.filename,
    }),
    response: {
      description: 'The manifest file',
      contentType: 'application/yaml',
      headers: { 'Content-Disposition': 'attachment; filename="<product>-<version>.<format>.yaml"' },
    },
    errors: [403, 404, 410],
  }),
  route({
    method: 'POST',
    path: '/api/v1/artifacts/:artifactId/authorize',
    summary: 'A single-use download token for one artifact',
    description:
      'No body. The token is good for one download of this artifact (GET …/download?token=), within DOWNLOAD_TOKEN_TTL_SECONDS ' +
      '(60 s by default). Same rules as a download: 403 FORBIDDEN after the maintenance end, 404 unknown, 410 yanked.',
    tags: ['Artifacts'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'AuthorizeArtifactDownload',
    params: schemas.artifactParams,
    variables: ({ params }: RouteInput<{ artifactId: string }>) => ({ artifactId: params.artifactId }),
    respond: (data) => ok(data.authorization),
    response: { description: 'The download token', schema: schemas.envelope(schemas.authorization) },
    errors: [403, 404, 409, 410],
  }),
  route({
    method: 'GET',
    path: '/api/v1/artifacts/:artifactId/download',
    summary: 'Download an artifact: 302 to a presigned link',
    description:
      'With `?token=` (from authorize) or the licence key. When both are sent, the token is used (and consumed). A token is consumed ' +
      'atomically: of concurrent uses exactly one gets the 302; a used token answers 410 DOWNLOAD_TOKEN_USED, an expired one 410 ' +
      'DOWNLOAD_TOKEN_EXPIRED, an unknown one 401 DOWNLOAD_TOKEN_INVALID, another artifact’s 403 DOWNLOAD_TOKEN_MISMATCH. The Location ' +
      'is a presigned object-storage link valid PRESIGNED_URL_TTL_SECONDS (300 s), usable with Range; it carries no credential. ' +
      'HEAD checks the same and answers the archive’s Content-Length, Content-Type, ETag and filename, without a link and without ' +
      'consuming a token.',
    tags: ['Artifacts'],
    security: 'downloadTokenOrLicenceKey',
    credentials: [downloadTokenCredential, licenceKeyCredential],
    operation: 'DownloadArtifact',
    params: schemas.artifactParams,
    query: schemas.downloadQuery,
    variables: (input: RouteInput<{ artifactId: string }>) => ({
      artifactId: input.params.artifactId,
      probe: input.req.method === 'HEAD',
      baseUrl: baseUrl(input),
    }),
    respond: (data) => {
      const { url, artifact } = data.download;
      if (url) return { kind: 'redirect', status: 302, location: url };
      // the schema lets a waiting artifact's size and digest be null (the domain refuses to serve one: 409 first)
      if (artifact.size === null) return notUploaded;
      // HEAD: the archive's headers, no body, no link
      return {
        kind: 'stream',
        body: {
          size: artifact.size,
          contentType: artifact.mediaType,
          filename: artifact.filename,
          etag: artifact.sha256 ?? undefined,
          open: () => Readable.from([]),
        },
      };
    },
    response: { status: 302, description: 'Redirect to the presigned link', headers: { Location: 'Presigned object-storage URL' } },
    errors: [403, 404, 409, 410],
  }),
  route({
    method: 'POST',
    path: '/api/v1/deployments/register',
    summary: 'Register a deployment node',
    description:
      "Takes one of the plan's seats: 201 with the node's `deploymentKey`. The same machine (`machineFingerprint`, else the host name) again gets its existing seat (200, same " +
      'shape; a dead one is revived when a seat is free). All seats in use by alive nodes: 422 NODE_LIMIT_EXCEEDED. A node is alive while ' +
      'it heartbeats: it is dead (its seat free) after two missed intervals plus the plan’s drift. Invalid body: 400 naming the field.',
    tags: ['Deployments'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'RegisterDeployment',
    body: schemas.registerBody,
    variables: ({ body }: RouteInput<object, object, { hostname: string; ipAddress: string; currentVersion: string; machineFingerprint?: string }>) => ({
      input: body,
    }),
    respond: (data) => ok(data.registration.deployment, data.registration.created ? 201 : 200),
    response: {
      status: 201,
      description: 'Registered (200 with the same shape when the host had its seat already)',
      schema: schemas.envelope(schemas.deploymentSeat),
    },
    errors: [422],
  }),
  route({
    method: 'POST',
    path: '/api/v1/deployments/:deploymentId/release',
    summary: "Free one of the licence's seats",
    description:
      'No body. Removes the deployment (a machine taken out of service): its seat is free at once and its deploymentKey stops ' +
      'working; registering that machine again takes a seat anew. Audited (deployment.released). Another licence’s or an unknown id: 404.',
    tags: ['Deployments'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'ReleaseDeployment',
    params: schemas.deploymentParams,
    variables: ({ params }: RouteInput<{ deploymentId: string }>) => ({ id: params.deploymentId }),
    respond: (data) => ok({ ...data.released, status: 'released' }),
    response: { description: 'The seat is free', schema: schemas.envelope(schemas.releasedSeat) },
    errors: [404],
  }),
  route({
    method: 'POST',
    path: '/api/v1/deployments/heartbeat',
    summary: 'Heartbeat of a registered node',
    description:
      'Keeps the node alive (or revives a dead one when a seat is free; else 422 NODE_LIMIT_EXCEEDED) and records its metrics. ' +
      'Send the next one by `nextHeartbeatAt` (every `heartbeatIntervalSeconds`, six hours by default). Unknown deploymentKey: 404.',
    tags: ['Deployments'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'DeploymentHeartbeat',
    body: schemas.heartbeatBody,
    variables: ({ body }: RouteInput<object, object, z.infer<typeof schemas.heartbeatBody>>) => ({ input: body }),
    respond: (data) => ok(data.heartbeat),
    response: { description: 'Heartbeat recorded', schema: schemas.envelope(schemas.heartbeatAck) },
    errors: [404, 422],
  }),
  route({
    method: 'GET',
    path: '/api/v1/license',
    summary: 'The calling licence',
    tags: ['Licence'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'CurrentLicence',
    respond: (data) => ok(data.licence),
    response: { description: 'The licence (key masked)', schema: schemas.envelope(schemas.licence) },
  }),
  route({
    method: 'POST',
    path: '/api/v1/license/checkout',
    summary: 'A signed licence token for offline verification',
    description:
      'No body. Only an Active licence gets one: a JWT signed with EdDSA (Ed25519) naming the licence, organisation, product (as `aud`), ' +
      'plan, node cap, maintenance end and entitlements, valid LICENCE_TOKEN_TTL_DAYS (never beyond the licence). Verify it against ' +
      '`publicKey` (base64 SPKI DER).',
    tags: ['Licence'],
    security: 'licenceKey',
    credentials: LICENCE,
    operation: 'CheckoutLicence',
    respond: (data) => ok(data.checkout),
    response: { description: 'The licence token and the verification key', schema: schemas.envelope(schemas.checkout) },
  }),
  route({
    method: 'GET',
    path: '/api/v1/license/public-key',
    summary: "The registry's licence verification key",
    tags: ['Licence'],
    security: 'none',
    credentials: [],
    operation: 'LicensingPublicKey',
    respond: (data) => ok(data.publicKey),
    response: { description: 'The Ed25519 public key', schema: schemas.envelope(schemas.publicKey) },
  }),
  {
    method: 'GET',
    path: '/api/v1/objects/:key',
    summary: 'A presigned object link (filesystem object store)',
    description:
      'The target of download redirects when objects are stored on the filesystem (OBJECT_STORE=filesystem): HMAC-signed and expiring, ' +
      'no credential. Streams the file with Content-Length, ETag (its SHA-256), Repr-Digest and the filename; answers HEAD and Range ' +
      '(206, 416). A changed or expired link: 403 SIGNATURE_INVALID / LINK_EXPIRED.',
    tags: ['Artifacts'],
    // no credential: the link's own signature and expiry authorise it
    security: 'none',
    credentials: [],
    operationId: 'GetObject',
    params: schemas.objectParams,
    query: schemas.objectQuery,
    reply: async ({ params, req, config }: RouteInput<{ key: string }>): Promise<Reply> => {
      const store = objectStoreFor(config);
      if (!(store instanceof FilesystemObjectStore)) throw new DomainError('NOT_FOUND', 404, 'Not found.');
      const object = await store.serve(params.key, req.query as Record<string, unknown>);
      return {
        kind: 'stream',
        body: {
          size: object.size,
          contentType: object.contentType,
          filename: object.filename,
          etag: object.sha256,
          lastModified: object.lastModified,
          headers: object.sha256 ? { 'repr-digest': `sha-256=:${Buffer.from(object.sha256, 'hex').toString('base64')}:` } : undefined,
          open: (range) => object.open(range),
          file: object.file,
        },
      };
    },
    // the object's own type (an artifact is application/gzip)
    response: { description: 'The object’s bytes (206 for a range)', contentType: '*/*' },
    errors: [403, 404, 416],
  },
  {
    method: 'PUT',
    path: '/api/v1/objects/:key',
    summary: 'Upload to a presigned object link (filesystem object store)',
    description: 'The target of `createArtifactUpload` links (GraphQL administration): the body is the object, streamed to disk.',
    tags: ['Artifacts'],
    // no credential: the link's own signature and expiry authorise it
    security: 'none',
    credentials: [],
    operationId: 'PutObject',
    consumes: 'binary',
    params: schemas.objectParams,
    query: schemas.objectQuery,
    reply: async ({ params, req, config }: RouteInput<{ key: string }>) => {
      const store = objectStoreFor(config);
      if (!(store instanceof FilesystemObjectStore)) throw new DomainError('NOT_FOUND', 404, 'Not found.');
      const object = await store.receive(params.key, req.query as Record<string, unknown>, req, req.headers['content-type']);
      return ok({ key: object.key, size: object.size, sha256: object.sha256 });
    },
    response: { description: 'Stored' },
    errors: [403],
  },
  // the customer workspace (its pages say they are not part of the API document)
  ...workspaceRoutes,
];
