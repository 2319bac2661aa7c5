import type { SubgraphDeps } from '../../../lib/subgraph';
import { AuditOutbox, deliverThroughSupergraph } from '../kernel/audit';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { AdjustmentService } from './domain/adjustments';
import { Ledger } from './domain/ledger';
import { PendingVoids } from './domain/voids';
import { AdjustmentStore } from './store/adjustment-store';
import { LedgerStore } from './store/ledger-store';

export interface LedgerServices {
  ledger: Ledger;
  adjustments: AdjustmentService;
  voids: PendingVoids;
  /** Operator decisions audited in their transaction; relayed to the node's audit log (index.ts). */
  audit: AuditOutbox;
  gate: NodeGate;
  store: LedgerStore;
}

// identity resolves a manual adjustment's user (this subgraph is among its RECIPIENT_READERS)
const RECIPIENT = `query LedgerAdjustmentRecipient($reference: String!) { nodeRecipient(reference: $reference) { id username } }`;

export function createLedgerServices({ store, supergraph }: SubgraphDeps): LedgerServices {
  const ledgerStore = new LedgerStore(store);
  const ledger = new Ledger(ledgerStore);
  const audit = new AuditOutbox('ledger', store.pool, deliverThroughSupergraph(supergraph));
  const resolveUser = async (reference: string) =>
    (await supergraph.request<{ nodeRecipient: { id: string; username: string } | null }>(RECIPIENT, { reference })).nodeRecipient;
  return {
    ledger,
    adjustments: new AdjustmentService(new AdjustmentStore(store), ledger, resolveUser, audit),
    voids: new PendingVoids(ledger, audit),
    audit,
    gate: new NodeGate(nodeStateFromSupergraph(supergraph)),
    store: ledgerStore,
  };
}
