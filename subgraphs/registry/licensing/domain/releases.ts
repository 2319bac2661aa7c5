import { inTransaction } from '../../../../lib/database';
import { NotifiedMemo } from '../../../../lib/notified-memo';
import { badInput, conflict, notFound } from '../../../../lib/errors';
import type { ArtifactRow, ReleaseRow, ReleaseStatus, ReleaseStore, VisibleRelease } from '../store/release-store';
import type { AuditLog } from './audit';
import type { CatalogueService } from './catalogue';
import { maintenanceExpired, productNotFound, productNotLicensed, releaseNotFound, releaseYanked } from './errors';
import type { LicencePrincipal, LicenceService } from './licences';
import { maskedKey } from './keys';
import { rendererFor } from './manifests';
import { signCompose } from './manifests/compose';
import { artifactList, type ManifestArtifact, type ManifestModel, type ManifestService, type RenderedManifest } from './manifests/model';
import { fillPlaceholders, parseManifestTemplate, templateComponents, type Placeholder } from './manifests/template';
import type { SigningService } from './signing';
import { byVersionDescending, compareVersions, isChannel, maintenanceCovers, parseVersion, visibleChannels, CHANNELS, type Channel } from '../versions';

export interface UpdateCheck {
  updateAvailable: boolean;
  latestVersion: string;
  channel: string;
  changelog: string;
  maintenanceCovered: boolean;
  releaseId: string | null;
  downloadUrl: string | null;
  /** When the latest release is not covered by maintenance: the newest newer release that is. */
  latestCovered: { version: string; releaseId: string; downloadUrl: string } | null;
}

export interface LicenceRelease extends VisibleRelease {
  maintenanceCovered: boolean;
  manifestUrl: string;
  artifacts: ArtifactRow[];
}

export interface NewRelease {
  product: string;
  version: string;
  channel: string;
  changelog?: string | null;
  backdatedTo?: Date | null;
  /** Default: the product's template. */
  manifestTemplate?: unknown;
}

/** The date maintenance coverage is judged by: the publication date, or the one the release is backdated to. */
export const releasedAt = (r: { publishedAt: Date | null; backdatedTo: Date | null }): Date => r.backdatedTo ?? r.publishedAt!;

export const manifestUrl = (baseUrl: string, releaseId: string, format = 'compose') =>
  `${baseUrl}/api/v1/releases/${releaseId}/manifest?format=${encodeURIComponent(format)}`;
export const downloadUrlOf = (baseUrl: string, artifactId: string) => `${baseUrl}/api/v1/artifacts/${artifactId}/download`;

function channelOf(value: string): Channel {
  if (!isChannel(value)) throw badInput(`channel must be one of ${CHANNELS.join(', ')}.`, { channel: [`one of ${CHANNELS.join(', ')}`] });
  return value;
}

function versionOf(value: string, field: string): string {
  const version = parseVersion(value ?? '');
  if (!version) throw badInput(`${field} must be a SemVer version such as 1.2.0 or 1.2.0-rc.1.`, { [field]: ['a SemVer version, e.g. 1.2.0 or 1.2.0-rc.1'] });
  return version;
}

/**
 * Releases: the vendor publishes and yanks them; a licence sees its product's published ones, checks for updates, gets manifests.
 * Each product's published releases are kept in memory (the hot path of update checks reads no table) while the
 * release table's change announcements arrive (`tablesChanged`, `listening`; lib/notified-memo.ts).
 */
export class ReleaseService {
  /** Per product id (the catalogue's few products): its published releases, every channel, newest first. */
  private readonly published = new Map<string, NotifiedMemo<VisibleRelease[]>>();
  private heard = false;

  constructor(
    private readonly store: ReleaseStore,
    private readonly catalogue: CatalogueService,
    private readonly licences: LicenceService,
    private readonly signing: SigningService,
    private readonly audit: AuditLog,
    private readonly clock: () => Date = () => new Date(),
    /** Components that replace the release's for an organisation (its custom frontend build). */
    private readonly overrides?: { overridesFor(organisationId: string, baseUrl: string, version: string): Promise<ManifestArtifact[]> },
  ) {}

  /** The release table changed (NOTIFY DATA_CHANGED, by any process or by hand): the releases kept in memory go. */
  tablesChanged(): void {
    for (const memo of this.published.values()) memo.invalidate();
  }

  /** Whether those announcements arrive: while they do not, every read asks the table. */
  listening(on: boolean): void {
    this.heard = on;
    for (const memo of this.published.values()) memo.listening(on);
  }

