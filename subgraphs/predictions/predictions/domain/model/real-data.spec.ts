/**
 * Walk-forward on the shipped data, EPL 2022-23..2024-25 (1,140 matches), trained on the English
 * matches (en.1 + en.2; the other countries never play English teams, so they change nothing here).
 */
import { readDataset } from '../../../football/domain/dataset';
import { MODEL_KINDS, toTrainingMatches, walkForward, type Metrics, type ModelKind, type TrainingMatch } from '.';

const english = toTrainingMatches(readDataset('data/football').matches).filter((m) => m.competition.startsWith('en.'));
const window = (m: TrainingMatch) => m.competition === 'en.1' && m.season! >= '2022-23' && m.season! <= '2024-25';

const results = new Map<ModelKind, Metrics>();
function metricsOf(kind: ModelKind): Metrics {
  if (!results.has(kind)) results.set(kind, walkForward({ kind }, english, { evaluate: window }).metrics);
  return results.get(kind)!;
}

describe('EPL 2022-23..2024-25 walk-forward', () => {
  it('evaluates every finished match of the three seasons', () => {
    expect(metricsOf('elo').count).toBe(1140);
  });

  it('the ensemble (default model) reaches the issue targets: accuracy ≥ 54 %, RPS ≤ 0.200', () => {
    const m = metricsOf('ensemble');
    expect(m.accuracy).toBeGreaterThanOrEqual(0.54);
    expect(m.rps).toBeLessThanOrEqual(0.2);
    expect(m.brier).toBeLessThanOrEqual(0.58);
  });

  it.each(MODEL_KINDS)('%s beats the home-win baseline and meets the project floor (≥ 52 %, RPS ≤ 0.205)', (kind) => {
    const m = metricsOf(kind);
    const homeRate = english.filter((x) => window(x) && x.homeGoals > x.awayGoals).length / m.count;
    expect(m.accuracy).toBeGreaterThan(homeRate + 0.05);
    expect(m.accuracy).toBeGreaterThanOrEqual(0.52);
    expect(m.rps).toBeLessThanOrEqual(0.205);
  });

  it('is calibrated enough that hit rates rise from the low to the high confidence band', () => {
    const { bands } = metricsOf('ensemble');
    expect(bands.low.hitRate!).toBeLessThan(bands.medium.hitRate!);
    expect(bands.medium.hitRate!).toBeLessThan(bands.high.hitRate!);
    expect(bands.high.hitRate!).toBeGreaterThan(0.6);
  });
});
