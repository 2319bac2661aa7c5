import { defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { startAuditRelay } from '../kernel/audit';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { CommerceAdminResolver } from './schema/admin-resolvers';
import { CommerceResolver, CommerceUserResolvers, DisputeFieldsResolver } from './schema/resolvers';
import { DRAIN_RETRY, REWARDS_QUEUE } from './domain/rewards';
import { createCommerceServices, type CommerceServices } from './services';
import { commerceStore } from './store';
import { financeProduct } from '../product';

/** Demo products, added when the shop has none (as other subgraphs seed their demo data). */
const DEMO_PRODUCTS = [
  { name: 'Travel adapter', description: 'Universal plug adapter with two USB ports.', price: '19.90', currency: 'EUR', stock: 40 },
  { name: 'Solar power bank', description: '10,000 mAh, charges in the sun.', price: '34.50', currency: 'EUR', stock: 25 },
  { name: 'Branded hoodie', description: 'Organic cotton, sizes S to XL.', price: '49.00', currency: 'EUR', stock: 12 },
];

/** Shop and utilities, gift cards, disputes, points and rewards of the finance node. */
export const commerceSubgraph = defineSubgraph<CommerceServices, 'commerce'>({
  name: 'commerce',
  store: commerceStore,
  createServices: createCommerceServices,
  buildSchema: (services) =>
    buildFinanceSchema({
      subgraph: 'commerce',
      store: (s) => s.store.store,
      resolvers: [CommerceResolver, DisputeFieldsResolver, ...CommerceUserResolvers, CommerceAdminResolver],
      services,
    }),
  async start(services, { notifications, jobs, logger }) {
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    await startAuditRelay(services.audit, { jobs, notifications, logger });
    // owed points (a grant that failed after its payment committed) are granted by this job
    await jobs.boss.createQueue(REWARDS_QUEUE, { name: REWARDS_QUEUE, policy: 'stately' });
    jobs.work(
      REWARDS_QUEUE,
      async () => {
        const { granted } = await services.rewards.drain();
        if (granted) logger.info({ granted }, 'owed points granted');
      },
      { pollingIntervalSeconds: 1 },
    );
    await jobs.boss.schedule(REWARDS_QUEUE, '* * * * *', {}, DRAIN_RETRY);
    if ((await services.store.productCount()) === 0) for (const p of DEMO_PRODUCTS) await services.shop.createProduct(p);
  },
});

if (require.main === module) void runStandaloneSubgraph(commerceSubgraph, financeProduct);
