import type { Update } from 'grammy/types';
import { createTelegramBot } from '../../../bot/bot';
import { GatewayClient, inProcessTransport, type GraphQLTransport } from '../../../bot/gateway-client';
import { PredictionsClient } from '../../../bot/predictions-client';
import type { TestApp } from '../platform/app';
import { BOT_INFO, FakeTelegram, TEST_TOKEN, buttonUpdate, capturingLogger, messageUpdate, type ApiCall } from './telegram';

export interface BotUnderTest {
  telegram: FakeTelegram;
  logs: () => Record<string, any>[];
  /** A user sends `text`; resolves with the Bot API calls the bot made for it. */
  say(text: string, opts?: Parameters<typeof messageUpdate>[1]): Promise<ApiCall[]>;
  /** A user presses a button carrying `data`. */
  press(data: string, opts?: Parameters<typeof buttonUpdate>[1]): Promise<ApiCall[]>;
  handle(update: Update): Promise<ApiCall[]>;
}

/**
 * The bot as `npm start` builds it, fed updates with `bot.handleUpdate`: its GraphQL goes to the
 * test app's real gateway (in-process, with `apiKey`), its Bot API calls to a FakeTelegram.
 */
export function botUnderTest(
  t: TestApp,
  apiKey: string,
  opts: { transport?: GraphQLTransport; rateLimit?: { limit: number; windowSeconds: number } } = {},
): BotUnderTest {
  const telegram = new FakeTelegram();
  const { logger, lines } = capturingLogger();
  const { bot } = createTelegramBot({
    token: TEST_TOKEN,
    botInfo: BOT_INFO,
    logger,
    predictions: new PredictionsClient(new GatewayClient(opts.transport ?? inProcessTransport(t.app.gateway, apiKey))),
    timeZone: 'UTC',
    rateLimit: opts.rateLimit ?? { limit: 1000, windowSeconds: 60 },
    apiTransformers: [telegram.transformer],
  });
  const handle = async (update: Update) => {
    const before = telegram.calls.length;
    await bot.handleUpdate(update);
    return telegram.calls.slice(before);
  };
  return {
    telegram,
    logs: lines,
    handle,
    say: (text, o) => handle(messageUpdate(text, o)),
    press: (data, o) => handle(buttonUpdate(data, o)),
  };
}

/** The one message a command answered with. */
export function onlyMessage(calls: ApiCall[]): ApiCall {
  const sent = calls.filter((c) => c.method === 'sendMessage' || c.method === 'editMessageText');
  if (sent.length !== 1) throw new Error(`expected one message, got ${sent.length}: ${JSON.stringify(calls, null, 1)}`);
  return sent[0];
}

/** A GraphQL operation straight to the test app's gateway, as an administrator: what the bot's answers are checked against. */
export async function gql<T = any>(t: TestApp, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const { body } = await t.app.gateway.execute({ query, variables }, { headers: { authorization: `Bearer ${t.adminKey}` } }, 'bot-test');
  if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}
