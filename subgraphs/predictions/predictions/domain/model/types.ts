/**
 * Public types of the match-outcome model module. Pure data: no database, GraphQL or HTTP.
 */

export type ModelKind = 'dixon-coles' | 'elo' | 'pi-ratings' | 'ensemble';

export const MODEL_KINDS: readonly ModelKind[] = ['dixon-coles', 'elo', 'pi-ratings', 'ensemble'];

/** A finished match with a known full-time score (never an awarded walk-over). */
export interface TrainingMatch {
  /** Competition code, e.g. `en.1`. The part before the dot is the country, the number the tier. */
  competition: string;
  /** Local match date, YYYY-MM-DD. */
  date: string;
  home: string;
  away: string;
  homeGoals: number;
  awayGoals: number;
  /** Half-time score, when the data has it (the Dixon–Coles halfTimeWeight uses it; absent: full time only). */
  homeGoalsHalfTime?: number;
  awayGoalsHalfTime?: number;
  /**
   * Season, e.g. `2019-20`. Optional: when absent it is derived from the date (July cut-off),
   * which misplaces the July 2020 COVID restart matches, so pass it when you have it.
   */
  season?: string;
}

export interface Fixture {
  competition: string;
  date: string;
  home: string;
  away: string;
  /** As in TrainingMatch: derived from the date when absent. */
  season?: string;
}

export interface Forecast {
  pHome: number;
  pDraw: number;
  pAway: number;
  expHomeGoals: number;
  expAwayGoals: number;
  /** expHomeGoals − expAwayGoals. */
  expGoalDiff: number;
}

export interface ModelSpec {
  kind: ModelKind;
  /** Overrides of the kind's default hyper-parameters (see defaultSpec). */
  hyper?: Record<string, number>;
}

export interface FittedModel {
  kind: ModelKind;
  hyper: Record<string, number>;
  /** Date of the latest match used. */
  trainedThrough: string;
  /** Date of the earliest match used. */
  trainingFrom: string;
  /** Number of matches used. */
  matchCount: number;
  /** Kind-specific parameters; plain JSON, round-trips through JSON.stringify. */
  state: unknown;
}

export interface FitOptions {
  /** Only matches dated strictly before this day (YYYY-MM-DD) are used. */
  asOf: string;
  /** A previous fit of the same kind; speeds the fit up and gives (near) the same result as a cold fit. */
  warmStart?: FittedModel;
}

export type Outcome = 'H' | 'D' | 'A';

export const OUTCOMES: readonly Outcome[] = ['H', 'D', 'A'];

export function outcomeOf(m: Pick<TrainingMatch, 'homeGoals' | 'awayGoals'>): Outcome {
  return m.homeGoals > m.awayGoals ? 'H' : m.homeGoals < m.awayGoals ? 'A' : 'D';
}
