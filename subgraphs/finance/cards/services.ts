import { IdempotentRequests } from '../../../lib/idempotency';
import { LedgerClient } from '../kernel/ledger-client';
import { ProviderSecrets, providerSecretsFromSupergraph } from '../kernel/provider-secrets';
import { secretBoxFor } from '../../../lib/secret-box';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { sandboxOrDisabled } from '../kernel/sandbox';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { providerCredential } from '../kernel/provider-credentials';
import { CardService } from './domain/cards';
import { reauthenticationThrough } from './domain/reauthentication';
import { HttpIssuer, SandboxIssuer, type CardIssuer } from './domain/issuer';
import { CardStore } from './store/card-store';

export interface CardsServices {
  cards: CardService;
  issuer: CardIssuer;
  gate: NodeGate;
  store: CardStore;
  providerSecrets: ProviderSecrets;
}

/**
 * CARD_ISSUER_URL: the issuer over HTTP, its API key and webhook secret read at each use
 * (CARD_ISSUER_API_KEY / CARD_ISSUER_WEBHOOK_SECRET, else the admin console's card_issuer records);
 * unset: the offline sandbox.
 */
export function cardIssuerFrom(config: SubgraphDeps['config'], derive: (purpose: string) => Buffer, secrets: ProviderSecrets): CardIssuer {
  if (!config.CARD_ISSUER_URL) return sandboxOrDisabled(config, 'cards', () => new SandboxIssuer(derive('cards:sandbox-webhook').toString('hex')));
  return new HttpIssuer({
    baseUrl: config.CARD_ISSUER_URL,
    apiKey: () => secrets.get(providerCredential('card_issuer', 'api_key')),
    webhookSecret: () => secrets.get(providerCredential('card_issuer', 'webhook_secret')),
  });
}

export function createCardsServices({ store, supergraph, config }: SubgraphDeps): CardsServices {
  const box = secretBoxFor({ masterKey: config.MASTER_KEY, dataDir: config.dataDir });
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const cardStore = new CardStore(store);
  const providerSecrets = new ProviderSecrets(config, providerSecretsFromSupergraph(supergraph));
  const issuer = cardIssuerFrom(config, (purpose) => box.derive(purpose), providerSecrets);
  return {
    cards: new CardService(cardStore, issuer, new LedgerClient(supergraph), box, gate, new IdempotentRequests(store), reauthenticationThrough(supergraph)),
    issuer,
    gate,
    store: cardStore,
    providerSecrets,
  };
}
