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
};

const HOME = 0;
const AWAY = 1;

export const PI_RULES: RatingRules = {
  initial: () => [0, 0],
  covariate: (home, away, hyper) => expectedGoalDiff(home[HOME], hyper) - expectedGoalDiff(away[AWAY], hyper),
  update(home, away, homeGoals, awayGoals, hyper) {
    const predicted = expectedGoalDiff(home[HOME], hyper) - expectedGoalDiff(away[AWAY], hyper);
    const observed = homeGoals - awayGoals;
    const error = Math.abs(observed - predicted);
    // diminishing returns: a 5-goal surprise is not five times as informative as a 1-goal one
    const psi = hyper.c * Math.log10(1 + error) * (observed > predicted ? 1 : -1);
    const homeStep = psi * hyper.lambda;
    const awayStep = -psi * hyper.lambda;
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
