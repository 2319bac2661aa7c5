import type { SubgraphDeps } from '../../../lib/subgraph';
import { IdempotentRequests } from '../../../lib/idempotency';
import { sandboxOrDisabled } from '../kernel/sandbox';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { FxDesk } from './domain/fx';
import { LedgerClient } from '../kernel/ledger-client';
import { HttpRates, SandboxRates, type RateProvider } from './domain/rates';
import { recipientsThrough } from './domain/recipients';
import { RECIPIENT_LOOKUPS, Transfers } from './domain/transfers';
import { KeyedLimiter } from '../../../lib/rate-limits';
import { PaymentsStore } from './store/payments-store';

export interface PaymentsServices {
  gate: NodeGate;
  store: PaymentsStore;
  requests: IdempotentRequests;
  ledger: LedgerClient;
  transfers: Transfers;
  fx: FxDesk;
  rates: RateProvider;
}

export function createPaymentsServices({ store, supergraph, config }: SubgraphDeps): PaymentsServices {
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const paymentsStore = new PaymentsStore(store);
  const requests = new IdempotentRequests(store);
  const ledger = new LedgerClient(supergraph);
  const rates = config.FX_RATES_URL ? new HttpRates(config.FX_RATES_URL) : sandboxOrDisabled(config, 'fx', () => new SandboxRates());
  return {
    gate,
    store: paymentsStore,
    requests,
    ledger,
    rates,
    transfers: new Transfers(ledger, recipientsThrough(supergraph), gate, requests, new KeyedLimiter(store, 'payments-recipient-lookup', RECIPIENT_LOOKUPS)),
    fx: new FxDesk(ledger, paymentsStore, rates, gate, requests),
  };
}
