import { IdempotentRequests } from '../../lib/idempotency';
import { objectStoreFor } from '../../lib/object-store';
import type { SubgraphDeps } from '../../lib/subgraph';
import type { KycLevel } from '../identity/credential';
import { NodeGate, nodeStateFromSupergraph } from '../node/gate';
import { KycService } from './domain/kyc';
import type { VerificationProvider } from './domain/provider';
import { SumsubVerificationProvider } from './domain/sumsub';
import { SandboxVerificationProvider } from './sandbox/provider';
import { ComplianceStore } from './store/compliance-store';

export interface ComplianceServices {
  kyc: KycService;
  gate: NodeGate;
  store: ComplianceStore;
}

const SET_LEVEL = `mutation ComplianceSetKycLevel($user: ID!, $level: NodeKycLevel!) { setNodeUserKycLevel(user: $user, level: $level) { kycLevel } }`;

/** The provider KYC_PROVIDER names: the offline sandbox, or Sumsub's protocol at KYC_PROVIDER_URL. */
function providerFor(config: SubgraphDeps['config']): VerificationProvider {
  if (config.KYC_PROVIDER === 'sumsub') {
    return new SumsubVerificationProvider({
      baseUrl: config.KYC_PROVIDER_URL,
      appToken: config.KYC_PROVIDER_APP_TOKEN ?? '',
      secretKey: config.KYC_PROVIDER_SECRET_KEY ?? '',
      webhookSecret: config.KYC_WEBHOOK_SECRET ?? '',
    });
  }
  return new SandboxVerificationProvider();
}

export function createComplianceServices({ store, supergraph, config }: SubgraphDeps): ComplianceServices {
  const complianceStore = new ComplianceStore(store);
  // identity holds the level every principal carries; this subgraph's service principal may set it (KYC_LEVEL_WRITERS)
  const writeLevel = async (userId: string, level: KycLevel) => {
    await supergraph.request(SET_LEVEL, { user: userId, level: level.toUpperCase() });
  };
  return {
    kyc: new KycService(complianceStore, providerFor(config), objectStoreFor(config), writeLevel, config.KYC_DOCUMENT_MAX_BYTES, new IdempotentRequests(store)),
    gate: new NodeGate(nodeStateFromSupergraph(supergraph)),
    store: complianceStore,
  };
}
