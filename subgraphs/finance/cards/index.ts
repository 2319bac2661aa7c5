import { PROVIDER_CREDENTIAL_CHANGED } from '../kernel/provider-secrets';
import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { CardsResolver } from './schema/resolvers';
import { createCardsServices, type CardsServices } from './services';
import { cardsStore } from './store';
import { financeProduct } from '../product';

/** Virtual cards of the finance node: issued by a card issuer, authorisations held on the ledger. */
export const cardsSubgraph = defineSubgraph<CardsServices, 'cards'>({
  name: 'cards',
  store: cardsStore,
  createServices: createCardsServices,
  buildSchema: (services) => buildFinanceSchema({ subgraph: 'cards', store: (s) => s.store.store, resolvers: [CardsResolver], services }),
  async start(services, { notifications }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    notifications.on(PROVIDER_CREDENTIAL_CHANGED, (provider) => services.providerSecrets.evict(provider));
  },
});

if (require.main === module) void runStandaloneSubgraph(cardsSubgraph, financeProduct);
