import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { UsageError, printOut, type CliCommand, type CliContext } from '../lib/cli';
import { ConfigError, loadConfig, type Config } from '../lib/config';
import { NotificationListener, Notifications, openStore, type Store } from '../lib/database';
import { embeddedPostgresPaths, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../lib/embedded-postgres';
import { DomainError } from '../lib/errors';
import { startJobQueue, type JobQueue } from '../lib/jobs';
import { createLogger, type Logger } from '../lib/logger';
import type { SubgraphDefinition, SubgraphDeps } from '../lib/subgraph';
import type { SupergraphClient } from '../lib/supergraph-client';
import { SUBGRAPHS } from './subgraphs';

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

/** Subgraph reads through the gateway need the running system; CLI commands use their own subgraph's services. */
const NO_SUPERGRAPH: SupergraphClient = {
  request: () => Promise.reject(new Error('the supergraph is not available to CLI commands')),
};

/** The database, a subgraph's store and its services, opened on first use and closed when the command ends. */
class CommandResources {
  private embedded?: EmbeddedPostgresHandle;
  private url?: string;
  private store?: Store;
  private jobs?: JobQueue;
  private listener?: NotificationListener;
  private services?: Promise<unknown>;

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  servicesOf(def: SubgraphDefinition<unknown>): Promise<unknown> {
    this.services ??= this.open(def);
    return this.services;
  }

  private async open(def: SubgraphDefinition<unknown>): Promise<unknown> {
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
    this.url = url;
    this.store = await openStore(def.store, { url, poolSize: 2, logger: this.logger, migrate: true });
    this.jobs = await startJobQueue({ url, logger: this.logger, poolSize: 1, background: false });
    this.listener = new NotificationListener(url, this.logger);
    const deps: SubgraphDeps = {
      store: this.store,
      notifications: new Notifications(this.listener),
      supergraph: NO_SUPERGRAPH,
      config: this.config,
      logger: this.logger,
      jobs: this.jobs,
    };
    return def.createServices(deps);
  }

  async close(): Promise<void> {
    await this.listener?.close();
    await this.jobs?.stop();
    await this.store?.close();
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
  if (!entry) throw new UsageError(`unknown command "${leading.join(' ')}"`);
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
