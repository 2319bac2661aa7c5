import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { badInput, conflict } from '../../../../lib/errors';
import type { ObjectStore } from '../../../../lib/object-store';
import type { PrincipalOf } from '../../../../lib/principal';
import type { ArtifactRow, ReleaseStore } from '../store/release-store';
import type { LicenceStore } from '../store/licence-store';
import type { TokenStore } from '../store/token-store';
import type { AuditLog } from './audit';
import type { CatalogueService } from './catalogue';
import { ImageArchiveError, inspectImageArchive } from './docker-archive';
import { artifactNotFound, artifactNotUploaded, tokenExpired, tokenMismatch, tokenUnknown, tokenUsed } from './errors';
import { generateDownloadToken, hashToken, isDownloadToken } from './keys';
import { assertUsable, type LicencePrincipal, type LicenceService, type RateWindow } from './licences';
import type { ReleaseService } from './releases';

export type TokenPrincipal = PrincipalOf<'download-token'>;

/** `.docker.tar.gz`: what `docker save <image> | gzip` writes and `docker load -i` reads. */
export const ARTIFACT_MEDIA_TYPE = 'application/gzip';
const COMPONENT_RE = /^[a-z][a-z0-9-]{0,31}$/;
const FILENAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export interface ArtifactInput {
  /** Release id or `<product>@<version>`. */
  release: string;
  component: string;
  filename?: string | null;
  mediaType?: string | null;
  /** `repository:tag` the archive loads as; default: read from its manifest.json. */
  image?: string | null;
}

export interface Download {
  /** The presigned link (the 302 target); null for a probe (HEAD). */
  url: string | null;
  expiresAt: Date | null;
  artifact: ArtifactRow;
}

const isImageArchive = (filename: string) => /\.docker\.tar(\.gz)?$/.test(filename);

/**
 * Release artifacts: uploaded by the vendor (streamed into the object store, SHA-256 computed, image
 * archives checked as `docker load` would), downloaded by licences through single-use tokens or
 * directly, always by a short-lived presigned link.
 */
