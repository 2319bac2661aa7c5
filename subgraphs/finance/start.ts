import { isDevelopment } from '../../lib/config';
import { REGISTRY_OFFERS } from '../../lib/licence-token';
import type { ProductStart } from '../../lib/product';
import { activateDemoNode, financeDemo, shipRegistryKey } from './demo';
import type { IdentityServices } from './identity/services';
import { investingDemo } from './investing/demo';
import type { InvestingServices } from './investing/services';
import { devOutboxPath } from './kernel/contract';
import type { LedgerServices } from './ledger/services';
import type { NodeServices } from './node/services';

type FinanceServices = { node: NodeServices; identity: IdentityServices; ledger: LedgerServices; investing: InvestingServices };

/**
 * The finance node's part of `npm start`: with a registry beside it, that registry's key (and in
 * development its activation with the demo licence, over HTTP); its licence state; in development its
 * outbox, demo users and investing sandbox.
 */
export const financeStart: ProductStart = {
  async start({ config, app, offers }) {
    const development = isDevelopment(config);
    const url = app.urls.finance;
    const services = app.services as FinanceServices;
    const lines = [`Finance node           ${url}/   (console ${url}/admin/, web client ${url}/app/)`];
    const credentials: string[] = [];
    // the node carries the key of the registry it ships beside, as the release images carry it: it learns none
    const registryKey = offers.get(REGISTRY_OFFERS.signingKey);
    if (registryKey) shipRegistryKey(services.node, registryKey);
    // the vendor's demo: the node activates with the registry of this process, over HTTP like any node
    const licenceKey = offers.get(REGISTRY_OFFERS.demoLicenceKey);
    if (development && licenceKey && (await activateDemoNode(config, services.node, app.urls.registry, licenceKey))) {
      lines.push(`Finance activation     registered with ${app.urls.registry} over HTTP (demo licence)`);
    }
    // a node configured with a registry activates at start (in the background): the banner tells how it went
    await services.node.registry.firstActivation();
    lines.push(await licenceLine(services.node));
    const outbox = devOutboxPath(config);
    if (outbox) lines.push(`Finance outbox         ${url}${outbox}   (development: the mails and SMS the node "sent", with their links)`);
    if (development) {
      const finance = await financeDemo(config, services.identity, services.ledger);
      credentials.push(
        finance.admin
          ? `  Finance admin       ${finance.admin.username} / ${finance.admin.password}   (${url}/admin/)`
          : '  Finance admin       the SUPERUSER_USERNAME you configured',
      );
      credentials.push(`  Finance demo user   ${finance.user.username} / ${finance.user.password}   (EUR 1,250.00, GBP 800.00 and USD 500.00)`);
      credentials.push(...(await investingDemo(config, services, finance.user.username)));
    }
    return { lines, credentials };
  },
};

async function licenceLine(node: NodeServices): Promise<string> {
  const state = await node.gate.state();
  return state.readOnly
    ? `Finance licence        READ-ONLY (${state.licenceChecks.join(', ')}): writes answer 403 until a licence is installed (npm run cli -- finance:check)`
    : `Finance licence        valid: normal mode`;
}
