import { buildFederatedSchema, defineSubgraph, type SubgraphContext } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { DATA_CHANGED } from '../../../lib/cache-policy';
import { MATCHES_CHANGED } from '../kernel/events';
import { footballCache } from './cache';
import { CompetitionResolver, MatchResolver, TeamResolver, matchLoader, toMatch } from './schema/resolvers';
import { footballCommands } from './cli';
import { startFeedJob } from './feed-job';
import { createFootballServices, type FootballServices } from './services';
import { footballStore } from './store';
import { predictionsProduct } from '../product';

/** Competitions, seasons, teams and matches: the real data the prediction product stands on. */
export const footballSubgraph = defineSubgraph<FootballServices, 'football'>({
  name: 'football',
  store: footballStore,
  commands: footballCommands,
  createServices: createFootballServices,
  buildSchema: (services) =>
    buildFederatedSchema({
      principals: ['api-key', 'service'],
      resolvers: [CompetitionResolver, TeamResolver, MatchResolver],
      services,
      referenceResolvers: {
        Match: {
          __resolveReference: async (ref: { id: number }, ctx: SubgraphContext) => {
            const row = await matchLoader(ctx, services!).load(ref.id);
            return row ? toMatch(row, services!) : null;
          },
        },
        Team: {
          __resolveReference: (ref: { id: number }) => {
            const t = services!.catalogue.team(ref.id);
            return t ? { ...t } : null;
          },
        },
        Competition: {
          __resolveReference: (ref: { code: string }) => services!.catalogue.competition(ref.code) ?? null,
        },
      },
    }),
  async start(services, { notifications, jobs, logger }) {
    await services.loader.loadShipped();
    await services.catalogue.refresh();
    // another process imported fixtures or results
    notifications.on(MATCHES_CHANGED, () => void services.dataChanged());
    // any change to the football tables (SQL by hand included) or a kick-off: the extent kept in memory goes
    notifications.on(
      DATA_CHANGED,
      (schema) => schema === footballCache.schema && services.tablesChanged(),
      (on) => services.listening(on),
    );
    services.warmReader();
    if (services.feed.configured) await startFeedJob(services, jobs, logger);
    services.kickoffs.start();
  },
  async stop(services) {
    services.kickoffs.stop();
    await services.close();
  },
});

if (require.main === module) void runStandaloneSubgraph(footballSubgraph, predictionsProduct);
