import type { SubgraphCachePolicy } from '../../../lib/cache-policy';

/**
 * The football data is the same for every caller: each query and type may be cached by the gateway,
 * evicted by any change to these tables (their triggers: FootballDataChanges migration). The
 * in-memory catalogue announces again once it has reloaded (services.dataChanged).
 */
export const footballCache: SubgraphCachePolicy = {
  schema: 'football',
  queries: ['competitions', 'teams', 'team', 'resolveTeam', 'matches', 'match', 'nextMatch', 'footballData', 'footballFeed'],
  types: [
    'Competition',
    'Team',
    'TeamResolution',
    'MatchConnection',
    'MatchEdge',
    'Match',
    'Score',
    'PageInfo',
    'FootballData',
    'LeagueData',
    'FootballFeedStatus',
    'FeedRun',
    'FeedSourceStatus',
  ],
  tables: ['competition', 'team', 'team_alias', 'match', 'feed_source', 'feed_run'],
};
