import { readFileSync } from 'node:fs';
import { UsageError, type CliCommand } from '../../../lib/cli';
import type { RawSeasonFile } from './domain/dataset';
import type { FootballServices } from './services';

export const footballCommands: CliCommand<FootballServices>[] = [
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
      const report = await (await ctx.services()).importSeason(competition, season, file);
      ctx.print(`Imported ${report.matches} matches from ${args[0]}: ${report.inserted} new, ${report.updated} updated, ${report.unchanged} unchanged.`);
    },
  },
];
