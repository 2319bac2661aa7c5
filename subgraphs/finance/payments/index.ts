import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { PaymentsResolver } from './schema/resolvers';
import { createPaymentsServices, type PaymentsServices } from './services';
import { paymentsStore } from './store';
import { financeProduct } from '../product';

const IDEMPOTENCY_SWEEP_MS = 3_600_000;

/** Money movement between users and currencies (transfers, FX) on the ledger; provider events. */
export const paymentsSubgraph = defineSubgraph<PaymentsServices, 'payments'>({
  name: 'payments',
  store: paymentsStore,
  createServices: createPaymentsServices,
  buildSchema: (services) => buildFinanceSchema({ subgraph: 'payments', store: (s) => s.store.store, resolvers: [PaymentsResolver], services }),
  async start(services, { notifications, logger }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    // idempotency records past their 24 hours
    sweeps.set(
      services,
      setInterval(() => {
        services.requests.sweep().catch((err: unknown) => logger.warn({ err }, 'idempotency sweep failed'));
      }, IDEMPOTENCY_SWEEP_MS).unref(),
    );
  },
  async stop(services) {
    clearInterval(sweeps.get(services));
  },
});

const sweeps = new WeakMap<PaymentsServices, NodeJS.Timeout>();

if (require.main === module) void runStandaloneSubgraph(paymentsSubgraph, financeProduct);
