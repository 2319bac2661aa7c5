import type { StoreDefinition } from '../../../lib/database';
import { PredictionsInit1732200000200 } from './migrations/1732200000200-PredictionsInit';
import { PredictionTeamNames1732300000200 } from './migrations/1732300000200-PredictionTeamNames';

export const predictionsStore: StoreDefinition = {
  schema: 'predictions',
  entities: [],
  migrations: [PredictionsInit1732200000200, PredictionTeamNames1732300000200],
};
