import { IdempotentRequests } from '../../lib/idempotency';
import type { SubgraphDeps } from '../../lib/subgraph';
import { NodeGate, nodeStateFromSupergraph } from '../node/gate';
import { Banking } from './domain/banking';
import { LedgerClient } from '../../lib/ledger-client';
import {
  HttpMobileMoney,
  HttpProviderClient,
  HttpRail,
  HttpRamp,
  SandboxMobileMoney,
  SandboxRail,
  SandboxRamp,
  type BankingProviders,
} from './domain/providers';
import { BankingStore } from './store/banking-store';

export interface BankingServices {
  banking: Banking;
  gate: NodeGate;
  store: BankingStore;
  providers: BankingProviders;
}

/** The sandbox (offline) unless BANKING_PROVIDER_URL names a provider's API, then the HTTP clients. */
export function bankingProviders(config: SubgraphDeps['config']): BankingProviders {
  if (!config.BANKING_PROVIDER_URL) {
    const rail = new SandboxRail();
    return { rails: { iban: rail, nuban: rail }, mobileMoney: new SandboxMobileMoney(), ramp: new SandboxRamp() };
  }
  const client = new HttpProviderClient({
    baseUrl: config.BANKING_PROVIDER_URL,
    apiKey: config.BANKING_PROVIDER_API_KEY ?? '',
    signingSecret: config.BANKING_WEBHOOK_SECRET ?? '',
    timeoutMs: config.BANKING_PROVIDER_TIMEOUT_MS,
  });
  const rail = new HttpRail(client);
  return { rails: { iban: rail, nuban: rail }, mobileMoney: new HttpMobileMoney(client), ramp: new HttpRamp(client) };
}

export function createBankingServices({ store, supergraph, config }: SubgraphDeps): BankingServices {
  const bankingStore = new BankingStore(store);
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const providers = bankingProviders(config);
  const banking = new Banking(bankingStore, new LedgerClient(supergraph), providers, gate, new IdempotentRequests(store), config.BANKING_WEBHOOK_SECRET);
  return { banking, gate, store: bankingStore, providers };
}
