import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker } from 'node:worker_threads';
import { untilAvailable } from '../../../../lib/faults';
import type { JobQueue } from '../../../../lib/jobs';
import type { Logger } from '../../../../lib/logger';
import { holdRunLease, type PredictionStore, type RunRow, type VersionRow } from '../store/prediction-store';
import { toTrainingMatch, type FootballData } from './football-data';
import { MODEL_KINDS, addDays, hasStrengths, outcomeOf, type ModelKind, type TrainingMatch } from './model';
import { MODEL_WORKER, type TrainingMessage, type WorkerTask } from './model-worker';
import { RESULTS_LOOKBACK_DAYS, versionResult, type LiveRatings } from './live-ratings';
import type { ActiveModel } from './active-model';
import { predictionRow } from './upcoming';
import { DomainError, badInput, notFound } from '../../../../lib/errors';

export const RETRAIN_QUEUE = 'predictions-retrain';

/** After PostgreSQL restarts (every lease dropped), how long owners have to take their runs' leases back. */
const RESTART_GRACE_SECONDS = 15;
/** A queued run whose job a worker took this long ago without starting it lost its worker. */
const STUCK_JOB_MS = 30_000;

/** The run is no longer this process's (another process found it abandoned): its work stops. */
class RunTakenOver extends Error {}