  /** The product's published releases in these channels, newest first by SemVer precedence. */
  private async publishedIn(productId: string, channels: readonly Channel[]): Promise<VisibleRelease[]> {
    let memo = this.published.get(productId);
    if (!memo) {
      memo = new NotifiedMemo(async () => (await this.store.visible(productId, CHANNELS)).sort(byVersionDescending), { now: () => this.clock().getTime() });
      memo.listening(this.heard);
      this.published.set(productId, memo);
    }
    return (await memo.get()).filter((r) => channels.includes(r.channel));
  }

  /**
   * check-update: the newest published release of the product, in the channel and the more stable
   * ones it sees, that is newer than `currentVersion` by SemVer precedence. None: `updateAvailable`
   * false (200), with the channel's latest release for reference.
   */
  async checkUpdate(licence: LicencePrincipal, input: { product: string; channel: string; currentVersion: string; baseUrl: string }): Promise<UpdateCheck> {
    const productId = await this.licensedProduct(licence, input.product);
    const channel = channelOf(input.channel);
    const current = versionOf(input.currentVersion, 'current_version');
    const releases = await this.publishedIn(productId, visibleChannels(channel));
    const covered = (r: VisibleRelease) => maintenanceCovers(licence.maintenanceUntil, releasedAt(r));
    const newer = releases.filter((r) => compareVersions(r.version, current) > 0);
    const latest = newer[0] ?? releases[0];
    if (!latest) {
      return {
        updateAvailable: false,
        latestVersion: current,
        channel,
        changelog: '',
        maintenanceCovered: true,
        releaseId: null,
        downloadUrl: null,
        latestCovered: null,
      };
    }
    const isCovered = covered(latest);
    const fallback = newer.length && !isCovered ? newer.find(covered) : undefined;
    return {
      updateAvailable: newer.length > 0,
      latestVersion: latest.version,
      channel: latest.channel,
      changelog: latest.changelog,
      maintenanceCovered: isCovered,
      releaseId: latest.id,
      downloadUrl: manifestUrl(input.baseUrl, latest.id),
      latestCovered: fallback ? { version: fallback.version, releaseId: fallback.id, downloadUrl: manifestUrl(input.baseUrl, fallback.id) } : null,
    };
  }

  /** The product's published releases a licence sees (all channels, or those `channel` sees), newest first, with their artifacts. */
  async forLicence(licence: LicencePrincipal, opts: { channel?: string | null; baseUrl: string }): Promise<LicenceRelease[]> {
    const channels = opts.channel ? visibleChannels(channelOf(opts.channel)) : CHANNELS;
    const releases = await this.publishedIn(licence.productId, channels);
    const artifacts = await this.store.artifactsOf(releases.map((r) => r.id));
    return releases.map((r) => ({
      ...r,
      maintenanceCovered: maintenanceCovers(licence.maintenanceUntil, releasedAt(r)),
      manifestUrl: manifestUrl(opts.baseUrl, r.id),
      artifacts: artifacts.filter((a) => a.releaseId === r.id && a.status === 'uploaded'),
    }));
  }

  /**
   * A published release of the licence's product that its maintenance covers: what manifests and
   * downloads need. Drafts and other products' releases do not exist for it (404); yanked ones are
   * gone (410); later ones than maintenance covers are 403 FORBIDDEN.
   */
  async releaseForLicence(licence: Pick<LicencePrincipal, 'productId' | 'maintenanceUntil'>, releaseId: string): Promise<ReleaseRow> {
    const release = await this.store.byId(releaseId);
    if (!release || release.productId !== licence.productId || release.status === 'draft') throw releaseNotFound();
    if (release.status === 'yanked') throw releaseYanked(release.version);
    if (!maintenanceCovers(licence.maintenanceUntil, releasedAt(release)))
      throw maintenanceExpired(release.version, releasedAt(release), licence.maintenanceUntil);
    return release;
  }

