/**
 * The live replay through the feed: the running system replays one full season of one league,
 * week by week, the way it would live it: predict the week's fixtures, import its results through the
 * feed, go on.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/live-feed-replay.js [--season 2024-25] [--competition en.1] [--weeks N]
 *
 * (`--weeks N`: the first N match weeks only, a quick check; `--backtest-seasons N`: BACKTEST_SEASONS for version 1's
 * training, default the service's.)
 *
 * - A scratch database on DATABASE_URL's server (else 127.0.0.1:5432, user postgres), loaded with the shipped
 *   data, then every match from the season's summer on deleted (that season and later ones withheld); dropped
 *   at the end.
 * - The prediction API in-process (bin/app's startApp, the predictions product, random ports) on a clock the
 *   bench sets; its first start trains version 1 as the service does (the walk-forward backtest and the final fit).
 * - A local feed peer serves the season as football.json (FOOTBALL_FEED_URLS): first every fixture and no
 *   result (the feed job's pass at start brings them in: the first full-season pass); then, each match week,
 *   the file gains the week before's results, the clock is set to the week's start, a sync pass
 *   (`services.football.feed.sync`, what `syncFootballFeed` runs) brings them in, the live ratings and the
 *   Dixon–Coles refit take them, and the week's predictions are read through the REST surface
 *   (`GET /api/predictions/?competition&from&to`: the stored predictions for fixtures after "now").
 * - Scored against the results (`GET /api/predictions/history/`), beside the same season replayed by
 *   bench/live-replay.ts's functions in-process: "live" as that bench prints it (every league's results fed)
 *   and with only this league's results (the data the feed path sees).
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startApp } from '../bin/app';
import { loadConfig } from '../subgraphs/products';
import { openStore } from '../lib/database';
import { createLogger, type Logger } from '../lib/logger';
import { projectRoot } from '../lib/paths';
import { readDataset, type RawSeasonFile } from '../subgraphs/predictions/football/domain/dataset';
import { FootballLoader } from '../subgraphs/predictions/football/domain/loader';
import { footballStore } from '../subgraphs/predictions/football/store';
import { FootballStore } from '../subgraphs/predictions/football/store/football-store';
import {
  addDays,
  computeMetrics,
  predictedOutcome,
  toTrainingMatches,
  type Forecast,
  type Metrics,
  type Outcome,
} from '../subgraphs/predictions/predictions/domain/model';
import type { PredictionServices } from '../subgraphs/predictions/predictions/services';
import { startFeedServer, type FeedServer } from '../test/support/predictions/feed-server';
import { freezeOf, replay, type Scored } from './live-replay';

const { values: args } = parseArgs({
  options: {
    season: { type: 'string', default: '2024-25' },
    competition: { type: 'string', default: 'en.1' },
    weeks: { type: 'string' },
    'backtest-seasons': { type: 'string' },
  },
});
const SEASON = args.season;
const COMPETITION = args.competition;
const MAX_WEEKS = args.weeks === undefined ? Infinity : Number(args.weeks);
const DATA = join(projectRoot(), 'data', 'football');
const FREEZE = freezeOf(SEASON);
const FEED_PATH = `/${SEASON}/${COMPETITION}.json`;

const OUTCOME: Record<string, Outcome> = { 'Home Win': 'H', Draw: 'D', 'Away Win': 'A' };

/** One prediction as GET /api/predictions/ serves it. */
interface Listed {
  match_id: number;
  kickoff: string;
  home_team: string;
  away_team: string;
  predicted_outcome: string;
  predicted_goal_diff: number;
  probabilities: { home: number; draw: number; away: number };
  version: string;
  actual_outcome: string | null;
}

/** The served file: every fixture, with the results of the matches played before `before`. */
function served(file: RawSeasonFile, before: string | undefined): string {
  return JSON.stringify({ ...file, matches: file.matches.map(({ score, ...m }) => (before && m.date < before && score ? { ...m, score } : m)) });
}

