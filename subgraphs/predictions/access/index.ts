import { buildFederatedSchema, defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { ApplicationResolver } from './schema/application-resolvers';
import { AccessResolver } from './schema/resolvers';
import { createAccessServices, type AccessServices } from './services';
import { accessStore } from './store';
import { accessCommands } from './cli';
import { KEY_CHANGED } from './credential';
import { predictionsProduct } from '../product';

/** The prediction API's credentials: API keys, plans, daily quotas and the applications for keys. */
export const accessSubgraph = defineSubgraph<AccessServices, 'access'>({
  name: 'access',
  store: accessStore,
  commands: accessCommands,
  createServices: createAccessServices,
  buildSchema: (services) => buildFederatedSchema({ principals: ['api-key'], resolvers: [AccessResolver, ApplicationResolver], services }),
  async start(services, { config, notifications, logger }) {
    // a key revoked or re-planned by any process leaves this process's cache at once
    notifications.on(KEY_CHANGED, (prefix) => services.apiKeys.forget(prefix));
    const { generatedKey, revokedPrefixes } = await services.apiKeys.bootstrapAdmin(config.ADMIN_API_KEY);
    if (revokedPrefixes) logger.warn({ revokedPrefixes }, 'ADMIN_API_KEY replaced the administrator key: the previous one is revoked');
    await services.mailbox.start();
    return generatedKey ? { generatedCredentials: { ADMIN_API_KEY: generatedKey } } : undefined;
  },
  async stop(services) {
    await services.mailbox.stop();
    await services.mailReader.close();
  },
});

if (require.main === module) void runStandaloneSubgraph(accessSubgraph, predictionsProduct);
