import { IdempotentRequests } from '../../../lib/idempotency';
import { objectStoreFor } from '../../../lib/object-store';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { AuditOutbox, deliverThroughSupergraph } from '../kernel/audit';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { Disputes } from './domain/disputes';
import { GiftCards } from './domain/gift-cards';
import { Rewards, type RateOf } from './domain/rewards';
import { Shop } from './domain/shop';
import { Utilities } from './domain/utilities';
import { CommerceStore } from './store/commerce-store';
import { LedgerClient, requestAsDomain } from '../kernel/ledger-client';
import type { SupergraphClient } from '../../../lib/supergraph-client';

export interface CommerceServices {
  shop: Shop;
  utilities: Utilities;
  giftCards: GiftCards;
  disputes: Disputes;
  rewards: Rewards;
  /** Operator decisions audited in their transaction; relayed to the node's audit log (index.ts). */
  audit: AuditOutbox;
  gate: NodeGate;
  store: CommerceStore;
}

const FX_RATE = `query FxRateForService($source: String!, $target: String!) { fxRateForService(source: $source, target: $target) }`;

/** The node's own rates, from the payments subgraph's FX desk (a refusal, e.g. rates unavailable, kept with its code). */
const nodeRates =
  (supergraph: SupergraphClient): RateOf =>
  async (source, target) =>
    (await requestAsDomain<{ fxRateForService: string }>(supergraph, FX_RATE, { source, target })).fxRateForService;

export function createCommerceServices({ store, supergraph, config, jobs, logger }: SubgraphDeps): CommerceServices {
  const commerceStore = new CommerceStore(store);
  const ledger = new LedgerClient(supergraph);
  const objects = objectStoreFor(config);
  const idempotency = new IdempotentRequests(store);
  const audit = new AuditOutbox('commerce', store.pool, deliverThroughSupergraph(supergraph));
  const rewards = new Rewards(commerceStore, ledger, idempotency, jobs, logger, nodeRates(supergraph), config.REFERENCE_CURRENCY);
  return {
    shop: new Shop(commerceStore, ledger, objects, idempotency, rewards, audit),
    utilities: new Utilities(commerceStore, idempotency),
    giftCards: new GiftCards(commerceStore, idempotency),
    disputes: new Disputes(commerceStore, ledger, objects, idempotency, rewards, audit),
    rewards,
    audit,
    gate: new NodeGate(nodeStateFromSupergraph(supergraph)),
    store: commerceStore,
  };
}
