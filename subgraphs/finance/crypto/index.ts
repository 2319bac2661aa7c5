import { PROVIDER_CREDENTIAL_CHANGED } from '../kernel/provider-secrets';
import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { CryptoResolver, AdminCryptoDepositAddressUserResolver } from './schema/resolvers';
import { createCryptoServices, type CryptoServices } from './services';
import { cryptoStore } from './store';
import { financeProduct } from '../product';

/** Crypto deposits and swaps of the finance node (module `crypto`), on the ledger. */
export const cryptoSubgraph = defineSubgraph<CryptoServices, 'crypto'>({
  name: 'crypto',
  store: cryptoStore,
  createServices: createCryptoServices,
  buildSchema: (services) =>
    buildFinanceSchema({ subgraph: 'crypto', store: (s) => s.store.store, resolvers: [CryptoResolver, AdminCryptoDepositAddressUserResolver], services }),
  async start(services, { notifications }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    notifications.on(PROVIDER_CREDENTIAL_CHANGED, (provider) => services.providerSecrets.evict(provider));
  },
});

if (require.main === module) void runStandaloneSubgraph(cryptoSubgraph, financeProduct);
