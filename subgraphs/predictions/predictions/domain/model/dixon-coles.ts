/**
 * Dixon–Coles (1997): home goals ~ Poisson(exp(μ + home + att_h + def_a)), away goals ~
 * Poisson(exp(μ + att_a + def_h)), with the low-score correction τ(ρ) on 0-0, 1-0, 0-1, 1-1 and
 * exponentially time-decayed match weights exp(−ξ·age in days).
 *
 * Fitted per country group (en.1 + en.2 jointly, so a promoted side already has a rating on the
 * top-flight scale). A team that joined the group after the start of the training window came up
 * from a tier the data does not cover. Its strengths are shrunk towards a prior, not towards the
 * league average: the mean of the weakest established teams of the group's lowest tier in the
 * latest season (the relegation candidates, whom promoted sides replace). The same prior rates a team with no
 * history at all.
 */
import { addDays, dayNumber, groupOf, seasonOf, tierOf } from './data';
import { goldenSectionMax, minimize } from './optimise';
import type { Fixture, Forecast, TrainingMatch } from './types';

// Module-level aliases: looking `Math` up on every call is about 20× slower inside vm contexts
// such as jest's, and these loops run millions of times per backtest.
const { exp, log, abs, max } = Math;

export const DIXON_COLES_DEFAULTS: Record<string, number> = {
  /**
   * Time decay per day (a half-life of 277 days), chosen on the seasons 2012-13..2014-15 among 0.0012..0.004
   * (penaltyblog's default 0.0018 ≈ the paper's 0.0065 per half-week); bench/model-levers.ts.
   */
  xi: 0.0025,
  /** Matches older than this are ignored (their weight is below exp(−ξ·window)). */
  windowDays: 1095,
  /** Ridge on team strengths, in units of one match played today; also makes the fit identifiable. */
  ridge: 1,
  /** Ridge pulling a newcomer towards the prior: how many matches' worth that prior is. */
  newcomerRidge: 5,
  /** A team whose first match in the window comes this many days after the group's first is a newcomer. */
  newcomerGapDays: 90,
  /** The prior is the mean of this many weakest teams (1 chosen over 3 and 5 on 2012-13..2014-15; bench/model-levers.ts). */
  priorPoolSize: 1,
  /** ρ is searched on [rhoMin, rhoMax]. */
  rhoMin: -0.25,
  rhoMax: 0.1,
  /** Score grid size for the outcome probabilities. */
  maxGoals: 10,
  /** 1: goal level, home advantage and ρ per competition (tiers differ); 0: one set per country group. */
  perCompetition: 0,
  /** Per-day decay of the recent matches that re-estimate the home advantage on its own; 0: off. */
  homeShiftDecay: 0,
  /** Ridge on that re-estimate, in matches played today. */
  homeShiftRidge: 50,
  /**
   * Extra weight of the first half: each match with a half-time score adds its first-half goals as a
   * Poisson observation with mean (the group's first-half share of goals) × the full-time mean, this
   * many times its weight. 0: full time only; negative values weigh the second half up instead.
   */
  halfTimeWeight: 0,
  /**
   * Game state: the second-half goals of a match one side led by two or more at half time count this much
   * less (0: as much as any goal; 1: not at all). Needs the half-time score.
   */
  decidedSecondHalfDiscount: 0,
  /** Ridge (in matches played today) on each team's own home advantage, shrunk towards the level's; 0: one home advantage for all. */
  teamHomeRidge: 0,
  /** Goals above this per side count as this many in the fit (a blow-out says little more); 0: no cap. */
  goalCap: 0,
  /** Weight of matches below the group's top tier (the Championship next to the Premier League), relative to 1. */
  lowerTierWeight: 1,
  /** Extra weight factor per season boundary between a match and the fit (squads change over the summer); 1: none. */
  pastSeasonWeight: 1,
};

