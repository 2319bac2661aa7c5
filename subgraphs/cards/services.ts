import { IdempotentRequests } from '../../lib/idempotency';
import { LedgerClient } from '../../lib/ledger-client';
import { secretBoxFor } from '../../lib/secret-box';
import type { SubgraphDeps } from '../../lib/subgraph';
import { NodeGate, nodeStateFromSupergraph } from '../node/gate';
import { CardService } from './domain/cards';
import { HttpIssuer, SandboxIssuer, type CardIssuer } from './domain/issuer';
import { CardStore } from './store/card-store';

export interface CardsServices {
  cards: CardService;
  issuer: CardIssuer;
  gate: NodeGate;
  store: CardStore;
}

/** CARD_ISSUER_URL: the issuer over HTTP (its API key and webhook secret required); unset: the offline sandbox. */
export function cardIssuerFrom(config: SubgraphDeps['config'], derive: (purpose: string) => Buffer): CardIssuer {
  if (!config.CARD_ISSUER_URL) return new SandboxIssuer(derive('cards:sandbox-webhook').toString('hex'));
  if (!config.CARD_ISSUER_API_KEY || !config.CARD_ISSUER_WEBHOOK_SECRET) {
    throw new Error('CARD_ISSUER_URL needs CARD_ISSUER_API_KEY and CARD_ISSUER_WEBHOOK_SECRET.');
  }
  return new HttpIssuer({ baseUrl: config.CARD_ISSUER_URL, apiKey: config.CARD_ISSUER_API_KEY, webhookSecret: config.CARD_ISSUER_WEBHOOK_SECRET });
}

export function createCardsServices({ store, supergraph, config }: SubgraphDeps): CardsServices {
  const box = secretBoxFor({ masterKey: config.MASTER_KEY, dataDir: config.dataDir });
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const cardStore = new CardStore(store);
  const issuer = cardIssuerFrom(config, (purpose) => box.derive(purpose));
  return {
    cards: new CardService(cardStore, issuer, new LedgerClient(supergraph), box, gate, new IdempotentRequests(store)),
    issuer,
    gate,
    store: cardStore,
  };
}
