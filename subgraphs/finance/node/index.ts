import { PROVIDER_CREDENTIAL_CHANGED } from '../kernel/provider-secrets';
import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { nodeCommands } from './cli';
import { formatChecks } from './domain/checks';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { NodeResolver } from './schema/resolvers';
import { createNodeServices, type NodeServices } from './services';
import { nodeStore } from './store';
import { financeProduct } from '../product';

/** The finance node's own domain: settings record (16 toggles), branding, licence state and system checks, provider credentials, registry activation, the assistant. */
export const nodeSubgraph = defineSubgraph<NodeServices, 'node'>({
  name: 'node',
  store: nodeStore,
  commands: nodeCommands,
  createServices: createNodeServices,
  buildSchema: (services) => buildFinanceSchema({ subgraph: 'node', store: (s) => s.store, resolvers: [NodeResolver], services }),
  async start(services, { notifications, logger }) {
    notifications.on(NODE_STATE_CHANGED, () => {
      services.node.evict();
      services.gate.evict();
      // `finance:activate` in another process registered this node: heartbeats start here
      services.registry.startHeartbeats().catch((err: unknown) => logger.warn({ err }, 'could not start registry heartbeats'));
    });
    notifications.on(PROVIDER_CREDENTIAL_CHANGED, (provider) => services.providerSecrets.evict(provider));
    await services.node.installFromEnvironment();
    // Django runs its checks before serving; the node logs them and keeps serving (licence errors: read-only)
    const checks = await services.node.checks();
    const problems = checks.filter((c) => c.level !== 'INFO');
    if (problems.length) logger.warn(`\n${formatChecks(problems, [])}`);
    await services.registry.startHeartbeats();
    services.registry.activateFromEnvironment();
  },
  async stop(services) {
    await services.registry.stop();
  },
});

if (require.main === module) void runStandaloneSubgraph(nodeSubgraph, financeProduct);
