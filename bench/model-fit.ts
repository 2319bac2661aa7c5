/**
 * Model timing and quality on the shipped data.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/model-fit.js [data/football]
 *
 * Prints: the time to fit each model kind on all shipped seasons; the default walk-forward
 * backtest (every league, the five seasons before its newest) per kind, with its time; the EPL
 * 2015-16..2024-25 walk-forward per kind; the ensemble weights refitted on earlier seasons; and
 * what a "call a draw when it is close" rule would cost.
 */
import { resolve } from 'node:path';
import { readDataset } from '../subgraphs/predictions/football/domain/dataset';
import {
  addDays,
  combineForecasts,
  computeMetrics,
  defaultEvaluationWindow,
  defaultSpec,
  ENSEMBLE_COMPONENTS,
  WEIGHT_KEYS,
  fitEnsembleWeights,
  fitModel,
  MODEL_KINDS,
  predictedOutcome,
  toTrainingMatches,
  walkForward,
  type BacktestRow,
  type Forecast,
  type Metrics,
  type ModelKind,
  type Outcome,
  type TrainingMatch,
} from '../subgraphs/predictions/predictions/domain/model';

const dataDir = process.argv[2] ?? resolve(__dirname, '../../data/football');

function timed<T>(run: () => T): { value: T; seconds: number } {
  const start = process.hrtime.bigint();
  const value = run();
  return { value, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

function table(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
  console.log();
}

const pct = (x: number | null, digits = 1) => (x === null ? '-' : `${(100 * x).toFixed(digits)}%`);

function metricsRow(label: string, m: Metrics, seconds?: number): (string | number)[] {
  const cls = (o: Outcome) => `${m.perClass[o].predicted}/${pct(m.perClass[o].precision)}`;
  const band = (b: 'high' | 'medium' | 'low') => `${m.bands[b].count}/${pct(m.bands[b].hitRate)}`;
  return [
    label,
    m.count,
    pct(m.accuracy, 2),
    m.rps.toFixed(4),
    m.brier.toFixed(4),
    m.logLoss.toFixed(4),
    cls('H'),
    cls('D'),
    cls('A'),
    band('high'),
    band('medium'),
    band('low'),
    ...(seconds === undefined ? [] : [seconds.toFixed(1)]),
  ];
}

const METRIC_HEADER = ['model', 'n', 'acc', 'RPS', 'Brier', 'logloss', 'H pred/prec', 'D pred/prec', 'A pred/prec', 'high n/hit', 'medium n/hit', 'low n/hit'];

function goalDiffErrors(rows: readonly BacktestRow[]): { mae: number; rmse: number } {
  let abs = 0;
  let sq = 0;
  for (const r of rows) {
    const err = r.forecast.expGoalDiff - (r.match.homeGoals - r.match.awayGoals);
    abs += Math.abs(err);
    sq += err * err;
  }
  return { mae: abs / rows.length, rmse: Math.sqrt(sq / rows.length) };
}

const loaded = timed(() => toTrainingMatches(readDataset(dataDir).matches));
const all = loaded.value;
console.log(`data: ${all.length} finished matches with a score, loaded in ${loaded.seconds.toFixed(1)} s\n`);

// 1. fit on every shipped season
const asOfAll = addDays(all[all.length - 1].date, 1);
console.log(`## Fit on all shipped seasons (asOf ${asOfAll})\n`);
table(
  ['model', 'cold fit s', 'warm refit s', 'matches used', 'from'],
  MODEL_KINDS.map((kind) => {
    const cold = timed(() => fitModel({ kind }, all, { asOf: asOfAll }));
    // a week earlier, then warm-started: what a weekly retrain costs
    const previous = fitModel({ kind }, all, { asOf: addDays(asOfAll, -7) });
    const warm = timed(() => fitModel({ kind }, all, { asOf: asOfAll, warmStart: previous }));
    return [kind, cold.seconds.toFixed(2), warm.seconds.toFixed(2), cold.value.matchCount, cold.value.trainingFrom];
  }),
);

// 2. the default backtest: every league, the five seasons before its newest
const inDefaultWindow = defaultEvaluationWindow(all);
const competitions = [...new Set(all.filter(inDefaultWindow).map((m) => m.competition))].sort();
console.log(`## Default walk-forward: ${all.filter(inDefaultWindow).length} matches, weekly refits\n`);
const defaultRuns = new Map<ModelKind, BacktestRow[]>();
const defaultRows: (string | number)[][] = [];
for (const kind of MODEL_KINDS) {
  const run = timed(() => walkForward({ kind }, all, { evaluate: inDefaultWindow }));
  defaultRuns.set(kind, run.value.rows);
  defaultRows.push(metricsRow(kind, run.value.metrics, run.seconds));
}
table([...METRIC_HEADER, 'time s'], defaultRows);
table(
  ['RPS / accuracy by league', ...competitions],
  MODEL_KINDS.map((kind) => [
    kind,
    ...competitions.map((c) => {
      const m = computeMetrics(defaultRuns.get(kind)!.filter((r) => r.match.competition === c));
      return `${m.rps.toFixed(4)} / ${pct(m.accuracy)}`;
    }),
  ]),
);

// 3. EPL 2015-16..2024-25. The countries never meet, so the English matches alone give the
// same forecasts as the full data set, only faster.
const english = all.filter((m) => m.competition.startsWith('en.'));
const inEpl = (m: TrainingMatch) => m.competition === 'en.1' && m.season! >= '2015-16' && m.season! <= '2024-25';
console.log(`## EPL 2015-16..2024-25 walk-forward: ${english.filter(inEpl).length} matches, weekly refits\n`);
const eplRuns = new Map<ModelKind, BacktestRow[]>();
const eplRows: (string | number)[][] = [];
for (const kind of MODEL_KINDS) {
  const run = timed(() => walkForward({ kind }, english, { evaluate: inEpl }));
  eplRuns.set(kind, run.value.rows);
  eplRows.push(metricsRow(kind, run.value.metrics, run.seconds));
}
table([...METRIC_HEADER, 'time s'], eplRows);
table(
  ['goal difference', 'MAE', 'RMSE'],
  MODEL_KINDS.map((kind) => {
    const e = goalDiffErrors(eplRuns.get(kind)!);
    return [kind, e.mae.toFixed(3), e.rmse.toFixed(3)];
  }),
);

// 4. where the ensemble's default weights come from: walk-forward forecasts of 2012-13..2014-15,
// each league from its third season in the data (two seasons of history first)
const firstSeason = new Map<string, string>();
for (const m of all) if (!firstSeason.has(m.competition) || m.season! < firstSeason.get(m.competition)!) firstSeason.set(m.competition, m.season!);
const thirdSeason = (c: string) => {
  const y = Number(firstSeason.get(c)!.slice(0, 4)) + 2;
  return `${y}-${String((y + 1) % 100).padStart(2, '0')}`;
};
const early = (m: TrainingMatch) => m.season! <= '2014-15' && m.season! >= thirdSeason(m.competition);
const componentRows = ENSEMBLE_COMPONENTS.map((kind) => walkForward({ kind }, all, { evaluate: early }).rows);
const weights = fitEnsembleWeights(componentRows[0].map((row, i) => ({ components: componentRows.map((rows) => rows[i].forecast), actual: row.actual })));
const defaults = defaultSpec('ensemble').hyper;
console.log(`## Ensemble weights refitted on ${componentRows[0].length} earlier matches (2012-13..2014-15)\n`);
table(
  ['component', 'fitted', 'default'],
  ENSEMBLE_COMPONENTS.map((kind, i) => [kind, weights[i].toFixed(3), String(defaults[WEIGHT_KEYS[kind]])]),
);
const eplComponents = ENSEMBLE_COMPONENTS.map((kind) => eplRuns.get(kind)!);
const refitted = eplComponents[0].map((row, i) => ({
  forecast: combineForecasts(
    eplComponents.map((rows) => rows[i].forecast),
    weights,
  ),
  actual: row.actual,
}));
table(METRIC_HEADER, [metricsRow('ensemble, refitted weights', computeMetrics(refitted))]);

// 5. a draw rule: call "D" when max(pH, pA) − pD < t; compare with the argmax
const drawRule = (f: Forecast, t: number): Outcome => (Math.max(f.pHome, f.pAway) - f.pDraw < t ? 'D' : predictedOutcome(f));
console.log('## Draw rule on the EPL ensemble forecasts (t = 0 is the argmax)\n');
const ensembleRows = eplRuns.get('ensemble')!;
table(
  ['t', 'accuracy', 'draws called', 'draw precision', 'draw recall'],
  [0, 0.05, 0.1, 0.15].map((t) => {
    const called = ensembleRows.map((r) => (t === 0 ? predictedOutcome(r.forecast) : drawRule(r.forecast, t)));
    const hits = called.filter((o, i) => o === ensembleRows[i].actual).length;
    const draws = called.filter((o) => o === 'D').length;
    const drawHits = called.filter((o, i) => o === 'D' && ensembleRows[i].actual === 'D').length;
    const actualDraws = ensembleRows.filter((r) => r.actual === 'D').length;
    return [t, pct(hits / called.length), pct(draws / called.length), draws ? pct(drawHits / draws) : '-', pct(drawHits / actualDraws)];
  }),
);
