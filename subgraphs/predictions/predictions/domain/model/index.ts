/**
 * Match-outcome models: Dixon–Coles, Elo and pi-ratings (each through an ordered logit), and
 * their ensemble; walk-forward backtesting and forecast metrics. Pure TypeScript.
 */
export * from './types';
export { defaultSpec, fitModel, forecast, resolveHyper } from './models';
export { walkForward, defaultEvaluationWindow, type BacktestOptions, type BacktestRow, type BacktestResult } from './backtest';
export {
  CALIBRATION_BIN_WIDTH,
  CONFIDENCE_BANDS,
  calibrationOf,
  computeMetrics,
  confidenceBand,
  confidenceOf,
  predictedOutcome,
  rankedProbabilityScore,
  brierScore,
  logLoss,
  type Calibration,
  type ConfidenceBand,
  type Metrics,
  type ReliabilityBin,
  type ReliabilityTable,
} from './metrics';
export { fitEnsembleWeights, combineForecasts, ENSEMBLE_COMPONENTS, WEIGHT_KEYS } from './ensemble';
export { toTrainingMatches, seasonOf, addDays, type MatchRecord } from './data';
export { applyResults, hasStrengths, refitStrengths, strengthsOf, withStrengths } from './live';
