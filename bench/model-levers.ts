/**
 * Model levers, measured without tuning on the evaluation windows.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/model-levers.js [data/football]
 *
 * Every lever's setting is chosen on the tuning seasons: 2012-13..2014-15, each league from its third
 * season in the data (two seasons of history first), all before both evaluation windows. The chosen
 * setting is then measured walk-forward on the Premier League 2015-16..2024-25 and on the six-league
 * default window (the five seasons before each league's newest), against the model without it, in
 * the same run. A lever is kept when it lowers the EPL RPS without raising the six-league RPS; the next
 * lever is measured on top of the ones kept. The baseline is the model as it was before these levers.
 */
import { resolve } from 'node:path';
import { readDataset, type ParsedMatch } from '../subgraphs/predictions/football/domain/dataset';
import {
  calibrationOf,
  combineForecasts,
  computeMetrics,
  defaultEvaluationWindow,
  defaultSpec,
  ENSEMBLE_COMPONENTS,
  fitEnsembleWeights,
  predictedOutcome,
  toTrainingMatches,
  walkForward,
  WEIGHT_KEYS,
  type BacktestRow,
  type Forecast,
  type Metrics,
  type ModelKind,
  type Outcome,
  type TrainingMatch,
} from '../subgraphs/predictions/predictions/domain/model';
import { dayNumber, groupOf } from '../subgraphs/predictions/predictions/domain/model/data';
import { minimize } from '../subgraphs/predictions/predictions/domain/model/optimise';

type Hyper = Record<string, number>;
type Component = (typeof ENSEMBLE_COMPONENTS)[number];

const dataDir = process.argv[2] ?? resolve(__dirname, '../../data/football');
const parsed = readDataset(dataDir).matches;
const all = toTrainingMatches(parsed);

// ---- windows

const firstSeason = new Map<string, string>();
for (const m of all) if (!firstSeason.has(m.competition) || m.season! < firstSeason.get(m.competition)!) firstSeason.set(m.competition, m.season!);
const seasonPlus = (season: string, years: number) => {
  const y = Number(season.slice(0, 4)) + years;
  return `${y}-${String((y + 1) % 100).padStart(2, '0')}`;
};

interface Window {
  name: string;
  data: TrainingMatch[];
  evaluate: (m: TrainingMatch) => boolean;
}

const inTuning = (m: TrainingMatch) => m.season! <= '2014-15' && m.season! >= seasonPlus(firstSeason.get(m.competition)!, 2);
const tuningGroups = new Set(all.filter(inTuning).map((m) => groupOf(m.competition)));
const WINDOWS: Record<'tune' | 'epl' | 'six', Window> = {
  // countries never meet, so each window trains on the groups it evaluates only: same forecasts, faster
  tune: { name: 'tuning 2012-13..2014-15', data: all.filter((m) => tuningGroups.has(groupOf(m.competition))), evaluate: inTuning },
  epl: {
    name: 'EPL 2015-16..2024-25',
    data: all.filter((m) => m.competition.startsWith('en.')),
    evaluate: (m) => m.competition === 'en.1' && m.season! >= '2015-16' && m.season! <= '2024-25',
  },
  six: { name: 'six leagues, default window', data: all, evaluate: defaultEvaluationWindow(all) },
};
type WindowName = keyof typeof WINDOWS;

// ---- cached walk-forward runs of the components

const runs = new Map<string, BacktestRow[]>();
function rowsOf(kind: Component, hyper: Hyper, window: WindowName): BacktestRow[] {
  const key = `${kind} ${window} ${JSON.stringify(Object.entries(hyper).sort())}`;
  let rows = runs.get(key);
  if (!rows) {
    const w = WINDOWS[window];
    rows = walkForward({ kind, hyper }, w.data, { evaluate: w.evaluate }).rows;
    runs.set(key, rows);
  }
  return rows;
}

// ---- output

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
const fig = (m: Metrics) => `${pct(m.accuracy)} / ${m.rps.toFixed(5)}`;

function table(header: string[], rows: string[][]): void {
  const cells = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log();
}

const LEVER_HEADER = ['lever', 'candidates (chosen on tuning)', 'chosen', 'tuning acc / RPS', 'EPL acc / RPS', 'six leagues acc / RPS', 'kept'];

/** The settings before the levers, pinned so that the baseline does not move with the defaults. */
const BASELINE: Record<Component, Hyper> = {
  'dixon-coles': {
    xi: 0.0018,
    priorPoolSize: 3,
    newcomerRidge: 5,
    perCompetition: 0,
    homeShiftDecay: 0,
    halfTimeWeight: 0,
    decidedSecondHalfDiscount: 0,
    ridge: 1,
    teamHomeRidge: 0,
    goalCap: 0,
    lowerTierWeight: 1,
    pastSeasonWeight: 1,
  },
  elo: {
    k: 20,
    homeAdvantage: 60,
    marginPower: 0,
    entryPoolSize: 3,
    logitPerCompetition: 0,
    homeShiftDecay: 0,
    seasonRegression: 0,
    outcomeDecay: 0.0005,
    earlyBoost: 0,
  },
  'pi-ratings': {
    lambda: 0.035,
    gamma: 0.7,
    entryPoolSize: 3,
    logitPerCompetition: 0,
    homeShiftDecay: 0,
    seasonRegression: 0,
    outcomeDecay: 0.0005,
    c: 3,
    halfTimeBlend: 0,
    errorPower: 0,
    earlyBoost: 0,
  },
};
const BASELINE_WEIGHTS = [0.61, 0.27, 0.12];

