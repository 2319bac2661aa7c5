import { PROVIDER_CREDENTIAL_CHANGED } from '../kernel/provider-secrets';
import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { startAuditRelay } from '../kernel/audit';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { BankingResolver } from './schema/resolvers';
import { createBankingServices, type BankingServices } from './services';
import { bankingStore } from './store';
import { financeProduct } from '../product';

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
    // deposits the provider never confirmed expire (their amounts released)
    sweeps.set(
      services,
      setInterval(() => {
        services.banking.expireStaleDeposits().catch((err: unknown) => logger.warn({ err }, 'pending deposit expiry failed'));
      }, DEPOSIT_EXPIRY_SWEEP_MS).unref(),
    );
  },
  async stop(services) {
    clearInterval(sweeps.get(services));
  },
});

const DEPOSIT_EXPIRY_SWEEP_MS = 60_000;
const sweeps = new WeakMap<BankingServices, NodeJS.Timeout>();

if (require.main === module) void runStandaloneSubgraph(bankingSubgraph, financeProduct);
