import { join } from 'node:path';
import type { SubgraphDeps } from '../../../lib/subgraph';
import { projectRoot } from '../../../lib/paths';
import { announceDataChange } from '../../../lib/cache-policy';
import { FootballCatalogue } from './domain/catalogue';
import type { RawSeasonFile } from './domain/dataset';
import { NotifiedMemo } from '../../../lib/notified-memo';
import { feedPlan, type FeedPlan } from './domain/default-sources';
import { FootballFeed, type FeedStatus } from './domain/feed';
import { FeedReader } from './domain/feed-parse';
import { KickoffClock } from './domain/kickoff-clock';
import { FootballLoader, type ImportOptions, type ImportReport } from './domain/loader';
import { fetchFeed } from './store/feed-client';
import { FeedStore } from './store/feed-store';
import { MatchService } from './domain/matches';
import { FootballStore } from './store/football-store';

export interface FootballServices {
  catalogue: FootballCatalogue;
  matches: MatchService;
  loader: FootballLoader;
  /** Announces each kick-off (the upcoming lists change by time alone). */
  kickoffs: KickoffClock;
  /** The live data feed (FOOTBALL_FEED_URLS): its passes and their status. */
  feed: FootballFeed;
  /** What the feed follows: configured sources, openfootball's by default, or none. */
  feedPlan: FeedPlan;
  /** Imports a season file, then refreshes what is held in memory. */
  importSeason(competition: string, season: string, file: RawSeasonFile, opts?: ImportOptions): Promise<ImportReport>;
  /** The feed's status, kept in memory like the data's extent (matches.summary, matches.leagues). */
  feedStatus(): Promise<FeedStatus>;
  /** Another process changed the data (NOTIFY). */
  dataChanged(): Promise<void>;
  /** The football tables announced a change (NOTIFY DATA_CHANGED): what is kept in memory of them goes. */
  tablesChanged(): void;
  /** Whether those announcements arrive: while they do not, nothing of the tables is kept in memory. */
  listening(on: boolean): void;
  /** RATINGS_STALE_DAYS: a league whose newest result is older is flagged. */
  staleRatingDays: number;
  /** Starts the feed's reader thread ahead of the first pass (when a feed is configured). */
  warmReader(): void;
  /** Ends the feed's reader thread. */
  close(): Promise<void>;
}

/** The football data set shipped with the product (data/football: openfootball, CC0; its README lists the files). */
export const FOOTBALL_DATA_DIR = join(projectRoot(), 'data', 'football');

/** Seconds a default source may take (FOOTBALL_FEED_TIMEOUT_SECONDS, when shorter, wins). */
const DEFAULT_SOURCE_TIMEOUT_SECONDS = 10;

export function createFootballServices(deps: SubgraphDeps): FootballServices {
  const { store, logger } = deps;
  const footballStore = new FootballStore(store);
  const catalogue = new FootballCatalogue(footballStore);
  const clock = deps.clock ?? (() => new Date());
  const matches = new MatchService(footballStore, catalogue, clock);
  const loader = new FootballLoader(footballStore, FOOTBALL_DATA_DIR, logger, clock);
  const kickoffs = new KickoffClock(
    (after) => footballStore.nextKickoffAfter(after),
    () => announceDataChange(store),
    clock,
    logger,
  );
  const tablesChanged = () => {
    matches.invalidate();
    feedStatus.invalidate();
  };
  const dataChanged = async () => {
    tablesChanged();
    kickoffs.rearm();
    await catalogue.refresh();
    // answers cached from the old catalogue between the tables' announcement and now go too
    await announceDataChange(store).catch((err: unknown) => logger.warn({ err }, 'could not announce the reloaded catalogue'));
  };
  const importSeason = async (competition: string, season: string, file: RawSeasonFile, opts?: ImportOptions) => {
    const report = await loader.importSeason(competition, season, file, opts);
    await dataChanged();
    return report;
  };
  const { config } = deps;
  const plan = feedPlan(config);
  const byDefault = plan.origin === 'default';
  // the default sources, unreachable offline (CI), fail fast: a short timeout and no retry within a pass
  const client = {
    timeoutMs: (byDefault ? Math.min(config.FOOTBALL_FEED_TIMEOUT_SECONDS, DEFAULT_SOURCE_TIMEOUT_SECONDS) : config.FOOTBALL_FEED_TIMEOUT_SECONDS) * 1000,
    retries: byDefault ? 0 : config.FOOTBALL_FEED_RETRIES,
  };
  // the worker that reads feed files, kept warm while a feed is configured
  let reader: FeedReader | undefined;
  const feed = new FootballFeed({
    sources: plan.sources,
    quiet: byDefault,
    clock,
    intervalMinutes: config.FOOTBALL_FEED_INTERVAL_MINUTES,
    store: new FeedStore(store),
    importSeason,
    fetch: (url, validators) => fetchFeed(url, validators, client),
    // the GET and the parsing in the reader's worker thread: not even the body passes through the event loop
    read: (url, validators, competition) => (reader ??= new FeedReader()).read(url, validators, competition, client),
    logger,
  });
  // the feed's status is read from its tables (feed_source, feed_run), kept like the extent
  const feedStatus = new NotifiedMemo(() => feed.status(), { now: () => clock().getTime() });
  const listening = (on: boolean) => {
    matches.listening(on);
    feedStatus.listening(on);
  };
  const warmReader = () => {
    if (feed.configured) reader ??= new FeedReader();
  };
  const close = async () => {
    await reader?.close();
    reader = undefined;
  };
  return {
    catalogue,
    matches,
    loader,
    feed,
    feedPlan: plan,
    kickoffs,
    dataChanged,
    importSeason,
    tablesChanged,
    listening,
    feedStatus: () => feedStatus.get(),
    warmReader,
    close,
    staleRatingDays: config.RATINGS_STALE_DAYS,
  };
}