/** Goal level, home advantage and low-score correction of one competition (or of the whole group). */
export interface DixonColesLevel {
  mu: number;
  home: number;
  rho: number;
  /** Recent correction to `home` (homeShiftDecay); absent when off. */
  homeShift?: number;
}

/** Parameters of one country group; the group's own level is that of its top competition. */
export interface DixonColesGroup extends DixonColesLevel {
  /** [attack, defence] of a team without history. */
  prior: [number, number];
  /** [attack, defence], or [attack, defence, own home advantage] (teamHomeRidge). */
  teams: Record<string, [number, number] | [number, number, number]>;
  /** Per competition (perCompetition). */
  competitions?: Record<string, DixonColesLevel>;
}

export interface DixonColesState {
  groups: Record<string, DixonColesGroup>;
}

/** Fits every group present in `matches` (all dated before asOf, canonically sorted). */
export function fitDixonColes(
  hyper: Record<string, number>,
  matches: readonly TrainingMatch[],
  asOf: string,
  warm?: DixonColesState,
): { state: DixonColesState; used: TrainingMatch[] } {
  const from = addDays(asOf, -hyper.windowDays);
  const used = matches.filter((m) => m.date >= from);
  const byGroup = new Map<string, TrainingMatch[]>();
  for (const m of used) {
    const g = groupOf(m.competition);
    let list = byGroup.get(g);
    if (!list) byGroup.set(g, (list = []));
    list.push(m);
  }
  const groups: Record<string, DixonColesGroup> = {};
  for (const g of [...byGroup.keys()].sort()) {
    groups[g] = fitGroup(hyper, new GroupData(byGroup.get(g)!, dayNumber(asOf), hyper), warm?.groups[g]);
  }
  return { state: { groups }, used };
}

/** One group's matches as flat arrays, plus who is a newcomer and who can anchor the prior. */
class GroupData {
  readonly teams: string[];
  /** Competitions with their own level: all of the group's (perCompetition), else one shared level. */
  readonly levels: string[];
  /** Per match: index into `levels`. */
  readonly level: Int32Array;
  readonly day: Float64Array;
  readonly home: Int32Array;
  readonly away: Int32Array;
  readonly homeGoals: Float64Array;
  readonly awayGoals: Float64Array;
  /** First-half goals; NaN where the half-time score is unknown. */
  readonly homeGoalsHalfTime: Float64Array;
  readonly awayGoalsHalfTime: Float64Array;
  /** The group's share of home / away goals scored in the first half (weighted, matches with a half-time score). */
  readonly halfTimeShare: [number, number];
  readonly weight: Float64Array;
  readonly totalWeight: number;
  readonly meanGoals: number;
  readonly isNewcomer: boolean[];
  /** Whether each team has its own home advantage (teamHomeRidge > 0). */
  readonly teamHome: boolean;
  /** Established teams of the lowest tier in the latest season: the prior is the mean of the weakest. */
  readonly priorCandidates: number[];

