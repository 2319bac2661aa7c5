import express from 'express';
import { loadConfig } from '../subgraphs/products';
import { requireSettings, runEntry } from '../lib/entry';
import { createLogger } from '../lib/logger';
import { listen, onShutdown } from '../lib/server';
import { httpTransport } from './gateway-client';
import { startTelegramBot, telegramSettings, type RunningBot } from './runtime';

/**
 * The Telegram bot as its own service (docker compose): GraphQL over HTTP to GATEWAY_URL with
 * BOT_API_KEY. It always serves /healthz on BOT_PORT (and the webhook there, in webhook mode);
 * without TELEGRAM_BOT_TOKEN it says the bot is off and only answers the probe.
 */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'bot');
  const settings = telegramSettings(config);
  const required = settings ? requireSettings(config, ['BOT_API_KEY', 'GATEWAY_URL'], 'the Telegram bot') : undefined;
  let bot: RunningBot | undefined;
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', bot: bot ? bot.mode : 'off' });
  });
  const server = await listen(app, config.HOST, config.BOT_PORT);
  if (settings && required) {
    bot = await startTelegramBot({
      settings,
      logger,
      transport: httpTransport(required.GATEWAY_URL, required.BOT_API_KEY),
      http: app,
      // the orchestrator restarts the container; a second instance polling the same token ends here too
      onFatal: (err) => {
        logger.fatal({ err }, 'Telegram long polling stopped');
        process.exit(1);
      },
    });
    logger.info({ username: bot.username, mode: bot.mode, gateway: required.GATEWAY_URL, port: server.port }, 'Telegram bot ready');
  } else {
    logger.warn({ port: server.port }, 'Telegram bot off: TELEGRAM_BOT_TOKEN is not set (only /healthz is served)');
  }
  onShutdown(
    async () => {
      // webhook requests in progress finish first, then the updates still in hand
      await server.close();
      await bot?.stop();
    },
    (msg, err) => (err ? logger.error({ err }, msg) : logger.info(msg)),
  );
}

void runEntry(main);
