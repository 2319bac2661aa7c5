import type { FeedStatus } from './domain/feed';
import type { FootballServices } from './services';

const day = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().slice(0, 10) : null);

/** Waits (up to `waitMs`) for the feed's first pass since `since` to end: the start banner tells how it went. */
async function firstPass(services: FootballServices, since: Date, waitMs: number): Promise<FeedStatus> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const status = await services.feed.status();
    const run = status.lastRun;
    if ((run && run.status !== 'running' && run.startedAt >= since) || Date.now() >= deadline) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The start banner's football data lines: what the feed follows and when each league last changed
 * (a feed pass that changed it, or "shipped data, never updated"); offline, that no source was reachable
 * and since when the data is stale (its newest result).
 */
export async function footballFeedLines(services: FootballServices, opts: { since: Date; waitMs: number }): Promise<string[]> {
  const plan = services.feedPlan;
  const summary = await services.matches.summary();
  const newest = day(summary.latestResult) ?? 'none';
  if (plan.origin === 'off') return [`Football data          feed off (FOOTBALL_FEED_URLS=off): shipped data only, newest result ${newest}`];
  const sources = services.feed.sources();
  const seasons = [...new Set(sources.map((s) => s.season))].join(', ');
  const head =
    plan.origin === 'default'
      ? `Football data          follows openfootball football.json ${seasons} for ${sources
          .map((s) => s.competition)
          .filter((c, i, a) => a.indexOf(c) === i)
          .join(', ')} (${plan.base}; FOOTBALL_FEED_URLS overrides, off disables)`
      : `Football data          follows ${sources.length} configured source(s) (FOOTBALL_FEED_URLS): ${sources.map((s) => s.key).join(', ')}`;
  const status = await firstPass(services, opts.since, opts.waitMs);
  const rows = status.sources;
  const reached = rows.filter((r) => r.lastSuccessAt);
  const lines = [head];
  if (!reached.length && rows.some((r) => r.lastError)) {
    lines.push(
      `                       no source was reachable (${status.lastError?.message ?? 'offline'}): the data is stale since ${newest}, its newest result`,
    );
  } else if (!rows.length || status.running || !status.lastRun) {
    lines.push(`                       the first pass is still running; newest result ${newest}`);
  }
  const leagues = await services.matches.leagues();
  const per = leagues.map((l) => `${l.code} ${l.updatedAt ? `changed ${day(l.updatedAt)}` : 'shipped data, never updated'}`);
  lines.push(`                       last changed: ${per.join('; ')}`);
  return lines;
}