  constructor(matches: readonly TrainingMatch[], asOfDay: number, hyper: Record<string, number>) {
    const firstDay = new Map<string, number>();
    for (const m of matches) {
      for (const t of [m.home, m.away]) if (!firstDay.has(t)) firstDay.set(t, dayNumber(m.date));
    }
    this.teams = [...firstDay.keys()].sort();
    const index = new Map(this.teams.map((t, i) => [t, i]));
    const groupStart = dayNumber(matches[0].date);
    this.isNewcomer = this.teams.map((t) => firstDay.get(t)! - groupStart > hyper.newcomerGapDays);
    this.teamHome = hyper.teamHomeRidge > 0;
    const cap = hyper.goalCap > 0 ? hyper.goalCap : Infinity;
    // the season the fit is for (July cut-off, as for fixtures without a season)
    const asOfSeasonStart = Number(seasonOf({ date: new Date(asOfDay * 86_400_000).toISOString().slice(0, 10) }).slice(0, 4));

    const n = matches.length;
    const competitions = [...new Set(matches.map((m) => m.competition))].sort((a, b) => tierOf(a) - tierOf(b) || (a < b ? -1 : 1));
    this.levels = hyper.perCompetition ? competitions : [competitions[0]];
    const levelIndex = new Map(this.levels.map((c, i) => [c, i]));
    this.level = new Int32Array(n);
    this.day = new Float64Array(n);
    this.home = new Int32Array(n);
    this.away = new Int32Array(n);
    this.homeGoals = new Float64Array(n);
    this.awayGoals = new Float64Array(n);
    this.weight = new Float64Array(n);
    this.homeGoalsHalfTime = new Float64Array(n);
    this.awayGoalsHalfTime = new Float64Array(n);
    let totalWeight = 0;
    let goals = 0;
    const halves = [0, 0, 0, 0];
    matches.forEach((m, k) => {
      this.level[k] = levelIndex.get(m.competition) ?? 0;
      this.day[k] = asOfDay - dayNumber(m.date);
      this.home[k] = index.get(m.home)!;
      this.away[k] = index.get(m.away)!;
      this.homeGoals[k] = Math.min(m.homeGoals, cap);
      this.awayGoals[k] = Math.min(m.awayGoals, cap);
      this.weight[k] =
        exp(-hyper.xi * (asOfDay - dayNumber(m.date))) *
        (tierOf(m.competition) > tierOf(competitions[0]) ? hyper.lowerTierWeight : 1) *
        (hyper.pastSeasonWeight === 1 ? 1 : hyper.pastSeasonWeight ** (asOfSeasonStart - Number(seasonOf(m).slice(0, 4))));
      totalWeight += this.weight[k];
      goals += this.weight[k] * (this.homeGoals[k] + this.awayGoals[k]);
      const known = m.homeGoalsHalfTime !== undefined && m.awayGoalsHalfTime !== undefined;
      this.homeGoalsHalfTime[k] = known ? Math.min(m.homeGoalsHalfTime!, cap) : NaN;
      this.awayGoalsHalfTime[k] = known ? Math.min(m.awayGoalsHalfTime!, cap) : NaN;
      if (known) {
        halves[0] += this.weight[k] * this.homeGoalsHalfTime[k];
        halves[1] += this.weight[k] * this.homeGoals[k];
        halves[2] += this.weight[k] * this.awayGoalsHalfTime[k];
        halves[3] += this.weight[k] * this.awayGoals[k];
      }
    });
    // about 0.44 of the goals come before half time; a plain 0.45 when the data has no half-time scores
    this.halfTimeShare = [halves[1] > 0 ? halves[0] / halves[1] : 0.45, halves[3] > 0 ? halves[2] / halves[3] : 0.45];
    this.totalWeight = totalWeight;
    this.meanGoals = goals / (2 * totalWeight);

    const latest = seasonOf(matches[n - 1]);
    const inLatest = matches.filter((m) => seasonOf(m) === latest);
    const lowestTier = max(...inLatest.map((m) => tierOf(m.competition)));
    const candidates = new Set<number>();
    for (const m of inLatest) {
      if (tierOf(m.competition) === lowestTier) candidates.add(index.get(m.home)!).add(index.get(m.away)!);
    }
    const all = [...candidates].sort((a, b) => a - b);
    // newcomers are centred on the prior themselves: learn it from teams with their own history
    const established = all.filter((i) => !this.isNewcomer[i]);
    this.priorCandidates = established.length >= hyper.priorPoolSize ? established : all;
  }
}

// parameter layout: [μ × L, home × L, attack × T, defence × T (, own home advantage × T)] for L levels
// (competitions) and T teams
const MAX_PRIOR_PASSES = 8;
const PRIOR_TOLERANCE = 1e-3;

/** Offsets of the parameter blocks. */
function layout(data: GroupData) {
  const L = data.levels.length;
  const ATT = 2 * L;
  const T = data.teams.length;
  // without own home advantages TH points at a parameter that does not exist: read through `teamHome` only
  return { L, HOME: L, ATT, DEF: ATT + T, TH: ATT + 2 * T, size: ATT + (data.teamHome ? 3 : 2) * T };
}

