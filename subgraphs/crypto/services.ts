import { IdempotentRequests } from '../../lib/idempotency';
import { LedgerClient } from '../../lib/ledger-client';
import { secretBoxFor } from '../../lib/secret-box';
import type { SubgraphDeps } from '../../lib/subgraph';
import { NodeGate, nodeStateFromSupergraph } from '../node/gate';
import { CryptoService } from './domain/crypto';
import { HttpExchange, SandboxExchange, type CryptoExchange } from './domain/exchange';
import { CryptoStore } from './store/crypto-store';

export interface CryptoServices {
  crypto: CryptoService;
  exchange: CryptoExchange;
  gate: NodeGate;
  store: CryptoStore;
}

/** CRYPTO_EXCHANGE_URL: the exchange over HTTP (its API key and webhook secret required); unset: the offline sandbox. */
export function cryptoExchangeFrom(config: SubgraphDeps['config'], derive: (purpose: string) => Buffer): CryptoExchange {
  if (!config.CRYPTO_EXCHANGE_URL) return new SandboxExchange(derive('crypto:sandbox-webhook').toString('hex'));
  if (!config.CRYPTO_EXCHANGE_API_KEY || !config.CRYPTO_EXCHANGE_WEBHOOK_SECRET) {
    throw new Error('CRYPTO_EXCHANGE_URL needs CRYPTO_EXCHANGE_API_KEY and CRYPTO_EXCHANGE_WEBHOOK_SECRET.');
  }
  return new HttpExchange({
    baseUrl: config.CRYPTO_EXCHANGE_URL,
    apiKey: config.CRYPTO_EXCHANGE_API_KEY,
    webhookSecret: config.CRYPTO_EXCHANGE_WEBHOOK_SECRET,
  });
}

export function createCryptoServices({ store, supergraph, config }: SubgraphDeps): CryptoServices {
  const box = secretBoxFor({ masterKey: config.MASTER_KEY, dataDir: config.dataDir });
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const cryptoStore = new CryptoStore(store);
  const exchange = cryptoExchangeFrom(config, (purpose) => box.derive(purpose));
  return {
    crypto: new CryptoService(cryptoStore, exchange, new LedgerClient(supergraph), gate, new IdempotentRequests(store), {
      feeBps: config.CRYPTO_SWAP_FEE_BPS,
      quoteTtlSeconds: config.CRYPTO_QUOTE_TTL_SECONDS,
    }),
    exchange,
    gate,
    store: cryptoStore,
  };
}
