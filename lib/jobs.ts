import PgBoss from 'pg-boss';
import type { Logger } from './logger';

/** Background work as PostgreSQL-backed jobs (pg-boss): visible, retryable, survives restarts. */
export interface JobQueue {
  readonly boss: PgBoss;
  stop(): Promise<void>;
}

export async function startJobQueue(opts: { url: string; logger: Logger; poolSize?: number }): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: opts.url, schema: 'jobs', max: opts.poolSize ?? 4, application_name: 'matchday:jobs' });
  boss.on('error', (err) => opts.logger.error({ err }, 'job queue error'));
  await boss.start();
  let stopped = false;
  return {
    boss,
    async stop() {
      if (stopped) return;
      stopped = true;
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
