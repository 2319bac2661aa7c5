import type { JobQueue } from '../../../../lib/jobs';
import type { Logger } from '../../../../lib/logger';
import type { PredictionStore, VersionResult } from '../store/prediction-store';
import { fittedModelOf, type ActiveModel } from './active-model';
import { toTrainingMatch, type FootballData, type FootballMatch } from './football-data';
import { addDays, applyResults, hasStrengths, strengthsOf, withStrengths } from './model';
import { refitInWorker } from './model-worker';
import type { UpcomingPredictions } from './upcoming';

/** The background job that refits a version's Dixon–Coles strengths after results arrive. */
export const REFIT_QUEUE = 'predictions-refit-strengths';

/**
 * A version records by match the results its ratings contain from this many days before its data
 * cut-off on. A result arriving later than that for a match older than that waits for the next retrain.
 */
export const RESULTS_LOOKBACK_DAYS = 60;

export const versionResult = (m: FootballMatch): VersionResult => ({ matchId: m.id, date: m.date, homeGoals: m.homeGoals!, awayGoals: m.awayGoals! });

/**
 * Live ratings between retrains: when results are imported, the active version's ratings take them
 * in without a new version. Elo and pi-ratings move at once by their own update rule (under a lock on
 * the version row, so a result is applied exactly once however many imports or replicas run at
 * once); the Dixon–Coles strengths are refitted warm-started as a background job (pg-boss, in the
 * model worker thread). The state is stored with the version, so it survives restarts; each change
 * re-predicts the fixtures. A retrain still makes a new version.
 */
export class LiveRatings {
  private pending: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  private refitting: Promise<unknown> | undefined;

  constructor(
    private readonly store: PredictionStore,
    private readonly football: FootballData,
    private readonly active: ActiveModel,
    private readonly upcoming: UpcomingPredictions,
    private readonly jobs: JobQueue,
    private readonly logger: Logger,
  ) {}

  /** Results may have changed (an import, a start, an activation): update the ratings, then predict the fixtures. Calls during a run coalesce into one more. */
  resultsChanged(): Promise<void> {
    if (this.pending) {
      this.again = true;
      return this.pending;
    }
    this.pending = (async () => {
      try {
        do {
          this.again = false;
          await this.update();
          await this.upcoming.refresh();
        } while (this.again && !this.stopping);
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  /** Applies to the active version every finished result its ratings do not contain yet; returns how many. */
  async update(): Promise<number> {
    const current = await this.active.get();
    if (!current) return 0;
    const { version } = current;
    // the candidates: finished results of the tracked period, from LOOKBACK days before the latest one applied live on
    const latestLive = await this.store.latestLiveResult(version.id);
    const tracked = version.live.resultsTrackedFrom;
    const from = latestLive && addDays(latestLive, -RESULTS_LOOKBACK_DAYS) > tracked ? addDays(latestLive, -RESULTS_LOOKBACK_DAYS) : tracked;
    const candidates = (await this.football.results(undefined, new Date(`${addDays(from, -1)}T00:00:00Z`))).filter((m) => m.date >= tracked);
    if (candidates.length === 0) return 0;

    const applied = await this.store.transaction(async (client) => {
      const row = await this.store.lockVersion(client, version.id);
      if (!row) return [];
      const contained = await this.store.containedResults(
        client,
        row.id,
        candidates.map((m) => m.id),
      );
      const fresh = candidates.filter((m) => !contained.has(m.id));
      if (fresh.length === 0) return [];
      const model = applyResults(fittedModelOf(row), fresh.map(toTrainingMatch));
      const through = fresh.reduce((d, m) => (m.date > d ? m.date : d), row.live.ratingsThrough);
      await this.store.saveRatings(client, row.id, model.state, through, fresh.length);
      await this.store.recordResults(client, row.id, fresh.map(versionResult), 'live');
      if (hasStrengths(row)) {
        // queued in the same transaction, so a crash cannot leave the strengths without their refit; the queue is
        // stately: at most one refit waits per version, and it reads the data when it runs
        await this.jobs.boss.send(
          REFIT_QUEUE,
          { versionId: row.id },
          { singletonKey: String(row.id), retryLimit: 2, expireInSeconds: 900, db: { executeSql: (text, values) => client.query(text, values) } },
        );
      }
      return fresh;
    });
    // also when another replica applied them first: the fixtures must then be predicted with its ratings, not the cached ones
    this.active.invalidate();
    if (applied.length === 0) return 0;
    this.logger.info({ version: version.number, results: applied.length }, 'live ratings: results applied');
    return applied.length;
  }

  async startWorker(): Promise<void> {
    await this.jobs.boss.createQueue(REFIT_QUEUE, { name: REFIT_QUEUE, policy: 'stately' });
    // our worker loop (lib/jobs.ts), not boss.work: a database outage must not end the process
    this.jobs.work<{ versionId: number }>(
      REFIT_QUEUE,
      async (job) => {
        if (this.stopping) throw new Error('shutting down');
        const run = this.refitStrengths(job.data.versionId);
        this.refitting = run.catch(() => undefined);
        await run;
      },
      { pollingIntervalSeconds: 1 },
    );
  }

  async stopWorker(): Promise<void> {
    this.stopping = true;
    await this.jobs.offWork(REFIT_QUEUE);
    await this.refitting;
    await this.pending?.catch(() => undefined);
  }

  /** The refit job: Dixon–Coles strengths on every result in their window, warm-started, stored into the version's current state. */
  async refitStrengths(versionId: number): Promise<void> {
    const row = await this.store.versionWithState(versionId);
    if (!row) return;
    const strengths = strengthsOf(fittedModelOf(row));
    if (!strengths) return;
    const since = addDays(row.live.ratingsThrough, -strengths.hyper.windowDays - 1);
    const results = await this.football.results(undefined, new Date(`${since}T00:00:00Z`));
    if (results.length === 0) return;
    const latest = results.reduce((d, m) => (m.date > d ? m.date : d), results[0].date);
    const asOf = addDays(latest, 1);
    const refitted = strengthsOf(await refitInWorker(strengths, results.map(toTrainingMatch), asOf))!;

    const stored = await this.store.transaction(async (client) => {
      const locked = await this.store.lockVersion(client, versionId);
      if (!locked) return false;
      const model = fittedModelOf(locked);
      // another refit already stored strengths from newer data
      if (strengthsOf(model)!.trainedThrough > refitted.trainedThrough) return false;
      await this.store.saveStrengths(client, versionId, withStrengths(model, refitted).state, refitted.trainedThrough);
      return true;
    });
    if (!stored) return;
    this.logger.info({ versionId, through: refitted.trainedThrough }, 'live ratings: strengths refitted');
    this.active.invalidate();
    await this.upcoming.refresh();
  }

  /** Settles when no update is in progress (for a clean shutdown and for tests). */
  async idle(): Promise<void> {
    await this.pending?.catch(() => undefined);
  }
}
