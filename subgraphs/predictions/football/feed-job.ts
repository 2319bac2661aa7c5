import type { JobQueue } from '../../../lib/jobs';
import type { Logger } from '../../../lib/logger';
import type { FootballServices } from './services';

/** The feed's background job: one pass, then the next one queued FOOTBALL_FEED_INTERVAL_MINUTES later. */
export const FEED_QUEUE = 'football-feed-sync';
const NEXT = 'next';
/**
 * A start's own pass. The stately queue keeps one waiting job per key: under NEXT a restart finds the
 * schedule's next pass already waiting (up to FOOTBALL_FEED_INTERVAL_MINUTES away) and its own would be
 * dropped. Passes never overlap (the feed's store runs them one at a time).
 */
const AT_START = 'start';

/**
 * A pass is a pg-boss job on a stately queue: at most one waits per key and one runs, whichever
 * replica takes it, and a pass whose process died expires and runs again. The job queues its
 * successor before it ends, so the schedule survives restarts; a start queues one at once (a season
 * the data has not seen yet comes in with the first pass), a restart too.
 */
export async function startFeedJob(services: FootballServices, jobs: JobQueue, logger: Logger): Promise<void> {
  await services.feed.failAbandoned();
  await jobs.boss.createQueue(FEED_QUEUE, { name: FEED_QUEUE, policy: 'stately' });
  const queue = (singletonKey: string, startAfterSeconds: number) =>
    jobs.boss.send(FEED_QUEUE, {}, { singletonKey, startAfter: startAfterSeconds, retryLimit: 2, retryBackoff: true, expireInSeconds: 1800 });
  jobs.work(
    FEED_QUEUE,
    async () => {
      try {
        const report = await services.feed.sync('schedule');
        if (report.changed || report.failed) logger.info({ changed: report.changed, failed: report.failed, ms: report.ms }, 'football feed pass');
      } finally {
        await queue(NEXT, services.feed.intervalMinutes * 60);
      }
    },
    { pollingIntervalSeconds: 5 },
  );
  await queue(AT_START, 0);
}
