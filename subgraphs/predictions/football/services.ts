import { join } from 'node:path';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { projectRoot } from '../../../lib/paths';
import { announceDataChange } from '../../../lib/cache-policy';
import { FootballCatalogue } from './domain/catalogue';
import type { RawSeasonFile } from './domain/dataset';
import { FootballLoader, type ImportReport } from './domain/loader';
import { MatchService } from './domain/matches';
import { FootballStore } from './store/football-store';

export interface FootballServices {
  catalogue: FootballCatalogue;
  matches: MatchService;
  loader: FootballLoader;
  /** Imports a season file, then refreshes what is held in memory. */
  importSeason(competition: string, season: string, file: RawSeasonFile): Promise<ImportReport>;
  /** Another process changed the data (NOTIFY). */
  dataChanged(): Promise<void>;
}

/** The football data set shipped with the product (a copy of ../shared/data/football). */
export const FOOTBALL_DATA_DIR = join(projectRoot(), 'data', 'football');

export function createFootballServices({ store, logger }: SubgraphDeps): FootballServices {
  const footballStore = new FootballStore(store);
  const catalogue = new FootballCatalogue(footballStore);
  const matches = new MatchService(footballStore, catalogue);
  const loader = new FootballLoader(footballStore, FOOTBALL_DATA_DIR, logger);
  const dataChanged = async () => {
    matches.invalidate();
    await catalogue.refresh();
    // answers cached from the old catalogue between the tables' announcement and now go too
    await announceDataChange(store).catch((err: unknown) => logger.warn({ err }, 'could not announce the reloaded catalogue'));
  };
  return {
    catalogue,
    matches,
    loader,
    dataChanged,
    async importSeason(competition, season, file) {
      const report = await loader.importSeason(competition, season, file);
      await dataChanged();
      return report;
    },
  };
}
