import type { PredictionStore } from '../store/prediction-store';
import type { ActiveModel } from './active-model';
import { CONFIDENCE_BANDS, calibrationOf } from './model';

export interface Overview {
  versionNumber: number | null;
  /** Predictions whose result is known (the track record): the figures below are over them. */
  totalPredictions: number;
  resolvedPredictions: number;
  /** Predictions still waiting for their result (upcoming, or kicked off and awaiting the result). */
  openPredictions: number;
  /** Share of resolved predictions that were right (0 when none is resolved yet). */
  accuracy: number;
  /** Mean confidence of the resolved predictions. */
  averageConfidence: number;
}

export interface ConfidenceDistribution {
  high: number;
  medium: number;
  low: number;
  thresholds: { high: number; medium: number };
  hitRates: { high: number | null; medium: number | null; low: number | null };
}

export interface VersionAccuracy {
  number: number;
  name: string;
  predictions: number;
  resolved: number;
  accuracy: number | null;
}

export const versionName = (n: number) => `version_${n}`;

/**
 * Statistics over stored predictions. Overview and confidence describe the active version (its
 * walk-forward backtest plus its live predictions); the comparison covers every version.
 */
export class Statistics {
  constructor(
    private readonly store: PredictionStore,
    private readonly active: ActiveModel,
  ) {}

  async overview(): Promise<Overview> {
    const a = await this.active.get();
    if (!a) return { versionNumber: null, totalPredictions: 0, resolvedPredictions: 0, openPredictions: 0, accuracy: 0, averageConfidence: 0 };
    const o = await this.store.overview(a.version.id);
    return {
      versionNumber: a.version.number,
      totalPredictions: o.resolved,
      resolvedPredictions: o.resolved,
      openPredictions: o.total - o.resolved,
      accuracy: o.resolved ? o.correct / o.resolved : 0,
      averageConfidence: o.averageConfidence ?? 0,
    };
  }

  async confidence(): Promise<ConfidenceDistribution> {
    const a = await this.active.get();
    const thresholds = { ...CONFIDENCE_BANDS };
    if (!a) return { high: 0, medium: 0, low: 0, thresholds, hitRates: { high: null, medium: null, low: null } };
    const b = await this.store.confidenceBands(a.version.id, thresholds.high, thresholds.medium);
    return { high: b.high, medium: b.medium, low: b.low, thresholds, hitRates: { high: b.highHitRate, medium: b.mediumHitRate, low: b.lowHitRate } };
  }

  /** Versions trained before calibration was recorded get it from their stored backtest forecasts. */
  async recordMissingCalibration(): Promise<void> {
    for (const id of await this.store.versionsWithoutCalibration()) {
      const rows = await this.store.backtestForecasts(id);
      const calibration = calibrationOf(rows.map((r) => ({ forecast: { ...r, expHomeGoals: 0, expAwayGoals: 0, expGoalDiff: 0 }, actual: r.actual })));
      await this.store.setCalibration(id, calibration);
    }
  }

  async compareVersions(): Promise<VersionAccuracy[]> {
    return (await this.store.accuracyByVersion()).map((v) => ({
      number: v.number,
      name: versionName(v.number),
      predictions: v.predictions,
      resolved: v.resolved,
      accuracy: v.accuracy,
    }));
  }
}