interface Lever {
  name: string;
  candidates: Hyper[];
}

/** Time weight of past matches in the ordered logit (per day). */
const OUTCOME_DECAY: Lever = {
  name: 'time decay of the ordered logit (per day)',
  candidates: [{ outcomeDecay: 0.0005 }, { outcomeDecay: 0 }, { outcomeDecay: 0.001 }, { outcomeDecay: 0.002 }],
};

const EARLY_BOOST: Lever = {
  name: 'learning rate ×(1 + b) over the first N matches of a season',
  candidates: [
    { earlyBoost: 0 },
    { earlyBoost: 0.5, earlyMatches: 6 },
    { earlyBoost: 1, earlyMatches: 6 },
    { earlyBoost: 0.5, earlyMatches: 10 },
    { earlyBoost: 1, earlyMatches: 3 },
  ],
};

/** Candidate settings of each lever, per component; the first candidate is always "as before". */
const LEVERS: Record<Component, Lever[]> = {
  'dixon-coles': [
    { name: 'time decay ξ per day', candidates: [{ xi: 0.0018 }, { xi: 0.0012 }, { xi: 0.0025 }, { xi: 0.003 }, { xi: 0.004 }] },
    {
      name: "promoted sides' prior: mean of the N weakest teams of the lower tier",
      candidates: [{ priorPoolSize: 3 }, { priorPoolSize: 1 }, { priorPoolSize: 5 }],
    },
    { name: 'weight of that prior (newcomer ridge, in matches)', candidates: [{ newcomerRidge: 5 }, { newcomerRidge: 2 }, { newcomerRidge: 15 }] },
    { name: 'goal level, home advantage and ρ per league', candidates: [{ perCompetition: 0 }, { perCompetition: 1 }] },
    {
      name: 'home advantage with its own decay',
      candidates: [
        { homeShiftDecay: 0 },
        { homeShiftDecay: 0.005, homeShiftRidge: 50 },
        { homeShiftDecay: 0.01, homeShiftRidge: 30 },
        { homeShiftDecay: 0.01, homeShiftRidge: 100 },
        { homeShiftDecay: 0.02, homeShiftRidge: 30 },
      ],
    },
    {
      name: 'first half as an extra observation (half-time score), weight',
      candidates: [
        { halfTimeWeight: 0 },
        { halfTimeWeight: -0.5 },
        { halfTimeWeight: 0.25 },
        { halfTimeWeight: 0.5 },
        { halfTimeWeight: 1 },
        { halfTimeWeight: 2 },
      ],
    },
    {
      name: 'game state: discount on second-half goals after a two-goal half-time lead',
      candidates: [
        { decidedSecondHalfDiscount: 0 },
        { decidedSecondHalfDiscount: 0.25 },
        { decidedSecondHalfDiscount: 0.5 },
        { decidedSecondHalfDiscount: 0.75 },
      ],
    },
    {
      name: 'weight factor per season boundary (summer changes)',
      candidates: [{ pastSeasonWeight: 1 }, { pastSeasonWeight: 0.9 }, { pastSeasonWeight: 0.8 }, { pastSeasonWeight: 0.65 }],
    },
    { name: 'ridge on team strengths (matches)', candidates: [{ ridge: 1 }, { ridge: 0.3 }, { ridge: 3 }, { ridge: 6 }] },
    {
      name: "each team's own home advantage, ridge (matches)",
      candidates: [{ teamHomeRidge: 0 }, { teamHomeRidge: 10 }, { teamHomeRidge: 30 }, { teamHomeRidge: 100 }],
    },
    { name: 'goals per side capped at', candidates: [{ goalCap: 0 }, { goalCap: 4 }, { goalCap: 5 }, { goalCap: 6 }] },
    { name: 'weight of the lower tier (Championship)', candidates: [{ lowerTierWeight: 1 }, { lowerTierWeight: 0.5 }, { lowerTierWeight: 0.75 }] },
  ],
  elo: [
    { name: 'ordered logit per league', candidates: [{ logitPerCompetition: 0 }, { logitPerCompetition: 1 }] },
    {
      name: 'entry rating of promoted / relegated sides: mean of the N bottom / top',
      candidates: [{ entryPoolSize: 3 }, { entryPoolSize: 1 }, { entryPoolSize: 5 }],
    },
    { name: 'K factor', candidates: [{ k: 20 }, { k: 15 }, { k: 18 }, { k: 23 }, { k: 26 }] },
    { name: 'home advantage in the update (points)', candidates: [{ homeAdvantage: 60 }, { homeAdvantage: 30 }, { homeAdvantage: 45 }, { homeAdvantage: 80 }] },
    {
      name: 'goal-difference weight (1 + margin)^p vs World Football Elo',
      candidates: [{ marginPower: 0 }, { marginPower: 0.3 }, { marginPower: 0.5 }, { marginPower: 0.8 }, { marginPower: 1 }],
    },
    {
      name: 'home advantage with its own decay',
      candidates: [
        { homeShiftDecay: 0 },
        { homeShiftDecay: 0.005, homeShiftRidge: 50 },
        { homeShiftDecay: 0.01, homeShiftRidge: 30 },
        { homeShiftDecay: 0.01, homeShiftRidge: 100 },
        { homeShiftDecay: 0.02, homeShiftRidge: 30 },
      ],
    },
    { name: 'regression to the mean between seasons', candidates: [{ seasonRegression: 0 }, { seasonRegression: 0.1 }, { seasonRegression: 0.2 }] },
    OUTCOME_DECAY,
    EARLY_BOOST,
  ],
  'pi-ratings': [
    { name: 'ordered logit per league', candidates: [{ logitPerCompetition: 0 }, { logitPerCompetition: 1 }] },
    {
      name: 'entry rating of promoted / relegated sides: mean of the N bottom / top',
      candidates: [{ entryPoolSize: 3 }, { entryPoolSize: 1 }, { entryPoolSize: 5 }],
    },
    {
      name: 'learning rates λ (goal-difference error) and γ (home ↔ away)',
      candidates: [
        { lambda: 0.035, gamma: 0.7 },
        { lambda: 0.045, gamma: 0.7 },
        { lambda: 0.055, gamma: 0.7 },
        { lambda: 0.045, gamma: 0.85 },
        { lambda: 0.055, gamma: 0.85 },
        { lambda: 0.045, gamma: 1 },
        { lambda: 0.03, gamma: 0.7 },
      ],
    },
    {
      name: 'home advantage with its own decay',
      candidates: [
        { homeShiftDecay: 0 },
        { homeShiftDecay: 0.005, homeShiftRidge: 50 },
        { homeShiftDecay: 0.01, homeShiftRidge: 30 },
        { homeShiftDecay: 0.01, homeShiftRidge: 100 },
        { homeShiftDecay: 0.02, homeShiftRidge: 30 },
      ],
    },
    { name: 'regression to the mean between seasons', candidates: [{ seasonRegression: 0 }, { seasonRegression: 0.1 }, { seasonRegression: 0.2 }] },
    OUTCOME_DECAY,
    EARLY_BOOST,
    {
      name: 'margin-aware step: shape p of the step in the goal-difference error',
      candidates: [{ errorPower: 0 }, { errorPower: -0.5 }, { errorPower: 0.25 }, { errorPower: 0.5 }],
    },
    {
      name: 'observed goal difference partly from the first half (half-time score), share β',
      candidates: [{ halfTimeBlend: 0 }, { halfTimeBlend: 0.15 }, { halfTimeBlend: 0.3 }, { halfTimeBlend: 0.5 }],
    },
    { name: 'rating → goal-difference scale c (b = 10)', candidates: [{ c: 3 }, { c: 2.5 }, { c: 3.5 }, { c: 4 }] },
  ],
};