  /** The release's deployment for this licence, in `format` (400 naming the supported ones otherwise). */
  async manifest(licence: LicencePrincipal, input: { releaseId: string; format: string; baseUrl: string }): Promise<RenderedManifest> {
    const render = rendererFor(input.format);
    const release = await this.releaseForLicence(licence, input.releaseId);
    const [product, artifacts, licenceRow, checkout] = await Promise.all([
      this.catalogue.product(release.productId),
      this.store.artifactsOf([release.id]),
      this.licences.find(licence.licenceId),
      this.signing.checkout(licence.licenceId, `licence:${licence.licenceId}`, { audit: false }),
    ]);
    const [organisation] = await this.catalogue.organisationsByIds([licence.organisationId]);
    const template = parseManifestTemplate(release.manifestTemplate);
    const values: Record<Placeholder, string> = {
      'product.code': product.code,
      'product.name': product.name,
      'release.id': release.id,
      'release.version': release.version,
      'release.channel': release.channel,
      'licence.id': licence.licenceId,
      'licence.key': this.licences.revealKey(licenceRow),
      'licence.token': checkout.token,
      'licence.publicKey': checkout.publicKey,
      'licence.maintenanceUntil': licence.maintenanceUntil,
      'organisation.name': organisation.name,
      'registry.url': input.baseUrl,
    };
    const manifestArtifacts = new Map<string, ManifestArtifact>();
    for (const a of artifacts) {
      if (a.status !== 'uploaded') continue;
      manifestArtifacts.set(a.component, {
        id: a.id,
        component: a.component,
        filename: a.filename,
        size: a.size!,
        sha256: a.sha256!,
        mediaType: a.mediaType,
        image: a.image ?? `${product.code}/${a.component}:${release.version}`,
        imageId: a.imageId,
        downloadUrl: downloadUrlOf(input.baseUrl, a.id),
      });
    }
    for (const override of (await this.overrides?.overridesFor(licence.organisationId, input.baseUrl, release.version)) ?? []) {
      if (manifestArtifacts.has(override.component)) manifestArtifacts.set(override.component, override);
    }
    const services: ManifestService[] = Object.entries(template.services).map(([name, s]) => {
      const artifact = s.component ? manifestArtifacts.get(s.component) : undefined;
      if (s.component && !artifact) throw conflict(`Release ${release.version} has no ${s.component} artifact.`);
      return {
        name,
        image: artifact ? artifact.image : s.image!,
        artifact,
        command: s.command,
        ports: s.ports,
        dependsOn: s.dependsOn,
        volumes: s.volumes,
        restart: s.restart,
        environment: Object.entries(s.environment).map(([variable, value]) => ({
          name: variable,
          value:
            typeof value === 'string'
              ? { kind: 'literal' as const, value: fillPlaceholders(value, values) }
              : 'required' in value
                ? { kind: 'required' as const, message: value.required }
                : { kind: 'optional' as const, default: fillPlaceholders(value.default, values) },
        })),
      };
    });
    const model: ManifestModel = {
      product: { code: product.code, name: product.name },
      release: { id: release.id, version: release.version, channel: release.channel, publishedAt: releasedAt(release).toISOString() },
      licence: {
        id: licence.licenceId,
        maskedKey: maskedKey(licenceRow.keyPrefix),
        maintenanceUntil: licence.maintenanceUntil,
        organisation: organisation.name,
      },
      registryUrl: input.baseUrl,
      generatedAt: this.clock(),
      services,
      volumes: template.volumes,
      artifacts: [...manifestArtifacts.values()],
      artifactsSignature: await this.signing.signDetached(artifactList([...manifestArtifacts.values()])),
    };
    const rendered = render(model);
    // a compose manifest is signed whole: the installer refuses one whose services were changed
    if (input.format === 'compose') rendered.content = await signCompose(rendered.content, (text) => this.signing.signDetached(text));
    return rendered;
  }

  /**
   * The generic frontend image of the newest published release of each channel (one per version), the
   * bases a custom frontend build brands: newest version first.
   */
  async latestFrontends(productCode: string): Promise<{ version: string; objectKey: string }[]> {
    const product = await this.catalogue.product(productCode);
    const published = (await this.store.list({ productId: product.id, statuses: ['published'] })).sort(byVersionDescending);
    const artifacts = await this.store.artifactsOf(published.map((r) => r.id));
    const seen = new Map<string, { version: string; objectKey: string }>();
    for (const release of published) {
      const frontend = artifacts.find((a) => a.releaseId === release.id && a.component === 'frontend' && a.status === 'uploaded');
      if (frontend && !seen.has(release.channel)) seen.set(release.channel, { version: release.version, objectKey: frontend.objectKey });
    }
    const unique = new Map([...seen.values()].map((f) => [f.version, f]));
    return [...unique.values()].sort(byVersionDescending);
  }

