import { PROVIDER_CREDENTIAL_CHANGED } from '../kernel/provider-secrets';
import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { investingCommands } from './cli';
import { InvestingResolver, InvestmentOrderUserResolver } from './schema/resolvers';
import { createInvestingServices, type InvestingServices } from './services';
import { investingStore } from './store';
import { financeProduct } from '../product';

/** Scheduled jobs (pg-boss): the same work as the CLI commands, and the order status poll (the trade stream's safety net). */
export const INVESTING_JOBS = {
  refreshPrices: { queue: 'investing.refresh-prices', cron: '*/15 * * * *' },
  syncEquities: { queue: 'investing.sync-instruments', cron: '30 5 * * *' },
  orders: { queue: 'investing.orders', cron: '* * * * *' },
} as const;

/** Brokerage providers, instruments, quotes, orders and portfolios (module `investments`). */
export const investingSubgraph = defineSubgraph<InvestingServices, 'investing'>({
  name: 'investing',
  store: investingStore,
  commands: investingCommands,
  createServices: createInvestingServices,
  buildSchema: (services) =>
    buildFinanceSchema({ subgraph: 'investing', store: (s) => s.store.store, resolvers: [InvestingResolver, InvestmentOrderUserResolver], services }),
  async start(services, { notifications, jobs, logger }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    notifications.on(PROVIDER_CREDENTIAL_CHANGED, (provider) => {
      services.providerSecrets.evict(provider);
      if (provider === 'equities_brokerage') services.orderUpdates.reconnect();
    });
    const log = logger.child({ subgraph: 'investing' });
    for (const w of services.brokerages.registry().warnings) log.warn({ warning: w }, 'DEX registry entry skipped');
    for (const job of Object.values(INVESTING_JOBS)) await jobs.boss.createQueue(job.queue);
    // our worker loop (lib/jobs.ts), not boss.work: a database outage must not end the process
    jobs.work(INVESTING_JOBS.refreshPrices.queue, async () => {
      const results = await services.investing.refreshPrices('schedule');
      const failed = results.filter((r) => !r.ok).length;
      if (failed) throw new Error(`${failed} of ${results.length} prices failed`);
    });
    jobs.work(INVESTING_JOBS.syncEquities.queue, async () => {
      await services.investing.syncInstruments({ provider: 'equities', trigger: 'schedule' });
    });
    jobs.work(INVESTING_JOBS.orders.queue, async () => {
      await services.orderUpdates.scheduledPoll();
    });
    for (const job of Object.values(INVESTING_JOBS)) await jobs.boss.schedule(job.queue, job.cron, {}, { retryLimit: 0, expireInSeconds: 600 });
    services.orderUpdates.start();
  },
  stop: (services) => services.orderUpdates.stop(),
});

if (require.main === module) void runStandaloneSubgraph(investingSubgraph, financeProduct);
