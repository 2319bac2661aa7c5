import { buildFederatedSchema, type SubgraphDefinition } from '../../lib/subgraph';
import { AccessResolver } from './schema/resolvers';
import { createAccessServices, type AccessServices } from './services';
import { accessStore } from './store';

/** The prediction API's credentials: API keys, plans and daily quotas. */
export const accessSubgraph: SubgraphDefinition<AccessServices> = {
  name: 'access',
  store: accessStore,
  createServices: ({ store }) => createAccessServices(store),
  buildSchema: (services) => buildFederatedSchema({ resolvers: [AccessResolver], services }),
  async start(services, { config }) {
    const { generatedKey } = await services.apiKeys.bootstrapAdmin(config.ADMIN_API_KEY);
    return generatedKey ? { generatedCredentials: { ADMIN_API_KEY: generatedKey } } : undefined;
  },
};
