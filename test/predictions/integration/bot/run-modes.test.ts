/**
 * How the bot runs: long polling (grammY runner) with a stop that loses no update and handles none
 * twice, webhook mode with its secret-token check, the command menu registered at start.
 * Telegram is a FakeTelegram keeping the Bot API's offset rules; the gateway is real.
 */
import { COMMANDS } from '../../../../bot/commands';
import { inProcessTransport } from '../../../../bot/gateway-client';
import { startTelegramBot, type TelegramSettings } from '../../../../bot/runtime';
import { freePorts } from '../../../../lib/server';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { surface } from '../../../support/platform/http';
import { FakeTelegram, TEST_TOKEN, capturingLogger, lostRequest, messageUpdate, until } from '../../../support/predictions/telegram';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('enterprise');
}, 120_000);
afterAll(() => t?.stop());

const settings = (extra: Partial<TelegramSettings> = {}): TelegramSettings => ({
  token: TEST_TOKEN,
  host: '127.0.0.1',
  port: 0,
  rateLimit: { limit: 1000, windowSeconds: 60 },
  timeZone: 'UTC',
  follows: { reminderMinutes: 60, intervalSeconds: 60 },
  ...extra,
});

function start(telegram: FakeTelegram, extra: Partial<TelegramSettings> = {}, onFatal?: (err: unknown) => void) {
  const { logger } = capturingLogger();
  return startTelegramBot({
    settings: settings(extra),
    logger,
    transport: inProcessTransport(t.app.gateway, key),
    apiTransformers: [telegram.transformer],
    onFatal,
  });
}

describe('long polling', () => {
  it('checks the token, registers the command menu, leaves webhook mode and answers what it polls', async () => {
    const telegram = new FakeTelegram();
    const bot = await start(telegram);
    expect(bot).toMatchObject({ username: 'matchday_test_bot', mode: 'long polling' });
    expect(telegram.calls.slice(0, 3).map((c) => c.method)).toEqual(['getMe', 'setMyCommands', 'deleteWebhook']);
    expect(telegram.callsOf('setMyCommands')[0].payload.commands).toEqual(COMMANDS.map(({ command, description }) => ({ command, description })));
    telegram.push(messageUpdate('/predict Man Utd vs spurs'));
    await until(() => telegram.texts().length === 1, 'the answer');
    expect(telegram.texts()[0].split('\n')[0]).toBe('<b>Manchester United FC</b> vs <b>Tottenham Hotspur FC</b>');
    await bot.stop();
  });

  it('stops without losing an update or handling one twice: the updates in hand finish, then exactly those are confirmed', async () => {
    const telegram = new FakeTelegram();
    const first = await start(telegram);
    await until(() => telegram.callsOf('getUpdates').length === 1, 'the first poll');
    // the poll after the batch never reaches Telegram: only the stop can confirm the batch
    telegram.answerNext('getUpdates', lostRequest);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    telegram.answerNext('sendMessage', async (normal) => {
      await gate;
      return normal();
    });
    const inHand = [messageUpdate('/predict Man Utd vs spurs'), messageUpdate('/help'), messageUpdate('/nextmatch')];
    telegram.push(...inHand);
    // the first reply is on its way (held back), the other two wait behind it (same chat, in order)
    await until(() => telegram.callsOf('sendMessage').length === 1, 'the first reply');
    const stopping = first.stop();
    const late = messageUpdate('/start');
    telegram.push(late);
    release();
    await stopping;
    const replies = telegram.texts();
    expect(replies).toHaveLength(3);
    expect(replies[0]).toMatch(/^<b>Manchester United FC<\/b> vs/);
    expect(replies[1]).toMatch(/^\/predict/);
    expect(replies[2]).toMatch(/^Next match in /);
    expect(telegram.confirmedOffset).toBe(inHand[2].update_id + 1);

    // the next start gets the update that came during the stop, and only that one
    const second = await start(telegram);
    await until(() => telegram.texts().length === 4, 'the answer to the late update');
    await second.stop();
    expect(telegram.texts().slice(3)).toEqual([expect.stringMatching(/^Hello Ann!/)]);
    expect(telegram.confirmedOffset).toBe(late.update_id + 1);
  });

  it('reports the end of polling when Telegram refuses the token', async () => {
    const telegram = new FakeTelegram();
    telegram.answerNext('getUpdates', () => ({ ok: false, error_code: 401, description: 'Unauthorized' }));
    let fatal: unknown;
    const bot = await start(telegram, {}, (err) => (fatal = err));
    await until(() => fatal !== undefined, 'the fatal error');
    expect(fatal).toMatchObject({ error_code: 401 });
    await bot.stop();
  });

  it('gives up starting at once when Telegram is unreachable (npm start then runs on without the bot)', async () => {
    const [closed] = await freePorts(1);
    const { logger } = capturingLogger();
    const starting = startTelegramBot({
      settings: settings({ apiRoot: `http://127.0.0.1:${closed}` }),
      logger,
      transport: inProcessTransport(t.app.gateway, key),
    });
    await expect(starting).rejects.toThrow(/getMe/);
  });

  it('does not start when Telegram refuses the token at start-up', async () => {
    const telegram = new FakeTelegram();
    telegram.answerNext('getMe', () => ({ ok: false, error_code: 401, description: 'Unauthorized' }));
    await expect(start(telegram)).rejects.toThrow(/401/);
  });
});

describe('webhook mode', () => {
  it('registers the webhook with its secret, answers POSTs that carry the secret and refuses others', async () => {
    const [port] = await freePorts(1);
    const secret = 'webhook-secret-0123456789';
    const url = `http://127.0.0.1:${port}/telegram/hook`;
    const telegram = new FakeTelegram();
    const bot = await start(telegram, { port, webhook: { url, secret } });
    expect(bot.mode).toBe('webhook');
    expect(telegram.callsOf('setWebhook')[0].payload).toEqual({ url, secret_token: secret, allowed_updates: ['message', 'callback_query'] });
    expect(telegram.callsOf('deleteWebhook')).toEqual([]);

    // Telegram delivering an update to the hook, with the secret header it was given (or not)
    const hook = surface(() => url);
    const deliverHelp = (headers: Record<string, string>) => hook.post('', null, messageUpdate('/help'), headers);
    expect((await deliverHelp({})).status).toBe(401);
    expect((await deliverHelp({ 'x-telegram-bot-api-secret-token': 'wrong-secret-0123456789' })).status).toBe(401);
    expect(telegram.texts()).toEqual([]);
    expect((await deliverHelp({ 'x-telegram-bot-api-secret-token': secret })).status).toBe(200);
    expect(telegram.texts()).toEqual([expect.stringMatching(/^\/predict/)]);

    await bot.stop();
    await expect(deliverHelp({ 'x-telegram-bot-api-secret-token': secret })).rejects.toThrow();
  });
});
