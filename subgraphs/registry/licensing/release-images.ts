import { spawn } from 'node:child_process';
import { statSync, createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerEngine } from './container-engine';
import { projectRoot } from '../../../lib/paths';
import { templateComponents, parseManifestTemplate } from './domain/manifests/template';
import type { LicensingServices } from './services';
import type { ArtifactRow, ReleaseRow } from './store/release-store';
import { byVersionDescending } from './versions';

/** The images `npm run images` builds for a component of the finance node, at this checkout's version. */
export function builtImage(component: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the version of this checkout
  const { version } = require(join(projectRoot(), 'package.json')) as { version: string };
  return `localhost/finance-node/${component}:${version}`;
}

/**
 * `npm run images` (scripts/images.sh) for the finance node's two images, its output on stderr. They
 * carry `vendorPublicKey`, the key of the registry that ships them (the node trusts licences it signed only).
 */
export function buildFinanceImages(engine: ContainerEngine, vendorPublicKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(projectRoot(), 'scripts/images.sh')], {
      cwd: projectRoot(),
      env: { ...process.env, CONTAINER_ENGINE: engine.name, TARGETS: 'finance-backend finance-frontend', VENDOR_PUBLIC_KEY: vendorPublicKey },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`scripts/images.sh failed (${code})`))));
  });
}

export interface ShipInput {
  product: string;
  version: string;
  channel: string;
  changelog?: string;
  backdatedTo?: Date;
  /** The image of each component of the release's manifest (default: builtImage(component)). */
  images?: Record<string, string>;
  /** Leave the release a draft. */
  draft?: boolean;
}

export interface Shipped {
  release: ReleaseRow;
  artifacts: ArtifactRow[];
}

/**
 * A release whose artifacts are real images: each component's image is tagged
 * `localhost/<product>/<component>:<version>`, saved as a gzipped `docker save` archive and uploaded
 * (size, SHA-256 and image id recorded and checked), then the release is published. A draft of the
 * same version is completed; a published one is refused by the release service.
 */
export async function shipRelease(
  services: Pick<LicensingServices, 'releases' | 'artifacts'>,
  engine: ContainerEngine,
  input: ShipInput,
  actor: string,
  log: (line: string) => void = () => undefined,
): Promise<Shipped> {
  const existing = await services.releases.find(`${input.product}@${input.version}`).catch(() => undefined);
  const release =
    existing ??
    (await services.releases.create(
      { product: input.product, version: input.version, channel: input.channel, changelog: input.changelog, backdatedTo: input.backdatedTo ?? null },
      actor,
    ));
  const components = templateComponents(parseManifestTemplate(release.manifestTemplate));
  const images = Object.fromEntries(components.map((c) => [c, input.images?.[c] ?? builtImage(c)]));
  for (const [component, image] of Object.entries(images)) {
    if (!(await engine.imageId(image))) {
      throw new Error(`${engine.name} has no image ${image} for the ${component} of ${input.product} ${input.version}: build it first (npm run images)`);
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'release-images-'));
  const artifacts: ArtifactRow[] = [];
  try {
    for (const [component, image] of Object.entries(images)) {
      const tag = `localhost/${input.product}/${component}:${input.version}`;
      const file = join(dir, `${input.product}-${component}-${input.version}.docker.tar.gz`);
      if (tag !== image) await engine.tag(image, tag);
      try {
        log(`saving ${image} as ${tag}`);
        await engine.saveGzipped(tag, file);
      } finally {
        if (tag !== image) await engine.untag(tag);
      }
      const size = statSync(file).size;
      const artifact = await services.artifacts.upload({ release: release.id, component, image: tag }, createReadStream(file), { size }, actor);
      log(`uploaded ${artifact.filename}: ${artifact.size} bytes, sha256 ${artifact.sha256}, image ${artifact.imageId}`);
      artifacts.push(artifact);
      await rm(file, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const published = input.draft ? release : await services.releases.publish(release.id, actor);
  return { release: published, artifacts };
}

/** What shipBuiltImages found: the images are not built here, or which release carries them (just shipped or before). */
export type BuiltImagesRelease = { built: false } | { built: true; version: string; shipped: boolean };

/**
 * The demo registry distributes the release images `npm run images` built on this machine, not only its
 * placeholder archives: once per build (by the backend's image id), as the next patch release after
 * the newest stable one, so the installer's latest stable is the images that run.
 */
export async function shipBuiltImages(
  services: Pick<LicensingServices, 'releases' | 'artifacts'>,
  engine: ContainerEngine,
  product: string,
  log: (line: string) => void = () => undefined,
): Promise<BuiltImagesRelease> {
  const backend = await engine.imageId(builtImage('backend'));
  if (!backend || !(await engine.imageId(builtImage('frontend')))) return { built: false };
  const releases = await services.releases.list({ product });
  const artifacts = await services.releases.artifactsOf(releases.map((r) => r.id));
  const carrying = artifacts.find((a) => a.component === 'backend' && a.imageId === backend && a.status === 'uploaded');
  const existing = carrying && releases.find((r) => r.id === carrying.releaseId && r.status === 'published');
  if (existing) return { built: true, version: existing.version, shipped: false };
  const newest = releases.filter((r) => r.channel === 'stable' && !r.version.includes('-')).sort(byVersionDescending)[0]?.version ?? '0.0.0';
  const [major, minor, patch] = newest.split('.').map(Number);
  const version = `${major}.${minor}.${patch + 1}`;
  await shipRelease(
    services,
    engine,
    { product, version, channel: 'stable', changelog: 'The release images built on this machine (npm run images).' },
    'demo',
    log,
  );
  return { built: true, version, shipped: true };
}
