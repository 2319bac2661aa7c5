import { IdempotentRequests } from '../../lib/idempotency';
import type { SubgraphDeps } from '../../lib/subgraph';
import { NodeGate, nodeStateFromSupergraph } from '../node/gate';
import { Investing } from './domain/investing';
import { LedgerClient } from '../../lib/ledger-client';
import { Brokerages } from './domain/providers';
import { InvestingStore } from './store/investing-store';

export interface InvestingServices {
  investing: Investing;
  brokerages: Brokerages;
  gate: NodeGate;
  store: InvestingStore;
}

export function createInvestingServices({ store, supergraph, config, logger }: SubgraphDeps): InvestingServices {
  const investingStore = new InvestingStore(store);
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const brokerages = new Brokerages(config);
  const investing = new Investing({
    store: investingStore,
    gate,
    ledger: new LedgerClient(supergraph),
    provider: brokerages.provider,
    idempotency: new IdempotentRequests(store),
    logger: logger.child({ subgraph: 'investing' }),
  });
  return { investing, brokerages, gate, store: investingStore };
}
