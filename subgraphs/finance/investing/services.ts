import { IdempotentRequests } from '../../../lib/idempotency';
import { ProviderSecrets, providerSecretsFromSupergraph } from '../kernel/provider-secrets';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { Investing } from './domain/investing';
import { OrderUpdates } from './domain/order-updates';
import { LedgerClient } from '../kernel/ledger-client';
import { Brokerages } from './domain/providers';
import { InvestingStore } from './store/investing-store';

export interface InvestingServices {
  investing: Investing;
  /** The trade stream and the order poll. */
  orderUpdates: OrderUpdates;
  brokerages: Brokerages;
  gate: NodeGate;
  store: InvestingStore;
  providerSecrets: ProviderSecrets;
}

export function createInvestingServices({ store, supergraph, config, logger }: SubgraphDeps): InvestingServices {
  const investingStore = new InvestingStore(store);
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const providerSecrets = new ProviderSecrets(config, providerSecretsFromSupergraph(supergraph));
  const brokerages = new Brokerages(config, providerSecrets);
  const investing = new Investing({
    store: investingStore,
    gate,
    ledger: new LedgerClient(supergraph),
    provider: brokerages.provider,
    idempotency: new IdempotentRequests(store),
    logger: logger.child({ subgraph: 'investing' }),
  });
  const orderUpdates = new OrderUpdates(investing, () => brokerages.tradeStream(), logger.child({ subgraph: 'investing' }));
  return { investing, orderUpdates, brokerages, gate, store: investingStore, providerSecrets };
}
