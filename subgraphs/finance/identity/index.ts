import { defineSubgraph, type SubgraphContext } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { buildFinanceSchema } from '../kernel/finance-schema';
import { startAuditRelay } from '../kernel/audit';
import { NODE_STATE_CHANGED } from '../kernel/gate';
import { identityCommands } from './cli';
import { USER_CHANGED } from './credential';
import { OnboardingResolver } from './schema/onboarding-resolvers';
import { OperatorResolver } from './schema/operator-resolvers';
import { IdentityResolver, toUser } from './schema/resolvers';
import { createIdentityServices, type IdentityServices } from './services';
import { identityStore } from './store';
import { financeProduct } from '../product';

/** The finance node's users: sign-in (argon2id), access tokens, 2FA (TOTP), admin console sessions. */
export const identitySubgraph = defineSubgraph<IdentityServices, 'identity'>({
  name: 'identity',
  store: identityStore,
  commands: identityCommands,
  createServices: createIdentityServices,
  buildSchema: (services) =>
    buildFinanceSchema({
      subgraph: 'identity',
      store: (s) => s.store,
      resolvers: [IdentityResolver, OnboardingResolver, OperatorResolver],
      services,
      // another subgraph's `user` (NodeUserRef): an administrator sees anyone, a user themselves only
      referenceResolvers: {
        NodeUser: {
          __resolveReference: async (ref: { id: string }, ctx: SubgraphContext) => {
            const p = ctx.principal;
            if (p.kind !== 'node-admin' && !(p.kind === 'node-user' && p.userId === ref.id)) return null;
            const user = await services!.identity.user(ref.id);
            return user ? toUser(user) : null;
          },
        },
      },
    }),
  async start(services, { notifications, config, jobs, logger }) {
    notifications.on(USER_CHANGED, (id) => services.identity.forget(id));
    notifications.on(NODE_STATE_CHANGED, () => services.gate.evict());
    await startAuditRelay(services.audit, { jobs, notifications, logger });
    // the superuser from the environment, on first start (Django's createsuperuser --noinput)
    if (config.SUPERUSER_USERNAME && config.SUPERUSER_PASSWORD && !(await services.identity.findUser(config.SUPERUSER_USERNAME))) {
      await services.identity.createUser({
        username: config.SUPERUSER_USERNAME,
        password: config.SUPERUSER_PASSWORD,
        email: config.SUPERUSER_EMAIL,
        superuser: true,
      });
      logger.info({ username: config.SUPERUSER_USERNAME }, 'superuser created from SUPERUSER_USERNAME/SUPERUSER_PASSWORD');
    }
  },
});

if (require.main === module) void runStandaloneSubgraph(identitySubgraph, financeProduct);
