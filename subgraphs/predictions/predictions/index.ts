import { buildFederatedSchema, defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { MATCHES_CHANGED } from '../kernel/events';
import { MatchPredictionResolver, PredictionResolver } from './schema/resolvers';
import { FollowResolver } from './schema/follow-resolvers';
import { createPredictionServices, type PredictionServices } from './services';
import { predictionsStore } from './store';
import { MODEL_CHANGED } from './store/prediction-store';
import { announceDataChange } from '../../../lib/cache-policy';
import { predictionsProduct } from '../product';

/** Model versions, predictions (backtest and upcoming), statistics and retraining. */
export const predictionsSubgraph = defineSubgraph<PredictionServices, 'predictions'>({
  name: 'predictions',
  store: predictionsStore,
  createServices: createPredictionServices,
  buildSchema: (services) =>
    buildFederatedSchema({
      principals: ['api-key'],
      resolvers: [PredictionResolver, MatchPredictionResolver, FollowResolver],
      services,
      referenceResolvers: { Match: { __resolveReference: (ref: { id: number }) => ({ id: ref.id }) } },
    }),
  async start(services, { notifications, logger, store }) {
    // runs whose process died are failed at once (with a reason); then this process takes jobs
    await services.training.startWorker();
    await services.live.startWorker();
    const resultsChanged = () => void services.live.resultsChanged().catch((err) => logger.error({ err }, 'live ratings update failed'));
    // the first start trains version 1 in the background; `npm start` does not wait for it
    if ((await services.store.versionCount()) === 0 && !(await services.store.activeRun())) {
      await services.training.request(undefined, 'first start');
    } else {
      // results imported while this process was down go into the ratings now
      resultsChanged();
    }
    void services.statistics.recordMissingCalibration().catch((err) => logger.error({ err }, 'recording calibration failed'));
    notifications.on(MATCHES_CHANGED, resultsChanged);
    // another replica activated a version or changed its ratings: drop the cached model, then evict
    // the answers made from it since the tables announced the change (lib/cache-policy.ts)
    notifications.on(MODEL_CHANGED, () => {
      services.active.invalidate();
      announceDataChange(store).catch((err: unknown) => logger.warn({ err }, 'could not announce the change of the active model'));
    });
  },
  async stop(services) {
    await services.training.stopWorker();
    await services.live.stopWorker();
    await services.upcoming.idle();
  },
});

if (require.main === module) void runStandaloneSubgraph(predictionsSubgraph, predictionsProduct);
