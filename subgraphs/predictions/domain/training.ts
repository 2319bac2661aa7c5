import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { JobQueue } from '../../../lib/jobs';
import type { Logger } from '../../../lib/logger';
import { projectRoot } from '../../../lib/paths';
import type { PredictionStore, RunRow, VersionRow } from '../store/prediction-store';
import type { FootballData, FootballMatch } from './football-data';
import { MODEL_KINDS, confidenceOf, predictedOutcome, outcomeOf, type ModelKind, type TrainingMatch } from './model';
import type { TrainingMessage } from './training.worker';
import type { UpcomingPredictions } from './upcoming';
import type { ActiveModel } from './active-model';
import { badInput, notFound } from '../../../lib/errors';

export const RETRAIN_QUEUE = 'predictions-retrain';

export interface TrainingOptions {
  defaultKind: ModelKind;
  /** Seasons per league in the walk-forward evaluation window. */
  evaluationSeasons: number;
}

/** Team ids are the model's team keys. */
export function toTrainingMatch(m: FootballMatch): TrainingMatch & { id: number } {
  return { id: m.id, competition: m.competition, season: m.season, date: m.date, home: String(m.homeTeamId), away: String(m.awayTeamId), homeGoals: m.homeGoals!, awayGoals: m.awayGoals! };
}

const WORKER = join(projectRoot(), 'dist', 'subgraphs', 'predictions', 'domain', 'training.worker.js');

/**
 * Retraining as a background job (pg-boss): load the results, fit, backtest walk-forward in a
 * worker thread (progress recorded), store the new version with its backtest predictions and
 * metrics, activate it, refresh the upcoming predictions.
 */
export class TrainingService {
  /** The run in progress in this process: its worker thread once the backtest started, and its end. */
  private current: { runId: string; worker?: Worker; done: Promise<void>; abort: AbortController } | undefined;
  /** Set by stopWorker: a run that fails from here on was cut by the shutdown, not broken. */
  private stopping = false;

  constructor(
    private readonly store: PredictionStore,
    private readonly football: FootballData,
    private readonly upcoming: UpcomingPredictions,
    private readonly active: ActiveModel,
    private readonly jobs: JobQueue,
    private readonly opts: TrainingOptions,
    private readonly logger: Logger,
  ) {}

  /** Makes an earlier (or the latest) version the active one again, and re-predicts the fixtures with it. */
  async activate(number: number): Promise<VersionRow> {
    const version = await this.store.versionByNumber(number);
    if (!version) throw notFound(`No model version ${number}.`);
    await this.store.transaction((client) => this.store.activate(client, version.id));
    this.active.invalidate();
    await this.upcoming.refresh();
    return { ...version, isActive: true };
  }

  /** Queues a retrain; a second one while one is queued or running is a conflict (409). */
  async request(kind: string | undefined, requestedBy: string): Promise<RunRow> {
    const modelKind = (kind ?? this.opts.defaultKind) as ModelKind;
    if (!MODEL_KINDS.includes(modelKind)) throw badInput(`model must be one of ${MODEL_KINDS.join(', ')}.`);
    const run = await this.store.createRun(modelKind, requestedBy);
    try {
      await this.jobs.boss.send(RETRAIN_QUEUE, { runId: run.id }, { retryLimit: 0, expireInSeconds: 3600 });
    } catch (err) {
      await this.store.updateRun(run.id, { status: 'failed', error: 'could not queue the job', finished: true });
      throw err;
    }
    return run;
  }

