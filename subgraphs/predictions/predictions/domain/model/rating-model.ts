/**
 * The machinery shared by the rating models (Elo, pi-ratings): a chronological pass that keeps
 * one rating pool per competition, an entry rule for promoted and relegated teams, and per
 * country group an ordered logit from the pre-match rating covariate to H/D/A.
 *
 * Ratings are updated match by match, so a warm start simply continues the pass from where the
 * previous fit stopped: its ratings are bit-for-bit those of a cold fit, and the logit agrees to
 * the optimiser's tolerance. Past matches are kept for the ordered logit only as time-weighted
 * outcome counts per covariate bin, which keeps the state small.
 */
import { addDays, compareMatches, dayNumber, groupOf, seasonOf, tierOf } from './data';
import { goldenSectionMax } from './optimise';
import { fitOrderedLogit, orderedLogitProbabilities, UNTRAINED_LOGIT, type LogitSample, type OrderedLogit } from './ordered-logit';
import type { Fixture, Forecast, TrainingMatch } from './types';

/** What distinguishes one rating system from another. Ratings are number arrays so the state stays plain JSON. */
export interface RatingRules {
  /** Rating of every team in a competition's first season in the data. */
  initial(hyper: Record<string, number>): number[];
  /** The ordered-logit covariate; larger favours the home side. */
  covariate(home: readonly number[], away: readonly number[], hyper: Record<string, number>): number;
  /**
   * Updates both ratings in place after a result (`halfTime`: the half-time score, when known; `rate`: a
   * factor on the learning rate).
   */
  update(
    home: number[],
    away: number[],
    homeGoals: number,
    awayGoals: number,
    hyper: Record<string, number>,
    halfTime?: readonly [number, number],
    rate?: number,
  ): void;
  /** Width of the covariate bins in which past outcomes are counted. */
  binWidth: number;
}

export const RATING_MODEL_DEFAULTS: Record<string, number> = {
  /** A promoted team starts at the mean of the previous season's bottom N ratings, a relegated one at the top N. */
  entryPoolSize: 3,
  /** Time weight of past matches in the ordered logit, exp(+decay·day): per-day decay. */
  outcomeDecay: 0.0005,
  /** Seasons at the start of a competition's data whose matches do not train the logit (ratings still flat). */
  burnInSeasons: 1,
  /** 1: one ordered logit per competition (home advantage and draw rate differ between tiers); 0: one per country group. */
  logitPerCompetition: 0,
  /** Per-day decay of the recent results that re-centre the home advantage (a latent shift); 0: no shift. */
  homeShiftDecay: 0,
  /** Ridge on that shift, in matches played today: how strongly it is pulled back to no shift. */
  homeShiftRidge: 50,
  /** Share of the distance to the pool's mean rating that every team gives up when a season starts. */
  seasonRegression: 0,
  /** The learning rate is (1 + earlyBoost)× while a side has played fewer than earlyMatches of the season (squads changed); 0: off. */
  earlyBoost: 0,
  earlyMatches: 6,
};

interface Pool {
  season: string;
  previousSeason: string | null;
  seasonsSeen: number;
  /** Entry ratings for teams joining in `season`, from the previous season's final ratings. */
  entryLow: number[] | null;
  entryHigh: number[] | null;
  /** Each team's current rating, the last season it played here and its matches in that season (absent: many). */
  teams: Record<string, { rating: number[]; season: string; played?: number }>;
}

/** Time-weighted outcome counts per covariate bin: [home, draw, away, Σ goal difference]. */
interface GroupOutcome {
  bins: Record<string, [number, number, number, number]>;
  weight: number;
  goals: number;
  logit: OrderedLogit;
  /** Expected goal difference = slope · (pHome − pAway): the sign always agrees with the favourite. */
  goalDiffSlope: number;
  meanGoals: number;
  /** Outcome counts per covariate bin with the fast home-shift decay, weighted relative to `recentDay`. */
  recent?: Record<string, [number, number, number]>;
  recentDay?: number;
  /** Latent shift towards the home side fitted on the recent counts (0 when off). */
  shift?: number;
}

export interface RatingState {
  /** Matches dated before this day have been processed. */
  asOf: string;
  matchCount: number;
  pools: Record<string, Pool>;
  lastCompetition: Record<string, string>;
  outcome: Record<string, GroupOutcome>;
}

const WEIGHT_EPOCH = dayNumber('2000-01-01');

