import { DATA_CHANGED } from '../../../lib/cache-policy';
import { isDevelopment } from '../../../lib/config';
import { buildFederatedSchema, defineSubgraph } from '../../../lib/subgraph';
import { runStandaloneSubgraph } from '../../../lib/subgraph-server';
import { licensingCommands } from './cli';
import { LICENCE_CHANGED } from './credential';
import { FRONTEND_BUILD_QUEUE } from './domain/frontend-builds';
import {
  DeploymentFieldsResolver,
  LicenceFieldsResolver,
  LicensingProductResolver,
  RegistryAdminResolver,
  RegistryOrganisationResolver,
  ReleaseFieldsResolver,
} from './schema/admin-resolver';
import { LicenceResolver } from './schema/licence-resolver';
import { WorkspaceAdminResolver, WorkspaceResolver } from './schema/workspace-resolver';
import { createLicensingServices, type LicensingServices } from './services';
import { licensingStore } from './store';
import { registryProduct } from '../product';

/** pg-boss queue of the scheduled upkeep (every minute): dead deployments culled, expiries recorded, spent tokens purged. */
export const UPKEEP_QUEUE = 'licensing-upkeep';

/**
 * The licence registry's domain: organisations, products, plans, licences, releases and artifacts,
 * deployments and their heartbeats, signed licence tokens. Verifies two credential kinds: licence
 * keys and download tokens.
 */
export const licensingSubgraph = defineSubgraph<LicensingServices, 'licensing'>({
  name: 'licensing',
  store: licensingStore,
  commands: licensingCommands,
  createServices: (deps) => createLicensingServices(deps),
  buildSchema: (services) =>
    buildFederatedSchema({
      principals: ['licence'],
      resolvers: [
        LicenceResolver,
        WorkspaceResolver,
        WorkspaceAdminResolver,
        RegistryAdminResolver,
        RegistryOrganisationResolver,
        LicensingProductResolver,
        LicenceFieldsResolver,
        ReleaseFieldsResolver,
        DeploymentFieldsResolver,
      ],
      services,
    }),
  async start(services, { config, notifications, jobs, logger }) {
    // a licence suspended, revoked or changed by any process leaves this process's cache at once
    notifications.on(LICENCE_CHANGED, (id) => services.licences.forget(id));
    // a release published, yanked or changed by any process (or by hand): the releases kept in memory go
    notifications.on(
      DATA_CHANGED,
      (schema) => schema === licensingStore.schema && services.releases.tablesChanged(),
      (on) => services.releases.listening(on),
    );
    // a wrong master key fails here, at start, not at the first checkout
    await services.signing.ensureKey();
    // the system check of the build machine: missing tools are the vendor's to install (logged), customers read "unavailable"
    await services.builds.checkBuildTools();
    if (isDevelopment(config)) await services.demo.ensure();
    await jobs.boss.createQueue(UPKEEP_QUEUE);
    // our worker loop (lib/jobs.ts), not boss.work: a database outage must not end the process
    jobs.work(
      UPKEEP_QUEUE,
      async () => {
        const done = await services.upkeep();
        if (done.dead || done.expired) logger.info(done, 'registry upkeep');
      },
      { pollingIntervalSeconds: 10 },
    );
    await jobs.boss.createQueue(FRONTEND_BUILD_QUEUE);
    jobs.work<{ buildId: string }>(FRONTEND_BUILD_QUEUE, (job) => services.builds.run(job.data.buildId), { pollingIntervalSeconds: 1 });
    await jobs.boss.schedule(UPKEEP_QUEUE, '* * * * *', {}, { retryLimit: 0, expireInSeconds: 300 });
  },
});

if (require.main === module) void runStandaloneSubgraph(licensingSubgraph, registryProduct);