const short = (h: Hyper) =>
  Object.entries(h)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
const metricsOf = (rows: readonly { forecast: Forecast; actual: Outcome }[]) => computeMetrics(rows);

/** Keeps a change when it lowers the EPL RPS without raising the six-league RPS. */
const improves = (before: Record<WindowName, Metrics>, after: Record<WindowName, Metrics>) => after.epl.rps < before.epl.rps && after.six.rps <= before.six.rps;

// ---- 1. the components, lever by lever

console.log(`data: ${all.length} finished matches; tuning window ${WINDOWS.tune.data.filter(inTuning).length} matches (${[...tuningGroups].join(', ')})\n`);
const chosen: Record<Component, Hyper> = structuredClone(BASELINE);
for (const kind of ENSEMBLE_COMPONENTS) {
  console.log(`## ${kind}\n`);
  const rows: string[][] = [];
  const measure = (hyper: Hyper, w: WindowName) => metricsOf(rowsOf(kind, hyper, w));
  const base = { tune: measure(chosen[kind], 'tune'), epl: measure(chosen[kind], 'epl'), six: measure(chosen[kind], 'six') };
  rows.push(['baseline (before the levers)', '', short(BASELINE[kind]), fig(base.tune), fig(base.epl), fig(base.six), '']);
  let current = base;
  for (const lever of LEVERS[kind]) {
    const scored = lever.candidates.map((c) => ({ c, m: measure({ ...chosen[kind], ...c }, 'tune') }));
    const best = scored.reduce((a, b) => (b.m.rps < a.m.rps ? b : a));
    const hyper = { ...chosen[kind], ...best.c };
    const after = { tune: best.m, epl: measure(hyper, 'epl'), six: measure(hyper, 'six') };
    const keep = best.c !== lever.candidates[0] && improves(current, after);
    rows.push([
      lever.name,
      scored.map((s) => `${short(s.c)}: ${s.m.rps.toFixed(5)}`).join('; '),
      best.c === lever.candidates[0] ? 'as before' : short(best.c),
      `${fig(current.tune)} → ${fig(after.tune)}`,
      `${fig(current.epl)} → ${fig(after.epl)}`,
      `${fig(current.six)} → ${fig(after.six)}`,
      keep ? 'yes' : 'no',
    ]);
    if (keep) {
      chosen[kind] = hyper;
      current = after;
    }
  }
  table(LEVER_HEADER, rows);
}

// ---- 2. combining the components

interface Combined {
  match: TrainingMatch;
  components: Forecast[];
  actual: Outcome;
  /** The fourth component's forecast, when one is kept. */
  extra?: Forecast;
}
const combined = (hypers: Record<Component, Hyper>, w: WindowName): Combined[] => {
  const lists = ENSEMBLE_COMPONENTS.map((k) => rowsOf(k, hypers[k], w));
  return lists[0].map((row, i) => ({ match: row.match, components: lists.map((l) => l[i].forecast), actual: row.actual }));
};
type Combiner = (c: Combined) => Forecast;

// ---- stacking

/**
 * Conditional-logit forms over the components' log-probabilities: the score of outcome o is θ·φ(o).
 * - pool: a logarithmic pool with free exponents and a bias for home and draw (5 parameters);
 * - pool-per-outcome: one exponent per component and outcome, plus the biases (11);
 * - multinomial: each outcome's score from all nine log-probabilities (away the reference; 20).
 */
