/**
 * Ordered logit (Hvattum & Arntzen 2010): a rating covariate x maps to H/D/A through one slope and
 * two cut-points, P(A) = σ(c1 − βx), P(A or D) = σ(c2 − βx). Shared by the Elo and pi-rating models.
 */
import { minimize } from './optimise';

// Module-level aliases: looking `Math` up on every call is about 20× slower inside vm contexts
// such as jest's, and these loops run millions of times per backtest.
const { exp, log, log1p, max } = Math;

export interface OrderedLogit {
  beta: number;
  cut1: number;
  cut2: number;
}

/** Weighted outcome counts observed at covariate value x (samples binned on x). */
export interface LogitSample {
  x: number;
  home: number;
  draw: number;
  away: number;
}

/** Used before any match has been seen: no information, a plain home/draw/away split. */
export const UNTRAINED_LOGIT: OrderedLogit = { beta: 1, cut1: -0.8, cut2: 0.2 };

/** Keeps the fit finite on degenerate data (e.g. no draws at all); negligible on real data. */
const RIDGE = 1e-3;

export function fitOrderedLogit(samples: readonly LogitSample[], start: OrderedLogit = UNTRAINED_LOGIT): OrderedLogit {
  let total = 0;
  for (const s of samples) total += s.home + s.draw + s.away;
  if (total <= 0) return start;
  // parameters [β, c1, log(c2 − c1)]: the log keeps the cut-points ordered without constraints
  const objective = (p: Float64Array, grad: Float64Array): number => {
    const [beta, c1, logGap] = p;
    const gap = exp(logGap);
    let ll = 0;
    let dBeta = 0;
    let dC1 = 0;
    let dGap = 0;
    for (const s of samples) {
      const u1 = c1 - beta * s.x;
      const u2 = u1 + gap;
      const f1 = sigmoid(u1);
      const f2 = sigmoid(u2);
      const pDraw = max(f2 - f1, 1e-300);
      ll += s.away * logSigmoid(u1) + s.draw * log(pDraw) + s.home * logSigmoid(-u2);
      const d1 = s.away * (1 - f1) - (s.draw * f1 * (1 - f1)) / pDraw;
      const d2 = (s.draw * f2 * (1 - f2)) / pDraw - s.home * f2;
      dBeta -= (d1 + d2) * s.x;
      dC1 += d1 + d2;
      dGap += d2 * gap;
    }
    grad[0] = -dBeta / total + RIDGE * beta;
    grad[1] = -dC1 / total + RIDGE * c1;
    grad[2] = -dGap / total + RIDGE * logGap;
    return -ll / total + 0.5 * RIDGE * (beta * beta + c1 * c1 + logGap * logGap);
  };
  const x0 = [start.beta, start.cut1, log(max(start.cut2 - start.cut1, 1e-6))];
  const { x } = minimize(objective, x0, { gradientTolerance: 1e-10 });
  return { beta: x[0], cut1: x[1], cut2: x[1] + exp(x[2]) };
}

/** `shift` moves the latent variable towards the home side (a home-advantage correction). */
export function orderedLogitProbabilities(model: OrderedLogit, x: number, shift = 0): { pHome: number; pDraw: number; pAway: number } {
  const pAway = sigmoid(model.cut1 - model.beta * x - shift);
  const notHome = sigmoid(model.cut2 - model.beta * x - shift);
  return { pHome: 1 - notHome, pDraw: notHome - pAway, pAway };
}

function sigmoid(u: number): number {
  return u >= 0 ? 1 / (1 + exp(-u)) : exp(u) / (1 + exp(u));
}

function logSigmoid(u: number): number {
  return u >= 0 ? -log1p(exp(-u)) : u - log1p(exp(u));
}
