import { PROVIDER_CREDENTIAL_CHANGED } from '../../../lib/provider-secrets';
import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { startAuditRelay } from '../kernel/audit';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { BankingResolver } from './schema/resolvers';
import { createBankingServices, type BankingServices } from './services';
import { bankingStore } from './store';

/** Virtual IBAN and African accounts, bank transfers and mobile money through external providers; money in the ledger. */
export const bankingSubgraph = defineSubgraph<BankingServices, 'banking'>({
  name: 'banking',
  store: bankingStore,
  createServices: createBankingServices,
  buildSchema: (services) => buildFinanceSchema({ subgraph: 'banking', store: (s) => s.store.store, resolvers: [BankingResolver], services }),
  async start(services, { notifications, jobs, logger }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    await startAuditRelay(services.audit, { jobs, notifications, logger });
    notifications.on(PROVIDER_CREDENTIAL_CHANGED, (provider) => services.providerSecrets.evict(provider));
  },
});

if (require.main === module) void runStandaloneSubgraph(bankingSubgraph);
