import { readFileSync } from 'node:fs';
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

export const footballCommands: CliCommand<FootballServices>[] = [
  {
    words: ['football:sync'],
    usage: '— one pass of the data feed (FOOTBALL_FEED_URLS, openfootball by default): prints what changed; exit 1 when a source failed',
    async run(ctx) {
      try {
        // an unknown league or a key configured twice: a clear message, not a stack trace
        feedPlan(ctx.config);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      const services = await ctx.services();
      if (!services.feed.configured)
        throw new UsageError('FOOTBALL_FEED_URLS is off: unset it (openfootball by default) or set <competition>@<season>=<url> entries.');
      const report = await services.feed.sync('cli');
      ctx.print(syncReportText(report));
      return report.failed ? 1 : 0;
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
