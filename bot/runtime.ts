import { run } from '@grammyjs/runner';
import express, { type ErrorRequestHandler, type Express } from 'express';
import { webhookCallback, type Bot, type Transformer } from 'grammy';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { listen } from '../lib/server';
import { createTelegramBot, type InFlightUpdates } from './bot';
import { COMMANDS } from './commands';
import { GatewayClient, type GraphQLTransport } from './gateway-client';
import { PredictionsClient } from './predictions-client';
import { FollowNotifier } from './follow-notifier';

/** The bot's settings, from the configuration; undefined when no token is set (the bot is off). */
export interface TelegramSettings {
  token: string;
  apiRoot?: string;
  /** Webhook mode; long polling without it. */
  webhook?: { url: string; secret: string };
  host: string;
  port: number;
  rateLimit: { limit: number; windowSeconds: number };
  timeZone: string;
  /** Follow notices: the reminder's lead time and how often to look for notices due. */
  follows: { reminderMinutes: number; intervalSeconds: number };
}

export function telegramSettings(config: Config): TelegramSettings | undefined {
  if (!config.TELEGRAM_BOT_TOKEN) return undefined;
  return {
    token: config.TELEGRAM_BOT_TOKEN,
    apiRoot: config.TELEGRAM_API_ROOT,
    // loadConfig requires the secret with the URL
    webhook: config.TELEGRAM_WEBHOOK_URL ? { url: config.TELEGRAM_WEBHOOK_URL, secret: config.TELEGRAM_WEBHOOK_SECRET! } : undefined,
    host: config.HOST,
    port: config.BOT_PORT,
    rateLimit: { limit: config.BOT_RATE_LIMIT, windowSeconds: config.BOT_RATE_WINDOW_SECONDS },
    timeZone: config.BOT_TIME_ZONE,
    follows: { reminderMinutes: config.BOT_REMINDER_MINUTES, intervalSeconds: config.BOT_NOTIFY_INTERVAL_SECONDS },
  };
}

export type BotMode = 'long polling' | 'webhook';

export interface RunningBot {
  username: string;
  mode: BotMode;
  /** Stops taking updates, lets those in hand finish, and (long polling) confirms them to Telegram. */
  stop(): Promise<void>;
}

export interface StartBotOptions {
  settings: TelegramSettings;
  logger: Logger;
  /** How the bot reaches the gateway (in-process or HTTP), with its API key. */
  transport: GraphQLTransport;
  /**
   * An express app that already listens on the bot's port (the standalone bot's, with /healthz):
   * the webhook is mounted there. Without it, webhook mode listens on the port itself.
   */
  http?: Express;
  /** Long polling ended for good (token revoked, another instance polling). */
  onFatal?: (err: unknown) => void;
  apiTransformers?: Transformer[];
}

const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** How long the start may wait for Telegram (getMe, the command menu, the webhook). */
const START_TIMEOUT_MS = 30_000;

/** grammY types abort signals with its abort-controller shim; on Node it takes the built-in one. */
type ApiSignal = NonNullable<Parameters<Bot['init']>[0]>;
const apiSignal = (signal: AbortSignal) => signal as unknown as ApiSignal;

/** The bot, running: its identity checked (getMe), its command menu registered, then updates by long polling or webhook. */
export async function startTelegramBot(opts: StartBotOptions): Promise<RunningBot> {
  const { settings, logger } = opts;
  const predictions = new PredictionsClient(new GatewayClient(opts.transport));
  const { bot, inFlight } = createTelegramBot({
    token: settings.token,
    apiRoot: settings.apiRoot,
    logger,
    rateLimit: settings.rateLimit,
    timeZone: settings.timeZone,
    predictions,
    apiTransformers: opts.apiTransformers,
  });
  // a Telegram that does not answer must not hold up the start (npm start runs everything else)
  const starting = apiSignal(AbortSignal.timeout(START_TIMEOUT_MS));
  // getMe once (bot.init() would retry an unreachable Telegram until the deadline): the token checked, the bot's name known
  bot.botInfo = await bot.api.getMe(starting);
  try {
    await bot.api.setMyCommands(
      COMMANDS.map(({ command, description }) => ({ command, description })),
      undefined,
      starting,
    );
  } catch (err) {
    // the menu is a convenience: typed commands work without it
    logger.warn({ err }, 'could not register the command menu (setMyCommands)');
  }
  const mode: BotMode = settings.webhook ? 'webhook' : 'long polling';
  const stop = settings.webhook
    ? await startWebhook(bot, inFlight, settings, settings.webhook, logger, opts.http, starting)
    : await startPolling(bot, inFlight, logger, starting, opts.onFatal ?? ((err) => logger.error({ err }, 'Telegram long polling stopped; the bot is off')));
  // followers' notices: a prediction published, a reminder before kick-off (paced under Telegram's limits)
  const notifier = new FollowNotifier(predictions, bot.api, { ...settings.follows, timeZone: settings.timeZone, logger });
  notifier.start();
  logger.info({ username: bot.botInfo.username, mode }, 'Telegram bot running');
  let stopping: Promise<void> | undefined;
  return { username: bot.botInfo.username, mode, stop: () => (stopping ??= notifier.stop().then(stop)) };
}

