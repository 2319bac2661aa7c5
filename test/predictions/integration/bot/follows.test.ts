/**
 * /follow, /unfollow and /timezone through the real gateway (`bot.handleUpdate`), and the notices:
 * a followed team's next prediction once published, a reminder before its kick-off, each sent once,
 * in the follower's time zone.
 */
import { FollowNotifier } from '../../../../bot/follow-notifier';
import { GatewayClient, inProcessTransport } from '../../../../bot/gateway-client';
import { PredictionsClient } from '../../../../bot/predictions-client';
import { formatKickoff } from '../../../../bot/replies';
import { createLogger } from '../../../../lib/logger';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { botUnderTest, gql, onlyMessage, type BotUnderTest } from '../../../support/predictions/bot';

let t: TestApp;
let key: string;
let bot: BotUnderTest;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('enterprise');
  bot = botUnderTest(t, key);
}, 120_000);
afterAll(() => t?.stop());

const reply = async (text: string) => onlyMessage(await bot.say(text)).payload.text as string;

it('/follow a team, /timezone, and the notices: published, then a reminder, each once, in the follower’s zone', async () => {
  expect(await reply('/follow arsenal')).toMatch(/^Following: Arsenal FC\./);
  expect(await reply('/follow spurs')).toMatch(/^Following: Arsenal FC, Tottenham Hotspur FC\./);
  expect(await reply('/timezone Europe/Berlin')).toBe('Kick-off times are now shown in Europe/Berlin.');
  expect(await reply('/timezone Mars/Olympus_Mons')).toMatch(/is not a time zone I know/);

  const sent: { chat: number; text: string }[] = [];
  const api = { sendMessage: async (chat: number | string, text: string) => void sent.push({ chat: Number(chat), text }) } as never;
  const predictions = new PredictionsClient(new GatewayClient(inProcessTransport(t.app.gateway, key)));
  // a week's lead: the followed teams' next fixtures are both published and near
  const notifier = new FollowNotifier(predictions, api, { reminderMinutes: 7 * 24 * 60, intervalSeconds: 60, timeZone: 'UTC', logger: createLogger('silent') });
  expect(await notifier.runOnce()).toBe(4);
  const { matches } = await gql(
    t,
    '{ matches(filter: { team: "Arsenal FC", status: SCHEDULED }, first: 1) { nodes { kickoff homeTeam { name } awayTeam { name } } } }',
  );
  const [next] = matches.nodes;
  const arsenal = sent.filter((s) => s.text.includes(`<b>${next.homeTeam.name}</b> vs <b>${next.awayTeam.name}</b>`));
  expect(arsenal.map((s) => s.text.split('\n')[0])).toEqual(['📣 New prediction for a team you follow:', expect.stringMatching(/^⏰ Kick-off soon: /)]);
  expect(arsenal[0].text).toContain(`Kick-off ${formatKickoff(new Date(next.kickoff), 'Europe/Berlin')}`);
  expect(sent.every((s) => s.chat === 42)).toBe(true);
  // recorded: nothing twice
  expect(await notifier.runOnce()).toBe(0);

  expect(await reply('/unfollow spurs')).toBe('Still following: Arsenal FC.');
  expect(await reply('/unfollow')).toBe('You follow no team now.');
});

it("another key's subscribers are not this key's", async () => {
  const other = botUnderTest(t, await t.createKey('enterprise'));
  expect(onlyMessage(await other.say('/unfollow')).payload.text).toBe('You follow no team now.');
  expect(await reply('/follow Chelsea')).toMatch(/^Following: Chelsea FC\./);
});
