import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../../lib/config';
import { readJson } from '../../../lib/bounded-body';
import { UsageError, type CliCommand } from '../../../lib/cli';
import type { RawSeasonFile } from './domain/dataset';
import { feedPlan } from './domain/default-sources';
import type { SyncReport } from './domain/feed';
import type { FootballServices } from './services';

/** One line per source and a total: what a pass changed. */
export function syncReportText(r: SyncReport): string {
  const lines = r.sources.map((s) => {
    const head = `${s.key.padEnd(14)} ${s.status.padEnd(12)} ${(s.format ?? '-').padEnd(13)}`;
    if (s.status === 'failed') return `${head} ${s.error} — nothing written`;
    if (s.status === 'not-modified') return `${head} not modified since the last pass (${s.url})`;
    if (s.status === 'not-published') return `${head} not published yet (${s.url})`;
    const extra = [
      s.odds ? `odds for ${s.odds}` : '',
      s.newTeams.length ? `new clubs: ${s.newTeams.join(', ')}` : '',
      s.skipped ? `${s.skipped} rows of other divisions skipped` : '',
    ].filter(Boolean);
    return `${head} ${s.matches} matches: ${s.inserted} new, ${s.updated} updated${extra.length ? `; ${extra.join('; ')}` : ''} (${s.ms} ms)`;
  });
  return [...lines, `Pass ${r.runId}: ${r.sources.length} sources, ${r.changed} changed, ${r.failed} failed, ${r.ms} ms.`].join('\n');
}

/** The running system's gateway (GATEWAY_URL, else this machine's GATEWAY_PORT) and the administrator key to ask it with. */
function runningServer(config: Config): { url: string; key: string | undefined } {
  const url = config.GATEWAY_URL ?? `http://127.0.0.1:${config.GATEWAY_PORT}/graphql`;
  let key = config.ADMIN_API_KEY;
  // development: the key `npm start` generated and kept (subgraphs/predictions/demo.ts)
  const demo = join(config.dataDir, 'demo-credentials.json');
  if (!key && existsSync(demo)) key = (JSON.parse(readFileSync(demo, 'utf8')) as { adminKey?: string }).adminKey;
  return { url, key };
}

/**
 * Asks the running server (its gateway, with the administrator key) rather than reading this shell's
 * configuration: its feed is the one configured where it runs. `unreachable` when no server answers
 * (nothing listens, or it answers no GraphQL); a server that answers with an error is that error.
 */
async function askServer<T>(config: Config, query: string): Promise<{ data: T; url: string } | { unreachable: string; url: string }> {
  const { url, key } = runningServer(config);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query }),
      signal: AbortSignal.timeout(FEED_PASS_TIMEOUT_MS),
    });
  } catch (e) {
    return { unreachable: (e as Error).message, url };
  }
  const body = await readJson<{ data?: T; errors?: { message: string }[] }>(res).catch(() => undefined);
  if (!body || (!body.data && !body.errors)) return { unreachable: `${res.status} without a GraphQL answer`, url };
  if (body.errors?.length)
    throw new UsageError(`the server at ${url} refused: ${body.errors[0].message}${key ? '' : ' (no administrator key: set ADMIN_API_KEY)'}`);
  return { data: body.data!, url };
}

/** A feed pass over the gateway may take minutes (every league, slow sources). */
const FEED_PASS_TIMEOUT_MS = 15 * 60_000;

const SYNC = `mutation { syncFootballFeed { runId ms changed failed sources { key url status format matches inserted updated newTeams odds error ms } } }`;
const STATUS = `{ footballFeed { configured intervalMinutes lastSuccessAt lastError lastErrorAt
  running { id trigger progress } sources { key url format lastCheckedAt lastChangedAt lastError } } }`;

interface FeedStatusView {
  configured: boolean;
  intervalMinutes: number;
  lastSuccessAt: Date | string | null;
  lastError: string | null;
  running: { id: number; trigger: string; progress: number } | null | undefined;
  sources: {
    key: string;
    url: string;
    format: string | null;
    lastCheckedAt: Date | string | null;
    lastChangedAt: Date | string | null;
    lastError: string | null;
  }[];
}

const when = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : 'never');

