import { buildFederatedSchema, type SubgraphDefinition } from '../../lib/subgraph';
import { runStandaloneSubgraph } from '../../lib/subgraph-server';
import { createMailer } from '../../lib/mailer';
import { ApplicationResolver } from './schema/application-resolvers';
import { AccessResolver } from './schema/resolvers';
import { createAccessServices, type AccessServices } from './services';
import { accessStore } from './store';
import { KEY_CHANGED } from './store/api-key-store';
import { listen } from '../../lib/database';

/** The prediction API's credentials: API keys, plans, daily quotas and the applications for keys. */
export const accessSubgraph: SubgraphDefinition<AccessServices> = {
  name: 'access',
  store: accessStore,
  createServices: ({ store, config, logger }) => createAccessServices(store, { mailer: createMailer(config, logger), config, logger }),
  buildSchema: (services) => buildFederatedSchema({ resolvers: [AccessResolver, ApplicationResolver], services }),
  async start(services, { config, databaseUrl, logger }) {
    // a key revoked or re-planned by any process leaves this process's cache at once
    stopListening.set(services, listen(databaseUrl, KEY_CHANGED, (prefix) => services.apiKeys.forget(prefix), logger));
    const { generatedKey } = await services.apiKeys.bootstrapAdmin(config.ADMIN_API_KEY);
    return generatedKey ? { generatedCredentials: { ADMIN_API_KEY: generatedKey } } : undefined;
  },
  async stop(services) {
    await stopListening.get(services)?.();
  },
};

const stopListening = new WeakMap<AccessServices, () => Promise<void>>();

if (require.main === module) void runStandaloneSubgraph(accessSubgraph);