function fitGroup(hyper: Record<string, number>, data: GroupData, warm?: DixonColesGroup): DixonColesGroup {
  const { L, HOME, ATT, DEF, TH, size } = layout(data);
  let prior: [number, number] = warm ? warm.prior : [0, 0];
  let x: Float64Array = new Float64Array(size);
  data.levels.forEach((c, l) => {
    const level = warm?.competitions?.[c] ?? warm;
    x[l] = level ? level.mu : log(max(data.meanGoals, 1e-9));
    x[HOME + l] = level ? level.home : 0;
  });
  data.teams.forEach((t, i) => {
    const start = warm?.teams[t] ?? (data.isNewcomer[i] ? prior : [0, 0]);
    x[ATT + i] = start[0];
    x[DEF + i] = start[1];
    if (data.teamHome) x[TH + i] = warm?.teams[t]?.[2] ?? 0;
  });

  // The prior depends on the fit (the weakest teams) and the fit on the prior (the newcomers'
  // centre): iterate to the fixed point. With the gauge pinned, each pass shrinks the change
  // about tenfold; a warm start begins next to it and usually needs one or two passes.
  for (let pass = 0; pass < MAX_PRIOR_PASSES; pass++) {
    x = maximiseLikelihood(hyper, data, prior, x);
    const next = weakestMean(data, x, hyper.priorPoolSize);
    const moved = max(abs(next[0] - prior[0]), abs(next[1] - prior[1]));
    prior = next;
    if (moved < PRIOR_TOLERANCE) break;
  }

  const strengths: DixonColesGroup['teams'] = {};
  data.teams.forEach((t, i) => {
    strengths[t] = data.teamHome ? [x[ATT + i], x[DEF + i], x[TH + i]] : [x[ATT + i], x[DEF + i]];
  });
  const levels = data.levels.map((_, l): DixonColesLevel => {
    const level: DixonColesLevel = { mu: x[l], home: x[HOME + l], rho: fitRho(hyper, data, x, l) };
    if (hyper.homeShiftDecay > 0) level.homeShift = fitHomeShift(hyper, data, x, l);
    return level;
  });
  const group: DixonColesGroup = { ...levels[0], prior, teams: strengths };
  if (L > 1 || hyper.perCompetition) group.competitions = Object.fromEntries(data.levels.map((c, l) => [c, levels[l]]));
  return group;
}

