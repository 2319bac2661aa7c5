import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { UsageError, printOut, type CliCommand, type CliContext } from '../lib/cli';
import { ConfigError, platformSettings, type Config } from '../lib/config';
import { loadConfig } from '../subgraphs/products';
import { NotificationListener, Notifications, openStore, type Store } from '../lib/database';
import { embeddedPostgresPaths, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../lib/embedded-postgres';
import { DomainError } from '../lib/errors';
import { startJobQueue, type JobQueue } from '../lib/jobs';
import { createLogger, type Logger } from '../lib/logger';
import type { SubgraphDefinition, SubgraphDeps } from '../lib/subgraph';
import type { SupergraphClient } from '../lib/supergraph-client';
import { loadSubgraphs, PRODUCT_NAMES } from '../subgraphs/products';

/**
 * The products this process runs (PRODUCTS, default all): only their subgraphs' code loads, so the
 * finance node's image, which holds no other product's code, runs its own commands. A PRODUCTS that is
 * not valid loads all (the command then reports the configuration's error).
 */
const RUN = platformSettings.shape.PRODUCTS.safeParse(process.env.PRODUCTS);
const SUBGRAPHS = loadSubgraphs(RUN.success ? RUN.data : PRODUCT_NAMES);

interface Entry {
  def: SubgraphDefinition<unknown>;
  command: CliCommand<unknown>;
}

/** Every command of every subgraph (SubgraphDefinition.commands), in the registry's order. */
const COMMANDS: Entry[] = (SUBGRAPHS as readonly SubgraphDefinition<unknown>[]).flatMap((def) =>
  (def.commands ?? []).map((command) => ({ def, command: command as CliCommand<unknown> })),
);

const USAGE = [
  'Usage: npm run cli -- <command>',
  '',
  ...COMMANDS.map(({ command }) => `  ${command.words.join(' ')} ${command.usage}`),
  '',
  'Database: DATABASE_URL, else the embedded PostgreSQL of `npm start` (started for the command if not running).',
  'Mail: SMTP_URL, else files in DATA_DIR/outbox/.',
].join('\n');

const PROVIDER_SECRET_QUERY = /^\s*query ProviderSecret\b/;

/** The database, the stores and services of the subgraphs a command uses, opened on first use and closed when the command ends. */
class CommandResources {
  private embedded?: EmbeddedPostgresHandle;
  private base?: Promise<{ url: string; jobs: JobQueue; listener: NotificationListener }>;
  private readonly stores: Store[] = [];
  private readonly services = new Map<string, Promise<unknown>>();

  /**
   * Commands run without the gateway, so reads of other domains through the supergraph are refused,
   * but one: a provider credential saved in the admin console (subgraphs/finance/kernel/provider-secrets), which the node
   * subgraph's own services read from the same database (the operator running a command holds the
   * database and FRAMEWORK_SECRET_KEY anyway).
   */
  private readonly supergraph: SupergraphClient = {
    request: async <T>(query: string, variables?: Record<string, unknown>): Promise<T> => {
      if (!PROVIDER_SECRET_QUERY.test(query)) throw new Error('the supergraph is not available to CLI commands');
      const node = SUBGRAPHS.find((d) => d.name === 'node') as SubgraphDefinition<unknown>;
      const { node: service } = (await this.servicesOf(node)) as { node: { providerSecret(provider: string, name: string): Promise<string | undefined> } };
      const { provider, name } = variables as { provider: string; name: string };
      return { providerSecret: (await service.providerSecret(provider, name)) ?? null } as T;
    },
  };

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  servicesOf(def: SubgraphDefinition<unknown>): Promise<unknown> {
    let services = this.services.get(def.name);
    if (!services) {
      services = this.open(def);
      this.services.set(def.name, services);
    }
    return services;
  }

  private async openBase() {
    let url = this.config.DATABASE_URL;
    if (!url) {
      // reuses a running `npm start`'s embedded server, or starts it for this command
      this.embedded = await startEmbeddedPostgres({
        ...embeddedPostgresPaths(this.config.dataDir),
        port: this.config.EMBEDDED_PG_PORT,
        database: 'matchday',
        logger: this.logger,
        reuseRunning: true,
      });
      url = this.embedded.url;
    }
    const jobs = await startJobQueue({ url, logger: this.logger, poolSize: 1, background: false });
    return { url, jobs, listener: new NotificationListener(url, this.logger) };
  }

  private async open(def: SubgraphDefinition<unknown>): Promise<unknown> {
    this.base ??= this.openBase();
    const { url, jobs, listener } = await this.base;
    const store = await openStore(def.store, { url, poolSize: 2, logger: this.logger, migrate: true });
    this.stores.push(store);
    const deps: SubgraphDeps = {
      store,
      notifications: new Notifications(listener),
      supergraph: this.supergraph,
      config: this.config,
      logger: this.logger,
      jobs,
    };
    return def.createServices(deps);
  }

  async close(): Promise<void> {
    const base = await this.base?.catch(() => undefined);
    await base?.listener.close();
    await base?.jobs.stop();
    for (const store of this.stores) await store.close();
    await this.embedded?.stop();
  }
}

/** The command whose words start the positionals (the longest match wins). */
function findCommand(positionals: string[]): Entry | undefined {
  return COMMANDS.filter(({ command }) => command.words.every((w, i) => positionals[i] === w)).sort(
    (a, b) => b.command.words.length - a.command.words.length,
  )[0];
}

async function main(argv: string[]): Promise<number> {
  const firstOption = argv.findIndex((a) => a.startsWith('-'));
  const leading = firstOption < 0 ? argv : argv.slice(0, firstOption);
  if (!leading.length || argv.includes('--help') || argv.includes('-h')) {
    printOut(USAGE);
    return 0;
  }
  const entry = findCommand(leading);
  if (!entry) {
    const others = RUN.success && RUN.data.length < PRODUCT_NAMES.length ? ` (PRODUCTS=${RUN.data.join(',')}: the other products' commands are not here)` : '';
    throw new UsageError(`unknown command "${leading.join(' ')}"${others}`);
  }
  const { def, command } = entry;
  const { values, positionals } = parseArgs({ args: argv.slice(command.words.length), allowPositionals: true, strict: true, options: command.options ?? {} });
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', 'cli');
  const resources = new CommandResources(config, logger);
  const ctx: CliContext<unknown> = { config, logger, services: () => resources.servicesOf(def), print: printOut };
  try {
    return (await command.run(ctx, { args: positionals, values })) ?? 0;
  } finally {
    await resources.close();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    // parseArgs reports unknown options and missing values as TypeErrors with an ERR_PARSE_ARGS code
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (usage) process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    else if (err instanceof DomainError || err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    else process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(usage ? 2 : 1);
  });
