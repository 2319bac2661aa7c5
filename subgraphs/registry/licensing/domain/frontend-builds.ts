import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { conflict, DomainError, notFound } from '../../../../lib/errors';
import type { JobQueue } from '../../../../lib/jobs';
import type { Logger } from '../../../../lib/logger';
import type { ObjectStore } from '../../../../lib/object-store';
import type { BuildRow, BuiltPackage, FrontendImage, WorkspaceStore } from '../store/workspace-store';
import type { AuditLog } from './audit';
import { WHITELABEL_ENTITLEMENT, type BrandingService } from './branding';
import type { CatalogueService } from './catalogue';
import { addImageLayer } from './docker-layer';
import type { ManifestArtifact } from './manifests/model';
import type { MadeSigningKey, MobileSigningKeys } from './mobile-signing';

/** pg-boss queue of custom frontend builds (payload: the build id). */
export const FRONTEND_BUILD_QUEUE = 'licensing-frontend-build';

/** The branding the client builders bake in (the finance web client's and the mobile shells' shared shape). */
export interface ClientBranding {
  displayName: string;
  primaryColor: string;
  accentColor: string;
  logo?: { bytes: Buffer; contentType: string };
  favicon?: { bytes: Buffer; contentType: string };
}

/** The finance web client's and the mobile packages' builders (clients/finance-web/build.ts, clients/mobile/index.ts). */
export interface ClientBuilders {
  buildFinanceClient(opts: {
    outDir: string;
    branding?: ClientBranding;
    basePath?: string;
  }): Promise<{ outDir: string; files: string[]; firstLoadGzipBytes: number }>;
  buildAndroidPackage(opts: {
    outFile: string;
    branding: ClientBranding;
    clientUrl: string;
    applicationId: string;
    signingKey?: { keystore: string; password: string; alias: string };
    versionCode?: number;
  }): Promise<{ file: string; sha256: string; size: number; kind: 'apk' | 'project' }>;
  /** A new Android signing key (PKCS#12), made once per organisation. */
  createAndroidSigningKey(opts: { commonName: string }): Promise<MadeSigningKey>;
  /** The build tools this machine lacks (empty when builds can run). */
  missingAndroidTools(): Promise<string[]>;
  /** How the vendor installs them. */
  readonly androidToolsInstall: string;
  buildIosProject(opts: {
    outFile: string;
    branding: ClientBranding;
    clientUrl: string;
    bundleId: string;
  }): Promise<{ file: string; sha256: string; size: number }>;
}

export interface FrontendBuildSettings {
  /** The product whose frontend component a build replaces. */
  product: string;
  /**
   * Where the mobile shells open the client when the branding names no public address: the finance
   * node's FRONTEND_URL as customers deploy it, used only when it is https.
   */
  clientUrl: string;
}

/** What a customer reads when the vendor's build machine lacks tools (the vendor's log and start-up check say which). */
export const BUILDS_UNAVAILABLE = 'Builds are unavailable right now; your vendor has been told. Please try again later.';

export const publicUrlRequired = () =>
  new DomainError('PUBLIC_URL_REQUIRED', 409, 'Save your finance node’s public https address with the branding first: the Android and iOS apps open it.');

/** Where the branded client lies in the layer added to the generic frontend image (WEB_ROOT of web-main.ts). */
const WEB_ROOT = 'usr/share/finance-node-web';

/** A release's generic frontend image: the `docker save` archive `registry releases ship` uploaded. */
export interface ReleaseFrontend {
  version: string;
  objectKey: string;
}
const FRONTEND_COMPONENT = 'frontend';

/**
 * Custom frontend builds: the finance web client built with an organisation's branding, packaged as a
 * `docker load` archive like the generic frontend, plus the Android and iOS packages, as a pg-boss job
 * with progress and a log. The newest succeeded build replaces the generic frontend in every compose
 * manifest served to that organisation's licences.
 */
