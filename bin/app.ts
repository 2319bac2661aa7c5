import { randomUUID } from 'node:crypto';
import type { Config } from '../lib/config';
import { isDevelopment } from '../lib/config';
import { NotificationListener, Notifications, ensureDatabase, openStore, poolOptions, type Store } from '../lib/database';
import { startJobQueue, type JobQueue } from '../lib/jobs';
import type { Logger } from '../lib/logger';
import { listen, type RunningServer } from '../lib/server';
import type { SubgraphDefinition, SubgraphDeps } from '../lib/subgraph';
import { startSubgraph, untilDatabase } from '../lib/subgraph-start';
import { DeferredSupergraphClient } from '../lib/supergraph-client';
import { createGateway, gatewayLimits, responseCacheOf, type Gateway } from '../gateway';
import { databaseCheck } from '../lib/probes';
import { composeSupergraph } from '../gateway/compose';
import { InProcessDataSource, type SubgraphDataSource } from '../gateway/datasources';
import { inProcessExecutor } from '../rest-adapter/core/executor';
import { createSurfaceApp } from '../rest-adapter/core/surface';
import { surfaceEntries } from '../rest-adapter/surfaces';
import { cachePoliciesOf, composeUrl, credentialsOf, loadSubgraphs, type ProductName, type SubgraphServices } from '../subgraphs/products';

export interface App<P extends ProductName = ProductName> {
  /** The products this process runs. */
  products: readonly P[];
  gateway: Gateway;
  /** The gateway's and each product's REST surface's base URL, by name. */
  urls: { gateway: string } & Record<P, string>;
  /** Each subgraph's domain services, by name (the CLI, tests and demo set-up use them directly). */
  services: SubgraphServices<P>;
  /** Credentials generated during this start (shown once). */
  generatedCredentials: Record<string, string>;
  stop(): Promise<void>;
}

interface Running {
  def: SubgraphDefinition<unknown>;
  services: unknown;
  deps: SubgraphDeps;
}

/**
 * The products in one process: their subgraphs in-process, the gateway, their REST surfaces calling
 * the gateway without HTTP. Used by `npm start`, the tests and the benchmarks.
 */
export interface StartOptions<P extends ProductName = ProductName> {
  /** The products to run (default: the PRODUCTS setting). */
  products?: readonly P[];
  databaseUrl: string;
  /** Listen on free ports instead of the configured ones (tests, benchmarks); the mailbox's port is its own setting. */
  randomPorts?: boolean;
  /** Wraps each subgraph's data source (tests record the gateway's fetches with it). */
  decorateDataSource?: (name: string, dataSource: SubgraphDataSource) => SubgraphDataSource;
  /** The time the subgraphs see (tests); default: now. */
  clock?: () => Date;
}