const STACK_FORMS = {
  pool: { size: ENSEMBLE_COMPONENTS.length + 2 },
  'pool-per-outcome': { size: 3 * ENSEMBLE_COMPONENTS.length + 2 },
  multinomial: { size: 2 * (3 * ENSEMBLE_COMPONENTS.length + 1) },
};
type StackForm = keyof typeof STACK_FORMS;
const KEYS = ['pHome', 'pDraw', 'pAway'] as const;

/** φ(o) for o = 0 (home), 1 (draw), 2 (away), written into out (length size); returns which entries are biases. */
function stackFeatures(components: readonly Forecast[], form: StackForm, o: number, out: Float64Array): void {
  out.fill(0);
  const k = components.length;
  const lp = (i: number, q: number) => Math.log(Math.max(components[i][KEYS[q]], 1e-12));
  if (form === 'pool') {
    for (let i = 0; i < k; i++) out[i] = lp(i, o);
    if (o < 2) out[k + o] = 1;
  } else if (form === 'pool-per-outcome') {
    for (let i = 0; i < k; i++) out[3 * i + o] = lp(i, o);
    if (o < 2) out[3 * k + o] = 1;
  } else if (o < 2) {
    const base = o * (3 * k + 1);
    for (let i = 0; i < k; i++) for (let q = 0; q < 3; q++) out[base + 3 * i + q] = lp(i, q);
    out[base + 3 * k] = 1;
  }
}

/** Which parameters the ridge pulls towards its centre (not the biases), and that centre (the equal-weight log pool). */
function stackPrior(form: StackForm): { ridge: Float64Array; centre: Float64Array } {
  const { size } = STACK_FORMS[form];
  const k = ENSEMBLE_COMPONENTS.length;
  const ridge = new Float64Array(size).fill(1);
  const centre = new Float64Array(size);
  if (form === 'pool') {
    ridge[k] = ridge[k + 1] = 0;
    for (let i = 0; i < k; i++) centre[i] = 1 / k;
  } else if (form === 'pool-per-outcome') {
    ridge[3 * k] = ridge[3 * k + 1] = 0;
    centre.fill(1 / k, 0, 3 * k);
  } else {
    for (let o = 0; o < 2; o++) {
      const base = o * (3 * k + 1);
      ridge[base + 3 * k] = 0;
      // score_o − score_away = Σ_i (log p_io − log p_ia) / k at the centre
      for (let i = 0; i < k; i++) {
        centre[base + 3 * i + o] = 1 / k;
        centre[base + 3 * i + 2] = -1 / k;
      }
    }
  }
  return { ridge, centre };
}

function fitStack(rows: readonly Combined[], form: StackForm, ridgeWeight: number): Float64Array {
  const { size } = STACK_FORMS[form];
  const phi = rows.map((c) =>
    [0, 1, 2].map((o) => {
      const f = new Float64Array(size);
      stackFeatures(c.components, form, o, f);
      return f;
    }),
  );
  const y = rows.map((c) => (c.actual === 'H' ? 0 : c.actual === 'D' ? 1 : 2));
  const { ridge, centre } = stackPrior(form);
  const objective = (theta: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let nll = 0;
    const s = [0, 0, 0];
    for (let r = 0; r < phi.length; r++) {
      for (let o = 0; o < 3; o++) {
        let v = 0;
        for (let j = 0; j < size; j++) v += theta[j] * phi[r][o][j];
        s[o] = v;
      }
      const m = Math.max(s[0], s[1], s[2]);
      const z = Math.exp(s[0] - m) + Math.exp(s[1] - m) + Math.exp(s[2] - m);
      nll += m + Math.log(z) - s[y[r]];
      for (let o = 0; o < 3; o++) {
        const g = Math.exp(s[o] - m) / z - (o === y[r] ? 1 : 0);
        for (let j = 0; j < size; j++) grad[j] += g * phi[r][o][j];
      }
    }
    let penalty = 0;
    for (let j = 0; j < size; j++) {
      grad[j] = grad[j] / phi.length + ridgeWeight * ridge[j] * (theta[j] - centre[j]);
      penalty += 0.5 * ridgeWeight * ridge[j] * (theta[j] - centre[j]) ** 2;
    }
    return nll / phi.length + penalty;
  };
  return minimize(objective, centre, { gradientTolerance: 1e-9, maxIterations: 2000 }).x;
}

function stackCombiner(theta: Float64Array, form: StackForm): Combiner {
  const f = new Float64Array(theta.length);
  return (c) => {
    const s = [0, 1, 2].map((o) => {
      stackFeatures(c.components, form, o, f);
      let v = 0;
      for (let j = 0; j < f.length; j++) v += theta[j] * f[j];
      return v;
    });
    const m = Math.max(...s);
    const e = s.map((v) => Math.exp(v - m));
    const z = e[0] + e[1] + e[2];
    // the goals: those of the linear pool with equal weights (the stack models outcomes only)
    const goals = combineForecasts(
      c.components,
      c.components.map(() => 1 / c.components.length),
    );
    return { ...goals, pHome: e[0] / z, pDraw: e[1] / z, pAway: e[2] / z };
  };
}

const linearPool =
  (weights: readonly number[] | ((c: Combined) => readonly number[])): Combiner =>
  (c) =>
    combineForecasts(c.components, typeof weights === 'function' ? weights(c) : weights);