export function feedStatusText(s: FeedStatusView): string {
  if (!s.configured) return 'The feed is off (FOOTBALL_FEED_URLS=off).';
  const lines = s.sources.map(
    (r) =>
      `${r.key.padEnd(14)} ${(r.format ?? '-').padEnd(13)} checked ${when(r.lastCheckedAt)}, changed ${when(r.lastChangedAt)}${r.lastError ? `; last error: ${r.lastError}` : ''} (${r.url})`,
  );
  const running = s.running ? `a pass is running (${Math.round(s.running.progress * 100)} %, ${s.running.trigger})` : 'no pass running';
  return [
    ...lines,
    `Every ${s.intervalMinutes} min; ${running}; last success ${when(s.lastSuccessAt)}${s.lastError ? `; last error: ${s.lastError}` : ''}.`,
  ].join('\n');
}

/** The feed of this shell's configuration, checked first (an unknown league or a key twice: a clear message, not a stack trace). */
function localFeed(config: Config): void {
  try {
    feedPlan(config);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

const fallbackNote = (url: string, why: string) =>
  `No server answered at ${url} (${why}): using this shell's configuration and database instead (FOOTBALL_FEED_URLS as set here).`;

export const footballCommands: CliCommand<FootballServices>[] = [
  {
    words: ['football:sync'],
    usage:
      "— one pass of the data feed, run by the running server (its gateway, with the administrator key); when none answers, here with this shell's " +
      'configuration (FOOTBALL_FEED_URLS, openfootball by default), saying so: prints what changed; exit 1 when a source failed',
    async run(ctx) {
      const asked = await askServer<{ syncFootballFeed: SyncReport }>(ctx.config, SYNC);
      if ('data' in asked) {
        ctx.print(`Asked the running server (${asked.url}).`);
        ctx.print(syncReportText(asked.data.syncFootballFeed));
        return asked.data.syncFootballFeed.failed ? 1 : 0;
      }
      ctx.print(fallbackNote(asked.url, asked.unreachable));
      localFeed(ctx.config);
      const services = await ctx.services();
      if (!services.feed.configured)
        throw new UsageError('FOOTBALL_FEED_URLS is off: unset it (openfootball by default) or set <competition>@<season>=<url> entries.');
      const report = await services.feed.sync('cli');
      ctx.print(syncReportText(report));
      return report.failed ? 1 : 0;
    },
  },
  {
    words: ['football:status'],
    usage: "— the data feed's sources, the pass running, the last success and error: from the running server, else from the database, saying so",
    async run(ctx) {
      const asked = await askServer<{ footballFeed: FeedStatusView }>(ctx.config, STATUS);
      if ('data' in asked) {
        ctx.print(`Asked the running server (${asked.url}).`);
        ctx.print(feedStatusText(asked.data.footballFeed));
        return 0;
      }
      ctx.print(fallbackNote(asked.url, asked.unreachable));
      localFeed(ctx.config);
      const s = await (await ctx.services()).feedStatus();
      const running = s.running && {
        id: s.running.id,
        trigger: s.running.trigger,
        progress: s.running.sources ? s.running.sourcesDone / s.running.sources : 1,
      };
      ctx.print(feedStatusText({ ...s, running, lastError: s.lastError?.message ?? null, sources: s.sources.map((r) => ({ ...r, url: r.displayUrl })) }));
      return 0;
    },
  },
  {
    words: ['football', 'import'],
    usage: '<file.json> --competition <code> --season <YYYY-YY>',
    options: { competition: { type: 'string' }, season: { type: 'string' } },
    async run(ctx, { args, values }) {
      const competition = values.competition as string | undefined;
      const season = values.season as string | undefined;
      if (!args[0] || !competition || !season) throw new UsageError('football import <file.json> --competition <code> --season <YYYY-YY>');
      let file: RawSeasonFile;
      try {
        file = JSON.parse(readFileSync(args[0], 'utf8')) as RawSeasonFile;
      } catch (e) {
        throw new UsageError(`cannot read ${args[0]} as JSON: ${(e as Error).message}`);
      }
      const report = await (await ctx.services()).importSeason(competition, season, file, { pastResultsOnly: true });
      ctx.print(`Imported ${report.matches} matches from ${args[0]}: ${report.inserted} new, ${report.updated} updated, ${report.unchanged} unchanged.`);
    },
  },
];
