/**
 * Pi-ratings (Constantinou & Fenton 2013): every team has a home and an away rating on a goal
 * scale; both move after each match by a diminishing function of the goal-difference error.
 * The expected goal difference they imply is the covariate of the shared ordered logit.
 */
import { RATING_MODEL_DEFAULTS, type RatingRules } from './rating-model';

/**
 * λ and γ were chosen on the seasons 2012-13..2014-15 (bench/model-levers.ts); the paper's values are
 * λ = 0.035, γ = 0.7.
 */
export const PI_DEFAULTS: Record<string, number> = {
  ...RATING_MODEL_DEFAULTS,
  /** Learning rate. */
  lambda: 0.045,
  /** How much a home result moves the away rating and vice versa. */
  gamma: 1,
  /** Base and scale of the rating → expected goal-difference map. */
  b: 10,
  c: 3,
  /**
   * Share β of the observed goal difference taken from the first half, scaled to 90 minutes (divided by
   * 0.45, about the share of goals scored before half time): (1 − β)·full time + β·half time / 0.45.
   * 0: full time only; matches without a half-time score always use full time.
   */
  halfTimeBlend: 0,
  /**
   * Shape of the step in the goal-difference error e: 0, the paper's c·log10(1 + e); p ≠ 0,
   * c·((1 + e)^p − 1) / (p·ln 10), which tends to it as p → 0 (p = 1: linear, p < 0: more diminishing).
   */
  errorPower: 0,
};

/** About the share of goals scored before half time in the data (0.44–0.46 by league). */
const FIRST_HALF_SHARE = 0.45;

const HOME = 0;
const AWAY = 1;

export const PI_RULES: RatingRules = {
  initial: () => [0, 0],
  covariate: (home, away, hyper) => expectedGoalDiff(home[HOME], hyper) - expectedGoalDiff(away[AWAY], hyper),
  update(home, away, homeGoals, awayGoals, hyper, halfTime, rate = 1) {
    const predicted = expectedGoalDiff(home[HOME], hyper) - expectedGoalDiff(away[AWAY], hyper);
    // (a version stored before these settings existed has no value for them: it means off)
    const beta = halfTime ? (hyper.halfTimeBlend ?? 0) : 0;
    const observed = (1 - beta) * (homeGoals - awayGoals) + (beta * (halfTime ? halfTime[0] - halfTime[1] : 0)) / FIRST_HALF_SHARE;
    const error = Math.abs(observed - predicted);
    // diminishing returns: a 5-goal surprise is not five times as informative as a 1-goal one
    const p = hyper.errorPower ?? 0;
    const size = p === 0 ? Math.log10(1 + error) : ((1 + error) ** p - 1) / (p * Math.LN10);
    const psi = hyper.c * size * (observed > predicted ? 1 : -1);
    const homeStep = rate * psi * hyper.lambda;
    const awayStep = -rate * psi * hyper.lambda;
    home[HOME] += homeStep;
    home[AWAY] += homeStep * hyper.gamma;
    away[AWAY] += awayStep;
    away[HOME] += awayStep * hyper.gamma;
  },
  binWidth: 0.01,
};

/** Rating → expected goal difference against an average team: sign(R)·(b^(|R|/c) − 1). */
function expectedGoalDiff(rating: number, hyper: Record<string, number>): number {
  return Math.sign(rating) * (hyper.b ** (Math.abs(rating) / hyper.c) - 1);
}