export class FrontendBuildService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly branding: BrandingService,
    private readonly catalogue: CatalogueService,
    private readonly objects: ObjectStore,
    private readonly audit: AuditLog,
    private readonly jobs: () => JobQueue,
    private readonly builders: () => ClientBuilders,
    private readonly signingKeys: MobileSigningKeys,
    /** The generic frontend images a build brands: the latest published release of each channel. */
    private readonly releaseFrontends: () => Promise<ReleaseFrontend[]>,
    private readonly settings: FrontendBuildSettings,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Queues a build of the organisation's current branding (one at a time per organisation: 409 while one runs). */
  async request(organisationId: string, actor: string): Promise<BuildRow> {
    await this.branding.assertEntitled(organisationId);
    const current = await this.branding.current(organisationId);
    if (!current) throw new DomainError('BRANDING_REQUIRED', 409, 'Save a branding first; the build bakes it in.');
    if (!this.clientUrlOf(current)) throw publicUrlRequired();
    let build: BuildRow;
    try {
      build = await this.store.insertBuild({ organisationId, brandingVersion: current.version, requestedBy: actor });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict('A build of this organisation is already queued or running.');
      throw err;
    }
    await this.jobs().boss.send(FRONTEND_BUILD_QUEUE, { buildId: build.id }, { retryLimit: 0, expireInSeconds: 900 });
    await this.audit.record(undefined, {
      action: 'frontend_build.requested',
      actor,
      organisationId,
      subjectType: 'frontend_build',
      subjectId: build.id,
      details: { brandingVersion: current.version },
    });
    return build;
  }

  /** Runs a failed build again (the vendor): a new build of the same organisation's current branding. */
  async rerun(buildId: string, actor: string): Promise<BuildRow> {
    const build = await this.store.build(buildId);
    if (!build) throw notFound('No such build.');
    if (build.status !== 'failed') throw conflict(`Only a failed build is run again; this one is ${build.status}.`);
    return this.request(build.organisationId, actor);
  }

  find(id: string): Promise<BuildRow | undefined> {
    return this.store.build(id);
  }

  list(filter: { organisationId?: string | null; status?: BuildRow['status'] | null; limit?: number }): Promise<BuildRow[]> {
    return this.store.builds({ ...filter, limit: filter.limit ?? 50 });
  }

  async entitlements(organisationId: string): Promise<string[]> {
    return this.store.entitlements(organisationId);
  }

  async grant(organisationId: string, entitlement: string, actor: string): Promise<void> {
    await this.store.grant(organisationId, entitlement, actor);
    await this.audit.record(undefined, {
      action: 'entitlement.granted',
      actor,
      organisationId,
      subjectType: 'organisation',
      subjectId: organisationId,
      details: { entitlement },
    });
  }

  async revoke(organisationId: string, entitlement: string, actor: string): Promise<void> {
    await this.store.revoke(organisationId, entitlement);
    await this.audit.record(undefined, {
      action: 'entitlement.revoked',
      actor,
      organisationId,
      subjectType: 'organisation',
      subjectId: organisationId,
      details: { entitlement },
    });
  }

  /**
   * The components that replace a release's for this organisation: the custom frontend image of that
   * release version from its newest succeeded build, while it holds the whitelabel entitlement. A
   * version the build made no image for keeps the generic frontend (the next build brands it).
   */
  async overridesFor(organisationId: string, baseUrl: string, version: string): Promise<ManifestArtifact[]> {
    const build = await this.store.latestSucceeded(organisationId);
    const image = build?.frontendImages.find((i) => i.version === version);
    if (!image) return [];
    if (!(await this.store.entitlements(organisationId)).includes(WHITELABEL_ENTITLEMENT)) return [];
    return [
      {
        id: image.id,
        component: FRONTEND_COMPONENT,
        filename: image.filename,
        size: image.size,
        sha256: image.sha256,
        mediaType: image.contentType,
        image: image.image!,
        imageId: image.imageId ?? null,
        downloadUrl: customFrontendUrl(baseUrl, image.id),
      },
    ];
  }

  /** The job: every step logged with its progress; any failure ends the build `failed` with the reason, the manifests unchanged. */
  async run(buildId: string): Promise<void> {
    const build = await this.store.build(buildId);
    if (!build || build.status === 'succeeded' || build.status === 'failed') return;
    const work = await mkdtemp(join(tmpdir(), 'frontend-build-'));
    const step = (progress: number, line: string) => this.store.progress(buildId, progress, line);
    try {
      await step(5, 'started');
      const [organisation] = await this.catalogue.organisationsByIds([build.organisationId]);
      await step(8, 'fetching the logo and favicon');
      const branding = await this.branding.resolveAssets((await this.branding.version(build.organisationId, build.brandingVersion))!);
      const clientBranding: ClientBranding = {
        displayName: branding.displayName,
        primaryColor: branding.primaryColor,
        accentColor: branding.accentColor,
        logo: branding.logo ? { bytes: await this.branding.bytes(branding.logo), contentType: branding.logo.contentType } : undefined,
        favicon: branding.favicon ? { bytes: await this.branding.bytes(branding.favicon), contentType: branding.favicon.contentType } : undefined,
      };
      await step(10, `branding version ${branding.version}: ${branding.displayName}, ${branding.primaryColor} / ${branding.accentColor}`);
      const builders = this.builders();
      const web = await builders.buildFinanceClient({ outDir: join(work, 'web'), branding: clientBranding });
      await step(40, `web client built: ${web.files.length} files, first load ${web.firstLoadGzipBytes} bytes gzipped`);
      const bases = await this.releaseFrontends();
      if (!bases.length) throw new DomainError('NO_FRONTEND_RELEASE', 409, 'No published release carries a frontend image yet.');
      const frontendImages: FrontendImage[] = [];
      for (const base of bases) {
        const image = await this.packageFrontend(build, organisation.slug, web.outDir, base, work);
        frontendImages.push(image);
        await step(
          45 + Math.round((20 * frontendImages.length) / bases.length),
          `frontend image ${image.image} (${image.imageId}), archive ${image.size} bytes`,
        );
      }
      const frontend = frontendImages[0];
      const appId = `com.${organisation.slug.replace(/[^a-z0-9]/g, '')}.finance`;
      const clientUrl = this.clientUrlOf(branding);
      if (!clientUrl) throw publicUrlRequired();
      const { android: androidPackage, versionCode } = await this.buildAndroid(build, organisation.name, builders, { work, clientBranding, clientUrl, appId });
      await step(85, `Android ${androidPackage.kind} ${androidPackage.filename}, versionCode ${versionCode}, opens ${clientUrl}, ${androidPackage.size} bytes`);
      const ios = await builders.buildIosProject({
        outFile: join(work, 'ios-project.zip'),
        branding: clientBranding,
        clientUrl,
        bundleId: appId,
      });
      const iosPackage = await this.storePackage(build, 'ios', ios.file, 'application/zip', 'project');
      await step(95, `iOS project ${iosPackage.filename}, ${iosPackage.size} bytes`);
      await this.store.finish(buildId, { frontend, frontendImages, android: androidPackage, ios: iosPackage }, this.clock());
      await this.audit.record(undefined, {
        action: 'frontend_build.succeeded',
        actor: 'system',
        organisationId: build.organisationId,
        subjectType: 'frontend_build',
        subjectId: buildId,
        details: { image: frontend.image, sha256: frontend.sha256 },
      });
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      // a missing tool is the vendor's to fix: the customer is told builds are unavailable, the vendor's log says what to install
      const toolsMissing = err instanceof BuildToolsMissing || (err instanceof Error && err.name === 'MobileToolsMissing');
      const reason = toolsMissing ? BUILDS_UNAVAILABLE : detail;
      if (toolsMissing) this.logger.error({ buildId, reason: detail }, 'frontend build failed: build tools missing on this machine');
      else this.logger.warn({ buildId, reason }, 'frontend build failed');
      await this.store.finish(buildId, { error: reason.slice(0, 1000) }, this.clock());
      await this.audit.record(undefined, {
        action: 'frontend_build.failed',
        actor: 'system',
        organisationId: build.organisationId,
        subjectType: 'frontend_build',
        subjectId: buildId,
        details: { reason: reason.slice(0, 1000) },
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** The APK, signed with the organisation's one key (made by its first build) and its next versionCode. */
  private async buildAndroid(
    build: BuildRow,
    organisationName: string,
    builders: ClientBuilders,
    opts: { work: string; clientBranding: ClientBranding; clientUrl: string; appId: string },
  ): Promise<{ android: BuiltPackage; versionCode: number }> {
    const missing = await builders.missingAndroidTools();
    if (missing.length) throw new BuildToolsMissing(missing, builders.androidToolsInstall);
    const key = await this.signingKeys.forBuild(build.organisationId, () => builders.createAndroidSigningKey({ commonName: organisationName }));
    const keystore = join(opts.work, 'signing.p12');
    await writeFile(keystore, key.keystore, { mode: 0o600 });
    const android = await builders.buildAndroidPackage({
      outFile: join(opts.work, 'android.apk'),
      branding: opts.clientBranding,
      clientUrl: opts.clientUrl,
      applicationId: opts.appId,
      signingKey: { keystore, password: key.password, alias: key.alias },
      versionCode: key.versionCode,
    });
    const contentType = android.kind === 'apk' ? 'application/vnd.android.package-archive' : 'application/zip';
    return { android: await this.storePackage(build, 'android', android.file, contentType, android.kind), versionCode: key.versionCode };
  }

  /** Where the mobile apps open the client: the branding's public address, else the configured one when it is https. */
  private clientUrlOf(branding: { publicUrl: string | null }): string | null {
    if (branding.publicUrl) return branding.publicUrl;
    return this.settings.clientUrl.startsWith('https://') ? this.settings.clientUrl : null;
  }

  /** The system check at start: the tools a build needs, missing ones logged for the vendor with how to install them. */
  async checkBuildTools(): Promise<string[]> {
    const builders = this.builders();
    const missing = await builders.missingAndroidTools();
    if (missing.length) {
      this.logger.error(
        { missing, install: builders.androidToolsInstall },
        `custom frontend builds are unavailable: ${missing.join(', ')} missing on this machine (${builders.androidToolsInstall})`,
      );
    }
    return missing;
  }

  /**
   * A runnable frontend image for one release version: the release's generic frontend image (streamed
   * from the object store) plus one layer with the branded client, served from WEB_ROOT by the image's
   * own server (its command and port unchanged).
   */
  private async packageFrontend(build: BuildRow, slug: string, outDir: string, base: ReleaseFrontend, work: string): Promise<FrontendImage> {
    const files = await filesUnder(outDir);
    const tag = `${this.settings.product}/frontend-${slug}:${base.version}-${build.id.slice(0, 8)}`;
    const filename = `${this.settings.product}-frontend-${slug}-${base.version}-${build.id.slice(0, 8)}.docker.tar.gz`;
    const file = join(work, filename);
    const image = await addImageLayer(
      (await this.objects.get(base.objectKey)) as Readable,
      { gzipped: true },
      {
        repoTag: tag,
        created: this.clock(),
        files: await Promise.all(files.map(async (path) => ({ path: `${WEB_ROOT}/${relative(outDir, path)}`, content: await readFile(path) }))),
        env: { WEB_ROOT: `/${WEB_ROOT}` },
        labels: { 'org.opencontainers.image.title': `${this.settings.product} frontend (${slug})`, 'org.opencontainers.image.revision': build.id },
      },
      createWriteStream(file),
    );
    const key = `builds/${build.organisationId}/${build.id}/${filename}`;
    const { size } = await stat(file);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    await this.objects.put(key, createReadStream(file), { contentType: 'application/gzip', size });
    await rm(file, { force: true });
    return {
      id: randomUUID(),
      version: base.version,
      key,
      filename,
      contentType: 'application/gzip',
      size,
      sha256: hash.digest('hex'),
      image: image.repoTag,
      imageId: image.imageId,
    };
  }

  private async storePackage(build: BuildRow, name: 'android' | 'ios', file: string, contentType: string, kind: string): Promise<BuiltPackage> {
    const bytes = await readFile(file);
    const extension = /\.[a-z0-9.]+$/i.exec(file)?.[0] ?? (contentType === 'application/zip' ? '.zip' : '');
    const filename = `${this.settings.product}-${name}-${build.id.slice(0, 8)}${extension}`;
    const key = `builds/${build.organisationId}/${build.id}/${filename}`;
    await this.objects.put(key, bytes, { contentType, size: bytes.length });
    return { key, filename, contentType, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), kind };
  }

  /** A presigned link to one of a build's packages, for its own organisation. */
  async packageLink(organisationId: string, buildId: string, which: 'frontend' | 'android' | 'ios', baseUrl: string, ttlSeconds: number): Promise<string> {
    // a frontend image of one release version is named by its own id (the manifest's), the build's newest by the build's
    const byImage = which === 'frontend' && !(await this.store.build(buildId)) ? await this.store.buildOfImage(buildId) : undefined;
    const build = byImage ?? (await this.store.build(buildId));
    if (!build || build.organisationId !== organisationId) throw notFound('No such build.');
    const pkg = byImage ? byImage.frontendImages.find((i) => i.id === buildId) : build[which];
    if (build.status !== 'succeeded' || !pkg) throw conflict('This build has not succeeded.');
    const { url } = await this.objects.presign(pkg.key, { expiresInSeconds: ttlSeconds, filename: pkg.filename, contentType: pkg.contentType, baseUrl });
    return url;
  }
}

/** The build machine lacks tools: the vendor's problem, said in the vendor's words (the log), never the customer's. */
export class BuildToolsMissing extends Error {
  constructor(
    readonly missing: string[],
    install: string,
  ) {
    super(`Cannot build: ${missing.join(', ')} missing (${install}).`);
    this.name = 'BuildToolsMissing';
  }
}

export const customFrontendUrl = (baseUrl: string, buildId: string) => `${baseUrl}/api/v1/custom-frontends/${buildId}/download`;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if ((await stat(path)).isFile()) out.push(path);
  }
  return out.sort();
}
