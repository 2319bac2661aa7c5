import { IdempotentRequests } from '../../../lib/idempotency';
import { objectStoreFor } from '../../../lib/object-store';
import { ProviderSecrets, providerSecretsFromSupergraph } from '../kernel/provider-secrets';
import type { SubgraphDeps } from '../../../lib/subgraph';
import type { KycLevel } from '../kernel/kyc';
import { AuditOutbox, deliverThroughSupergraph } from '../kernel/audit';
import { NodeGate, nodeStateFromSupergraph } from '../kernel/gate';
import { providerCredential } from '../kernel/provider-credentials';
import { sandboxOrDisabled } from '../kernel/sandbox';
import { KycService } from './domain/kyc';
import type { VerificationProvider } from './domain/provider';
import { SumsubVerificationProvider } from './domain/sumsub';
import { SandboxVerificationProvider } from './sandbox/provider';
import { ComplianceStore } from './store/compliance-store';

export interface ComplianceServices {
  kyc: KycService;
  /** Operator decisions audited in their transaction; relayed to the node's audit log (index.ts). */
  audit: AuditOutbox;
  gate: NodeGate;
  store: ComplianceStore;
  providerSecrets: ProviderSecrets;
}

const SET_LEVEL = `mutation ComplianceSetKycLevel($user: ID!, $level: NodeKycLevel!) { setNodeUserKycLevel(user: $user, level: $level) { kycLevel } }`;

/**
 * The provider KYC_PROVIDER names: the offline sandbox, or Sumsub's protocol at KYC_PROVIDER_URL (its
 * secrets from KYC_PROVIDER_APP_TOKEN / KYC_PROVIDER_SECRET_KEY / KYC_WEBHOOK_SECRET, else the admin
 * console's `kyc` records).
 */
function providerFor(config: SubgraphDeps['config'], secrets: ProviderSecrets): VerificationProvider {
  if (config.KYC_PROVIDER === 'sumsub') {
    return new SumsubVerificationProvider({
      baseUrl: config.KYC_PROVIDER_URL,
      appToken: () => secrets.get(providerCredential('kyc', 'app_token')),
      secretKey: () => secrets.get(providerCredential('kyc', 'secret_key')),
      webhookSecret: () => secrets.get(providerCredential('kyc', 'webhook_secret')),
    });
  }
  return sandboxOrDisabled(config, 'kyc', () => new SandboxVerificationProvider());
}

export function createComplianceServices({ store, supergraph, config }: SubgraphDeps): ComplianceServices {
  const complianceStore = new ComplianceStore(store);
  // identity holds the level every principal carries; this subgraph's service principal may set it (KYC_LEVEL_WRITERS)
  const writeLevel = async (userId: string, level: KycLevel) => {
    await supergraph.request(SET_LEVEL, { user: userId, level: level.toUpperCase() });
  };
  const providerSecrets = new ProviderSecrets(config, providerSecretsFromSupergraph(supergraph));
  const audit = new AuditOutbox('compliance', store.pool, deliverThroughSupergraph(supergraph));
  return {
    kyc: new KycService(
      complianceStore,
      providerFor(config, providerSecrets),
      objectStoreFor(config),
      writeLevel,
      config.KYC_DOCUMENT_MAX_BYTES,
      new IdempotentRequests(store),
      audit,
    ),
    audit,
    gate: new NodeGate(nodeStateFromSupergraph(supergraph)),
    store: complianceStore,
    providerSecrets,
  };
}
