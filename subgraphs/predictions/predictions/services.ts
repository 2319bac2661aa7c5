import type { SubgraphDeps } from '../../../lib/subgraph';
import { ActiveModel } from './domain/active-model';
import type { FootballData } from './domain/football-data';
import { SupergraphFootballData } from './store/football-client';
import { MODEL_KINDS, type ModelKind } from './domain/model';
import { PairingPredictions } from './domain/pairings';
import { PredictionQueries } from './domain/queries';
import { Statistics } from './domain/statistics';
import { TrainingService } from './domain/training';
import { UpcomingPredictions } from './domain/upcoming';
import { LiveRatings } from './domain/live-ratings';
import { PredictionStore } from './store/prediction-store';
import { FollowStore } from './store/follow-store';
import { FollowService } from './domain/follows';

export interface PredictionServices {
  store: PredictionStore;
  active: ActiveModel;
  upcoming: UpcomingPredictions;
  live: LiveRatings;
  training: TrainingService;
  statistics: Statistics;
  pairings: PairingPredictions;
  football: FootballData;
  /** Follows of the API clients' subscribers (the bot's users) and the notices due to them. */
  follows: FollowService;
  /** Reads for the API (resolvers go through it, never through the store). */
  queries: PredictionQueries;
}

export function createPredictionServices(deps: SubgraphDeps): PredictionServices {
  const store = new PredictionStore(deps.store);
  const clock = deps.clock ?? (() => new Date());
  const football = new SupergraphFootballData(deps.supergraph);
  const active = new ActiveModel(store);
  const upcoming = new UpcomingPredictions(store, football, active, deps.logger, clock);
  const kind = deps.config.PREDICTION_MODEL as ModelKind;
  if (!MODEL_KINDS.includes(kind)) throw new Error(`PREDICTION_MODEL must be one of ${MODEL_KINDS.join(', ')}`);
  const live = new LiveRatings(store, football, active, upcoming, deps.jobs, deps.logger);
  const training = new TrainingService(
    store,
    football,
    live,
    active,
    deps.jobs,
    { defaultKind: kind, evaluationSeasons: deps.config.BACKTEST_SEASONS },
    deps.logger,
  );
  const statistics = new Statistics(store, active);
  const queries = new PredictionQueries(store, active, statistics, football, clock);
  return {
    store,
    active,
    upcoming,
    live,
    training,
    statistics,
    pairings: new PairingPredictions(football, active, clock, deps.config.RATINGS_STALE_DAYS),
    football,
    queries,
    follows: new FollowService(new FollowStore(deps.store), football, active, clock),
  };
}
