import { IdempotentRequests } from '../../../lib/idempotency';
import { LedgerClient } from '../kernel/ledger-client';
import { ProviderSecrets, providerSecretsFromSupergraph } from '../kernel/provider-secrets';
import { secretBoxFor } from '../../../lib/secret-box';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { sandboxOrDisabled } from '../kernel/sandbox';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { providerCredential } from '../kernel/provider-credentials';
import { CryptoService } from './domain/crypto';
import { HttpExchange, SandboxExchange, type CryptoExchange } from './domain/exchange';
import { CryptoStore } from './store/crypto-store';

export interface CryptoServices {
  crypto: CryptoService;
  exchange: CryptoExchange;
  gate: NodeGate;
  store: CryptoStore;
  providerSecrets: ProviderSecrets;
}

/**
 * CRYPTO_EXCHANGE_URL: the exchange over HTTP, its API key and webhook secret read at each use
 * (CRYPTO_EXCHANGE_API_KEY / CRYPTO_EXCHANGE_WEBHOOK_SECRET, else the admin console's crypto_exchange
 * records); unset: the offline sandbox.
 */
export function cryptoExchangeFrom(config: SubgraphDeps['config'], derive: (purpose: string) => Buffer, secrets: ProviderSecrets): CryptoExchange {
  if (!config.CRYPTO_EXCHANGE_URL) return sandboxOrDisabled(config, 'crypto', () => new SandboxExchange(derive('crypto:sandbox-webhook').toString('hex')));
  return new HttpExchange({
    baseUrl: config.CRYPTO_EXCHANGE_URL,
    apiKey: () => secrets.get(providerCredential('crypto_exchange', 'api_key')),
    webhookSecret: () => secrets.get(providerCredential('crypto_exchange', 'webhook_secret')),
  });
}

export function createCryptoServices({ store, supergraph, config }: SubgraphDeps): CryptoServices {
  const box = secretBoxFor({ masterKey: config.MASTER_KEY, dataDir: config.dataDir });
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const cryptoStore = new CryptoStore(store);
  const providerSecrets = new ProviderSecrets(config, providerSecretsFromSupergraph(supergraph));
  const exchange = cryptoExchangeFrom(config, (purpose) => box.derive(purpose), providerSecrets);
  return {
    crypto: new CryptoService(cryptoStore, exchange, new LedgerClient(supergraph), gate, new IdempotentRequests(store), {
      feeBps: config.CRYPTO_SWAP_FEE_BPS,
      quoteTtlSeconds: config.CRYPTO_QUOTE_TTL_SECONDS,
    }),
    exchange,
    gate,
    store: cryptoStore,
    providerSecrets,
  };
}