/**
 * Long polling with grammY's runner (updates handled concurrently, one chat's in order). Telegram
 * forgets an update once a getUpdates call asks for a later offset, so a stop (1) ends polling,
 * (2) waits for every update in hand, then (3) confirms exactly those: none is lost, and none is
 * delivered again to the next start.
 */
async function startPolling(
  bot: Bot,
  inFlight: InFlightUpdates,
  logger: Logger,
  starting: ApiSignal,
  onFatal: (err: unknown) => void,
): Promise<() => Promise<void>> {
  // getUpdates fails (409) while a webhook is set; its pending updates stay queued for us
  await bot.api.deleteWebhook(undefined, starting);
  bot.api.config.use(paceEmptyPolls(logger));
  const runner = run(bot, { runner: { fetch: { allowed_updates: ALLOWED_UPDATES }, silent: true } });
  let stopping = false;
  void runner.task()?.catch((err: unknown) => {
    if (!stopping) onFatal(err);
  });
  return async () => {
    stopping = true;
    await runner.stop();
    await inFlight.idle();
    if (inFlight.lastUpdateId === undefined) return;
    try {
      await bot.api.getUpdates({ offset: inFlight.lastUpdateId + 1, limit: 1, timeout: 0 });
    } catch (err) {
      logger.warn({ err, lastUpdateId: inFlight.lastUpdateId }, 'could not confirm the last updates: Telegram may deliver them again');
    }
  };
}

/**
 * A long-polling getUpdates that returns empty at once (a Bot API server that does not hold the
 * request, such as an emulator) would make polling spin: an empty answer waits out the rest of
 * this interval. Real long polling answers empty only after its timeout, so it never waits here.
 */
const MIN_EMPTY_POLL_MS = 250;

function paceEmptyPolls(logger: Logger): Transformer {
  return async (prev, method, payload, signal) => {
    if (method !== 'getUpdates' || !(payload as { timeout?: number }).timeout) return prev(method, payload, signal);
    const started = Date.now();
    let result;
    try {
      result = await prev(method, payload, signal);
    } catch (err) {
      if (!signal?.aborted) logger.warn({ err }, 'getUpdates failed; polling retries');
      throw err;
    }
    const rest = MIN_EMPTY_POLL_MS - (Date.now() - started);
    if (result.ok && Array.isArray(result.result) && result.result.length === 0 && rest > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, rest);
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
    return result;
  };
}

/**
 * Webhook mode: Telegram POSTs each update to the URL's path with the secret in
 * X-Telegram-Bot-Api-Secret-Token (checked; 401 otherwise). A slow update is answered 200 after
 * 9 s and finishes in the background, since Telegram would deliver it again otherwise.
 */
async function startWebhook(
  bot: Bot,
  inFlight: InFlightUpdates,
  settings: TelegramSettings,
  webhook: { url: string; secret: string },
  logger: Logger,
  http: Express | undefined,
  starting: ApiSignal,
): Promise<() => Promise<void>> {
  const app = http ?? express();
  const failed: ErrorRequestHandler = (err, _req, res, _next) => {
    logger.error({ err }, 'webhook request failed');
    res.status(500).json({ error: 'internal error' });
  };
  app.post(
    new URL(webhook.url).pathname,
    express.json({ limit: '1mb' }),
    webhookCallback(bot, 'express', { secretToken: webhook.secret, onTimeout: 'return', timeoutMilliseconds: 9_000 }),
    failed,
  );
  const server = http ? undefined : await listen(app, settings.host, settings.port);
  await bot.api.setWebhook(webhook.url, { secret_token: webhook.secret, allowed_updates: ALLOWED_UPDATES }, starting);
  return async () => {
    await server?.close();
    await inFlight.idle();
  };
}