export interface TrainingOptions {
  defaultKind: ModelKind;
  /** Seasons per league in the walk-forward evaluation window. */
  evaluationSeasons: number;
}

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
  /**
   * Test hook, set only by in-process tests (no setting, route or field reaches it): awaited once a
   * run is recorded as running, before any work. A test holds the run there to see `running` (and
   * the 409 it causes) without racing the clock, or rejects to make the run fail. `signal` aborts at shutdown.
   */
  readonly testHooks: { running?: (runId: string, signal: AbortSignal | undefined) => Promise<void> } = {};
  /** This process, as the owner of the runs it executes (shown nowhere; compared only). */
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private recheck: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: PredictionStore,
    private readonly football: FootballData,
    private readonly live: LiveRatings,
    private readonly active: ActiveModel,
    private readonly jobs: JobQueue,
    private readonly opts: TrainingOptions,
    private readonly logger: Logger,
  ) {}

  /** Makes an earlier (or the latest) version the active one again: its ratings catch up with the results, then it predicts the fixtures. */
  async activate(number: number): Promise<VersionRow> {
    const version = await this.store.versionByNumber(number);
    if (!version) throw notFound(`No model version ${number}.`);
    await this.store.transaction((client) => this.store.activate(client, version.id));
    this.active.invalidate();
    // it takes in the results that arrived since it was last active, then predicts the fixtures
    await this.live.resultsChanged();
    return { ...version, isActive: true };
  }

  /**
   * Queues a retrain; a second one while one is queued or running is a conflict (409), unless the
   * one in the way was abandoned (its process died): that one is failed with a reason, and this one
   * goes ahead.
   */
  async request(kind: string | undefined, requestedBy: string): Promise<RunRow> {
    const modelKind = (kind ?? this.opts.defaultKind) as ModelKind;
    if (!MODEL_KINDS.includes(modelKind)) throw badInput(`model must be one of ${MODEL_KINDS.join(', ')}.`);
    const create = () =>
      this.store.createRun(modelKind, requestedBy, async (client, runId) => {
        const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
        const jobId = await this.jobs.boss.send(RETRAIN_QUEUE, { runId }, { retryLimit: 0, expireInSeconds: 3600, db });
        if (!jobId) throw new Error('the retrain job was not queued');
        return jobId;
      });
    try {
      return await create();
    } catch (err) {
      if (!(err instanceof DomainError && err.code === 'CONFLICT') || !(await this.recoverAbandoned()).length) throw err;
      return create();
    }
  }

  /**
   * Fails, with a reason, every run whose process died (running without its lease) and every queued
   * run whose job is gone or was taken by a process that died before starting it. Runs at start and
   * whenever a run is in a new one's way; returns the runs it failed.
   */
  async recoverAbandoned(): Promise<string[]> {
    const now = Date.now();
    const lost: string[] = [];
    for (const run of await this.store.queuedRuns()) {
      if (!run.jobId) {
        // queued before runs recorded their job: judged by age
        if (now - run.createdAt.getTime() > 10 * 60_000) lost.push(run.id);
        continue;
      }
      const job = await this.jobs.boss.getJobById(RETRAIN_QUEUE, run.jobId);
      const waiting = job && (job.state === 'created' || job.state === 'retry');
      const starting = job?.state === 'active' && job.startedOn && now - new Date(job.startedOn).getTime() < STUCK_JOB_MS;
      if (!waiting && !starting) lost.push(run.id);
    }
    const failed = await this.store.failAbandonedRuns({ restartGraceSeconds: RESTART_GRACE_SECONDS, queuedIds: lost });
    if (failed.length) this.logger.warn({ runs: failed }, 'training runs abandoned by a stopped process were marked failed');
    return failed;
  }

  async startWorker(): Promise<void> {
    await this.jobs.boss.createQueue(RETRAIN_QUEUE);
    await this.recoverAbandoned();
    // right after a restart of PostgreSQL, owners still have a moment to take their leases back: look again then
    this.recheck = setTimeout(() => void this.recoverAbandoned().catch(() => undefined), (RESTART_GRACE_SECONDS + 1) * 1000);
    this.recheck.unref();
    this.jobs.work<{ runId: string }>(RETRAIN_QUEUE, (job) => this.run(job.data.runId), { pollingIntervalSeconds: 1 });
  }

  /** Stops taking jobs; a run in progress is cut and recorded as failed (a new retrain can start at once). */
  async stopWorker(): Promise<void> {
    // cut the run first (the worker loop waits for it), and let it record that it was cut
    this.stopping = true;
    clearTimeout(this.recheck);
    const current = this.current;
    if (current) {
      current.abort.abort();
      await current.worker?.terminate();
      await current.done;
    }
    await this.jobs.offWork(RETRAIN_QUEUE);
  }

  /**
   * Executes one queued run (the job handler), holding its lease. Failures are recorded on the run,
   * never lost; a database outage pauses the run's writes until the database is back.
   */
  async run(runId: string): Promise<void> {
    if (this.stopping) throw new Error('shutting down');
    let finished!: () => void;
    const abort = new AbortController();
    this.current = { runId, done: new Promise<void>((resolve) => (finished = resolve)), abort };
    const lease = holdRunLease(this.store.url, runId, (err) =>
      this.logger.warn({ runId, err: { message: (err as Error).message } }, 'training lease lost; taking it again'),
    );
    try {
      await lease.held;
      if (!(await untilAvailable(() => this.store.startRun(runId, this.owner), { signal: abort.signal }))) return;
      await this.execute(runId, abort.signal);
    } finally {
      await lease.release();
      this.current = undefined;
      finished();
    }
  }

  private async execute(runId: string, signal: AbortSignal): Promise<void> {
    const run = (await this.store.run(runId))!;
    const log = this.logger.child({ runId, kind: run.kind });
    // every write of the run waits out a database outage (and stops when the run is no longer ours)
    const record = async (fields: Parameters<PredictionStore['updateRun']>[2]) => {
      const ours = await untilAvailable(() => this.store.updateRun(runId, this.owner, fields), {
        signal,
        onWait: () => log.warn('retrain: database unreachable; waiting to record progress'),
      });
      if (!ours) throw new RunTakenOver('another process found this run abandoned');
    };
    try {
      await this.testHooks.running?.(runId, signal);
      const results = await untilAvailable(() => this.football.results(signal), { signal });
      const byId = new Map(results.map((m) => [m.id, m]));
      const matches = results.map(toTrainingMatch);
      log.info({ matches: matches.length }, 'retrain: data loaded');
      await record({ phase: 'walk-forward backtest', progress: 0.05 });
      const { result, backtestMs } = await this.backtestInWorker(run.kind as ModelKind, matches, (fraction) => record({ progress: 0.05 + 0.85 * fraction }));
      // the backtest's last fit covers every result: it is the model the new version serves
      const final = result.final;
      await record({ phase: 'storing version', progress: 0.92 });
      const backtestRows = result.rows.map((row) => {
        const m = byId.get((row.match as TrainingMatch & { id: number }).id)!;
        return predictionRow(m, row.forecast, outcomeOf(m as { homeGoals: number; awayGoals: number }));
      });
      // the results the version contains are recorded by match from RESULTS_LOOKBACK_DAYS before its cut-off on
      const trackedFrom = addDays(final.trainedThrough, -RESULTS_LOOKBACK_DAYS);
      // stored once: the run records its version in the same transaction, so a retry after an outage
      // (when the commit's answer was lost) finds it instead of storing a second version
      const versionId = await untilAvailable(
        () =>
          this.store.transaction(async (client) => {
            const stored = await this.store.runVersion(client, runId);
            if (stored !== null) return stored;
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
              resultsTrackedFrom: trackedFrom,
              hasStrengths: hasStrengths(final),
            });
            const tracked = results.filter((m) => m.date >= trackedFrom);
            await this.store.recordResults(client, v.id, tracked.map(versionResult), 'training');
            await this.store.savePredictions(client, v.id, 'backtest', backtestRows);
            await this.store.activate(client, v.id);
            await this.store.setRunVersion(client, runId, v.id);
            return v.id;
          }),
        { signal, onWait: () => log.warn('retrain: database unreachable; waiting to store the version') },
      );
      log.info({ versionId, accuracy: result.metrics.accuracy, rps: result.metrics.rps, backtestMs }, 'retrain: version activated');
      this.active.invalidate();
      await record({ phase: 'predicting fixtures', progress: 0.96 });
      // results imported while it trained go into its ratings before the fixtures are predicted
      await untilAvailable(() => this.live.resultsChanged(), { signal });
      await record({ status: 'succeeded', phase: 'done', progress: 1, finished: true });
    } catch (err) {
      if (err instanceof RunTakenOver) return void log.warn('retrain: the run was marked abandoned by another process; stopping');
      if (this.stopping) log.info('retrain interrupted by shutdown');
      else log.error({ err }, 'retrain failed');
      const error = this.stopping ? 'interrupted by shutdown' : err instanceof Error ? err.message : String(err);
      // recorded even across an outage; at shutdown, once (else the next start finds it abandoned)
      await untilAvailable(() => this.store.updateRun(runId, this.owner, { status: 'failed', error, finished: true }), {
        signal: this.stopping ? signal : undefined,
      }).catch((e: unknown) => log.error({ err: e }, 'retrain: could not record the failure'));
    }
  }

  private backtestInWorker(kind: ModelKind, matches: (TrainingMatch & { id: number })[], onProgress: (fraction: number) => Promise<void>) {
    return new Promise<Extract<TrainingMessage, { type: 'result' }>>((resolve, reject) => {
      if (this.stopping) return reject(new Error('shutting down'));
      const task: WorkerTask = { task: 'backtest', spec: { kind }, matches, evaluationSeasons: this.opts.evaluationSeasons };
      const worker = new Worker(MODEL_WORKER, { workerData: task });
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
          reject(new Error(m.type === 'error' ? m.message : `unexpected message ${m.type}`));
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