export class ArtifactService {
  constructor(
    private readonly store: ReleaseStore,
    private readonly releases: ReleaseService,
    private readonly catalogue: CatalogueService,
    private readonly licenceStore: LicenceStore,
    private readonly licences: LicenceService,
    private readonly tokens: TokenStore,
    private readonly objects: ObjectStore,
    private readonly audit: AuditLog,
    private readonly settings: { tokenTtlSeconds: number; linkTtlSeconds: number },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Uploads an artifact of a draft release from a stream (CLI, seeding); replaces that component's earlier one. */
  async upload(input: ArtifactInput, body: Readable | Buffer, opts: { size?: number }, actor: string): Promise<ArtifactRow> {
    const artifact = await this.newArtifact(input);
    try {
      await this.objects.put(artifact.objectKey, body, { contentType: artifact.mediaType, size: opts.size });
      return await this.finish(artifact, input.image ?? null, actor);
    } catch (err) {
      await this.discard(artifact);
      throw err;
    }
  }

  /** An upload link for a client to PUT the bytes to (GraphQL administration); `completeUpload` then checks and records them. */
  async createUpload(input: ArtifactInput, baseUrl: string): Promise<{ artifact: ArtifactRow; url: string; expiresAt: Date; contentType: string }> {
    const artifact = await this.newArtifact(input);
    const { url, expiresAt } = await this.objects.presign(artifact.objectKey, {
      method: 'PUT',
      expiresInSeconds: 3600,
      contentType: artifact.mediaType,
      baseUrl,
    });
    return { artifact, url, expiresAt, contentType: artifact.mediaType };
  }

  async completeUpload(artifactId: string, image: string | null, actor: string): Promise<ArtifactRow> {
    const artifact = await this.store.artifact(artifactId);
    if (!artifact) throw artifactNotFound();
    if (artifact.status === 'uploaded') return artifact;
    if (!(await this.objects.head(artifact.objectKey))) throw conflict("Nothing has been uploaded to this artifact's link yet.");
    return this.finish(artifact, image, actor);
  }

  /** Size and SHA-256 of the stored bytes (read back when the store does not know them), image archive checked. */
  private async finish(artifact: ArtifactRow, image: string | null, actor: string): Promise<ArtifactRow> {
    const object = (await this.objects.head(artifact.objectKey))!;
    let sha256 = object.sha256;
    if (!sha256) {
      const hash = createHash('sha256');
      for await (const chunk of await this.objects.get(artifact.objectKey)) hash.update(chunk as Buffer);
      sha256 = hash.digest('hex');
    }
    let imageRef = image;
    let imageId: string | null = null;
    if (isImageArchive(artifact.filename)) {
      const magic = object.size >= 2 ? await readAll(await this.objects.get(artifact.objectKey, { start: 0, end: 1 })) : Buffer.alloc(0);
      try {
        const info = await inspectImageArchive(await this.objects.get(artifact.objectKey), { gzipped: magic[0] === 0x1f && magic[1] === 0x8b });
        imageRef ??= info.repoTags[0] ?? null;
        imageId = info.imageId;
      } catch (err) {
        if (err instanceof ImageArchiveError) throw badInput(`${artifact.filename} is not a valid image archive: ${err.message}`, { file: [err.message] });
        throw err;
      }
    }
    const row = await this.store.markUploaded(artifact.id, { size: object.size, sha256, image: imageRef, imageId }, this.clock());
    await this.audit.record(undefined, {
      action: 'artifact.uploaded',
      actor,
      subjectType: 'artifact',
      subjectId: row.id,
      details: { release: row.releaseId, component: row.component, filename: row.filename, size: row.size, sha256: row.sha256, imageId },
    });
    return row;
  }

  private async newArtifact(input: ArtifactInput): Promise<ArtifactRow> {
    const release = await this.releases.find(input.release);
    if (release.status !== 'draft') throw conflict(`Release ${release.version} is ${release.status}: artifacts change only while it is a draft.`);
    const component = input.component?.trim() ?? '';
    if (!COMPONENT_RE.test(component))
      throw badInput('component must be lower-case letters, digits and dashes (e.g. backend).', { component: ['[a-z][a-z0-9-]*'] });
    const [product] = await this.catalogue.productsByIds([release.productId]);
    const filename = input.filename?.trim() || `${product.code}-${component}-${release.version}.docker.tar.gz`;
    if (!FILENAME_RE.test(filename)) throw badInput('filename must be letters, digits, ".", "_" or "-".', { filename: ['[A-Za-z0-9._-]'] });
    const mediaType = input.mediaType?.trim() || ARTIFACT_MEDIA_TYPE;
    if (!/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) throw badInput('mediaType must be a media type such as application/gzip.');
    const previous = (await this.store.artifactsOf([release.id])).find((a) => a.component === component);
    if (previous) await this.discard(previous);
    const id = randomUUID();
    return this.store.insertArtifact({ id, releaseId: release.id, component, filename, objectKey: `artifacts/${id}/${filename}`, mediaType });
  }

  private async discard(artifact: ArtifactRow): Promise<void> {
    await this.store.deleteArtifact(artifact.id);
    await this.objects.delete(artifact.objectKey).catch(() => undefined);
  }

  /** An artifact the licence may download now (its release visible and covered by maintenance, its bytes uploaded). */
  private async downloadable(licence: Pick<LicencePrincipal, 'productId' | 'maintenanceUntil'>, artifactId: string): Promise<ArtifactRow> {
    const artifact = await this.store.artifact(artifactId);
    if (!artifact) throw artifactNotFound();
    // another product's artifact does not exist for this licence
    await this.releases.releaseForLicence(licence, artifact.releaseId).catch((err: unknown) => {
      if ((err as { code?: string }).code === 'RELEASE_NOT_FOUND') throw artifactNotFound();
      throw err;
    });
    if (artifact.status !== 'uploaded') throw artifactNotUploaded();
    return artifact;
  }

  /** A single-use download token for one artifact, valid DOWNLOAD_TOKEN_TTL_SECONDS. */
  async authorize(licence: LicencePrincipal, artifactId: string): Promise<{ token: string; expiresAt: Date }> {
    const artifact = await this.downloadable(licence, artifactId);
    const token = generateDownloadToken();
    const expiresAt = new Date(this.clock().getTime() + this.settings.tokenTtlSeconds * 1000);
    const { id } = await this.tokens.insert({ tokenHash: hashToken(token), artifactId: artifact.id, licenceId: licence.licenceId, expiresAt });
    await this.audit.record(undefined, {
      action: 'artifact.download_authorized',
      actor: `licence:${licence.licenceId}`,
      organisationId: licence.organisationId,
      licenceId: licence.licenceId,
      subjectType: 'artifact',
      subjectId: artifact.id,
      details: { tokenId: id, expiresAt: expiresAt.toISOString(), filename: artifact.filename },
    });
    return { token, expiresAt };
  }

  /** Verifies a presented download token (gateway): known, unused, unexpired, its licence usable. */
  async authenticateToken(presented: string, opts: { meter: boolean }): Promise<{ principal: TokenPrincipal; quota: RateWindow }> {
    if (!isDownloadToken(presented)) throw tokenUnknown();
    const token = await this.tokens.findForAuth(hashToken(presented));
    if (!token) throw tokenUnknown();
    const now = this.clock();
    if (token.usedAt) throw tokenUsed();
    if (token.expiresAt.getTime() <= now.getTime()) throw tokenExpired();
    assertUsable(token.licenceStatus, token.licenceExpiresAt, now);
    const quota = await this.licences.meter(token.licenceId, now, opts.meter);
    return { principal: { kind: 'download-token', tokenId: token.id, artifactId: token.artifactId, licenceId: token.licenceId }, quota };
  }

  /**
   * A download: with the licence key directly, or with a token (consumed here, atomically: of any
   * number of concurrent uses exactly one gets the link). `probe` (HEAD) checks everything and
   * answers the artifact without a link, consuming nothing.
   */
  async download(principal: LicencePrincipal | TokenPrincipal, artifactId: string, opts: { probe: boolean; baseUrl: string }): Promise<Download> {
    let licence: Pick<LicencePrincipal, 'licenceId' | 'organisationId' | 'productId' | 'maintenanceUntil'>;
    if (principal.kind === 'download-token') {
      if (principal.artifactId !== artifactId) throw tokenMismatch();
      const row = (await this.licenceStore.byId(principal.licenceId))!;
      licence = { licenceId: row.id, organisationId: row.organisationId, productId: row.productId, maintenanceUntil: row.maintenanceUntil };
    } else licence = principal;
    const artifact = await this.downloadable(licence, artifactId);
    if (opts.probe) return { url: null, expiresAt: null, artifact };
    if (principal.kind === 'download-token' && !(await this.tokens.consume(principal.tokenId, artifactId, this.clock()))) {
      const state = await this.tokens.state(principal.tokenId);
      if (state?.usedAt) throw tokenUsed();
      throw tokenExpired();
    }
    const { url, expiresAt } = await this.objects.presign(artifact.objectKey, {
      expiresInSeconds: this.settings.linkTtlSeconds,
      filename: artifact.filename,
      contentType: artifact.mediaType,
      baseUrl: opts.baseUrl,
    });
    await this.audit.record(undefined, {
      action: 'artifact.downloaded',
      actor: principal.kind === 'download-token' ? `download-token:${principal.tokenId}` : `licence:${licence.licenceId}`,
      organisationId: licence.organisationId,
      licenceId: licence.licenceId,
      subjectType: 'artifact',
      subjectId: artifact.id,
      details: { via: principal.kind, filename: artifact.filename, size: artifact.size, linkExpiresAt: expiresAt.toISOString() },
    });
    return { url, expiresAt, artifact };
  }

  artifact(id: string): Promise<ArtifactRow | undefined> {
    return this.store.artifact(id);
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
