import type { Config } from '../../lib/config';
import { writeDemoFile } from '../../lib/demo-file';
import type { Logger } from '../../lib/logger';
import { ContainerEngine } from './licensing/container-engine';
import { DEMO_PRODUCT } from './licensing/domain/demo';
import { builtImage, shipBuiltImages } from './licensing/release-images';
import type { LicensingServices } from './licensing/services';

/**
 * The registry's demo licence (an Active licence of `finance-node`): its key, kept in the demo file so
 * that every start prints it.
 */
export async function registryDemoLicence(config: Config, licensing: LicensingServices): Promise<string> {
  const { licenceKey } = await licensing.demoLicence();
  writeDemoFile(config, { licenceKey });
  return licenceKey;
}

/**
 * The banner's line on the release images the demo registry distributes: those built
 * on this machine (`npm run images`), shipped in the background as the newest stable release when this
 * build is not shipped yet; otherwise how to build them (the placeholder archives cannot run).
 */
export async function releaseImagesLine(licensing: LicensingServices, logger: Logger): Promise<string> {
  const label = 'Release images         ';
  let timer: NodeJS.Timeout | undefined;
  const engine = await Promise.race([
    ContainerEngine.detect().catch(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 10_000).unref())),
  ]);
  clearTimeout(timer);
  if (!engine || !(await engine.imageId(builtImage('backend')))) {
    return `${label}not built here: the installer below would install placeholder images that cannot run. Build them with \`npm run images\` (podman or docker) while this runs (they then carry this registry's key), and start again`;
  }
  void shipBuiltImages(licensing, engine, DEMO_PRODUCT, (line) => logger.info(line))
    .then((r) => {
      if (r.built && r.shipped) logger.info(`the release images built here are shipped as ${DEMO_PRODUCT} ${r.version}: the installer installs them`);
    })
    .catch((err: unknown) => logger.error({ err }, 'the release images built here could not be shipped'));
  return `${label}${builtImage('backend')} and its frontend, built here: the registry distributes them as its newest stable release (a new build is shipped in the background; the log says when)`;
}