const scoreWith = (rows: readonly Combined[], f: Combiner) => metricsOf(rows.map((c) => ({ forecast: f(c), actual: c.actual })));

const baseRows = { tune: combined(BASELINE, 'tune'), epl: combined(BASELINE, 'epl'), six: combined(BASELINE, 'six') };
const newRows = { tune: combined(chosen, 'tune'), epl: combined(chosen, 'epl'), six: combined(chosen, 'six') };
const scoreAll = (rows: Record<WindowName, Combined[]>, f: Combiner) => ({
  tune: scoreWith(rows.tune, f),
  epl: scoreWith(rows.epl, f),
  six: scoreWith(rows.six, f),
});

console.log('## Ensemble\n');
const ensembleRows: string[][] = [];
const baselineEnsemble = scoreAll(baseRows, linearPool(BASELINE_WEIGHTS));
ensembleRows.push([
  'baseline (before the levers)',
  '',
  `weights ${BASELINE_WEIGHTS.join('/')}`,
  fig(baselineEnsemble.tune),
  fig(baselineEnsemble.epl),
  fig(baselineEnsemble.six),
  '',
]);

// components as tuned above, weights refitted on the tuning window
const globalWeights = fitEnsembleWeights(newRows.tune);
let ensemble: Combiner = linearPool(globalWeights);
let current = scoreAll(newRows, ensemble);
ensembleRows.push([
  'tuned components, stacking weights refitted',
  '',
  `weights ${globalWeights.map((w) => w.toFixed(3)).join('/')}`,
  `${fig(baselineEnsemble.tune)} → ${fig(current.tune)}`,
  `${fig(baselineEnsemble.epl)} → ${fig(current.epl)}`,
  `${fig(baselineEnsemble.six)} → ${fig(current.six)}`,
  improves(baselineEnsemble, current) ? 'yes' : 'no',
]);

// stacking weights per country group (groups without tuning matches keep the global weights)
const perGroup = new Map<string, number[]>();
for (const g of tuningGroups) perGroup.set(g, fitEnsembleWeights(newRows.tune.filter((c) => groupOf(c.match.competition) === g)));
{
  const f = linearPool((c) => perGroup.get(groupOf(c.match.competition)) ?? globalWeights);
  const after = scoreAll(newRows, f);
  const keep = improves(current, after);
  ensembleRows.push([
    'stacking weights per league (country group)',
    '',
    [...perGroup].map(([g, w]) => `${g} ${w.map((x) => x.toFixed(2)).join('/')}`).join('; '),
    `${fig(current.tune)} → ${fig(after.tune)}`,
    `${fig(current.epl)} → ${fig(after.epl)}`,
    `${fig(current.six)} → ${fig(after.six)}`,
    keep ? 'yes' : 'no',
  ]);
  if (keep) [ensemble, current] = [f, after];
}

// stacking weights by the phase of the season: early on, last season's strengths are stale (squads changed)
{
  const seasonStart = new Map<string, number>();
  for (const m of all) {
    const key = `${m.competition} ${m.season}`;
    seasonStart.set(key, Math.min(seasonStart.get(key) ?? Infinity, dayNumber(m.date)));
  }
  const early = (c: Combined, days: number) => dayNumber(c.match.date) - seasonStart.get(`${c.match.competition} ${c.match.season}`)! < days;
  const fitPhases = (rows: readonly Combined[], days: number): Combiner => {
    const [e, l] = [rows.filter((c) => early(c, days)), rows.filter((c) => !early(c, days))];
    const [we, wl] = [fitEnsembleWeights(e), fitEnsembleWeights(l)];
    return linearPool((c) => (early(c, days) ? we : wl));
  };
  // leave-one-season-out on the tuning seasons, against the global weights scored the same way
  const seasons = [...new Set(newRows.tune.map((c) => c.match.season!))].sort();
  const loso = (fitCombiner: (rows: readonly Combined[]) => Combiner) =>
    metricsOf(
      seasons.flatMap((s) => {
        const f = fitCombiner(newRows.tune.filter((c) => c.match.season !== s));
        return newRows.tune.filter((c) => c.match.season === s).map((c) => ({ forecast: f(c), actual: c.actual }));
      }),
    );
  const plain = loso((rows) => linearPool(fitEnsembleWeights(rows)));
  const scored = [30, 45, 60, 90].map((days) => ({ days, cv: loso((rows) => fitPhases(rows, days)) }));
  const best = scored.reduce((a, b) => (b.cv.rps < a.cv.rps ? b : a));
  const f = fitPhases(newRows.tune, best.days);
  const after = scoreAll(newRows, f);
  const keep = best.cv.rps < plain.rps && improves(current, after);
  const [e, l] = [newRows.tune.filter((c) => early(c, best.days)), newRows.tune.filter((c) => !early(c, best.days))].map((rows) =>
    fitEnsembleWeights(rows)
      .map((w) => w.toFixed(2))
      .join('/'),
  );
  ensembleRows.push([
    'stacking weights by phase of the season (first D days, rest)',
    `one set (LOSO) ${plain.rps.toFixed(5)}; ${scored.map((x) => `D = ${x.days}: ${x.cv.rps.toFixed(5)}`).join('; ')}`,
    `D = ${best.days}: ${e}, then ${l}`,
    `${fig(current.tune)} → ${fig(after.tune)}`,
    `${fig(current.epl)} → ${fig(after.epl)}`,
    `${fig(current.six)} → ${fig(after.six)}`,
    keep ? 'yes' : 'no',
  ]);
  if (keep) [ensemble, current] = [f, after];
}

