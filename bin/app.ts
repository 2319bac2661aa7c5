import { randomUUID } from 'node:crypto';
import type { Config } from '../lib/config';
import { isDevelopment } from '../lib/config';
import { Notifications, ensureDatabase, openStore, type Store } from '../lib/database';
import { startJobQueue, type JobQueue } from '../lib/jobs';
import type { Logger } from '../lib/logger';
import { listen, type RunningServer } from '../lib/server';
import type { SubgraphDefinition, SubgraphDeps } from '../lib/subgraph';
import { DeferredSupergraphClient } from '../lib/supergraph-client';
import { createGateway, type Gateway } from '../gateway';
import { composeSupergraph } from '../gateway/compose';
import { InProcessDataSource, type SubgraphDataSource } from '../gateway/datasources';
import { inProcessExecutor } from '../rest-adapter/core/executor';
import { createSurfaceApp } from '../rest-adapter/core/surface';
import { SURFACES } from '../rest-adapter/surfaces';
import { SUBGRAPHS, composeUrl } from './subgraphs';

export interface App {
  gateway: Gateway;
  urls: { gateway: string; predictions: string; registry: string; finance: string };
  /** Each subgraph's domain services (the CLI, tests and demo set-up use them directly). */
  services: Record<string, any>;
  /** Credentials generated during this start (shown once). */
  generatedCredentials: Record<string, string>;
  stop(): Promise<void>;
}

interface Running {
  def: SubgraphDefinition<any>;
  store: Store;
  services: any;
  deps: SubgraphDeps;
}

/**
 * The whole system in one process: every subgraph in-process, the gateway, the three REST
 * surfaces calling the gateway without HTTP. Used by `npm start`, the tests and the benchmarks.
 */
export async function startApp(config: Config, logger: Logger, opts: { databaseUrl: string; randomPorts?: boolean }): Promise<App> {
  const started = Date.now();
  await ensureDatabase(opts.databaseUrl);
  const toClose: { close(): Promise<void> }[] = [];
  let jobs: JobQueue | undefined;
  const running: Running[] = [];
  const servers: RunningServer[] = [];
  let gateway: Gateway | undefined;
  const stop = async () => {
    const step = async (name: string, work: () => Promise<unknown> | undefined) => {
      logger.debug({ step: name }, 'stopping');
      await work();
    };
    await step('http servers', () => Promise.all(servers.map((s) => s.close())));
    // subgraphs first (background work ends while the gateway still answers it), then the gateway
    for (const r of [...running].reverse()) {
      await step(`subgraph ${r.def.name}`, async () => {
        await r.deps.notifications.close();
        await r.def.stop?.(r.services);
      });
    }
    await step('gateway', () => gateway?.stop());
    await step('job queue', () => jobs?.stop());
    await step('database pools', () => Promise.all(toClose.map((s) => s.close())));
    logger.info('stopped');
  };
  try {
    const stores = await Promise.all(
      SUBGRAPHS.map((def) => openStore(def.store, { url: opts.databaseUrl, poolSize: config.DB_POOL_SIZE, logger, migrate: true })),
    );
    toClose.push(...stores);
    jobs = await startJobQueue({ url: opts.databaseUrl, logger });
    const supergraphClients: DeferredSupergraphClient[] = [];
    for (const [i, def] of SUBGRAPHS.entries()) {
      const supergraph = new DeferredSupergraphClient(def.name);
      supergraphClients.push(supergraph);
      const subgraphLogger = logger.child({ subgraph: def.name });
      const notifications = new Notifications(opts.databaseUrl, subgraphLogger);
      const deps: SubgraphDeps = { store: stores[i], notifications, supergraph, config, logger: subgraphLogger, jobs };
      running.push({ def, store: stores[i], deps, services: await def.createServices(deps) });
    }
    const schemas = await Promise.all(running.map((r) => r.def.buildSchema(r.services)));
    const supergraphSdl = composeSupergraph(running.map((r, i) => ({ name: r.def.name, url: composeUrl(r.def.name), schema: schemas[i] })));
    const dataSources: Record<string, SubgraphDataSource> = {};
    running.forEach((r, i) => (dataSources[r.def.name] = new InProcessDataSource(schemas[i], r.deps.logger)));
    gateway = await createGateway({
      supergraphSdl,
      dataSources,
      logger,
      development: isDevelopment(config),
      limits: { maxDepth: config.MAX_QUERY_DEPTH, maxCost: config.MAX_QUERY_COST },
    });
    const gw = gateway;
    for (const c of supergraphClients) c.bind((query, variables, principal) => gw.execute({ query, variables }, {}, randomUUID(), principal).then((r) => r.body));
    const generatedCredentials: Record<string, string> = {};
    for (const r of running) {
      const notes = await r.def.start?.(r.services, r.deps);
      if (notes && notes.generatedCredentials) Object.assign(generatedCredentials, notes.generatedCredentials);
    }
    const executor = inProcessExecutor(gateway);
    const port = (p: number) => (opts.randomPorts ? 0 : p);
    servers.push(await listen(gateway.app, config.HOST, port(config.GATEWAY_PORT)));
    for (const { surface, port: surfacePort } of SURFACES) {
      const app = createSurfaceApp(surface, { executor, logger, bodyLimit: config.REST_BODY_LIMIT });
      servers.push(await listen(app, config.HOST, port(surfacePort(config))));
    }
    logger.info({ ms: Date.now() - started }, 'ready');
    return {
      gateway,
      urls: { gateway: servers[0].url, predictions: servers[1].url, registry: servers[2].url, finance: servers[3].url },
      services: Object.fromEntries(running.map((r) => [r.def.name, r.services])),
      generatedCredentials,
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
