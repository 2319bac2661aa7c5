import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { startAuditRelay } from '../kernel/audit';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { ledgerCommands } from './cli';
import { LedgerResolver } from './schema/resolvers';
import { createLedgerServices, type LedgerServices } from './services';
import { ledgerStore } from './store';
import { financeProduct } from '../product';

const EXPIRY_SWEEP_MS = 30_000;

/** Accounts and transfers (TigerBeetle's model in PostgreSQL): the balances of the finance node. */
export const ledgerSubgraph = defineSubgraph<LedgerServices, 'ledger'>({
  name: 'ledger',
  store: ledgerStore,
  commands: ledgerCommands,
  createServices: createLedgerServices,
  buildSchema: (services) => buildFinanceSchema({ subgraph: 'ledger', store: (s) => s.store.store, resolvers: [LedgerResolver], services }),
  async start(services, { notifications, jobs, logger }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    await startAuditRelay(services.audit, { jobs, notifications, logger });
    // pending transfers past their timeout release their amounts
    sweeps.set(
      services,
      setInterval(() => {
        services.ledger.expirePending().catch((err: unknown) => logger.warn({ err }, 'pending transfer expiry failed'));
      }, EXPIRY_SWEEP_MS).unref(),
    );
  },
  async stop(services) {
    clearInterval(sweeps.get(services));
  },
});

const sweeps = new WeakMap<LedgerServices, NodeJS.Timeout>();

if (require.main === module) void runStandaloneSubgraph(ledgerSubgraph, financeProduct);
