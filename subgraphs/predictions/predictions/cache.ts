import type { SubgraphCachePolicy } from '../../../lib/cache-policy';

/**
 * Predictions, versions and their statistics are the same for every caller that may read them; the
 * training jobs are not cached (their progress changes by the second, and an error is shown to
 * administrators only). Evicted by any change to these tables (their triggers: PredictionDataChanges
 * migration) and to the football data it reads (team look-ups of `predict`). The active model, held
 * in memory, announces again once it is dropped (index.ts).
 */
export const predictionsCache: SubgraphCachePolicy = {
  schema: 'predictions',
  queries: [
    'predictions',
    'upcomingPredictions',
    'latestPredictions',
    'predictionOverview',
    'confidenceDistribution',
    'modelVersions',
    'activeModelVersion',
    'predict',
    'backtestPredictions',
  ],
  types: [
    'Prediction',
    'Probabilities',
    'ExpectedGoals',
    'Match',
    'Team',
    'PredictionOverview',
    'ConfidenceDistribution',
    'BandThresholds',
    'ModelVersion',
    'ModelMetrics',
    'ClassAccuracy',
    'BandStats',
    'Calibration',
    'ReliabilityTable',
    'LiveRatingsState',
    'PairingPrediction',
    'RatingAge',
    'PredictionPage',
    'PredictionPageInfo',
    'LatestPredictions',
  ],
  tables: ['prediction', 'model_version', 'version_result'],
  reads: ['football'],
};