export async function startApp<P extends ProductName = ProductName>(config: Config, logger: Logger, opts: StartOptions<P>): Promise<App<P>> {
  const started = Date.now();
  // the application mailbox keeps its setting: tests and benchmarks set APPLICATION_SMTP_PORT=0 themselves,
  // and an unset one is the optional default port (taken: the mailbox stays off, mailbox-port.test.ts)
  const products = (opts.products ?? config.PRODUCTS) as readonly P[];
  await untilDatabase('the database', () => ensureDatabase(opts.databaseUrl), logger);
  // readiness of every HTTP surface of this process (GET /readyz): the database answers
  const readiness = { database: databaseCheck(opts.databaseUrl) };
  const stores: Store[] = [];
  let jobs: JobQueue | undefined;
  const running: Running[] = [];
  const servers: RunningServer[] = [];
  // the subgraphs share the process's one LISTEN connection to their database
  const listener = new NotificationListener(opts.databaseUrl, logger);
  let gateway: Gateway | undefined;
  let stopListening: (() => Promise<void>) | undefined;
  const stop = async () => {
    // every step runs even when one before it fails (a half-started app stops its job queue and pools too)
    const failures: unknown[] = [];
    const step = async (name: string, work: () => Promise<unknown> | undefined) => {
      logger.debug({ step: name }, 'stopping');
      try {
        await work();
      } catch (err) {
        logger.warn({ err, step: name }, 'a step of the shutdown failed; going on');
        failures.push(err);
      }
    };
    await step('http servers', () => Promise.all(servers.map((s) => s.close())));
    // subgraphs first (background work ends while the gateway still answers it), then the gateway
    for (const r of [...running].reverse()) {
      await step(`subgraph ${r.def.name}`, async () => {
        await r.deps.notifications.close();
        await r.def.stop?.(r.services);
      });
    }
    await step('response cache', () => stopListening?.());
    await step('notification listener', () => listener.close());
    await step('gateway', () => gateway?.stop());
    await step('job queue', () => jobs?.stop());
    await step('database pools', () => Promise.all(stores.map((s) => s.close())));
    logger.info('stopped');
    if (failures.length) throw failures[0];
  };
  try {
    const definitions: readonly SubgraphDefinition<unknown>[] = loadSubgraphs(products);
    stores.push(
      ...(await Promise.all(
        definitions.map((def) =>
          untilDatabase(`the ${def.name} store`, () => openStore(def.store, { url: opts.databaseUrl, ...poolOptions(config), logger, migrate: true }), logger),
        ),
      )),
    );
    jobs = await untilDatabase<JobQueue>('the job queue', () => startJobQueue({ url: opts.databaseUrl, logger }), logger);
    const supergraphClients: DeferredSupergraphClient[] = [];
    for (const [i, def] of definitions.entries()) {
      const supergraph = new DeferredSupergraphClient(def.name);
      supergraphClients.push(supergraph);
      const subgraphLogger = logger.child({ subgraph: def.name });
      const notifications = new Notifications(listener);
      const deps: SubgraphDeps = { store: stores[i], notifications, supergraph, config, logger: subgraphLogger, jobs, clock: opts.clock };
      running.push({ def, deps, services: await def.createServices(deps) });
    }
    const schemas = await Promise.all(running.map((r) => r.def.buildSchema(r.services)));
    const supergraphSdl = composeSupergraph(running.map((r, i) => ({ name: r.def.name, url: composeUrl(r.def.name), schema: schemas[i] })));
    const dataSources: Record<string, SubgraphDataSource> = {};
    running.forEach((r, i) => {
      const dataSource = new InProcessDataSource(schemas[i], r.deps.logger);
      dataSources[r.def.name] = opts.decorateDataSource ? opts.decorateDataSource(r.def.name, dataSource) : dataSource;
    });
    gateway = await createGateway({
      supergraphSdl,
      dataSources,
      credentials: credentialsOf(products),
      logger,
      development: isDevelopment(config),
      limits: gatewayLimits(config),
      bodyLimit: config.GATEWAY_BODY_LIMIT,
      readiness,
      trustProxy: config.TRUST_PROXY,
      responseCache: responseCacheOf(config, cachePoliciesOf(products)),
      directFetch: config.GATEWAY_DIRECT_FETCH,
    });
    const gw = gateway;
    for (const c of supergraphClients)
      c.bind((query, variables, principal) => gw.execute({ query, variables }, { headers: {} }, randomUUID(), principal).then((r) => r.body));
    const generatedCredentials: Record<string, string> = {};
    for (const r of running) {
      const notes = await startSubgraph(r.def, r.services, r.deps);
      if (notes && notes.generatedCredentials) Object.assign(generatedCredentials, notes.generatedCredentials);
    }
    // after the subgraphs' own listeners: on one announcement, their in-memory copies go first
    stopListening = gateway.listenForChanges(listener);
    const executor = inProcessExecutor(gateway);
    const port = (p: number) => (opts.randomPorts ? 0 : p);
    const gatewayServer = await listen(gateway.app, config.HOST, port(config.GATEWAY_PORT), { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS });
    servers.push(gatewayServer);
    const urls = { gateway: gatewayServer.url } as App<P>['urls'];
    for (const [name, { surface, port: surfacePort }] of surfaceEntries(products)) {
      const app = createSurfaceApp(surface, { config, executor, logger, bodyLimit: config.REST_BODY_LIMIT, trustProxy: config.TRUST_PROXY, readiness });
      const server = await listen(app, config.HOST, port(surfacePort(config)), { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS });
      servers.push(server);
      (urls as Record<string, string>)[name] = server.url;
    }
    // the finance node reports its own readiness in its registry heartbeats
    const nodeRegistry = (running.find((r) => r.def.name === 'node')?.services as { registry?: { surfaceReady(url: string): void } } | undefined)?.registry;
    const financeUrl = (urls as Record<string, string | undefined>).finance;
    if (nodeRegistry && financeUrl) nodeRegistry.surfaceReady(`${financeUrl}/readyz`);
    logger.info({ ms: Date.now() - started }, 'ready');
    return {
      gateway,
      urls,
      products,
      services: Object.fromEntries(running.map((r) => [r.def.name, r.services])) as SubgraphServices<P>,
      generatedCredentials,
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