/** `matches` are all matches before asOf in canonical order. */
export function fitRatingModel(
  rules: RatingRules,
  hyper: Record<string, number>,
  matches: readonly TrainingMatch[],
  asOf: string,
  warm?: RatingState,
): RatingState {
  let state: RatingState;
  let start = 0;
  const resumable = warm && warm.asOf <= asOf && matches.filter((m) => m.date < warm.asOf).length === warm.matchCount;
  if (resumable) {
    state = structuredClone(warm);
    start = warm.matchCount;
  } else {
    state = { asOf, matchCount: 0, pools: {}, lastCompetition: {}, outcome: {} };
  }
  for (let i = start; i < matches.length; i++) processMatch(rules, hyper, state, matches[i]);
  state.asOf = asOf;
  state.matchCount = matches.length;
  for (const g of Object.keys(state.outcome).sort()) refitOutcome(state.outcome[g], rules.binWidth, hyper, dayNumber(asOf));
  return state;
}

/**
 * Takes results that arrived after the fit into the ratings by the rating rule itself, in date
 * order, then refits the ordered logits: when the results are dated after every match already in
 * the state, the ratings are bit-for-bit those of a fit on all the data. A late result of an
 * earlier date is applied now, as a live system would.
 */
export function continueRatingModel(rules: RatingRules, hyper: Record<string, number>, state: RatingState, results: readonly TrainingMatch[]): RatingState {
  if (results.length === 0) return state;
  const next = structuredClone(state);
  const sorted = [...results].sort(compareMatches);
  for (const m of sorted) processMatch(rules, hyper, next, m);
  next.matchCount += sorted.length;
  const after = addDays(sorted[sorted.length - 1].date, 1);
  if (after > next.asOf) next.asOf = after;
  for (const g of Object.keys(next.outcome).sort()) refitOutcome(next.outcome[g], rules.binWidth, hyper, dayNumber(next.asOf));
  return next;
}

/** Outcomes are modelled per competition or per country group (hyper.logitPerCompetition). */
function outcomeKey(competition: string, hyper: Record<string, number>): string {
  return hyper.logitPerCompetition ? competition : groupOf(competition);
}

/** Rescales the recent counts to weights relative to `day` when their exponent grows large (or when asked). */
function rebaseRecent(out: GroupOutcome, day: number, decay: number, force = false): void {
  if (out.recent === undefined || out.recentDay === undefined) {
    out.recent = {};
    out.recentDay = day;
    return;
  }
  if (!force && decay * (day - out.recentDay) < 200) return;
  const scale = Math.exp(-decay * (day - out.recentDay));
  for (const counts of Object.values(out.recent)) for (let i = 0; i < 3; i++) counts[i] *= scale;
  out.recentDay = day;
}

function processMatch(rules: RatingRules, hyper: Record<string, number>, state: RatingState, m: TrainingMatch): void {
  const season = seasonOf(m);
  let pool = state.pools[m.competition];
  if (!pool) {
    pool = state.pools[m.competition] = { season, previousSeason: null, seasonsSeen: 1, entryLow: null, entryHigh: null, teams: {} };
  } else if (season > pool.season) {
    Object.assign(pool, entryRatings(pool, hyper.entryPoolSize));
    if (hyper.seasonRegression > 0) regressToMean(pool, hyper.seasonRegression);
    pool.previousSeason = pool.season;
    pool.season = season;
    pool.seasonsSeen++;
  }
  const homeEntry = joinIfNeeded(rules, hyper, state, pool, m.competition, m.home, season);
  const awayEntry = joinIfNeeded(rules, hyper, state, pool, m.competition, m.away, season);
  const [home, away] = [homeEntry.rating, awayEntry.rating];

  if (pool.seasonsSeen > hyper.burnInSeasons) {
    const out = (state.outcome[outcomeKey(m.competition, hyper)] ??= { bins: {}, weight: 0, goals: 0, logit: UNTRAINED_LOGIT, goalDiffSlope: 0, meanGoals: 0 });
    const day = dayNumber(m.date);
    const w = Math.exp(hyper.outcomeDecay * (day - WEIGHT_EPOCH));
    const key = String(Math.round(rules.covariate(home, away, hyper) / rules.binWidth));
    const bin = (out.bins[key] ??= [0, 0, 0, 0]);
    const result = m.homeGoals > m.awayGoals ? 0 : m.homeGoals === m.awayGoals ? 1 : 2;
    bin[result] += w;
    bin[3] += w * (m.homeGoals - m.awayGoals);
    out.weight += w;
    out.goals += w * (m.homeGoals + m.awayGoals);
    if (hyper.homeShiftDecay > 0) {
      rebaseRecent(out, day, hyper.homeShiftDecay);
      (out.recent![key] ??= [0, 0, 0])[result] += Math.exp(hyper.homeShiftDecay * (day - out.recentDay!));
    }
  }
  const halfTime = m.homeGoalsHalfTime !== undefined && m.awayGoalsHalfTime !== undefined ? ([m.homeGoalsHalfTime, m.awayGoalsHalfTime] as const) : undefined;
  let rate = 1;
  if (hyper.earlyBoost > 0) {
    const early = (e: { played?: number }) => ((e.played ?? Infinity) < hyper.earlyMatches ? 1 : 0);
    rate = 1 + (hyper.earlyBoost * (early(homeEntry) + early(awayEntry))) / 2;
  }
  rules.update(home, away, m.homeGoals, m.awayGoals, hyper, halfTime, rate);
  for (const e of [homeEntry, awayEntry]) if (e.played !== undefined && e.season === season) e.played++;
  // a late result of an earlier season (live updates) says nothing about where the teams play now
  if (season === pool.season) {
    state.lastCompetition[m.home] = m.competition;
    state.lastCompetition[m.away] = m.competition;
  }
}