  async startWorker(): Promise<void> {
    await this.jobs.boss.createQueue(RETRAIN_QUEUE);
    await this.jobs.boss.work<{ runId: string }>(RETRAIN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
      await this.run(job.data.runId);
    });
  }

  /** Stops taking jobs; a run in progress is cut and recorded as failed (a new retrain can start at once). */
  async stopWorker(): Promise<void> {
    // cut the run first (pg-boss's offWork would wait for it), and let it record that it was cut
    this.stopping = true;
    const current = this.current;
    if (current) {
      current.abort.abort();
      await current.worker?.terminate();
      await current.done;
    }
    await this.jobs.boss.offWork(RETRAIN_QUEUE).catch(() => undefined);
  }

  /** Executes one queued run (the job handler). Failures are recorded on the run, never lost. */
  async run(runId: string): Promise<void> {
    if (this.stopping) throw new Error('shutting down');
    let finished!: () => void;
    this.current = { runId, done: new Promise<void>((resolve) => (finished = resolve)), abort: new AbortController() };
    try {
      await this.execute(runId);
    } finally {
      this.current = undefined;
      finished();
    }
  }

  private async execute(runId: string): Promise<void> {
    const run = await this.store.run(runId);
    if (!run || run.status !== 'queued') return;
    const log = this.logger.child({ runId, kind: run.kind });
    await this.store.updateRun(runId, { status: 'running', phase: 'loading results', progress: 0.01, started: true });
    try {
      const results = await this.football.results(this.current?.abort.signal);
      const byId = new Map(results.map((m) => [m.id, m]));
      const matches = results.map(toTrainingMatch);
      log.info({ matches: matches.length }, 'retrain: data loaded');
      await this.store.updateRun(runId, { phase: 'walk-forward backtest', progress: 0.05 });
      const { result, backtestMs } = await this.backtestInWorker(run.kind as ModelKind, matches, (fraction) =>
        this.store.updateRun(runId, { progress: 0.05 + 0.85 * fraction }),
      );
      // the backtest's last fit covers every result: it is the model the new version serves
      const final = result.final;
      await this.store.updateRun(runId, { phase: 'storing version', progress: 0.92 });
      const backtestRows = result.rows.map((row) => {
        const m = byId.get((row.match as TrainingMatch & { id: number }).id)!;
        const f = row.forecast;
        return {
          matchId: m.id, competition: m.competition, season: m.season, kickoff: m.kickoff, homeTeamId: m.homeTeamId, awayTeamId: m.awayTeamId, homeTeamName: m.homeTeamName, awayTeamName: m.awayTeamName,
          pHome: f.pHome, pDraw: f.pDraw, pAway: f.pAway, expHomeGoals: f.expHomeGoals, expAwayGoals: f.expAwayGoals,
          predictedOutcome: predictedOutcome(f), confidence: confidenceOf(f), actualOutcome: outcomeOf(m as { homeGoals: number; awayGoals: number }),
        };
      });
      const version = await this.store.transaction(async (client) => {
        const v = await this.store.insertVersion(client, {
          kind: final.kind,
          hyper: final.hyper,
          state: final.state,
          trainingFrom: final.trainingFrom,
          trainedThrough: final.trainedThrough,
          matchCount: final.matchCount,
          evaluation: { seasonsPerLeague: this.opts.evaluationSeasons, matches: result.rows.length, method: 'walk-forward, refit weekly, warm-started' },
          metrics: result.metrics,
          trainingMs: backtestMs,
        });
        await this.store.savePredictions(client, v.id, 'backtest', backtestRows);
        await this.store.activate(client, v.id);
        return v;
      });
      log.info({ version: version.number, accuracy: result.metrics.accuracy, rps: result.metrics.rps, backtestMs }, 'retrain: version activated');
      this.active.invalidate();
      await this.store.updateRun(runId, { phase: 'predicting fixtures', progress: 0.96, versionId: version.id });
      await this.upcoming.refresh();
      await this.store.updateRun(runId, { status: 'succeeded', phase: 'done', progress: 1, finished: true });
    } catch (err) {
      if (this.stopping) log.info('retrain interrupted by shutdown');
      else log.error({ err }, 'retrain failed');
      const error = this.stopping ? 'interrupted by shutdown' : err instanceof Error ? err.message : String(err);
      await this.store.updateRun(runId, { status: 'failed', error, finished: true });
    }
  }

  private backtestInWorker(kind: ModelKind, matches: (TrainingMatch & { id: number })[], onProgress: (fraction: number) => Promise<void>) {
    return new Promise<Extract<TrainingMessage, { type: 'result' }>>((resolve, reject) => {
      if (this.stopping) return reject(new Error('shutting down'));
      const worker = new Worker(WORKER, { workerData: { spec: { kind }, matches, evaluationSeasons: this.opts.evaluationSeasons } });
      if (this.current) this.current.worker = worker;
      let settled = false;
      let progressWrite = Promise.resolve();
      worker.on('message', (m: TrainingMessage) => {
        if (m.type === 'progress') progressWrite = progressWrite.then(() => onProgress(m.total ? m.done / m.total : 0)).catch(() => undefined);
        else if (m.type === 'result') {
          settled = true;
          void progressWrite.then(() => resolve(m));
          void worker.terminate();
        } else {
          settled = true;
          reject(new Error(m.message));
          void worker.terminate();
        }
      });
      worker.on('error', (err) => {
        if (!settled) reject(err);
      });
      worker.on('exit', (code) => {
        if (!settled) reject(new Error(`training worker exited with code ${code}`));
      });
    });
  }
}