  async create(input: NewRelease, actor: string): Promise<ReleaseRow> {
    const product = await this.catalogue.product(input.product);
    const version = versionOf(input.version, 'version');
    const channel = channelOf(input.channel);
    // a prerelease on stable, or a final version on a prerelease channel, is most likely a mistake
    const pre = version.includes('-');
    if (channel === 'stable' && pre) throw badInput(`A prerelease (${version}) cannot go on the stable channel.`, { channel: ['not stable for a prerelease'] });
    const template = parseManifestTemplate(input.manifestTemplate ?? product.manifestTemplate);
    if (await this.store.byVersion(product.id, version)) throw conflict(`${product.code} ${version} exists already.`);
    const row = await this.store
      .insert({
        productId: product.id,
        version,
        channel,
        changelog: input.changelog?.trim() ?? '',
        manifestTemplate: template,
        backdatedTo: input.backdatedTo ?? null,
      })
      .catch((err: unknown) => {
        if ((err as { code?: string }).code === '23505') throw conflict(`${product.code} ${version} exists already.`);
        throw err;
      });
    await this.audit.record(undefined, {
      action: 'release.created',
      actor,
      subjectType: 'release',
      subjectId: row.id,
      details: { product: product.code, version, channel },
    });
    return row;
  }

  /** Publishes a draft once every component its manifest needs has an uploaded artifact. */
  async publish(ref: string, actor: string): Promise<ReleaseRow> {
    const release = await this.find(ref);
    const published = await inTransaction(this.store.pool, async (tx) => {
      const locked = (await this.store.lock(tx, release.id))!;
      if (locked.status !== 'draft') throw conflict(`Release ${locked.version} is ${locked.status}; only drafts are published.`);
      const uploaded = new Set((await this.store.artifactsOf([locked.id], tx)).filter((a) => a.status === 'uploaded').map((a) => a.component));
      const missing = templateComponents(parseManifestTemplate(locked.manifestTemplate)).filter((c) => !uploaded.has(c));
      if (missing.length) throw conflict(`Release ${locked.version} lacks uploaded artifacts for: ${missing.join(', ')}.`, { missing });
      const published = (await this.store.publish(tx, locked.id, this.clock()))!;
      await this.audit.record(tx, {
        action: 'release.published',
        actor,
        subjectType: 'release',
        subjectId: published.id,
        details: { version: published.version, channel: published.channel, backdatedTo: published.backdatedTo?.toISOString() ?? null },
      });
      return published;
    });
    // read-your-writes in this process (every process also hears the table's announcement)
    this.tablesChanged();
    return published;
  }

  /** Withdraws a published release: no longer offered, listed, or downloadable. */
  async yank(ref: string, actor: string, reason?: string | null): Promise<ReleaseRow> {
    const release = await this.find(ref);
    const yanked = await inTransaction(this.store.pool, async (tx) => {
      const yanked = await this.store.yank(tx, release.id, this.clock());
      if (!yanked) throw conflict(`Release ${release.version} is ${release.status}; only published releases are yanked.`);
      await this.audit.record(tx, {
        action: 'release.yanked',
        actor,
        subjectType: 'release',
        subjectId: yanked.id,
        details: { version: yanked.version, ...(reason ? { reason } : {}) },
      });
      return yanked;
    });
    this.tablesChanged();
    return yanked;
  }

  /** A release by id or `<product>@<version>`. */
  async find(ref: string): Promise<ReleaseRow> {
    const text = (ref ?? '').trim();
    if (/^[0-9a-f-]{36}$/i.test(text)) {
      const row = await this.store.byId(text);
      if (row) return row;
    } else {
      const at = text.lastIndexOf('@');
      if (at > 0) {
        const product = await this.catalogue.productByCode(text.slice(0, at));
        const version = parseVersion(text.slice(at + 1));
        const row = product && version ? await this.store.byVersion(product.id, version) : undefined;
        if (row) return row;
      }
    }
    throw notFound(`No release "${text}" (give its id or <product>@<version>).`);
  }

  /** Administrators: every release, newest first by SemVer within each product. */
  async list(filter: { product?: string | null; channel?: string | null; statuses?: ReleaseStatus[] | null }): Promise<ReleaseRow[]> {
    const product = filter.product ? await this.catalogue.product(filter.product) : undefined;
    const rows = await this.store.list({
      productId: product?.id ?? null,
      channels: filter.channel ? [channelOf(filter.channel)] : null,
      statuses: filter.statuses?.length ? filter.statuses : ['draft', 'published', 'yanked'],
    });
    return rows.sort((a, b) => a.productId.localeCompare(b.productId) || byVersionDescending(a, b));
  }

  artifactsOf(releaseIds: readonly string[]): Promise<ArtifactRow[]> {
    return this.store.artifactsOf(releaseIds);
  }

  byIds(ids: readonly string[]): Promise<ReleaseRow[]> {
    return this.store.byIds(ids);
  }

  /** The licence's own product (fast path), else 403 for another product and 404 for none. */
  private async licensedProduct(licence: LicencePrincipal, code: string): Promise<string> {
    if (code === licence.product) return licence.productId;
    if (await this.catalogue.productByCode(code)) throw productNotLicensed(code);
    throw productNotFound(code);
  }
}