/** Pulls the ratings of the season just ended towards their mean (ratings carry over only in part). */
function regressToMean(pool: Pool, share: number): void {
  const finished = Object.keys(pool.teams)
    .sort()
    .map((t) => pool.teams[t])
    .filter((t) => t.season === pool.season);
  if (finished.length === 0) return;
  const centre = mean(finished.map((t) => t.rating));
  for (const t of finished) t.rating.forEach((r, i) => (t.rating[i] = r + share * (centre[i] - r)));
}

/** Entry ratings for a new season: the mean of the bottom / top N final ratings of the season just ended. */
function entryRatings(pool: Pool, size: number): Pick<Pool, 'entryLow' | 'entryHigh'> {
  const finished = Object.keys(pool.teams)
    .sort()
    .map((t) => pool.teams[t])
    .filter((t) => t.season === pool.season)
    .map((t) => t.rating)
    .sort((a, b) => sum(a) - sum(b));
  if (finished.length === 0) return { entryLow: null, entryHigh: null };
  const n = Math.min(size, finished.length);
  return { entryLow: mean(finished.slice(0, n)), entryHigh: mean(finished.slice(-n)) };
}

/** The team's rating in the pool; a team that did not play here this season or last joins now. */
function joinIfNeeded(
  rules: RatingRules,
  hyper: Record<string, number>,
  state: RatingState,
  pool: Pool,
  competition: string,
  team: string,
  season: string,
): Pool['teams'][string] {
  const current = pool.teams[team];
  // (a season earlier than the team's own only comes with a late result, applied live)
  if (current && (current.season >= season || current.season === pool.previousSeason)) {
    if (season > current.season) {
      current.season = season;
      if (hyper.earlyBoost > 0) current.played = 0;
    }
    return current;
  }
  const rating = [...(entryFor(pool, competition, state.lastCompetition[team]) ?? rules.initial(hyper))];
  const entry = hyper.earlyBoost > 0 ? { rating, season, played: 0 } : { rating, season };
  pool.teams[team] = entry;
  return entry;
}

/** Coming down from a higher tier of the same country: like last season's best; otherwise like its worst. */
function entryFor(entries: Pick<Pool, 'entryLow' | 'entryHigh'>, competition: string, lastCompetition: string | undefined): number[] | null {
  const fromAbove = lastCompetition !== undefined && groupOf(lastCompetition) === groupOf(competition) && tierOf(lastCompetition) < tierOf(competition);
  return fromAbove ? entries.entryHigh : entries.entryLow;
}

