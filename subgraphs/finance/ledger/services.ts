import type { SubgraphDeps } from '../../../lib/subgraph';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { Ledger } from './domain/ledger';
import { LedgerStore } from './store/ledger-store';

export interface LedgerServices {
  ledger: Ledger;
  gate: NodeGate;
  store: LedgerStore;
}

export function createLedgerServices({ store, supergraph }: SubgraphDeps): LedgerServices {
  const ledgerStore = new LedgerStore(store);
  return { ledger: new Ledger(ledgerStore), gate: new NodeGate(nodeStateFromSupergraph(supergraph)), store: ledgerStore };
}
