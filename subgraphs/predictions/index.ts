import { buildFederatedSchema, type SubgraphDefinition } from '../../lib/subgraph';
import { runStandaloneSubgraph } from '../../lib/subgraph-server';
import { MATCHES_CHANGED } from '../../lib/events';
import { MatchPredictionResolver, PredictionResolver } from './schema/resolvers';
import { createPredictionServices, type PredictionServices } from './services';
import { predictionsStore } from './store';
import { VERSION_ACTIVATED } from './store/prediction-store';

/** Model versions, predictions (backtest and upcoming), statistics and retraining. */
export const predictionsSubgraph: SubgraphDefinition<PredictionServices> = {
  name: 'predictions',
  store: predictionsStore,
  createServices: (deps) => createPredictionServices(deps),
  buildSchema: (services) =>
    buildFederatedSchema({
      resolvers: [PredictionResolver, MatchPredictionResolver],
      services,
      referenceResolvers: { Match: { __resolveReference: (ref: { id: number }) => ({ id: ref.id }) } },
    }),
  async start(services, { notifications, logger }) {
    await services.store.failAbandonedRuns();
    await services.training.startWorker();
    // the first start trains version 1 in the background; `npm start` does not wait for it
    if ((await services.store.versionCount()) === 0 && !(await services.store.activeRun())) {
      await services.training.request(undefined, 'first start');
    } else {
      void services.upcoming.refresh().catch((err) => logger.error({ err }, 'refreshing upcoming predictions failed'));
    }
    notifications.on(MATCHES_CHANGED, () => void services.upcoming.refresh().catch((err) => logger.error({ err }, 'refresh failed')));
    // another replica activated a version: drop the cached model
    notifications.on(VERSION_ACTIVATED, () => services.active.invalidate());
  },
  async stop(services) {
    await services.training.stopWorker();
    await services.upcoming.idle();
  },
};

if (require.main === module) void runStandaloneSubgraph(predictionsSubgraph);
