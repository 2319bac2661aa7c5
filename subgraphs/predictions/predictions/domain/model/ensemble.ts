/**
 * A weighted average of the single models' forecasts. The default weights were fitted by
 * `fitEnsembleWeights` on walk-forward forecasts of seasons before any evaluation window
 * (bench/model-fit.ts reproduces them), so they never saw the matches they are scored on.
 */
import { minimize } from './optimise';
import type { FittedModel, Forecast, ModelKind, Outcome } from './types';

export const ENSEMBLE_COMPONENTS = ['dixon-coles', 'elo', 'pi-ratings'] as const satisfies readonly ModelKind[];

export type ComponentKind = (typeof ENSEMBLE_COMPONENTS)[number];

/** Hyper-parameter holding each component's weight. */
export const WEIGHT_KEYS: Record<ComponentKind, string> = {
  'dixon-coles': 'wDixonColes',
  elo: 'wElo',
  'pi-ratings': 'wPiRatings',
};

/**
 * Fitted on the walk-forward forecasts of 2012-13..2014-15 (each league from its third season in the
 * data) of the components with their defaults, rounded; bench/model-levers.ts reproduces them.
 */
export const ENSEMBLE_DEFAULTS: Record<string, number> = {
  wDixonColes: 0.58,
  wElo: 0.08,
  wPiRatings: 0.34,
};

export interface EnsembleState {
  components: FittedModel[];
}

/** Component weights from the hyper-parameters, normalised to sum to 1. */
export function ensembleWeights(hyper: Record<string, number>): number[] {
  const raw = ENSEMBLE_COMPONENTS.map((k) => Math.max(0, hyper[WEIGHT_KEYS[k]] ?? 0));
  const total = raw.reduce((s, w) => s + w, 0);
  if (!(total > 0)) throw new Error('ensemble: at least one component weight must be positive');
  return raw.map((w) => w / total);
}

/**
 * Probabilities averaged with the weights. The expected goal difference is the averaged
 * probability margin pHome − pAway times the components' average goals per unit of margin:
 * that equals the plain weighted average whenever the components agree on the favourite, and
 * otherwise still has the sign of the averaged favourite (a plain average might not).
 */
export function combineForecasts(forecasts: readonly Forecast[], weights: readonly number[]): Forecast {
  const avg = (f: (x: Forecast) => number) => forecasts.reduce((s, x, i) => s + weights[i] * f(x), 0);
  const margin = avg((f) => f.pHome - f.pAway);
  const absMargin = avg((f) => Math.abs(f.pHome - f.pAway));
  const diff = absMargin > 0 ? (avg((f) => Math.abs(f.expGoalDiff)) / absMargin) * margin : 0;
  // |diff| ≤ the average |difference| ≤ the average total, so both sides stay non-negative
  const total = avg((f) => f.expHomeGoals + f.expAwayGoals);
  return {
    pHome: avg((f) => f.pHome),
    pDraw: avg((f) => f.pDraw),
    pAway: avg((f) => f.pAway),
    expHomeGoals: (total + diff) / 2,
    expAwayGoals: (total - diff) / 2,
    expGoalDiff: diff,
  };
}

/**
 * Weights on the simplex that minimise the mean RPS of the averaged forecast over the given
 * rows (one forecast per component each). Softmax parameterisation, analytic gradient.
 */
export function fitEnsembleWeights(rows: readonly { components: readonly Forecast[]; actual: Outcome }[]): number[] {
  const k = rows[0]?.components.length ?? 0;
  if (k === 0) throw new Error('fitEnsembleWeights: no rows');
  const objective = (z: Float64Array, grad: Float64Array): number => {
    const w = softmax(z);
    const gw = new Float64Array(k);
    let total = 0;
    for (const { components, actual } of rows) {
      let c1 = actual === 'H' ? -1 : 0;
      let c2 = actual === 'A' ? 0 : -1;
      components.forEach((f, i) => {
        c1 += w[i] * f.pHome;
        c2 += w[i] * (f.pHome + f.pDraw);
      });
      total += 0.5 * (c1 * c1 + c2 * c2);
      components.forEach((f, i) => (gw[i] += c1 * f.pHome + c2 * (f.pHome + f.pDraw)));
    }
    // chain rule through the softmax; the tiny ridge pins its free additive constant
    let wg = 0;
    for (let i = 0; i < k; i++) wg += w[i] * gw[i];
    for (let i = 0; i < k; i++) grad[i] = (w[i] * (gw[i] - wg)) / rows.length + 1e-6 * z[i];
    return total / rows.length + 0.5e-6 * z.reduce((s, v) => s + v * v, 0);
  };
  return softmax(minimize(objective, new Float64Array(k), { gradientTolerance: 1e-10 }).x);
}

function softmax(z: Float64Array): number[] {
  const max = Math.max(...z);
  const e = Array.from(z, (v) => Math.exp(v - max));
  const total = e.reduce((s, v) => s + v, 0);
  return e.map((v) => v / total);
}
