import type { SubgraphDeps } from '../../lib/subgraph';
import { ActiveModel } from './domain/active-model';
import { SupergraphFootballData, type FootballData } from './domain/football-data';
import { MODEL_KINDS, type ModelKind } from './domain/model';
import { PairingPredictions } from './domain/pairings';
import { Statistics } from './domain/statistics';
import { TrainingService } from './domain/training';
import { UpcomingPredictions } from './domain/upcoming';
import { PredictionStore } from './store/prediction-store';

export interface PredictionServices {
  store: PredictionStore;
  active: ActiveModel;
  upcoming: UpcomingPredictions;
  training: TrainingService;
  statistics: Statistics;
  pairings: PairingPredictions;
  football: FootballData;
}

export function createPredictionServices(deps: SubgraphDeps): PredictionServices {
  const store = new PredictionStore(deps.store);
  const football = new SupergraphFootballData(deps.supergraph);
  const active = new ActiveModel(store);
  const upcoming = new UpcomingPredictions(store, football, active, deps.logger);
  const kind = deps.config.PREDICTION_MODEL as ModelKind;
  if (!MODEL_KINDS.includes(kind)) throw new Error(`PREDICTION_MODEL must be one of ${MODEL_KINDS.join(', ')}`);
  const training = new TrainingService(store, football, upcoming, active, deps.jobs, { defaultKind: kind, evaluationSeasons: deps.config.BACKTEST_SEASONS }, deps.logger);
  return { store, active, upcoming, training, statistics: new Statistics(store, active), pairings: new PairingPredictions(football, active), football };
}
