import { randomBytes } from 'node:crypto';
import { IdempotentRequests } from '../../../lib/idempotency';
import { ProviderSecrets, providerSecretsFromSupergraph } from '../kernel/provider-secrets';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { AuditOutbox, deliverThroughSupergraph } from '../kernel/audit';
import { sandboxOrDisabled } from '../kernel/sandbox';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { providerCredential } from '../kernel/provider-credentials';
import { Banking } from './domain/banking';
import { LedgerClient } from '../kernel/ledger-client';
import {
  HttpMobileMoney,
  HttpProviderClient,
  HttpRail,
  HttpRamp,
  SandboxMobileMoney,
  SandboxRail,
  SandboxRamp,
  type BankingProviders,
  type SandboxCallbacks,
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
export function bankingProviders(config: SubgraphDeps['config'], secrets: ProviderSecrets, callbacks?: SandboxCallbacks): BankingProviders {
  if (!config.BANKING_PROVIDER_URL) {
    const rail = sandboxOrDisabled(config, 'banking', () => new SandboxRail());
    return {
      rails: { iban: rail, nuban: rail },
      mobileMoney: sandboxOrDisabled(config, 'banking', () => new SandboxMobileMoney(callbacks)),
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

/**
 * The webhook secret: BANKING_WEBHOOK_SECRET or the console's record; with the sandbox and neither set,
 * one of this process's own (random, known to no one else), so that the sandbox's callbacks are signed
 * and verified as a real provider's are while no outside caller can sign one.
 */
function webhookSecretOf(config: SubgraphDeps['config'], secrets: ProviderSecrets): () => Promise<string | undefined> {
  const sandboxSecret = config.BANKING_PROVIDER_URL ? undefined : randomBytes(32).toString('hex');
  return async () => (await secrets.get(BANKING_CREDENTIALS.signingSecret)) ?? sandboxSecret;
}

export function createBankingServices({ store, supergraph, config, logger }: SubgraphDeps): BankingServices {
  const bankingStore = new BankingStore(store);
  const gate = new NodeGate(nodeStateFromSupergraph(supergraph));
  const providerSecrets = new ProviderSecrets(config, providerSecretsFromSupergraph(supergraph));
  const webhookSecret = webhookSecretOf(config, providerSecrets);
  const seconds = config.BANKING_SANDBOX_CALLBACK_SECONDS;
  const callbacks: SandboxCallbacks | undefined = config.BANKING_PROVIDER_URL
    ? undefined
    : {
        delayMs: seconds === null ? null : seconds * 1000,
        secret: webhookSecret,
        onError: (err) => logger.warn({ err }, 'banking sandbox: a callback could not be delivered'),
      };
  const providers = bankingProviders(config, providerSecrets, callbacks);
  const audit = new AuditOutbox('banking', store.pool, deliverThroughSupergraph(supergraph));
  const banking = new Banking(
    bankingStore,
    new LedgerClient(supergraph),
    providers,
    gate,
    new IdempotentRequests(store),
    webhookSecret,
    {
      sandbox: callbacks,
      depositExpiryMinutes: config.BANKING_DEPOSIT_EXPIRY_MINUTES,
      logger,
    },
    audit,
  );
  // the sandbox calls back through the webhook receiver, as the provider's callbacks arrive
  if (callbacks) callbacks.deliver = (provider, payload, timestamp, signature) => banking.receiveWebhook(provider, payload, timestamp, signature);
  return { banking, gate, store: bankingStore, providers, providerSecrets, audit };
}