/** Maximum of the weighted Poisson log-likelihood minus the ridge, by L-BFGS with the analytic gradient. */
function maximiseLikelihood(hyper: Record<string, number>, data: GroupData, prior: [number, number], x0: Float64Array): Float64Array {
  const { home, away, homeGoals, awayGoals, weight, totalWeight, level, homeGoalsHalfTime, awayGoalsHalfTime } = data;
  const { HOME, ATT, DEF, TH } = layout(data);
  const teamHome = data.teamHome;
  // the first half as an extra observation: its weight per match (0 without a half-time score)
  const alpha = hyper.halfTimeWeight;
  const [shareH, shareA] = data.halfTimeShare;
  const logShareH = log(shareH);
  const logShareA = log(shareA);
  const halfWeight = new Float64Array(home.length);
  if (alpha !== 0) for (let k = 0; k < home.length; k++) halfWeight[k] = Number.isNaN(homeGoalsHalfTime[k]) ? 0 : alpha * weight[k];
  // the second half of a match decided at half time, as a negative observation: mean (1 − share)·λ
  const delta = hyper.decidedSecondHalfDiscount;
  const secondWeight = new Float64Array(home.length);
  if (delta !== 0) {
    for (let k = 0; k < home.length; k++) {
      if (abs(homeGoalsHalfTime[k] - awayGoalsHalfTime[k]) >= 2) secondWeight[k] = -delta * weight[k]; // false for NaN
    }
  }
  const logSecondH = log(1 - shareH);
  const logSecondA = log(1 - shareA);
  const centre = new Float64Array(x0.length);
  const ridge = new Float64Array(x0.length);
  data.teams.forEach((_, i) => {
    ridge[ATT + i] = ridge[DEF + i] = data.isNewcomer[i] ? hyper.newcomerRidge : hyper.ridge;
    if (data.isNewcomer[i]) [centre[ATT + i], centre[DEF + i]] = prior;
    if (teamHome) ridge[TH + i] = hyper.teamHomeRidge;
  });
  const established = data.teams.map((_, i) => i).filter((i) => !data.isNewcomer[i]);
  // stiffness of the gauge constraint below: as firm as the data pins the goal level μ
  const gauge = totalWeight;

  const objective = (x: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let ll = 0;
    for (let k = 0; k < home.length; k++) {
      const h = home[k];
      const a = away[k];
      const l = level[k];
      const logH = x[l] + x[HOME + l] + x[ATT + h] + x[DEF + a] + (teamHome ? x[TH + h] : 0);
      const logA = x[l] + x[ATT + a] + x[DEF + h];
      const lh = exp(logH);
      const la = exp(logA);
      ll += weight[k] * (homeGoals[k] * logH - lh + awayGoals[k] * logA - la);
      // ∂ll/∂log λ = w·(goals − λ): scattered onto every parameter in that linear predictor
      let rh = weight[k] * (homeGoals[k] - lh);
      let ra = weight[k] * (awayGoals[k] - la);
      const hw = halfWeight[k];
      if (hw !== 0) {
        // the first half: mean share·λ, the same linear predictor plus a constant
        ll += hw * (homeGoalsHalfTime[k] * (logH + logShareH) - shareH * lh + awayGoalsHalfTime[k] * (logA + logShareA) - shareA * la);
        rh += hw * (homeGoalsHalfTime[k] - shareH * lh);
        ra += hw * (awayGoalsHalfTime[k] - shareA * la);
      }
      const sw = secondWeight[k];
      if (sw !== 0) {
        const g2h = homeGoals[k] - homeGoalsHalfTime[k];
        const g2a = awayGoals[k] - awayGoalsHalfTime[k];
        ll += sw * (g2h * (logH + logSecondH) - (1 - shareH) * lh + g2a * (logA + logSecondA) - (1 - shareA) * la);
        rh += sw * (g2h - (1 - shareH) * lh);
        ra += sw * (g2a - (1 - shareA) * la);
      }
      grad[l] -= rh + ra;
      grad[HOME + l] -= rh;
      grad[ATT + h] -= rh;
      grad[DEF + a] -= rh;
      grad[ATT + a] -= ra;
      grad[DEF + h] -= ra;
      if (teamHome) grad[TH + h] -= rh;
    }
    let penalty = 0;
    for (let i = ATT; i < x.length; i++) {
      const d = x[i] - centre[i];
      penalty += 0.5 * ridge[i] * d * d;
      grad[i] += ridge[i] * d;
    }
    // Gauge: adding c to every attack and −c to μ changes no forecast. Pin it by centring the
    // established teams on zero, or each change of the prior would drag the whole scale along.
    for (const offset of teamHome ? [ATT, DEF, TH] : [ATT, DEF]) {
      let mean = 0;
      for (const i of established) mean += x[offset + i] / established.length;
      penalty += 0.5 * gauge * mean * mean;
      for (const i of established) grad[offset + i] += (gauge * mean) / established.length;
    }
    // scaled by the total weight so that the gradient tolerance means the same for any data size
    for (let i = 0; i < x.length; i++) grad[i] /= totalWeight;
    return (penalty - ll) / totalWeight;
  };

  // preconditioner: the Poisson curvature Σ w·λ of each parameter at the start, plus its ridge
  const diag = new Float64Array(x0.length);
  for (let k = 0; k < home.length; k++) {
    const h = home[k];
    const a = away[k];
    const l = level[k];
    const lh =
      (weight[k] + halfWeight[k] * shareH + secondWeight[k] * (1 - shareH)) *
      exp(x0[l] + x0[HOME + l] + x0[ATT + h] + x0[DEF + a] + (teamHome ? x0[TH + h] : 0));
    const la = (weight[k] + halfWeight[k] * shareA + secondWeight[k] * (1 - shareA)) * exp(x0[l] + x0[ATT + a] + x0[DEF + h]);
    diag[l] += lh + la;
    diag[HOME + l] += lh;
    diag[ATT + h] += lh;
    diag[DEF + a] += lh;
    diag[ATT + a] += la;
    diag[DEF + h] += la;
    if (teamHome) diag[TH + h] += lh;
  }
  const inverseDiagonal = diag.map((d, i) => totalWeight / (d + ridge[i] + 1e-9));
  return minimize(objective, x0, { gradientTolerance: 1e-7, maxIterations: 1000, inverseDiagonal }).x;
}