/** A scratch database with the shipped data before the season only. */
async function scratchDatabase(logger: Logger): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_live_feed_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  try {
    const store = await openStore(footballStore, { url: url.toString(), poolSize: 2, logger, migrate: true });
    try {
      await new FootballLoader(new FootballStore(store), DATA, logger).loadShipped();
      const { rowCount } = await store.pool.query('DELETE FROM football.match WHERE match_date >= $1', [FREEZE]);
      console.log(`Scratch database ${name}: shipped data loaded, ${rowCount} matches from ${FREEZE} on withheld`);
    } finally {
      await store.close();
    }
  } catch (err) {
    await drop();
    throw err;
  }
  return { url: url.toString(), drop };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15 * 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every page of a list endpoint. */
async function pages(base: string, path: string, query: Record<string, string>, key: string): Promise<Listed[]> {
  const rows: Listed[] = [];
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams({ ...query, limit: '100', ...(cursor ? { cursor } : {}) }).toString();
    const res = await fetch(`${base}${path}?${qs}`, { headers: { authorization: `Bearer ${key}` } });
    if (!res.ok) throw new Error(`GET ${path}?${qs}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { results: Listed[]; next_cursor: string | null };
    rows.push(...body.results);
    cursor = body.next_cursor;
  } while (cursor);
  return rows;
}

/** The system took the results in: ratings and Dixon–Coles strengths through `latest`, the fixtures re-predicted. */
async function settled(predictions: PredictionServices, latest: string): Promise<void> {
  await until(`the live ratings and strengths through ${latest}`, async () => {
    const v = await predictions.store.activeVersion();
    const ok = v && v.live.ratingsThrough >= latest && (v.live.strengthsThrough === null || v.live.strengthsThrough >= latest);
    return ok ? true : undefined;
  });
  // the refit job re-predicts the fixtures after storing the strengths: let it start, then wait for it
  await new Promise((r) => setTimeout(r, 300));
  await predictions.live.idle();
  await predictions.upcoming.idle();
}

interface WeekRow {
  from: string;
  fixtures: number;
  read: number;
  results: number;
  /** The source's status in the pass: changed, not-modified (304), …; null: no pass (the first week). */
  status: string | null;
  syncMs: number | null;
  settleMs: number | null;
}

interface Run {
  weeks: WeekRow[];
  predicted: Listed[];
  firstPassMs: number;
  trainMs: number;
  version: string;
  history: Listed[];
  seasonFixtures: number;
}

async function runSystem(file: RawSeasonFile, feed: FeedServer, databaseUrl: string, weekStarts: string[]): Promise<Run> {
  let now = new Date(`${weekStarts[0]}T00:00:00Z`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-live-feed-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PRODUCTS: 'predictions',
    APPLICATION_SMTP_PORT: '0',
    DB_POOL_SIZE: '5',
    FOOTBALL_FEED_URLS: `${COMPETITION}@${SEASON}=${feed.url(FEED_PATH)}`,
    // the job's pass at start is the first one; the next scheduled one (a week later) never comes during the run
    FOOTBALL_FEED_INTERVAL_MINUTES: '10080',
    FOOTBALL_FEED_RETRIES: '0',
    ...(args['backtest-seasons'] ? { BACKTEST_SEASONS: args['backtest-seasons'] } : {}),
  });
  const logger = createLogger(config.LOG_LEVEL, 'bench-live-feed');
  const started = Date.now();
  const app = await startApp(config, logger, { databaseUrl, randomPorts: true, products: ['predictions'], clock: () => now });
  try {
    const { predictions, football, access } = app.services;
    const { key } = await access.apiKeys.create({ name: 'bench', plan: 'enterprise', dailyLimit: null });
    const version = await until('version 1 trained', async () => (await predictions.active.get())?.version);
    const trainMs = Date.now() - started;
    const first = await until('the feed job’s first pass', async () => {
      const run = (await football.feed.status()).lastRun;
      return run?.finishedAt ? run : undefined;
    });
    if (first.status !== 'succeeded') throw new Error(`the first feed pass failed: ${first.error}`);
    await predictions.live.idle();
    await predictions.upcoming.idle();
    console.log(
      `Version ${version.number} trained and the season's fixtures in after ${(trainMs / 1000).toFixed(0)} s (first pass: ${first.changed} source changed)`,
    );

    const weeks: WeekRow[] = [];
    const predicted: Listed[] = [];
    const pass = async (before: string) => {
      feed.set(FEED_PATH, { body: served(file, before) });
      const t0 = process.hrtime.bigint();
      const report = await football.feed.sync('bench');
      const syncMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (report.failed) throw new Error(`sync before ${before}: ${report.sources[0].error}`);
      const src = report.sources[0];
      if (src.status !== 'changed') return { status: src.status, results: 0, syncMs, settleMs: null };
      const latest = file.matches.filter((m) => m.date < before && m.score).reduce((d, m) => (m.date > d ? m.date : d), '');
      const t1 = Date.now();
      await settled(predictions, latest);
      return { status: src.status, results: src.updated, syncMs, settleMs: Date.now() - t1 };
    };
    for (const [i, from] of weekStarts.entries()) {
      const to = addDays(from, 7);
      now = new Date(`${from}T00:00:00Z`);
      // the week before's results come in (the first week: the fixtures came with the job's pass at start)
      const synced = i === 0 ? { status: null, results: 0, syncMs: null, settleMs: null } : await pass(from);
      const fixtures = file.matches.filter((m) => m.date >= from && m.date < to).length;
      const readWeek = () => pages(app.urls.predictions, '/api/predictions/', { competition: COMPETITION, from, to: addDays(to, -1) }, key);
      // every fixture of the week is predicted once the system settled; a late announcement gets 10 s more, then what is there counts
      const read = await until(
        'the week’s predictions',
        async () => {
          const rows = await readWeek();
          return rows.length >= fixtures ? rows : undefined;
        },
        10_000,
      ).catch(readWeek);
      predicted.push(...read);
      weeks.push({ from, fixtures, read: read.length, ...synced });
    }
    // the last week's results
    const end = addDays(weekStarts[weekStarts.length - 1], 7);
    now = new Date(`${end}T00:00:00Z`);
    const last = await pass(end);
    weeks.push({ from: end, fixtures: 0, read: 0, ...last });
    const history = await pages(app.urls.predictions, '/api/predictions/history/', { competition: COMPETITION, source: 'live', from: weekStarts[0] }, key);
    const firstPassMs = first.finishedAt!.getTime() - first.startedAt.getTime();
    return { weeks, predicted, firstPassMs, trainMs, version: `version_${version.number}`, history, seasonFixtures: file.matches.length };
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fig = (m: Metrics) => [String(m.count), pct(m.accuracy), m.rps.toFixed(4), m.logLoss.toFixed(4)];

function table(header: string[], rows: string[][]): void {
  const cells = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log();
}

const forecastOf = (p: Listed): Forecast => ({
  pHome: p.probabilities.home,
  pDraw: p.probabilities.draw,
  pAway: p.probabilities.away,
  expHomeGoals: 0,
  expAwayGoals: 0,
  expGoalDiff: p.predicted_goal_diff,
});

function report(run: Run, weekStarts: string[], kind: string): void {
  const actual = new Map(run.history.map((h) => [h.match_id, h.actual_outcome && OUTCOME[h.actual_outcome]]));
  const feedRows = run.predicted.flatMap((p) => {
    const a = actual.get(p.match_id);
    return a ? [{ p, forecast: forecastOf(p), actual: a }] : [];
  });
  const untilDate = addDays(weekStarts[weekStarts.length - 1], 7);
  const all = toTrainingMatches(readDataset(DATA).matches);
  const t0 = Date.now();
  const everyLeague = replay(all, kind as Parameters<typeof replay>[1], FREEZE, SEASON, { until: untilDate, retrain: false });
  const oneLeague = replay(all, kind as Parameters<typeof replay>[1], FREEZE, SEASON, { until: untilDate, retrain: false, only: COMPETITION });
  const baselineS = ((Date.now() - t0) / 1000).toFixed(0);
  const ours = (list: Scored[]) => list.filter((s) => s.match.competition === COMPETITION);
  const fixtures = run.weeks.reduce((n, w) => n + w.fixtures, 0);
  console.log(`\n## ${COMPETITION} ${SEASON}, ${weekStarts.length} match weeks from ${weekStarts[0]} (model ${kind}, ${run.version})\n`);
  console.log(`fixtures in the weeks: ${fixtures}; predictions read before kick-off: ${run.predicted.length}; scored (result known): ${feedRows.length}\n`);
  table(
    ['path', 'n', 'accuracy', 'RPS', 'log-loss'],
    [
      ['live through the feed (REST, running system)', ...fig(computeMetrics(feedRows))],
      ['bench/live-replay live, this league fed only', ...fig(computeMetrics(ours(oneLeague.live)))],
      ['bench/live-replay live (six leagues fed)', ...fig(computeMetrics(ours(everyLeague.live)))],
      ['bench/live-replay frozen (no update)', ...fig(computeMetrics(ours(everyLeague.frozen)))],
    ],
  );
  // match by match: the feed path against the in-process replay on the same data
  const byTeams = new Map(ours(oneLeague.live).map((s) => [`${s.match.home}|${s.match.away}`, s.forecast]));
  const pairs = feedRows.flatMap((r) => {
    const f = byTeams.get(`${r.p.home_team}|${r.p.away_team}`);
    return f ? [[r.forecast, f] as const] : [];
  });
  const diffs = pairs.map(([a, b]) => Math.max(Math.abs(a.pHome - b.pHome), Math.abs(a.pDraw - b.pDraw), Math.abs(a.pAway - b.pAway)));
  const sameCall = pairs.filter(([a, b]) => predictedOutcome(a) === predictedOutcome(b)).length;
  console.log(
    `feed path vs in-process replay (this league fed only), match by match: ${pairs.length} matched, same predicted outcome ${sameCall}, ` +
      `|Δp| mean ${(diffs.reduce((s, d) => s + d, 0) / Math.max(diffs.length, 1)).toFixed(4)}, max ${Math.max(0, ...diffs).toFixed(4)} (baselines: ${baselineS} s)\n`,
  );
  const passes = run.weeks.filter((w) => w.syncMs !== null);
  const withResults = passes.filter((w) => w.settleMs !== null);
  const unchanged = passes.filter((w) => w.settleMs === null);
  const ms = (xs: number[]) => (xs.length ? `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms` : 'none');
  table(
    ['timing', 'figure'],
    [
      ['version 1 trained + first pass (start to ready)', `${(run.trainMs / 1000).toFixed(0)} s`],
      [`first full-season pass (${run.seasonFixtures} fixtures, no result; the feed job's at start)`, `${run.firstPassMs.toFixed(0)} ms`],
      [`weekly sync pass, with results (${withResults.length})`, ms(withResults.map((w) => w.syncMs!))],
      [
        `weekly sync pass, no new result (${unchanged.length}: ${[...new Set(unchanged.map((w) => w.status))].join(', ')})`,
        ms(unchanged.map((w) => w.syncMs!)),
      ],
      ['results in → ratings, strengths refit, re-predicted', ms(withResults.map((w) => w.settleMs!))],
    ],
  );
}

/** The match weeks: from the freeze date on by 7 days (bench/live-replay's weeks), from the first with a fixture to the last. */
function matchWeeks(file: RawSeasonFile): string[] {
  const dates = file.matches.map((m) => m.date).sort();
  const weeks: string[] = [];
  for (let from = FREEZE; from <= dates[dates.length - 1]; from = addDays(from, 7)) {
    if (addDays(from, 7) > dates[0] && weeks.length < MAX_WEEKS) weeks.push(from);
  }
  return weeks;
}

async function main() {
  const logger = createLogger('warn', 'bench');
  const file = JSON.parse(readFileSync(join(DATA, SEASON, `${COMPETITION}.json`), 'utf8')) as RawSeasonFile;
  const weekStarts = matchWeeks(file);
  const db = await scratchDatabase(logger);
  const feed = await startFeedServer({ [FEED_PATH]: { body: served(file, undefined) } });
  try {
    const run = await runSystem(file, feed, db.url, weekStarts);
    report(run, weekStarts, loadConfig({}).PREDICTION_MODEL);
  } finally {
    await feed.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
