import 'reflect-metadata';
import { join } from 'node:path';
import { inProcessTransport } from '../bot/gateway-client';
import { startTelegramBot, telegramSettings, type RunningBot } from '../bot/runtime';
import { ConfigError, describeMode, isDevelopment, type Config } from '../lib/config';
import { loadConfig } from '../subgraphs/products';
import { runEntry } from '../lib/entry';
import { embeddedPostgresPaths, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../lib/embedded-postgres';
import { createLogger, type Logger } from '../lib/logger';
import { onShutdown } from '../lib/server';
import { devOutboxPath } from '../rest-adapter/finance/routes/dev-outbox';
import { investingDemo } from '../subgraphs/finance/investing/demo';
import { startApp, type App } from './app';
import { activateDemoNode, demoCredentials, demoFile, financeDemo, registryDemoLicence, releaseImagesLine, shipRegistryKey } from './demo';

/**
 * `npm start`: the products of PRODUCTS (default all three) in one process, on an embedded PostgreSQL
 * unless DATABASE_URL is set. `PRODUCTS=finance npm start` runs the finance node alone: it answers on
 * PORT only and reaches a licence registry over HTTP (VENDOR_LICENSE_ENGINE_URL, VENDOR_API_KEY).
 */
/** How long the banner waits for the feed's first pass (the default sources time out after 10 s). */
const FIRST_PASS_WAIT_MS = 15_000;

type FeedBanner = typeof import('../subgraphs/predictions/football/feed-banner');
/** The football feed's banner lines, loaded on demand: a finance node alone never loads the prediction API's code. */
const footballFeedLines = (...args: Parameters<FeedBanner['footballFeedLines']>) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous and on demand, as subgraphs/products.ts loads products
  return (require('../subgraphs/predictions/football/feed-banner') as FeedBanner).footballFeedLines(...args);
};

async function main() {
  const started = Date.now();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const has = (product: App['products'][number]) => config.PRODUCTS.includes(product);
  const telegram = has('predictions') ? telegramSettings(config) : undefined;
  if (telegram && !config.BOT_API_KEY && !isDevelopment(config)) {
    throw new ConfigError('Invalid configuration:\n  BOT_API_KEY: required with TELEGRAM_BOT_TOKEN in production (an Enterprise key)');
  }
  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      ...embeddedPostgresPaths(config.dataDir),
      port: config.EMBEDDED_PG_PORT,
      database: 'matchday',
      logger,
      // started again when it dies; when it cannot be, the process exits so that its supervisor restarts everything
      supervise: {
        giveUp: (err) => {
          logger.fatal({ err: err.message }, 'the embedded PostgreSQL cannot be started again: exiting');
          process.exit(1);
        },
      },
    });
    databaseUrl = embedded.url;
  }
  let app: App;
  try {
    app = await startApp(config, logger, { databaseUrl });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  let bot: RunningBot | undefined;
  const stop = async () => {
    // the bot first: the updates in hand still need the gateway
    await bot?.stop();
    await app.stop();
    await embedded?.stop();
  };
  onShutdown(stop, (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)));

  const development = isDevelopment(config);
  const lines = [''];
  const credentials: string[] = [];
  const tries: string[] = [];
  if (has('predictions')) {
    lines.push(`Match prediction API   ${app.urls.predictions}/api/   (reference: ${app.urls.predictions}/api/docs/)`);
    const demo = development
      ? await demoCredentials(config, app.services.access, app.generatedCredentials, { botKey: !!telegram && !config.BOT_API_KEY })
      : undefined;
    if (demo) {
      credentials.push(demo.adminKey ? `  Administrator key   ${demo.adminKey}` : '  Administrator key   the ADMIN_API_KEY you configured');
      credentials.push(`  Free-plan key       ${demo.freeKey}`);
      tries.push(`Try: curl -H "Authorization: Bearer ${demo.freeKey}" ${app.urls.predictions}/api/`);
    }
    lines.push(`Telegram bot           ${await startBot(config, logger, app, telegram, demo?.botKey, (b) => (bot = b))}`);
    lines.push(`Apply by e-mail        ${mailboxLine(app.services.access.mailbox.info())}`);
    // what the feed follows and when each league last changed; offline, since when the data is stale
    lines.push(...(await footballFeedLines(app.services.football, { since: new Date(started), waitMs: FIRST_PASS_WAIT_MS })));
  }
  let licenceKey: string | undefined;
  if (has('registry')) {
    lines.push(`Licence registry       ${app.urls.registry}/api/v1/   (reference: ${app.urls.registry}/api/docs/)`);
    if (development) {
      licenceKey = await registryDemoLicence(config, app.services.licensing);
      credentials.push(`  Licence key         ${licenceKey}   (finance-node, Demo Organisation)`);
      tries.push(`     bash scripts/install-node.sh ${app.urls.registry} ${licenceKey} ./finance-node`);
      lines.push(await releaseImagesLine(app.services.licensing, logger));
    }
  }
  if (has('finance')) lines.push(...(await financeLines(config, app, licenceKey, credentials)));
  lines.push(
    `GraphQL + IDE          ${app.urls.gateway}/graphql`,
    `Database               ${embedded ? `embedded PostgreSQL, data in ${join(config.dataDir, 'pg')}` : 'DATABASE_URL'}`,
    `Mode                   ${describeMode(config)}`,
  );
  if (credentials.length) lines.push('', `Demo credentials (development mode; kept in ${demoFile(config)}, readable by you only):`, ...credentials);
  else if (app.generatedCredentials.ADMIN_API_KEY) lines.push('', `Administrator key (shown once, store it now): ${app.generatedCredentials.ADMIN_API_KEY}`);
  if (tries.length) lines.push('', ...tries);
  lines.push('', `Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops everything.`, '');
  process.stdout.write(lines.join('\n') + '\n');
}