/** Mean [attack, defence] of the weakest prior candidates, by attack − defence. */
function weakestMean(data: GroupData, x: Float64Array, size: number): [number, number] {
  const { ATT, DEF } = layout(data);
  const weakest = [...data.priorCandidates].sort((i, j) => x[ATT + i] - x[DEF + i] - (x[ATT + j] - x[DEF + j]) || i - j).slice(0, max(1, size));
  const mean = (offset: number) => weakest.reduce((s, i) => s + x[offset + i], 0) / weakest.length;
  return [mean(ATT), mean(DEF)];
}

/** The fitted goal means of match k. */
function means(data: GroupData, x: Float64Array, k: number): [number, number] {
  const { HOME, ATT, DEF, TH } = layout(data);
  const h = data.home[k];
  const a = data.away[k];
  const l = data.level[k];
  return [exp(x[l] + x[HOME + l] + x[ATT + h] + x[DEF + a] + (data.teamHome ? x[TH + h] : 0)), exp(x[l] + x[ATT + a] + x[DEF + h])];
}

/** ρ of one level by a 1-D profile with the Poisson means held fixed: only the four low scores depend on it. */
function fitRho(hyper: Record<string, number>, data: GroupData, x: Float64Array, l: number): number {
  const low: { w: number; hg: number; ag: number; lh: number; la: number }[] = [];
  for (let k = 0; k < data.home.length; k++) {
    if (data.level[k] !== l || data.homeGoals[k] > 1 || data.awayGoals[k] > 1) continue;
    const [lh, la] = means(data, x, k);
    low.push({ w: data.weight[k], hg: data.homeGoals[k], ag: data.awayGoals[k], lh, la });
  }
  return goldenSectionMax((r) => low.reduce((s, m) => s + m.w * log(tau(m.hg, m.ag, m.lh, m.la, r)), 0), hyper.rhoMin, hyper.rhoMax);
}

/**
 * A correction to one level's home advantage from its recent matches alone (weights decaying by
 * homeShiftDecay per day), the team strengths held fixed: Newton steps on the home side's Poisson
 * log-likelihood in the shift, with a ridge towards no shift.
 */
function fitHomeShift(hyper: Record<string, number>, data: GroupData, x: Float64Array, l: number): number {
  let goals = 0;
  let expected = 0;
  for (let k = 0; k < data.home.length; k++) {
    if (data.level[k] !== l) continue;
    const w = exp(-hyper.homeShiftDecay * data.day[k]);
    goals += w * data.homeGoals[k];
    expected += w * means(data, x, k)[0];
  }
  let shift = 0;
  for (let i = 0; i < 20; i++) {
    const gradient = goals - expected * exp(shift) - hyper.homeShiftRidge * shift;
    const curvature = expected * exp(shift) + hyper.homeShiftRidge;
    const step = gradient / curvature;
    shift += step;
    if (abs(step) < 1e-9) break;
  }
  return shift;
}

