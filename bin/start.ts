import 'reflect-metadata';
import { join } from 'node:path';
import { inProcessTransport } from '../bot/gateway-client';
import { startTelegramBot, telegramSettings, type RunningBot } from '../bot/runtime';
import { ConfigError, describeMode, isDevelopment, loadConfig } from '../lib/config';
import { runEntry } from '../lib/entry';
import { embeddedPostgresPaths, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../lib/embedded-postgres';
import { createLogger } from '../lib/logger';
import { onShutdown } from '../lib/server';
import { startApp } from './app';
import { demoCredentials, demoFile, financeDemo, licenceDemo } from './demo';
import { investingDemo } from '../subgraphs/finance/investing/demo';

/** `npm start`: everything in one process, on an embedded PostgreSQL unless DATABASE_URL is set. */
async function main() {
  const started = Date.now();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const telegram = telegramSettings(config);
  if (telegram && !config.BOT_API_KEY && !isDevelopment(config)) {
    throw new ConfigError('Invalid configuration:\n  BOT_API_KEY: required with TELEGRAM_BOT_TOKEN in production (an Enterprise key)');
  }
  let embedded: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ ...embeddedPostgresPaths(config.dataDir), port: config.EMBEDDED_PG_PORT, database: 'matchday', logger });
    databaseUrl = embedded.url;
  }
  let app;
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
  const demo = isDevelopment(config)
    ? await demoCredentials(config, app.services.access, app.generatedCredentials, { botKey: !!telegram && !config.BOT_API_KEY })
    : undefined;
  let botLine = 'off (set TELEGRAM_BOT_TOKEN to start it)';
  if (telegram) {
    try {
      bot = await startTelegramBot({ settings: telegram, logger, transport: inProcessTransport(app.gateway, config.BOT_API_KEY ?? demo!.botKey!) });
      botLine = `@${bot.username}, ${bot.mode}${telegram.apiRoot ? ` via ${telegram.apiRoot}` : ''}`;
    } catch (err) {
      // everything else runs on; the reason is in the log
      logger.error({ err }, 'the Telegram bot could not start');
      botLine = `off: it could not start (${err instanceof Error ? err.message : String(err)})`;
    }
  }

  const lines = [
    '',
    `Match prediction API   ${app.urls.predictions}/api/   (reference: ${app.urls.predictions}/api/docs/)`,
    `Licence registry       ${app.urls.registry}/api/v1/   (reference: ${app.urls.registry}/api/docs/)`,
    `Finance node           ${app.urls.finance}/`,
    `GraphQL + IDE          ${app.urls.gateway}/graphql`,
    `Database               ${embedded ? `embedded PostgreSQL, data in ${join(config.dataDir, 'pg')}` : 'DATABASE_URL'}`,
    `Telegram bot           ${botLine}`,
    `Apply by e-mail        ${mailboxLine(app.services.access.mailbox.info())}`,
    `Mode                   ${describeMode(config)}`,
  ];
  // development: the demo node runs on a licence of the embedded registry (unless one is configured)
  const licence = demo ? await licenceDemo(config, app.services) : undefined;
  const node = await app.services.node.gate.state();
  lines.push(
    node.readOnly
      ? `Finance licence        READ-ONLY (${node.licenceChecks.join(', ')}): writes answer 403 until a licence is installed (npm run cli -- finance:check)`
      : `Finance licence        valid: normal mode`,
  );
  if (demo) {
    const finance = await financeDemo(config, app.services.identity, app.services.ledger);
    lines.push('', `Demo credentials (development mode; kept in ${demoFile(config)}, readable by you only):`);
    if (demo.adminKey) lines.push(`  Administrator key   ${demo.adminKey}`);
    else lines.push('  Administrator key   the ADMIN_API_KEY you configured');
    lines.push(`  Free-plan key       ${demo.freeKey}`);
    lines.push(`  Licence key         ${licence!.licenceKey}   (finance-node, Demo Organisation${licence!.installed ? '; installed in the demo node' : ''})`);
    if (finance.admin) lines.push(`  Finance admin       ${finance.admin.username} / ${finance.admin.password}   (${app.urls.finance}/admin/)`);
    else lines.push('  Finance admin       the SUPERUSER_USERNAME you configured');
    lines.push(`  Finance demo user   ${finance.user.username} / ${finance.user.password}   (EUR 1,250.00, GBP 800.00 and USD 500.00)`);
    lines.push(...(await investingDemo(config, app.services, finance.user.username)));
    lines.push('', `Try: curl -H "Authorization: Bearer ${demo.freeKey}" ${app.urls.predictions}/api/`);
    lines.push(`     bash scripts/install-node.sh ${app.urls.registry} ${licence!.licenceKey} ./finance-node`);
  } else if (app.generatedCredentials.ADMIN_API_KEY) {
    lines.push('', `Administrator key (shown once, store it now): ${app.generatedCredentials.ADMIN_API_KEY}`);
  }
  lines.push('', `Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops everything.`, '');
  process.stdout.write(lines.join('\n') + '\n');
}

void runEntry(main);

/** Where applicants write to, and the SMTP receiver that takes that mail. */
function mailboxLine(m: { address: string; host: string; port: number | null }): string {
  return m.port === null
    ? `${m.address}   (built-in receiver off: APPLICATION_SMTP_PORT=off; use the inbound-mail webhook)`
    : `${m.address}   subject "API Access Request" (SMTP receiver ${m.host}:${m.port})`;
}
