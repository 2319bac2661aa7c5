import { isDevelopment } from '../../lib/config';
import { REGISTRY_OFFERS } from '../../lib/licence-token';
import type { ProductStart } from '../../lib/product';
import { registryDemoLicence, releaseImagesLine } from './demo';
import type { LicensingServices } from './licensing/services';

/** The licence registry's part of `npm start`: its demo licence and release images (development) and its banner lines. */
export const registryStart: ProductStart = {
  async start({ config, logger, app, offers }) {
    const url = app.urls.registry;
    const { licensing } = app.services as { licensing: LicensingServices };
    const lines = [`Licence registry       ${url}/api/v1/   (reference: ${url}/api/docs/)`];
    const credentials: string[] = [];
    const tries: string[] = [];
    // a finance node beside this registry carries its key, as the release images carry it: it learns none
    offers.set(REGISTRY_OFFERS.signingKey, (await licensing.signing.publicKey()).publicKey);
    if (isDevelopment(config)) {
      const licenceKey = await registryDemoLicence(config, licensing);
      offers.set(REGISTRY_OFFERS.demoLicenceKey, licenceKey);
      credentials.push(`  Licence key         ${licenceKey}   (finance-node, Demo Organisation)`);
      tries.push(`     bash scripts/install-node.sh ${url} ${licenceKey} ./finance-node`);
      lines.push(await releaseImagesLine(licensing, logger));
    }
    return { lines, credentials, tries };
  },
};
