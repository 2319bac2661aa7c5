/**
 * Walk-forward evaluation: every evaluated match is forecast by a model fitted only on matches
 * played strictly before its day, refitted every few days from the previous fit (warm start).
 */
import { addDays, compareMatches, dayNumber, seasonOf } from './data';
import { computeMetrics, type Metrics } from './metrics';
import { fitModel, forecast } from './models';
import { outcomeOf, type FittedModel, type Forecast, type ModelSpec, type Outcome, type TrainingMatch } from './types';

export interface BacktestOptions {
  /** Which matches to forecast and score; all matches (evaluated or not) are used for training. */
  evaluate: (m: TrainingMatch) => boolean;
  /** Days between refits (default 7); matches in between use the latest fit. */
  refitEveryDays?: number;
  onProgress?: (done: number, total: number) => void;
  /** Checked before each match day; when it returns true the backtest stops with the rows so far. */
  shouldStop?: () => boolean;
}

export interface BacktestRow {
  match: TrainingMatch;
  forecast: Forecast;
  actual: Outcome;
}

export interface BacktestResult {
  rows: BacktestRow[];
  metrics: Metrics;
  /** Fitted on every match given (the model to activate); when stopped early, the latest fit. */
  final: FittedModel;
  stopped: boolean;
}

export function walkForward(spec: ModelSpec, matches: readonly TrainingMatch[], opts: BacktestOptions): BacktestResult {
  const refitEvery = opts.refitEveryDays ?? 7;
  if (!(refitEvery >= 1)) throw new Error('refitEveryDays must be at least 1');
  const sorted = [...matches].sort(compareMatches);
  if (sorted.length === 0) throw new Error('walkForward: no matches');
  const evaluated = sorted.filter(opts.evaluate);
  const rows: BacktestRow[] = [];
  let model: FittedModel | undefined;
  let fittedDay = -Infinity;
  let stopped = false;

  for (let i = 0; i < evaluated.length;) {
    if (opts.shouldStop?.()) {
      stopped = true;
      break;
    }
    const date = evaluated[i].date;
    if (!model || dayNumber(date) - fittedDay >= refitEvery) {
      model = fitModel(spec, sorted, { asOf: date, warmStart: model });
      fittedDay = dayNumber(date);
    }
    for (; i < evaluated.length && evaluated[i].date === date; i++) {
      const match = evaluated[i];
      rows.push({ match, forecast: forecast(model, match), actual: outcomeOf(match) });
    }
    opts.onProgress?.(rows.length, evaluated.length);
  }

  const asOfAll = addDays(sorted[sorted.length - 1].date, 1);
  const final = stopped && model ? model : fitModel(spec, sorted, { asOf: asOfAll, warmStart: model });
  return { rows, metrics: computeMetrics(rows), final, stopped };
}

/**
 * The default evaluation window: per competition, the `seasonsPerLeague` seasons before its
 * newest one (the newest is normally still in progress).
 */
export function defaultEvaluationWindow(matches: readonly TrainingMatch[], seasonsPerLeague = 5): (m: TrainingMatch) => boolean {
  const seasons = new Map<string, Set<string>>();
  for (const m of matches) {
    let set = seasons.get(m.competition);
    if (!set) seasons.set(m.competition, (set = new Set()));
    set.add(seasonOf(m));
  }
  const window = new Map<string, Set<string>>();
  for (const [competition, set] of seasons) {
    const ordered = [...set].sort();
    window.set(competition, new Set(ordered.slice(0, -1).slice(-seasonsPerLeague)));
  }
  return (m) => window.get(m.competition)?.has(seasonOf(m)) ?? false;
}