// rest days and fixture congestion from the schedule: a latent shift of the combined forecast
{
  const schedule = teamSchedule(parsed);
  const features: Record<string, (h: Rest, a: Rest) => number> = {
    'rest days, difference (capped at 8)': (h, a) => Math.min(h.rest, 8) - Math.min(a.rest, 8),
    'short rest (≤ 3 days), home minus away': (h, a) => Number(h.rest <= 3) - Number(a.rest <= 3),
    'short rest (≤ 4 days), home minus away': (h, a) => Number(h.rest <= 4) - Number(a.rest <= 4),
    'matches in the last 10 days, difference': (h, a) => h.last10 - a.last10,
  };
  const coefficients = Array.from({ length: 41 }, (_, i) => -0.2 + i * 0.01);
  const candidates = Object.entries(features).flatMap(([name, feature]) =>
    coefficients.map((g) => {
      const f: Combiner = (c) => shiftTowardsHome(ensemble(c), g * feature(schedule(c.match.home, c.match.date), schedule(c.match.away, c.match.date)));
      return { name, g, f, tune: scoreWith(newRows.tune, f) };
    }),
  );
  const best = candidates.reduce((a, b) => (b.tune.rps < a.tune.rps ? b : a));
  const after = scoreAll(newRows, best.f);
  const keep = best.g !== 0 && improves(current, after);
  ensembleRows.push([
    'rest days / fixture congestion from the schedule',
    `${Object.keys(features).join('; ')}; coefficient −0.2..0.2`,
    `${best.name}, coefficient ${best.g.toFixed(2)}`,
    `${fig(current.tune)} → ${fig(after.tune)}`,
    `${fig(current.epl)} → ${fig(after.epl)}`,
    `${fig(current.six)} → ${fig(after.six)}`,
    keep ? 'yes' : 'no',
  ]);
  if (keep) [ensemble, current] = [best.f, after];
}

// a logarithmic pool instead of the linear one (weights fitted on the tuning window by grid)
{
  const grid: number[][] = [];
  for (let a = 0; a <= 20; a++) for (let b = 0; a + b <= 20; b++) grid.push([a / 20, b / 20, (20 - a - b) / 20]);
  const logPool =
    (w: readonly number[]): Combiner =>
    (c) => {
      const p = ['pHome', 'pDraw', 'pAway'].map((o) => c.components.reduce((s, f, i) => s * f[o as 'pHome'] ** w[i], 1));
      const total = p[0] + p[1] + p[2];
      const linear = combineForecasts(c.components, w);
      return { ...linear, pHome: p[0] / total, pDraw: p[1] / total, pAway: p[2] / total };
    };
  const best = grid.map((w) => ({ w, m: scoreWith(newRows.tune, logPool(w)) })).reduce((a, b) => (b.m.rps < a.m.rps ? b : a));
  const after = scoreAll(newRows, logPool(best.w));
  const keep = improves(current, after);
  ensembleRows.push([
    'logarithmic pool instead of linear',
    'weights on a 0.05 grid',
    `weights ${best.w.join('/')}`,
    `${fig(current.tune)} → ${fig(after.tune)}`,
    `${fig(current.epl)} → ${fig(after.epl)}`,
    `${fig(current.six)} → ${fig(after.six)}`,
    keep ? 'yes' : 'no',
  ]);
  if (keep) [ensemble, current] = [logPool(best.w), after];
}

