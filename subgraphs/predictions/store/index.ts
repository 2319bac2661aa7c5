import type { StoreDefinition } from '../../../lib/database';
import { PredictionsInit1732200000200 } from './migrations/1732200000200-PredictionsInit';

export const predictionsStore: StoreDefinition = {
  schema: 'predictions',
  entities: [],
  migrations: [PredictionsInit1732200000200],
};
