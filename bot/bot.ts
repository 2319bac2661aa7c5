import { autoRetry } from '@grammyjs/auto-retry';
import { limit } from '@grammyjs/ratelimiter';
import { sequentialize } from '@grammyjs/runner';
import { Bot, BotError, type Context, type Middleware, type Transformer } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Logger } from '../lib/logger';
import { commandHandlers, sendReply, type CommandDeps } from './commands';
import { GatewayError } from './gateway-client';
import { escapeHtml, type Reply } from './replies';

export interface TelegramBotOptions extends CommandDeps {
  token: string;
  /** A self-hosted Bot API server; default Telegram's. */
  apiRoot?: string;
  logger: Logger;
  /** Per Telegram user: at most `limit` updates in each window. */
  rateLimit: { limit: number; windowSeconds: number };
  /**
   * Installed first, closest to the network (inside auto-retry): the tests answer the Bot API
   * calls here instead of Telegram.
   */
  apiTransformers?: Transformer[];
  /** Known bot identity: no getMe call (tests). */
  botInfo?: UserFromGetMe;
}

/**
 * The updates being handled: a stop waits for them, and long polling confirms to Telegram exactly
 * those it has handled (see runtime.ts). Installed first, so it sees every update the bot is given.
 */
export class InFlightUpdates {
  private readonly pending = new Set<Promise<void>>();
  /** The highest update id handed to the bot by this process. */
  lastUpdateId: number | undefined;

  readonly middleware: Middleware<Context> = (ctx, next) => {
    this.lastUpdateId = Math.max(this.lastUpdateId ?? ctx.update.update_id, ctx.update.update_id);
    const handling = next();
    this.pending.add(handling);
    const done = () => void this.pending.delete(handling);
    handling.then(done, done);
    return handling;
  };

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

/** What a failed update tells the user: short and friendly, never a stack. */
export function failureReply(error: unknown): Reply & { level: 'info' | 'warn' | 'error' } {
  if (error instanceof GatewayError) {
    switch (error.failure) {
      case 'quota':
        return { level: 'warn', text: "I've used up today's requests to the prediction API. They reset at 00:00 UTC: please try again then." };
      case 'unavailable':
        return { level: 'warn', text: 'The prediction service is not reachable right now. Please try again in a minute.' };
      case 'model_not_ready':
        return { level: 'info', text: 'The prediction model is still being trained. Please try again in a minute.' };
      case 'bad_input':
        return { level: 'info', text: escapeHtml(error.message) };
      case 'credentials':
        return { level: 'error', text: "Sorry, I can't get predictions right now: the prediction API refused my key. The operator has been told." };
      case 'internal':
        break;
    }
  }
  return { level: 'error', text: 'Sorry, something went wrong while answering that. Please try again.' };
}

/**
 * Telegram's flood limits (429) and its 5xx: retried by auto-retry, a few times, never waiting for
 * long. Network errors are not (auto-retry would retry them without end, and a stop waits for the
 * updates in hand): that update fails and is logged; polling retries its own getUpdates.
 */
const AUTO_RETRY = { maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowHttpErrors: true };

/** Bot API requests give up after this (grammY's default is 500 s); long polls ask for 30 s. */
const REQUEST_TIMEOUT_SECONDS = 60;

/**
 * The bot: in-flight tracking, one chat's updates in order, a per-user rate limit, an error
 * boundary (a failure is logged with its update id and answered with a short apology; the bot
 * carries on), then the commands.
 */
export function createTelegramBot(opts: TelegramBotOptions): { bot: Bot; inFlight: InFlightUpdates } {
  const bot = new Bot(opts.token, {
    botInfo: opts.botInfo,
    client: { timeoutSeconds: REQUEST_TIMEOUT_SECONDS, ...(opts.apiRoot ? { apiRoot: opts.apiRoot } : {}) },
  });
  for (const transformer of opts.apiTransformers ?? []) bot.api.config.use(transformer);
  bot.api.config.use(autoRetry(AUTO_RETRY));
  const inFlight = new InFlightUpdates();
  const { logger } = opts;

  bot.use(inFlight.middleware);
  bot.use(sequentialize((ctx: Context) => ctx.chat?.id.toString()));
  bot.errorBoundary(
    async (err) => {
      const { ctx } = err;
      const reply = failureReply(err.error);
      logger[reply.level]({ err: err.error, updateId: ctx.update.update_id }, 'update failed');
      try {
        if (ctx.chat) await sendReply(ctx, reply);
      } catch (replyError) {
        logger.error({ err: replyError, updateId: ctx.update.update_id }, 'could not send the apology');
      }
    },
    limit<Context, never>({
      timeFrame: opts.rateLimit.windowSeconds * 1000,
      limit: opts.rateLimit.limit,
      keyGenerator: (ctx) => ctx.from?.id.toString(),
      // once per window: answering every extra message would feed the flood. The limiter returns
      // what this returns, so the update is done only when the notice is sent.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      onLimitExceeded: (ctx) => {
        const text = 'You are sending commands faster than I can answer. Please wait a few seconds.';
        return (ctx.callbackQuery ? ctx.answerCallbackQuery({ text }) : ctx.reply(text)).then(
          () => undefined,
          (err: unknown) => logger.warn({ err, updateId: ctx.update.update_id }, 'could not send the rate-limit notice'),
        );
      },
    }),
    commandHandlers(opts),
  );
  // the last resort (long polling): grammY's default handler would stop the bot
  bot.catch((err: BotError) => logger.error({ err: err.error, updateId: err.ctx.update.update_id }, 'update failed outside the error boundary'));
  return { bot, inFlight };
}
