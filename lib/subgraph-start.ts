import { untilAvailable } from './faults';
import type { JobQueue } from './jobs';
import type { Logger } from './logger';
import type { StartNotes, SubgraphDefinition, SubgraphDeps } from './subgraph';

/**
 * Runs a subgraph's `start` (seeding, loading what it keeps in memory, its listeners and workers), in
 * every topology: `npm start` (bin/app.ts) and a subgraph as its own service (lib/subgraph-server.ts).
 *
 * A start reads the database, and a database that is unreachable or too slow right now (a statement
 * timeout under load, a restart: lib/faults.ts) does not end the process: the start is run again once
 * it has waited (1 s, doubling to 15 s), as background work waits an outage out. What the failed
 * attempt registered (its notification handlers, its job workers) is stopped first, so a second
 * attempt does not add a second of each. Any other error ends the start as before.
 */
export function startSubgraph<S>(
  def: SubgraphDefinition<S>,
  services: S,
  deps: SubgraphDeps,
  opts: { signal?: AbortSignal; maxWaitMs?: number } = {},
): Promise<void | StartNotes> {
  if (!def.start) return Promise.resolve();
  return untilAvailable(
    async () => {
      const mark = deps.notifications.mark();
      const queues: string[] = [];
      const work: JobQueue['work'] = (queue, handler, workOpts) => {
        queues.push(queue);
        deps.jobs.work(queue, handler, workOpts);
      };
      const jobs = Object.create(deps.jobs, { work: { value: work } }) as JobQueue;
      try {
        return await def.start!(services, { ...deps, jobs });
      } catch (err) {
        await deps.notifications.stopSince(mark);
        for (const queue of queues) await deps.jobs.offWork(queue);
        throw err;
      }
    },
    { signal: opts.signal, maxWaitMs: opts.maxWaitMs, onWait: waitLogger(deps.logger, `the ${def.name} subgraph's start`) },
  );
}

/**
 * A step of a long-lived process's start-up that needs the database before a subgraph can start
 * (creating the database, migrating and opening a subgraph's pools, the job queue): while the server
 * refuses connections, is starting up or is too slow, it waits (1 s, doubling to 15 s) and runs the
 * step again, so that a process started before its database (compose, a node's reboot, a failover)
 * comes up with it instead of exiting. Each step leaves nothing open when it fails.
 */
export function untilDatabase<T>(step: string, work: () => Promise<T>, logger: Logger, opts: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<T> {
  return untilAvailable(work, { ...opts, onWait: waitLogger(logger, step) });
}

const waitLogger = (logger: Logger, step: string) => (err: unknown, delayMs: number) =>
  logger.warn({ step, err: { message: (err as Error).message }, retryInMs: delayMs }, 'start-up: database unavailable; starting again');
