import { IdempotentRequests } from '../../../lib/idempotency';
import { ProviderSecrets, providerSecretsFromSupergraph } from '../../../lib/provider-secrets';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { AuditOutbox, deliverThroughSupergraph } from '../kernel/audit';
import { sandboxOrDisabled } from '../kernel/sandbox';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { providerCredential } from '../kernel/provider-credentials';
import { Banking } from './domain/banking';
import { LedgerClient } from '../../../lib/ledger-client';
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
  providerSecrets: ProviderSecrets;
  /** Operator decisions audited in their transaction; relayed to the node's audit log (index.ts). */
  audit: AuditOutbox;
}

/** The banking provider's credentials: BANKING_PROVIDER_API_KEY / BANKING_WEBHOOK_SECRET, else the admin console's records. */
export const BANKING_CREDENTIALS = { apiKey: providerCredential('banking', 'api_key'), signingSecret: providerCredential('banking', 'webhook_secret') };

/** The sandbox (offline) unless BANKING_PROVIDER_URL names a provider's API, then the HTTP clients. */
export function bankingProviders(config: SubgraphDeps['config'], secrets: ProviderSecrets): BankingProviders {
  if (!config.BANKING_PROVIDER_URL) {
    const rail = sandboxOrDisabled(config, 'banking', () => new SandboxRail());
    return {
      rails: { iban: rail, nuban: rail },
      mobileMoney: sandboxOrDisabled(config, 'banking', () => new SandboxMobileMoney()),
      ramp: sandboxOrDisabled(config, 'banking', () => new SandboxRamp()),
    };
  }
  const client = new HttpProviderClient({
    baseUrl: config.BANKING_PROVIDER_URL,
    credentials: () => secrets.all(BANKING_CREDENTIALS),
    timeoutMs: config.BANKING_PROVIDER_TIMEOUT_MS,
  });
  const rail = new HttpRail(client);
  return { rails: { iban: rail, nuban: rail }, mobileMoney: new HttpMobileMoney(client), ramp: new HttpRamp(client) };
}

export function createBankingServices({ store, supergraph, config }: SubgraphDeps): BankingServices {
  const bankingStore = new BankingStore(store);
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const providerSecrets = new ProviderSecrets(config, providerSecretsFromSupergraph(supergraph));
  const providers = bankingProviders(config, providerSecrets);
  const audit = new AuditOutbox('banking', store.pool, deliverThroughSupergraph(supergraph));
  const banking = new Banking(
    bankingStore,
    new LedgerClient(supergraph),
    providers,
    gate,
    new IdempotentRequests(store),
    () => providerSecrets.get(BANKING_CREDENTIALS.signingSecret),
    audit,
  );
  return { banking, gate, store: bankingStore, providers, providerSecrets, audit };
}