/** The Telegram bot, when TELEGRAM_BOT_TOKEN is set; the banner's line. A bot that cannot start leaves the rest running. */
async function startBot(
  config: Config,
  logger: Logger,
  app: App,
  telegram: ReturnType<typeof telegramSettings>,
  demoBotKey: string | undefined,
  started: (bot: RunningBot) => void,
): Promise<string> {
  if (!telegram) return 'off (set TELEGRAM_BOT_TOKEN to start it)';
  try {
    const bot = await startTelegramBot({ settings: telegram, logger, transport: inProcessTransport(app.gateway, config.BOT_API_KEY ?? demoBotKey!) });
    started(bot);
    return `@${bot.username}, ${bot.mode}${telegram.apiRoot ? ` via ${telegram.apiRoot}` : ''}`;
  } catch (err) {
    // everything else runs on; the reason is in the log
    logger.error({ err }, 'the Telegram bot could not start');
    return `off: it could not start (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** The finance node's banner lines; in development, its demo users go to `credentials`. */
async function financeLines(config: Config, app: App, registryLicenceKey: string | undefined, credentials: string[]): Promise<string[]> {
  const development = isDevelopment(config);
  const lines = [`Finance node           ${app.urls.finance}/   (console ${app.urls.finance}/admin/, web client ${app.urls.finance}/app/)`];
  // the node carries the key of the registry it ships beside, as the release images carry it: it learns none
  if (config.PRODUCTS.includes('registry')) await shipRegistryKey(app.services.node, app.services.licensing);
  // the vendor's demo: the node activates with the registry of this process, over HTTP like any node
  if (development && registryLicenceKey && (await activateDemoNode(config, app.services.node, app.urls.registry, registryLicenceKey))) {
    lines.push(`Finance activation     registered with ${app.urls.registry} over HTTP (demo licence)`);
  }
  // a node configured with a registry activates at start (in the background): the banner tells how it went
  await app.services.node.registry.firstActivation();
  lines.push(await financeLicenceLine(app));
  const outbox = devOutboxPath(config);
  if (outbox) lines.push(`Finance outbox         ${app.urls.finance}${outbox}   (development: the mails and SMS the node "sent", with their links)`);
  if (development) {
    const finance = await financeDemo(config, app.services.identity, app.services.ledger);
    credentials.push(
      finance.admin
        ? `  Finance admin       ${finance.admin.username} / ${finance.admin.password}   (${app.urls.finance}/admin/)`
        : '  Finance admin       the SUPERUSER_USERNAME you configured',
    );
    credentials.push(`  Finance demo user   ${finance.user.username} / ${finance.user.password}   (EUR 1,250.00, GBP 800.00 and USD 500.00)`);
    credentials.push(...(await investingDemo(config, app.services, finance.user.username)));
  }
  return lines;
}

async function financeLicenceLine(app: App): Promise<string> {
  const node = await app.services.node.gate.state();
  return node.readOnly
    ? `Finance licence        READ-ONLY (${node.licenceChecks.join(', ')}): writes answer 403 until a licence is installed (npm run cli -- finance:check)`
    : `Finance licence        valid: normal mode`;
}

/** Where applicants write to, and the SMTP receiver that takes that mail. */
function mailboxLine(m: { address: string; host: string; port: number | null; offBecause: string | null }): string {
  if (m.offBecause)
    return `${m.address}   (built-in receiver NOT started: ${m.offBecause}; set APPLICATION_SMTP_PORT to a free port, or use the inbound-mail webhook)`;
  return m.port === null
    ? `${m.address}   (built-in receiver off: APPLICATION_SMTP_PORT=off; use the inbound-mail webhook)`
    : `${m.address}   subject "API Access Request" (SMTP receiver ${m.host}:${m.port})`;
}

void runEntry(main);
