/**
 * Forecast scores. Conventions (Constantinou & Fenton 2012 for the RPS; docs/predictions.md): RPS over the ordered
 * outcomes H > D > A, ½·Σ of the two squared cumulative differences (0..1); multiclass Brier
 * Σ over the three outcomes (0..2); natural-log log-loss; accuracy of the predicted outcome.
 */
import { CONFIDENCE_BANDS } from '../../vocabulary';
import { OUTCOMES, type Forecast, type Outcome } from './types';

export { CONFIDENCE_BANDS };

export type ConfidenceBand = 'high' | 'medium' | 'low';

export interface Metrics {
  count: number;
  /** Means over `count` rows; NaN when count is 0. */
  accuracy: number;
  rps: number;
  brier: number;
  logLoss: number;
  perClass: Record<Outcome, { predicted: number; correct: number; precision: number | null }>;
  bands: Record<ConfidenceBand, { count: number; hitRate: number | null }>;
  calibration: Calibration;
}

/** One band of predicted probability [from, to) (the last band includes 1). */
export interface ReliabilityBin {
  from: number;
  to: number;
  count: number;
  /** Mean predicted probability in the band; null when the band is empty. */
  predicted: number | null;
  /** Share of the band's forecasts whose event happened; null when the band is empty. */
  observed: number | null;
}

export interface ReliabilityTable {
  bins: ReliabilityBin[];
  /** Expected calibration error: Σ (count / n) · |observed − predicted| over the bins. */
  ece: number;
}

/**
 * Reliability of the probabilities: for each outcome, the forecasts grouped by the probability they
 * gave it, against how often it happened; and the same for the confidence (the predicted outcome's
 * probability against the hit rate).
 */
export interface Calibration {
  binWidth: number;
  outcomes: Record<Outcome, ReliabilityTable>;
  confidence: ReliabilityTable;
  /** Classwise ECE: the mean of the three outcomes' ECE. */
  ece: number;
}

/** Width of the reliability bands: ten bands over 0..1. */
export const CALIBRATION_BIN_WIDTH = 0.1;

/** The most probable outcome; ties go to home, then draw. Measured: no draw rule beats the argmax on accuracy. */
export function predictedOutcome(f: Forecast): Outcome {
  if (f.pHome >= f.pDraw && f.pHome >= f.pAway) return 'H';
  return f.pDraw >= f.pAway ? 'D' : 'A';
}

/** Probability of the predicted outcome, the number the API calls confidence (≥ 1/3). */
export function confidenceOf(f: Forecast): number {
  return Math.max(f.pHome, f.pDraw, f.pAway);
}

export function confidenceBand(f: Forecast): ConfidenceBand {
  const c = confidenceOf(f);
  return c >= CONFIDENCE_BANDS.high ? 'high' : c >= CONFIDENCE_BANDS.medium ? 'medium' : 'low';
}

export function probabilityOf(f: Forecast, o: Outcome): number {
  return o === 'H' ? f.pHome : o === 'D' ? f.pDraw : f.pAway;
}

export function rankedProbabilityScore(f: Forecast, actual: Outcome): number {
  const cumHome = f.pHome - (actual === 'H' ? 1 : 0);
  const cumHomeDraw = f.pHome + f.pDraw - (actual === 'A' ? 0 : 1);
  return 0.5 * (cumHome * cumHome + cumHomeDraw * cumHomeDraw);
}

export function brierScore(f: Forecast, actual: Outcome): number {
  return OUTCOMES.reduce((s, o) => s + (probabilityOf(f, o) - (o === actual ? 1 : 0)) ** 2, 0);
}

/** −ln p(actual), with p floored at 1e-15 so a confident miss costs a lot but not infinity. */
export function logLoss(f: Forecast, actual: Outcome): number {
  return -Math.log(Math.max(probabilityOf(f, actual), 1e-15));
}

export function calibrationOf(rows: readonly { forecast: Forecast; actual: Outcome }[], binWidth = CALIBRATION_BIN_WIDTH): Calibration {
  const bands = Math.round(1 / binWidth);
  const table = (pairs: Iterable<[probability: number, happened: boolean]>): ReliabilityTable => {
    const count = new Array<number>(bands).fill(0);
    const predicted = new Array<number>(bands).fill(0);
    const observed = new Array<number>(bands).fill(0);
    let n = 0;
    for (const [p, happened] of pairs) {
      const b = Math.min(bands - 1, Math.floor(p * bands));
      count[b]++;
      predicted[b] += p;
      observed[b] += happened ? 1 : 0;
      n++;
    }
    let ece = 0;
    const bins = count.map((c, b): ReliabilityBin => {
      if (c > 0) ece += (c / n) * Math.abs(observed[b] / c - predicted[b] / c);
      return {
        from: round6(b * binWidth),
        to: round6((b + 1) * binWidth),
        count: c,
        predicted: c ? predicted[b] / c : null,
        observed: c ? observed[b] / c : null,
      };
    });
    return { bins, ece: n ? ece : NaN };
  };
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, table(rows.map((r) => [probabilityOf(r.forecast, o), r.actual === o]))])) as Record<
    Outcome,
    ReliabilityTable
  >;
  return {
    binWidth,
    outcomes,
    confidence: table(rows.map((r) => [confidenceOf(r.forecast), predictedOutcome(r.forecast) === r.actual])),
    ece: (outcomes.H.ece + outcomes.D.ece + outcomes.A.ece) / 3,
  };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function computeMetrics(rows: readonly { forecast: Forecast; actual: Outcome }[]): Metrics {
  const perClass = {
    H: { predicted: 0, correct: 0, precision: null as number | null },
    D: { predicted: 0, correct: 0, precision: null as number | null },
    A: { predicted: 0, correct: 0, precision: null as number | null },
  };
  const bandHits = { high: [0, 0], medium: [0, 0], low: [0, 0] };
  let hits = 0;
  let rps = 0;
  let brier = 0;
  let ll = 0;
  for (const { forecast, actual } of rows) {
    const predicted = predictedOutcome(forecast);
    const hit = predicted === actual ? 1 : 0;
    hits += hit;
    perClass[predicted].predicted++;
    perClass[predicted].correct += hit;
    const band = bandHits[confidenceBand(forecast)];
    band[0]++;
    band[1] += hit;
    rps += rankedProbabilityScore(forecast, actual);
    brier += brierScore(forecast, actual);
    ll += logLoss(forecast, actual);
  }
  for (const c of Object.values(perClass)) c.precision = c.predicted > 0 ? c.correct / c.predicted : null;
  const n = rows.length;
  const band = ([count, hit]: number[]) => ({ count, hitRate: count > 0 ? hit / count : null });
  return {
    count: n,
    accuracy: hits / n,
    rps: rps / n,
    brier: brier / n,
    logLoss: ll / n,
    perClass,
    bands: { high: band(bandHits.high), medium: band(bandHits.medium), low: band(bandHits.low) },
    calibration: calibrationOf(rows),
  };
}
