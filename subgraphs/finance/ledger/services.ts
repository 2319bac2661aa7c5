import type { SubgraphDeps } from '../../../lib/subgraph';
import { auditTrailFromSupergraph } from '../kernel/audit';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { AdjustmentService } from './domain/adjustments';
import { Ledger } from './domain/ledger';
import { AdjustmentStore } from './store/adjustment-store';
import { LedgerStore } from './store/ledger-store';

export interface LedgerServices {
  ledger: Ledger;
  adjustments: AdjustmentService;
  gate: NodeGate;
  store: LedgerStore;
}

// identity resolves a manual adjustment's user (this subgraph is among its RECIPIENT_READERS)
const RECIPIENT = `query LedgerAdjustmentRecipient($reference: String!) { nodeRecipient(reference: $reference) { id username } }`;

export function createLedgerServices({ store, supergraph }: SubgraphDeps): LedgerServices {
  const ledgerStore = new LedgerStore(store);
  const ledger = new Ledger(ledgerStore);
  const resolveUser = async (reference: string) =>
    (await supergraph.request<{ nodeRecipient: { id: string; username: string } | null }>(RECIPIENT, { reference })).nodeRecipient;
  return {
    ledger,
    adjustments: new AdjustmentService(new AdjustmentStore(store), ledger, resolveUser, auditTrailFromSupergraph(supergraph)),
    gate: new NodeGate(nodeStateFromSupergraph(supergraph)),
    store: ledgerStore,
  };
}
