import PgBoss from 'pg-boss';
import { isDatabaseUnavailable, sleep, untilAvailable } from './faults';
import type { Logger } from './logger';

export interface Job<T> {
  id: string;
  data: T;
}

export interface WorkOptions {
  /** How often an idle worker asks for a job (default 2 s). */
  pollingIntervalSeconds?: number;
}

/** Background work as PostgreSQL-backed jobs (pg-boss): visible, retryable, survives restarts. */
export interface JobQueue {
  readonly boss: PgBoss;
  /**
   * Runs `handler` for each job of `queue`, one at a time, in this process. Use it rather than
   * `boss.work`: pg-boss 10 leaves the promise of a job's completion unawaited, so a database outage
   * while a job ends rejects where no one listens, which ends the process. Here every step is
   * awaited; while the database is unreachable the worker waits and then goes on (a finished job's
   * outcome is recorded once it is back).
   */
  work<T extends object>(queue: string, handler: (job: Job<T>) => Promise<void>, opts?: WorkOptions): void;
  /** Stops the queue's worker after the job in hand (if any) is recorded. */
  offWork(queue: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `background: false` (CLI commands): send and read jobs only; the maintenance and schedule loops run
 * in the long-lived processes.
 */
export async function startJobQueue(opts: { url: string; logger: Logger; poolSize?: number; background?: boolean }): Promise<JobQueue> {
  const background = opts.background ?? true;
  const boss = new PgBoss({
    connectionString: opts.url,
    schema: 'jobs',
    max: opts.poolSize ?? 4,
    // a connection attempt to an unreachable server fails after 5 s instead of waiting forever
    connectionTimeoutMillis: 5_000,
    application_name: 'matchday:jobs',
    supervise: background,
    schedule: background,
  } as PgBoss.ConstructorOptions);
  // pg-boss's own loops (maintenance, monitoring) report failures here and carry on
  boss.on('error', (err) => {
    if (isDatabaseUnavailable(err)) opts.logger.warn({ err: { message: err.message } }, 'job queue: database unreachable; retrying');
    else opts.logger.error({ err }, 'job queue error');
  });
  await startBoss(boss);
  const workers = new Map<string, { stop: AbortController; done: Promise<void> }>();
  let stopped = false;

  const loop = async <T extends object>(queue: string, handler: (job: Job<T>) => Promise<void>, interval: number, signal: AbortSignal) => {
    const log = opts.logger.child({ queue });
    for (let backoff = 1_000; !signal.aborted;) {
      let jobs: Job<T>[];
      try {
        jobs = (await boss.fetch<T>(queue, { batchSize: 1 })) ?? [];
        backoff = 1_000;
      } catch (err) {
        log.warn({ err: { message: (err as Error).message } }, 'job queue: could not fetch jobs; retrying');
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 30_000);
        continue;
      }
      if (!jobs.length) {
        await sleep(interval, signal);
        continue;
      }
      for (const job of jobs) {
        let failure: Error | undefined;
        try {
          await handler(job);
        } catch (err) {
          failure = err instanceof Error ? err : new Error(String(err));
          log.error({ err: failure, jobId: job.id }, 'job failed');
        }
        // the outcome is recorded even when the database was away meanwhile (not during shutdown: the job expires and retries)
        try {
          await untilAvailable(() => (failure ? boss.fail(queue, job.id, { message: failure.message }) : boss.complete(queue, job.id)), {
            signal,
            onWait: () => log.warn({ jobId: job.id }, 'job queue: waiting for the database to record a job'),
          });
        } catch (err) {
          log.warn({ err: { message: (err as Error).message }, jobId: job.id }, 'job queue: could not record the outcome of a job');
        }
      }
    }
  };

  const queue: JobQueue = {
    boss,
    work(queue, handler, workOpts = {}) {
      if (workers.has(queue)) throw new Error(`a worker for ${queue} is already running`);
      const stop = new AbortController();
      const done = loop(queue, handler, (workOpts.pollingIntervalSeconds ?? 2) * 1000, stop.signal);
      workers.set(queue, { stop, done });
    },
    async offWork(queue) {
      const worker = workers.get(queue);
      if (!worker) return;
      workers.delete(queue);
      worker.stop.abort();
      await worker.done;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([...workers.keys()].map((name) => queue.offWork(name)));
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
  return queue;
}

/** Starts pg-boss; a start that fails leaves nothing open (the caller may try again: lib/subgraph-start.ts). */
async function startBoss(boss: PgBoss): Promise<void> {
  try {
    await boss.start();
  } catch (err) {
    await boss.stop({ graceful: false, wait: false }).catch(() => undefined);
    throw err;
  }
}