// a stacked (conditional) logit over the components' log-probabilities instead of the linear pool.
// The form and its ridge are chosen by leave-one-season-out on the tuning seasons (an in-sample fit
// would always favour the largest form); then either fitted once on the tuning seasons, or refitted
// before each season on the walk-forward forecasts of every earlier season (tuning + evaluated).
{
  const forms = Object.keys(STACK_FORMS) as StackForm[];
  const ridges = [1e-4, 1e-3, 1e-2, 3e-2];
  const seasonsOf = (rows: readonly Combined[]) => [...new Set(rows.map((c) => c.match.season!))].sort();
  const looCv = (fitted: (train: readonly Combined[]) => Combiner) =>
    metricsOf(
      seasonsOf(newRows.tune).flatMap((s) => {
        const f = fitted(newRows.tune.filter((c) => c.match.season !== s));
        return newRows.tune.filter((c) => c.match.season === s).map((c) => ({ forecast: f(c), actual: c.actual }));
      }),
    );
  const linearCv = looCv((train) => linearPool(fitEnsembleWeights(train)));
  const scored = forms.flatMap((form) => ridges.map((ridge) => ({ form, ridge, cv: looCv((train) => stackCombiner(fitStack(train, form, ridge), form)) })));
  const best = scored.reduce((a, b) => (b.cv.rps < a.cv.rps ? b : a));
  const candidates = `linear pool (LOSO) ${linearCv.rps.toFixed(5)}; ${scored.map((s) => `${s.form} ridge ${s.ridge}: ${s.cv.rps.toFixed(5)}`).join('; ')}`;
  // once, on the tuning seasons
  const fixed = stackCombiner(fitStack(newRows.tune, best.form, best.ridge), best.form);
  const fixedAfter = scoreAll(newRows, fixed);
  // before each season, on every earlier season's walk-forward forecasts
  const perSeason = (fitCombiner: (train: readonly Combined[]) => Combiner) => (w: WindowName) => {
    const rows = newRows[w];
    const out: { forecast: Forecast; actual: Outcome }[] = [];
    for (const s of seasonsOf(rows)) {
      const train = w === 'tune' ? newRows.tune.filter((c) => c.match.season! < s) : [...newRows.tune, ...rows.filter((c) => c.match.season! < s)];
      const test = rows.filter((c) => c.match.season === s);
      // the first tuning season has no earlier forecasts: it keeps the combiner of the tuning fit
      const f = train.length > 0 ? fitCombiner(train) : ensemble;
      for (const c of test) out.push({ forecast: f(c), actual: c.actual });
    }
    return metricsOf(out);
  };
  const stackRefit = perSeason((train) => stackCombiner(fitStack(train, best.form, best.ridge), best.form));
  const refitAfter = { tune: stackRefit('tune'), epl: stackRefit('epl'), six: stackRefit('six') };
  const linearRefit = perSeason((train) => linearPool(fitEnsembleWeights(train)));
  const linearAfter = { tune: linearRefit('tune'), epl: linearRefit('epl'), six: linearRefit('six') };
  const keepFixed = best.cv.rps < linearCv.rps && improves(current, fixedAfter);
  ensembleRows.push(
    [
      'stacked logit over log-probabilities, fitted on the tuning seasons',
      candidates,
      `${best.form}, ridge ${best.ridge}`,
      `${fig(current.tune)} → ${fig(fixedAfter.tune)}`,
      `${fig(current.epl)} → ${fig(fixedAfter.epl)}`,
      `${fig(current.six)} → ${fig(fixedAfter.six)}`,
      keepFixed ? 'yes' : 'no',
    ],
    [
      'the same, refitted before each season on all earlier forecasts',
      '',
      `${best.form}, ridge ${best.ridge}`,
      `${fig(current.tune)} → ${fig(refitAfter.tune)}`,
      `${fig(current.epl)} → ${fig(refitAfter.epl)}`,
      `${fig(current.six)} → ${fig(refitAfter.six)}`,
      'no (not shippable as fixed weights)',
    ],
    [
      'linear-pool weights refitted before each season on all earlier forecasts',
      '',
      '',
      `${fig(current.tune)} → ${fig(linearAfter.tune)}`,
      `${fig(current.epl)} → ${fig(linearAfter.epl)}`,
      `${fig(current.six)} → ${fig(linearAfter.six)}`,
      'no (not shippable as fixed weights)',
    ],
  );
  // the last lever: what follows (the decision rule) needs the combiner only
  if (keepFixed) [ensemble, current] = [fixed, fixedAfter];

  // a fourth component: one of the models again with a different memory, the weights of all four
  // fitted on the tuning seasons (chosen by leave-one-season-out against the three components alone)
  const extras: { name: string; kind: Component; hyper: Hyper }[] = [
    { name: 'Dixon–Coles ξ = 0.006', kind: 'dixon-coles', hyper: { ...chosen['dixon-coles'], xi: 0.006 } },
    { name: 'Dixon–Coles ξ = 0.012', kind: 'dixon-coles', hyper: { ...chosen['dixon-coles'], xi: 0.012 } },
    { name: 'Dixon–Coles ξ = 0.0012', kind: 'dixon-coles', hyper: { ...chosen['dixon-coles'], xi: 0.0012 } },
    { name: 'pi-ratings λ = 0.09', kind: 'pi-ratings', hyper: { ...chosen['pi-ratings'], lambda: 0.09 } },
    { name: 'Elo K = 40', kind: 'elo', hyper: { ...chosen.elo, k: 40 } },
  ];
  const withExtra = (e: (typeof extras)[number], w: WindowName): Combined[] => {
    const extra = rowsOf(e.kind, e.hyper, w);
    return newRows[w].map((c, i) => ({ ...c, components: [...c.components, extra[i].forecast] }));
  };
  const extraCv = extras.map((e) => {
    const tune = withExtra(e, 'tune');
    const cv = metricsOf(
      seasonsOf(tune).flatMap((s) => {
        const f = linearPool(fitEnsembleWeights(tune.filter((c) => c.match.season !== s)));
        return tune.filter((c) => c.match.season === s).map((c) => ({ forecast: f(c), actual: c.actual }));
      }),
    );
    return { e, cv };
  });
  const bestExtra = extraCv.reduce((a, b) => (b.cv.rps < a.cv.rps ? b : a));
  const extraWeights = fitEnsembleWeights(withExtra(bestExtra.e, 'tune'));
  const extraPool = linearPool(extraWeights);
  const extraAfter = {
    tune: scoreWith(withExtra(bestExtra.e, 'tune'), extraPool),
    epl: scoreWith(withExtra(bestExtra.e, 'epl'), extraPool),
    six: scoreWith(withExtra(bestExtra.e, 'six'), extraPool),
  };
  const keepExtra = bestExtra.cv.rps < linearCv.rps && improves(current, extraAfter);
  ensembleRows.push([
    'a fourth component: a model again with another memory',
    `three components (LOSO) ${linearCv.rps.toFixed(5)}; ${extraCv.map((x) => `+ ${x.e.name}: ${x.cv.rps.toFixed(5)}`).join('; ')}`,
    `${bestExtra.e.name}, weights ${extraWeights.map((w) => w.toFixed(3)).join('/')}`,
    `${fig(current.tune)} → ${fig(extraAfter.tune)}`,
    `${fig(current.epl)} → ${fig(extraAfter.epl)}`,
    `${fig(current.six)} → ${fig(extraAfter.six)}`,
    keepExtra ? 'yes' : 'no',
  ]);
  // the last lever: what follows (the decision rule) needs the combiner only
  if (keepExtra) {
    for (const w of ['tune', 'epl', 'six'] as const) withExtra(bestExtra.e, w).forEach((c, i) => (newRows[w][i].extra = c.components[3]));
    ensemble = (c) => extraPool({ ...c, components: [...c.components, c.extra!] });
  }
}
table(LEVER_HEADER, ensembleRows);

