import { PROVIDER_CREDENTIAL_CHANGED } from '../kernel/provider-secrets';
import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { startAuditRelay } from '../kernel/audit';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { ComplianceResolver, KycVerificationUserResolver } from './schema/resolvers';
import { createComplianceServices, type ComplianceServices } from './services';
import { complianceStore } from './store';
import { financeProduct } from '../product';

const EXPIRY_SWEEP_MS = 60_000;

/** Identity verification (KYC) of the finance node: verifications, documents, provider decisions, expiry. */
export const complianceSubgraph = defineSubgraph<ComplianceServices, 'compliance'>({
  name: 'compliance',
  store: complianceStore,
  createServices: createComplianceServices,
  buildSchema: (services) =>
    buildFinanceSchema({ subgraph: 'compliance', store: (s) => s.store.store, resolvers: [ComplianceResolver, KycVerificationUserResolver], services }),
  async start(services, { notifications, jobs, logger }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    await startAuditRelay(services.audit, { jobs, notifications, logger });
    notifications.on(PROVIDER_CREDENTIAL_CHANGED, (provider) => services.providerSecrets.evict(provider));
    // verified levels lapse at their expiry
    sweeps.set(
      services,
      setInterval(() => {
        services.kyc.expireDue().catch((err: unknown) => logger.warn({ err }, 'KYC expiry sweep failed'));
      }, EXPIRY_SWEEP_MS).unref(),
    );
  },
  async stop(services) {
    clearInterval(sweeps.get(services));
  },
});

const sweeps = new WeakMap<ComplianceServices, NodeJS.Timeout>();

if (require.main === module) void runStandaloneSubgraph(complianceSubgraph, financeProduct);
