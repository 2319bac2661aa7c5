/**
 * Live ratings between retrains, measured on a replay.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/live-replay.js [data/football]
 *
 * The data is frozen at a date (the start of a season) and a version is trained on what came before.
 * Then, week by week to the end of the season, the next week's matches are predicted and that week's
 * results imported:
 *   - frozen: the version as trained predicts every week (what the system did before: predictions stay
 *     frozen between retrains);
 *   - live: the imported results update the version's ratings as the service does (Elo and pi-ratings by
 *     their update rule, Dixon–Coles strengths by a warm-started refit), same functions, no new version;
 *   - weekly retrain, for reference: a full walk-forward refit before each match week.
 */
import { resolve } from 'node:path';
import { readDataset } from '../subgraphs/predictions/football/domain/dataset';
import {
  addDays,
  applyResults,
  computeMetrics,
  fitModel,
  forecast,
  MODEL_KINDS,
  outcomeOf,
  refitStrengths,
  toTrainingMatches,
  walkForward,
  type FittedModel,
  type Forecast,
  type Metrics,
  type ModelKind,
  type Outcome,
  type TrainingMatch,
} from '../subgraphs/predictions/predictions/domain/model';

/** Freeze dates: the summer before each replayed season; the replay runs to the season's last match. */
const FREEZES = [
  { freeze: '2023-07-01', season: '2023-24' },
  { freeze: '2024-07-01', season: '2024-25' },
];

/** The freeze date of a season (`2024-25` → `2024-07-01`): the summer before it. */
export const freezeOf = (season: string) => `${season.slice(0, 4)}-07-01`;

export interface Scored {
  match: TrainingMatch;
  forecast: Forecast;
  actual: Outcome;
}

export interface ReplayOptions {
  /** The results the replay imports week by week: every league's (default), or only this competition's (the others' of the season withheld). */
  only?: string;
  /** Stop before this date (a shortened replay). */
  until?: string;
  /** Also the weekly-retrain reference (a full walk-forward; slow). Default true. */
  retrain?: boolean;
}

/**
 * Frozen at `freeze`, `season` replayed week by week (weeks from the freeze date on): the frozen version's
 * forecasts, the live ratings' (results applied, strengths refitted warm after each week), and the weekly
 * retrain's for reference.
 */
export function replay(
  all: readonly TrainingMatch[],
  kind: ModelKind,
  freeze: string,
  season: string,
  opts: ReplayOptions = {},
): { frozen: Scored[]; live: Scored[]; retrain: Scored[]; weeks: number } {
  const data = opts.only ? all.filter((m) => m.date < freeze || m.competition === opts.only) : all;
  const replayed = data.filter((m) => m.date >= freeze && m.season === season && (!opts.until || m.date < opts.until));
  const end = addDays(replayed[replayed.length - 1].date, 1);
  const trained = fitModel({ kind }, data, { asOf: freeze });
  const frozen: Scored[] = [];
  const live: Scored[] = [];
  let model: FittedModel = trained;
  let weeks = 0;
  for (let from = freeze; from < end; from = addDays(from, 7)) {
    const to = addDays(from, 7);
    const week = replayed.filter((m) => m.date >= from && m.date < to);
    for (const match of week) {
      frozen.push({ match, forecast: forecast(trained, match), actual: outcomeOf(match) });
      live.push({ match, forecast: forecast(model, match), actual: outcomeOf(match) });
    }
    // the week's results are imported: ratings at once, then the strengths' warm refit
    model = refitStrengths(applyResults(model, week), data, to);
    weeks++;
  }
  const retrain =
    opts.retrain === false
      ? []
      : walkForward({ kind }, data, { evaluate: (m) => m.date >= freeze && m.season === season && (!opts.until || m.date < opts.until) }).rows;
  return { frozen, live, retrain, weeks };
}

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
const fig = (m: Metrics) => `${pct(m.accuracy)} / ${m.rps.toFixed(4)}`;

function table(header: string[], rows: string[][]): void {
  const cells = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log();
}

function main(): void {
  const dataDir = process.argv[2] ?? resolve(__dirname, '../../data/football');
  const all = toTrainingMatches(readDataset(dataDir).matches);

  // what one import costs the service's event loop: the stored state read, the week's results applied by the
  // rating rule, the state written back (the Dixon–Coles refit runs in the worker thread, timed separately)
  {
    const last = all[all.length - 1].date;
    const weekStart = addDays(last, -6);
    const week = all.filter((m) => m.date >= weekStart);
    const stored = JSON.stringify(fitModel({ kind: 'ensemble' }, all, { asOf: weekStart }));
    const runs = 20;
    let onLoop = 0;
    let refit = 0;
    for (let i = 0; i < runs; i++) {
      const started = process.hrtime.bigint();
      const model = JSON.parse(stored) as FittedModel;
      const updated = applyResults(model, week);
      JSON.stringify(updated.state);
      const applied = process.hrtime.bigint();
      refitStrengths(updated, all, addDays(last, 1));
      onLoop += Number(applied - started) / 1e6;
      refit += Number(process.hrtime.bigint() - applied) / 1e6;
    }
    console.log(
      `## One live update: ${week.length} results (the last week of the data), ensemble, state ${(stored.length / 1024).toFixed(0)} KiB\n\n` +
        `on the event loop (state parsed, ratings updated, logits refitted, state serialised): ${(onLoop / runs).toFixed(1)} ms; ` +
        `Dixon–Coles warm refit (worker thread): ${(refit / runs).toFixed(1)} ms\n`,
    );
  }

  for (const { freeze, season } of FREEZES) {
    console.log(`## Frozen at ${freeze}, replaying ${season} week by week\n`);
    const rows: string[][] = [];
    for (const kind of MODEL_KINDS) {
      const started = Date.now();
      const r = replay(all, kind, freeze, season);
      const scope = (list: Scored[], epl: boolean) => computeMetrics(epl ? list.filter((s) => s.match.competition === 'en.1') : list);
      for (const epl of [true, false]) {
        rows.push([
          kind,
          epl ? 'Premier League' : 'six leagues',
          String(scope(r.frozen, epl).count),
          fig(scope(r.frozen, epl)),
          fig(scope(r.live, epl)),
          fig(scope(r.retrain, epl)),
          epl ? `${r.weeks} weeks, ${((Date.now() - started) / 1000).toFixed(1)} s` : '',
        ]);
      }
    }
    table(['model', 'matches', 'n', 'frozen acc / RPS', 'live ratings acc / RPS', 'weekly retrain acc / RPS', ''], rows);
  }
}

if (require.main === module) main();
