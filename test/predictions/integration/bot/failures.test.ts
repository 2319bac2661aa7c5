/**
 * What goes wrong, and that the bot keeps running: its quota used up, the gateway down (in-process
 * and over HTTP), its key refused, Telegram's flood limit (429, retried by auto-retry), any other
 * failure (an apology, logged with the update id), and users who flood the bot.
 */
import { httpTransport } from '../../../../bot/gateway-client';
import { freePorts } from '../../../../lib/server';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { botUnderTest, onlyMessage } from '../../../support/predictions/bot';
import { messageUpdate } from '../../../support/predictions/telegram';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(() => t?.stop());

const text = (calls: Awaited<ReturnType<ReturnType<typeof botUnderTest>['say']>>) => onlyMessage(calls).payload.text as string;

it('answers over HTTP too (the docker-compose topology): the same conversation through the gateway’s /graphql', async () => {
  const bot = botUnderTest(t, '', { transport: httpTransport(`${t.urls.gateway}/graphql`, await t.createKey('enterprise')) });
  expect(text(await bot.say('/predict Man Utd vs spurs')).split('\n')[0]).toBe('<b>Manchester United FC</b> vs <b>Tottenham Hotspur FC</b>');
  expect(text(await bot.say('/nextmatch de.1'))).toMatch(/^Next match in Bundesliga:/);
});

it('says the daily quota is used up when its key (a Free one here) has none left, and keeps answering what needs no quota', async () => {
  const key = await t.createKey('free');
  for (let i = 0; i < 50; i++) {
    const { status } = await t.app.gateway.execute({ query: '{ competitions { code } }' }, { headers: { authorization: `Bearer ${key}` } }, `use-${i}`);
    expect(status).toBe(200);
  }
  const bot = botUnderTest(t, key);
  expect(text(await bot.say('/predict Arsenal vs Chelsea'))).toBe(
    "I've used up today's requests to the prediction API. They reset at 00:00 UTC: please try again then.",
  );
  expect(text(await bot.say('/nextmatch'))).toContain('used up');
  expect(
    bot
      .logs()
      .filter((l) => l.msg === 'update failed')
      .map((l) => l.level),
  ).toEqual([40, 40]);
  expect(text(await bot.say('/help'))).toContain('/predict');
});

it('says the prediction service is unreachable when the gateway over HTTP refuses connections, and carries on', async () => {
  const [closed] = await freePorts(1);
  const bot = botUnderTest(t, '', { transport: httpTransport(`http://127.0.0.1:${closed}/graphql`, 'mpk_whatever_key_0123456789') });
  expect(text(await bot.say('/predict Arsenal vs Chelsea'))).toBe('The prediction service is not reachable right now. Please try again in a minute.');
  expect(text(await bot.say('/nextmatch en.1'))).toBe('The prediction service is not reachable right now. Please try again in a minute.');
  expect(text(await bot.say('/start'))).toContain('Hello');
});

it('apologises when its key is refused, and logs it as an error with the update id', async () => {
  const bot = botUnderTest(t, 'mpk_not_a_key_of_this_system_0000');
  const update = messageUpdate('/predict Arsenal vs Chelsea');
  expect(text(await bot.handle(update))).toBe("Sorry, I can't get predictions right now: the prediction API refused my key. The operator has been told.");
  const logged = bot.logs().find((l) => l.msg === 'update failed');
  expect(logged).toMatchObject({ level: 50, updateId: update.update_id, err: { type: 'GatewayError' } });
});

it('retries a reply Telegram refused with 429 (auto-retry), so the user gets it once and no apology', async () => {
  const bot = botUnderTest(t, await t.createKey('enterprise'));
  bot.telegram.answerNext('sendMessage', () => ({
    ok: false,
    error_code: 429,
    description: 'Too Many Requests: retry after 1',
    parameters: { retry_after: 1 },
  }));
  const calls = await bot.say('/help');
  expect(calls.map((c) => c.method)).toEqual(['sendMessage', 'sendMessage']);
  expect(calls[0].payload).toEqual(calls[1].payload);
  expect(bot.logs().filter((l) => l.level >= 40)).toEqual([]);
});

it('apologises for any other failure, logs it with the update id, and answers the next update as usual', async () => {
  const bot = botUnderTest(t, await t.createKey('enterprise'));
  bot.telegram.answerNext('sendMessage', () => ({ ok: false, error_code: 400, description: "Bad Request: can't parse entities" }));
  const update = messageUpdate('/nextmatch');
  const calls = await bot.handle(update);
  expect(calls.map((c) => c.method)).toEqual(['sendMessage', 'sendMessage']);
  expect(calls[1].payload.text).toBe('Sorry, something went wrong while answering that. Please try again.');
  expect(bot.logs().find((l) => l.msg === 'update failed')).toMatchObject({ level: 50, updateId: update.update_id, err: { type: 'GrammyError' } });
  expect(text(await bot.say('/nextmatch'))).toMatch(/^Next match in /);
});

it('limits each user to BOT_RATE_LIMIT updates per window: one notice, then silence; other users are not held up', async () => {
  const bot = botUnderTest(t, await t.createKey('enterprise'), { rateLimit: { limit: 2, windowSeconds: 60 } });
  const replies = [];
  for (let i = 0; i < 4; i++) replies.push((await bot.say('/help', { userId: 7 })).map((c) => c.payload.text as string));
  expect(replies.map((r) => r.length)).toEqual([1, 1, 1, 0]);
  expect(replies[2]).toEqual(['You are sending commands faster than I can answer. Please wait a few seconds.']);
  expect(text(await bot.say('/help', { userId: 8 }))).toContain('/predict');
  // a button press over the limit is answered on the button itself
  const press = await bot.press('n:en.1', { userId: 8 });
  expect(press.map((c) => c.method)).toEqual(['answerCallbackQuery', 'editMessageText']);
  await bot.say('/help', { userId: 9 });
  await bot.say('/help', { userId: 9 });
  const limited = await bot.press('n:en.1', { userId: 9 });
  expect(limited.map((c) => [c.method, c.payload.text])).toEqual([
    ['answerCallbackQuery', 'You are sending commands faster than I can answer. Please wait a few seconds.'],
  ]);
});

it('says the prediction service is unreachable when the in-process gateway has stopped', async () => {
  // last: this stops the test app's gateway
  const bot = botUnderTest(t, await t.createKey('enterprise'));
  await t.app.gateway.stop();
  expect(text(await bot.say('/predict Arsenal vs Chelsea'))).toBe('The prediction service is not reachable right now. Please try again in a minute.');
  expect(bot.logs().find((l) => l.msg === 'update failed')).toMatchObject({ level: 40, err: { type: 'GatewayError' } });
  expect(text(await bot.say('/help'))).toContain('/predict');
});
