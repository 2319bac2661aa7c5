/**
 * Elo ratings with the World Football Elo goal-margin multiplier, turned into H/D/A
 * probabilities by the shared ordered logit (Hvattum & Arntzen 2010).
 */
import { RATING_MODEL_DEFAULTS, type RatingRules } from './rating-model';

export const ELO_DEFAULTS: Record<string, number> = {
  ...RATING_MODEL_DEFAULTS,
  k: 20,
  /** Home advantage in rating points, used in the expected score of the update. */
  homeAdvantage: 60,
  initialRating: 1500,
  /** A promoted side starts at the mean of the previous season's bottom five (5 chosen over 1 and 3 on 2012-13..2014-15). */
  entryPoolSize: 5,
  /** 0: the World Football Elo goal-margin multiplier; p > 0: (1 + margin)^p (Hvattum & Arntzen's goal-based Elo). */
  marginPower: 0,
};

export const ELO_RULES: RatingRules = {
  initial: (hyper) => [hyper.initialRating],
  // in units of 400 points, the Elo logistic scale, so the logit slope is of order one
  covariate: (home, away, hyper) => (home[0] + hyper.homeAdvantage - away[0]) / 400,
  update(home, away, homeGoals, awayGoals, hyper, _halfTime, rate = 1) {
    const expected = 1 / (1 + 10 ** (-(home[0] + hyper.homeAdvantage - away[0]) / 400));
    const actual = homeGoals > awayGoals ? 1 : homeGoals === awayGoals ? 0.5 : 0;
    const margin = Math.abs(homeGoals - awayGoals);
    const delta = rate * hyper.k * (hyper.marginPower > 0 ? (1 + margin) ** hyper.marginPower : marginMultiplier(margin)) * (actual - expected);
    home[0] += delta;
    away[0] -= delta;
  },
  binWidth: 0.01,
};

/** World Football Elo: 1 for a draw or a one-goal win, 1.5 for two goals, (11 + N)/8 for N ≥ 3. */
function marginMultiplier(margin: number): number {
  return margin <= 1 ? 1 : margin === 2 ? 1.5 : (11 + margin) / 8;
}
