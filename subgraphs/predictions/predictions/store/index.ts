import type { StoreDefinition } from '../../../../lib/database';
import { PredictionsInit1732200000200 } from './migrations/1732200000200-PredictionsInit';
import { PredictionTeamNames1732300000200 } from './migrations/1732300000200-PredictionTeamNames';
import { LiveRatings1732400000200 } from './migrations/1732400000200-LiveRatings';
import { TrainingRunOwner1732400000300 } from './migrations/1732400000300-TrainingRunOwner';
import { PredictionDataChanges1732500000200 } from './migrations/1732500000200-PredictionDataChanges';
import { PredictionDataChangesByRow1732600000200 } from './migrations/1732600000200-PredictionDataChangesByRow';
import { Follows1732700000200 } from './migrations/1732700000200-Follows';
import { RecentPredictionsIndex1732800000200 } from './migrations/1732800000200-RecentPredictionsIndex';

export const predictionsStore: StoreDefinition = {
  schema: 'predictions',
  entities: [],
  migrations: [
    PredictionsInit1732200000200,
    PredictionTeamNames1732300000200,
    LiveRatings1732400000200,
    TrainingRunOwner1732400000300,
    PredictionDataChanges1732500000200,
    PredictionDataChangesByRow1732600000200,
    Follows1732700000200,
    RecentPredictionsIndex1732800000200,
  ],
};