function refitOutcome(out: GroupOutcome, binWidth: number, hyper: Record<string, number>, asOfDay: number): void {
  // sorted so that sums, hence the fit, do not depend on the order bins were created in
  const bins = Object.keys(out.bins)
    .map(Number)
    .sort((a, b) => a - b)
    .map((k) => ({ x: k * binWidth, counts: out.bins[String(k)] }));
  const samples: LogitSample[] = bins.map(({ x, counts }) => ({ x, home: counts[0], draw: counts[1], away: counts[2] }));
  out.logit = fitOrderedLogit(samples, out.logit);
  // least squares through the origin of goal difference on pHome − pAway
  let num = 0;
  let den = 0;
  for (const { x, counts } of bins) {
    const p = orderedLogitProbabilities(out.logit, x);
    const q = p.pHome - p.pAway;
    num += q * counts[3];
    den += q * q * (counts[0] + counts[1] + counts[2]);
  }
  out.goalDiffSlope = den > 0 ? num / den : 0;
  out.meanGoals = out.weight > 0 ? out.goals / out.weight : 0;
  if (hyper.homeShiftDecay > 0 && out.recent) {
    rebaseRecent(out, asOfDay, hyper.homeShiftDecay, true);
    const recent = Object.entries(out.recent).map(([k, counts]) => ({ x: Number(k) * binWidth, counts }));
    // maximum of the recent log-likelihood in the shift, minus the ridge towards no shift
    out.shift = goldenSectionMax(
      (shift) => {
        let ll = -0.5 * hyper.homeShiftRidge * shift * shift;
        for (const { x, counts } of recent) {
          const p = orderedLogitProbabilities(out.logit, x, shift);
          ll += counts[0] * Math.log(p.pHome) + counts[1] * Math.log(p.pDraw) + counts[2] * Math.log(p.pAway);
        }
        return ll;
      },
      -1,
      1,
      1e-4,
    );
  }
}

/** Smallest expected goals per side when the goal difference is split around the mean total. */
const MIN_EXPECTED_GOALS = 0.05;

export function forecastRatingModel(rules: RatingRules, hyper: Record<string, number>, state: RatingState, fixture: Fixture): Forecast {
  const season = seasonOf(fixture);
  const home = ratingAt(rules, hyper, state, fixture.competition, fixture.home, season);
  const away = ratingAt(rules, hyper, state, fixture.competition, fixture.away, season);
  const out =
    outcomeFor(state, fixture.competition, hyper) ??
    outcomeFor(state, state.lastCompetition[fixture.home] ?? '', hyper) ??
    outcomeFor(state, state.lastCompetition[fixture.away] ?? '', hyper);
  const probs = orderedLogitProbabilities(out?.logit ?? UNTRAINED_LOGIT, rules.covariate(home, away, hyper), out?.shift ?? 0);
  const diff = (out?.goalDiffSlope ?? 0) * (probs.pHome - probs.pAway);
  // ratings carry no goal scale of their own: split the group's mean total around the difference
  const total = out?.meanGoals ?? 0;
  const awayGoals = Math.max((total - diff) / 2, MIN_EXPECTED_GOALS);
  const homeGoals = Math.max(awayGoals + diff, MIN_EXPECTED_GOALS);
  return { ...probs, expHomeGoals: homeGoals, expAwayGoals: homeGoals - diff, expGoalDiff: diff };
}

/** The competition's outcome model, else one of its country group's (a competition new to the data). */
function outcomeFor(state: RatingState, competition: string, hyper: Record<string, number>): GroupOutcome | undefined {
  const own = state.outcome[outcomeKey(competition, hyper)];
  if (own || !hyper.logitPerCompetition) return own;
  const sibling = Object.keys(state.outcome)
    .sort()
    .find((c) => groupOf(c) === groupOf(competition));
  return sibling === undefined ? undefined : state.outcome[sibling];
}

/**
 * A team's rating for a fixture, without changing the state: the same entry rule as in training,
 * judged for the fixture's season. A team from another country keeps its own pool's rating
 * (countries never meet in the data, so their scales cannot be compared any better).
 */
function ratingAt(rules: RatingRules, hyper: Record<string, number>, state: RatingState, competition: string, team: string, season: string): readonly number[] {
  const last = state.lastCompetition[team];
  const pool = state.pools[competition];
  if (last !== undefined && (!pool || groupOf(last) !== groupOf(competition))) return state.pools[last].teams[team].rating;
  if (!pool) return rules.initial(hyper);
  const newSeason = season > pool.season;
  const previous = newSeason ? pool.season : season === pool.season ? pool.previousSeason : null;
  const current = pool.teams[team];
  if (current && (current.season === season || current.season === previous)) return current.rating;
  const entries = newSeason ? entryRatings(pool, hyper.entryPoolSize) : pool;
  return entryFor(entries, competition, last) ?? rules.initial(hyper);
}

function sum(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0);
}

function mean(ratings: readonly number[][]): number[] {
  return ratings[0].map((_, i) => ratings.reduce((s, r) => s + r[i], 0) / ratings.length);
}
