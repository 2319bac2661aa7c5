import { brierScore, calibrationOf, computeMetrics, confidenceBand, logLoss, predictedOutcome, rankedProbabilityScore, type Forecast } from '.';

const f = (pHome: number, pDraw: number, pAway: number): Forecast => ({
  pHome,
  pDraw,
  pAway,
  expHomeGoals: 1,
  expAwayGoals: 1,
  expGoalDiff: 0,
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

describe('calibration', () => {
  // the home probability: 0.55 four times (two home wins), 0.15 twice (no home win)
  const rows = [
    { forecast: f(0.55, 0.25, 0.2), actual: 'H' as const },
    { forecast: f(0.55, 0.25, 0.2), actual: 'H' as const },
    { forecast: f(0.55, 0.25, 0.2), actual: 'D' as const },
    { forecast: f(0.55, 0.25, 0.2), actual: 'A' as const },
    { forecast: f(0.15, 0.25, 0.6), actual: 'A' as const },
    { forecast: f(0.15, 0.25, 0.6), actual: 'D' as const },
  ];
  const c = calibrationOf(rows);

  it('tabulates predicted probability bands against observed frequency, per outcome', () => {
    expect(c.binWidth).toBe(0.1);
    expect(c.outcomes.H.bins).toHaveLength(10);
    expect(c.outcomes.H.bins[5]).toEqual({ from: 0.5, to: 0.6, count: 4, predicted: 0.55, observed: 0.5 });
    expect(c.outcomes.H.bins[1]).toEqual({ from: 0.1, to: 0.2, count: 2, predicted: 0.15, observed: 0 });
    expect(c.outcomes.H.bins[9]).toEqual({ from: 0.9, to: 1, count: 0, predicted: null, observed: null });
    expect(c.outcomes.D.bins[2]).toMatchObject({ count: 6, predicted: 0.25, observed: 2 / 6 });
  });

  it('weighs each band by its share of forecasts in the expected calibration error', () => {
    expect(c.outcomes.H.ece).toBeCloseTo((4 / 6) * 0.05 + (2 / 6) * 0.15, 12);
    expect(c.outcomes.D.ece).toBeCloseTo(Math.abs(2 / 6 - 0.25), 12);
    // away: 0.2 four times (one away win), 0.6 twice (one away win)
    expect(c.outcomes.A.ece).toBeCloseTo((4 / 6) * 0.05 + (2 / 6) * 0.1, 12);
    expect(c.ece).toBeCloseTo((c.outcomes.H.ece + c.outcomes.D.ece + c.outcomes.A.ece) / 3, 12);
  });

  it('also tabulates the confidence against the hit rate, and computeMetrics records it', () => {
    expect(c.confidence.bins[5]).toMatchObject({ count: 4, predicted: 0.55, observed: 0.5 });
    expect(c.confidence.bins[6]).toMatchObject({ count: 2, predicted: 0.6, observed: 0.5 });
    expect(computeMetrics(rows).calibration).toEqual(c);
  });

  it('is zero for forecasts that match the frequencies exactly, and puts probability 1 in the last band', () => {
    const exact = calibrationOf([
      { forecast: f(1, 0, 0), actual: 'H' },
      { forecast: f(0.5, 0, 0.5), actual: 'H' },
      { forecast: f(0.5, 0, 0.5), actual: 'A' },
    ]);
    expect(exact.ece).toBeCloseTo(0, 12);
    expect(exact.outcomes.H.bins[9].count).toBe(1);
  });
});