/** The Dixon–Coles low-score correction (kept positive so that its log is defined for any ρ). */
function tau(h: number, a: number, lh: number, la: number, rho: number): number {
  let t = 1;
  if (h === 0 && a === 0) t = 1 - lh * la * rho;
  else if (h === 0 && a === 1) t = 1 + lh * rho;
  else if (h === 1 && a === 0) t = 1 + la * rho;
  else if (h === 1 && a === 1) t = 1 - rho;
  return max(t, 1e-10);
}

export function forecastDixonColes(state: DixonColesState, hyper: Record<string, number>, fixture: Fixture): Forecast {
  const g = groupParams(state, fixture);
  const level = g.competitions?.[fixture.competition] ?? g;
  const [attH, defH, ownHome = 0] = strengths(state, fixture.home, g);
  const [attA, defA] = strengths(state, fixture.away, g);
  const lh = exp(level.mu + level.home + (level.homeShift ?? 0) + ownHome + attH + defA);
  const la = exp(level.mu + attA + defH);
  return { ...outcomeProbabilities(lh, la, level.rho, hyper.maxGoals), expHomeGoals: lh, expAwayGoals: la, expGoalDiff: lh - la };
}

/**
 * Goal level, home advantage and ρ for a fixture: those of its competition's group, else of a
 * team's group; for a competition and teams never seen, the average over groups.
 */
function groupParams(state: DixonColesState, fixture: Fixture): DixonColesGroup {
  const direct = state.groups[groupOf(fixture.competition)] ?? groupOfTeam(state, fixture.home) ?? groupOfTeam(state, fixture.away);
  if (direct) return direct;
  const all = Object.values(state.groups);
  const mean = (f: (g: DixonColesGroup) => number) => all.reduce((s, g) => s + f(g), 0) / all.length;
  return { mu: mean((g) => g.mu), home: mean((g) => g.home + (g.homeShift ?? 0)), rho: mean((g) => g.rho), prior: [0, 0], teams: {} };
}

function groupOfTeam(state: DixonColesState, team: string): DixonColesGroup | undefined {
  return Object.values(state.groups).find((g) => g.teams[team] !== undefined);
}

/** A team's [attack, defence] from whichever group knows it, else the fixture group's prior. */
function strengths(state: DixonColesState, team: string, fixtureGroup: DixonColesGroup): readonly number[] {
  return fixtureGroup.teams[team] ?? groupOfTeam(state, team)?.teams[team] ?? fixtureGroup.prior;
}

/**
 * P(home win), P(draw), P(away win) from the τ-corrected score grid 0..maxGoals, renormalised.
 * τ adds the same mass, ρ·λ_home·λ_away·e^−(λ_home+λ_away), to 1-0 and to 0-1, so pHome > pAway
 * exactly when λ_home > λ_away: the goal difference always agrees with the favourite.
 */
function outcomeProbabilities(lh: number, la: number, rho: number, maxGoals: number): Pick<Forecast, 'pHome' | 'pDraw' | 'pAway'> {
  const ph = poissonPmf(lh, maxGoals);
  const pa = poissonPmf(la, maxGoals);
  let home = 0;
  let draw = 0;
  let away = 0;
  for (let i = 0; i <= maxGoals; i++) {
    for (let j = 0; j <= maxGoals; j++) {
      const p = ph[i] * pa[j] * (i <= 1 && j <= 1 ? tau(i, j, lh, la, rho) : 1);
      if (i > j) home += p;
      else if (i === j) draw += p;
      else away += p;
    }
  }
  const total = home + draw + away;
  return { pHome: home / total, pDraw: draw / total, pAway: away / total };
}

function poissonPmf(lambda: number, max: number): Float64Array {
  const p = new Float64Array(max + 1);
  p[0] = exp(-lambda);
  for (let k = 1; k <= max; k++) p[k] = (p[k - 1] * lambda) / k;
  return p;
}