// ---- 3. a draw-aware decision rule: the probabilities (hence RPS) stay as they are

console.log('## Draw-aware decision rule: call a draw when max(pH, pA) − pD < t (t chosen on the tuning window for accuracy)\n');
const drawRule = (f: Forecast, t: number): Outcome => (t > 0 && Math.max(f.pHome, f.pAway) - f.pDraw < t ? 'D' : predictedOutcome(f));
const ruleAccuracy = (rows: readonly Combined[], t: number) => rows.filter((c) => drawRule(ensemble(c), t) === c.actual).length / rows.length;
const drawCalls = (rows: readonly Combined[], t: number) => rows.filter((c) => drawRule(ensemble(c), t) === 'D').length;
const thresholds = [0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15];
const bestT = thresholds.reduce((a, b) => (ruleAccuracy(newRows.tune, b) > ruleAccuracy(newRows.tune, a) ? b : a));
table(
  ['t', 'tuning accuracy', 'EPL accuracy', 'EPL draws called', 'six-league accuracy', 'chosen'],
  thresholds.map((t) => [
    String(t),
    pct(ruleAccuracy(newRows.tune, t)),
    pct(ruleAccuracy(newRows.epl, t)),
    String(drawCalls(newRows.epl, t)),
    pct(ruleAccuracy(newRows.six, t)),
    t === bestT ? 'yes' : '',
  ]),
);

// ---- 4. summary: the models as shipped (the defaults) against the baseline

console.log('## Models with the shipped defaults (components and ensemble as walkForward runs them)\n');
const summary: string[][] = [];
for (const kind of [...ENSEMBLE_COMPONENTS, 'ensemble'] as ModelKind[]) {
  const shipped = defaultSpec(kind).hyper;
  const before = kind === 'ensemble' ? undefined : BASELINE[kind as Component];
  const row = (w: WindowName) => {
    const rows =
      kind === 'ensemble'
        ? combined(shippedComponents(), w).map((c) => ({ forecast: combineForecasts(c.components, shippedWeights()), actual: c.actual }))
        : rowsOf(kind as Component, shipped, w);
    const base =
      kind === 'ensemble'
        ? baseRows[w].map((c) => ({ forecast: combineForecasts(c.components, BASELINE_WEIGHTS), actual: c.actual }))
        : rowsOf(kind as Component, before!, w);
    const [m, b] = [metricsOf(rows), metricsOf(base)];
    return `${fig(b)} → ${fig(m)}`;
  };
  const calibration = (w: WindowName) => {
    const rows =
      kind === 'ensemble'
        ? combined(shippedComponents(), w).map((c) => ({ forecast: combineForecasts(c.components, shippedWeights()), actual: c.actual }))
        : rowsOf(kind as Component, shipped, w);
    return calibrationOf(rows).ece.toFixed(4);
  };
  summary.push([kind, row('tune'), row('epl'), row('six'), calibration('epl'), calibration('six')]);
}
table(['model', 'tuning acc / RPS', 'EPL acc / RPS', 'six leagues acc / RPS', 'EPL ECE', 'six ECE'], summary);

function shippedComponents(): Record<Component, Hyper> {
  return Object.fromEntries(ENSEMBLE_COMPONENTS.map((k) => [k, defaultSpec(k).hyper])) as Record<Component, Hyper>;
}
function shippedWeights(): number[] {
  const hyper = defaultSpec('ensemble').hyper;
  return ENSEMBLE_COMPONENTS.map((k) => hyper[WEIGHT_KEYS[k]]);
}

// ---- helpers

interface Rest {
  /** Days since the team's previous match in the schedule (30 when none). */
  rest: number;
  /** Matches in the 10 days before. */
  last10: number;
}

/** Rest from the schedule itself: every match of the data set, played or not (cancelled ones excluded). */
function teamSchedule(matches: readonly ParsedMatch[]): (team: string, date: string) => Rest {
  const days = new Map<string, number[]>();
  for (const m of matches) {
    if (m.status === 'cancelled') continue;
    for (const t of [m.home, m.away]) {
      let list = days.get(t);
      if (!list) days.set(t, (list = []));
      list.push(dayNumber(m.date));
    }
  }
  for (const list of days.values()) list.sort((a, b) => a - b);
  return (team, date) => {
    const list = days.get(team) ?? [];
    const day = dayNumber(date);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] < day) lo = mid + 1;
      else hi = mid;
    }
    let last10 = 0;
    for (let j = lo - 1; j >= 0 && day - list[j] <= 10; j--) last10++;
    return { rest: lo === 0 ? 30 : day - list[lo - 1], last10 };
  };
}

/** Moves an ordered forecast along its latent scale: s > 0 favours the home side. */
function shiftTowardsHome(f: Forecast, s: number): Forecast {
  if (s === 0) return f;
  const logit = (p: number) => Math.log(p / (1 - p));
  const sigmoid = (u: number) => 1 / (1 + Math.exp(-u));
  const pAway = sigmoid(logit(f.pAway) - s);
  const notHome = sigmoid(logit(f.pAway + f.pDraw) - s);
  return { ...f, pHome: 1 - notHome, pDraw: notHome - pAway, pAway };
}
