import { buildFederatedSchema, type SubgraphDefinition } from '../../lib/subgraph';
import { runStandaloneSubgraph } from '../../lib/subgraph-server';
import { createMailer } from '../../lib/mailer';
import { ApplicationResolver } from './schema/application-resolvers';
import { AccessResolver } from './schema/resolvers';
import { createAccessServices, type AccessServices } from './services';
import { accessStore } from './store';
import { KEY_CHANGED } from './store/api-key-store';

/** The prediction API's credentials: API keys, plans, daily quotas and the applications for keys. */
export const accessSubgraph: SubgraphDefinition<AccessServices> = {
  name: 'access',
  store: accessStore,
  createServices: ({ store, config, logger }) => createAccessServices(store, { mailer: createMailer(config, logger), config, logger }),
  buildSchema: (services) => buildFederatedSchema({ resolvers: [AccessResolver, ApplicationResolver], services }),
  async start(services, { config, notifications }) {
    // a key revoked or re-planned by any process leaves this process's cache at once
    notifications.on(KEY_CHANGED, (prefix) => services.apiKeys.forget(prefix));
    const { generatedKey } = await services.apiKeys.bootstrapAdmin(config.ADMIN_API_KEY);
    return generatedKey ? { generatedCredentials: { ADMIN_API_KEY: generatedKey } } : undefined;
  },
};

if (require.main === module) void runStandaloneSubgraph(accessSubgraph);
