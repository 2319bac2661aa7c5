import {
  brierScore,
  computeMetrics,
  confidenceBand,
  logLoss,
  predictedOutcome,
  rankedProbabilityScore,
  type Forecast,
} from '../../../subgraphs/predictions/domain/model';

const f = (pHome: number, pDraw: number, pAway: number): Forecast => ({
  pHome, pDraw, pAway, expHomeGoals: 1, expAwayGoals: 1, expGoalDiff: 0,
});

describe('single-forecast scores (hand-computed)', () => {
  const p = f(0.5, 0.3, 0.2);

  it('RPS is half the sum of the two squared cumulative differences, H > D > A', () => {
    expect(rankedProbabilityScore(p, 'H')).toBeCloseTo(0.5 * (0.25 + 0.04), 12); // 0.145
    expect(rankedProbabilityScore(p, 'D')).toBeCloseTo(0.5 * (0.25 + 0.04), 12); // 0.145
    expect(rankedProbabilityScore(p, 'A')).toBeCloseTo(0.5 * (0.25 + 0.64), 12); // 0.445
    expect(rankedProbabilityScore(f(1, 0, 0), 'H')).toBe(0);
    expect(rankedProbabilityScore(f(0, 0, 1), 'H')).toBe(1);
  });

  it('multiclass Brier sums over the three outcomes (0..2)', () => {
    expect(brierScore(p, 'H')).toBeCloseTo(0.38, 12);
    expect(brierScore(p, 'D')).toBeCloseTo(0.78, 12);
    expect(brierScore(p, 'A')).toBeCloseTo(0.98, 12);
    expect(brierScore(f(0, 0, 1), 'H')).toBe(2);
  });

  it('log-loss is the natural log of the actual outcome probability', () => {
    expect(logLoss(p, 'H')).toBeCloseTo(Math.LN2, 12);
    expect(logLoss(p, 'D')).toBeCloseTo(-Math.log(0.3), 12);
    expect(logLoss(f(1, 0, 0), 'A')).toBeCloseTo(-Math.log(1e-15), 6); // floored, not infinite
  });

  it('predicts the argmax; ties go to home, then draw', () => {
    expect(predictedOutcome(f(0.3, 0.3, 0.4))).toBe('A');
    expect(predictedOutcome(f(0.3, 0.4, 0.3))).toBe('D');
    expect(predictedOutcome(f(0.4, 0.2, 0.4))).toBe('H');
    expect(predictedOutcome(f(0.2, 0.4, 0.4))).toBe('D');
  });

  it('bands: high from 0.60, medium from 0.45, low below', () => {
    expect(confidenceBand(f(0.6, 0.25, 0.15))).toBe('high');
    expect(confidenceBand(f(0.59, 0.26, 0.15))).toBe('medium');
    expect(confidenceBand(f(0.45, 0.3, 0.25))).toBe('medium');
    expect(confidenceBand(f(0.44, 0.3, 0.26))).toBe('low');
  });
});

describe('computeMetrics', () => {
  const rows = [
    { forecast: f(0.5, 0.3, 0.2), actual: 'H' as const }, // predicted H, hit, medium
    { forecast: f(0.2, 0.3, 0.5), actual: 'H' as const }, // predicted A, miss, medium
    { forecast: f(0.7, 0.2, 0.1), actual: 'H' as const }, // predicted H, hit, high
    { forecast: f(0.4, 0.35, 0.25), actual: 'D' as const }, // predicted H, miss, low
  ];
  const m = computeMetrics(rows);

  it('averages the scores', () => {
    expect(m.count).toBe(4);
    expect(m.accuracy).toBe(0.5);
    expect(m.rps).toBeCloseTo((0.145 + 0.445 + 0.05 + 0.11125) / 4, 12);
    expect(m.brier).toBeCloseTo((0.38 + 0.98 + 0.14 + 0.645) / 4, 12);
    expect(m.logLoss).toBeCloseTo(-(Math.log(0.5) + Math.log(0.2) + Math.log(0.7) + Math.log(0.35)) / 4, 12);
  });

  it('reports accuracy per predicted class, with null precision for a class never predicted', () => {
    expect(m.perClass.H).toEqual({ predicted: 3, correct: 2, precision: 2 / 3 });
    expect(m.perClass.D).toEqual({ predicted: 0, correct: 0, precision: null });
    expect(m.perClass.A).toEqual({ predicted: 1, correct: 0, precision: 0 });
  });

  it('reports count and hit rate per confidence band', () => {
    expect(m.bands.high).toEqual({ count: 1, hitRate: 1 });
    expect(m.bands.medium).toEqual({ count: 2, hitRate: 0.5 });
    expect(m.bands.low).toEqual({ count: 1, hitRate: 0 });
  });

  it('has count 0 and NaN means for no rows', () => {
    const empty = computeMetrics([]);
    expect(empty.count).toBe(0);
    expect(empty.accuracy).toBeNaN();
    expect(empty.bands.high).toEqual({ count: 0, hitRate: null });
  });
});
