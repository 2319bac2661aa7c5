import { Composer, type Context } from 'grammy';
import { matchCompetition, pairingReadings } from './parse';
import type { Competition, PredictionsClient, TeamName } from './predictions-client';
import {
  NEXTMATCH_USAGE,
  PREDICT_USAGE,
  competitionChoiceReply,
  escapeHtml,
  expiredButtonReply,
  nextMatchReply,
  noScheduledMatchReply,
  pairingForecastReply,
  teamQuestionReply,
  type Reply,
  type Side,
  type UnsettledTeam,
} from './replies';

/** The bot's commands: the menu (`setMyCommands`) and /help are both made from this list. */
export const COMMANDS = [
  { command: 'predict', args: '<home team> vs <away team>', description: 'Predicted outcome, probabilities and goal difference of a match' },
  { command: 'nextmatch', args: '[competition]', description: 'The next scheduled match and its prediction' },
  { command: 'follow', args: '<team>', description: "Be told when a team's next prediction is out, and reminded before kick-off" },
  { command: 'unfollow', args: '[team]', description: 'Stop following a team (all teams without one)' },
  { command: 'timezone', args: '<zone>', description: 'Show kick-off times in your time zone, e.g. Europe/Berlin' },
  { command: 'help', args: '', description: 'Every command with what it does' },
  { command: 'start', args: '', description: 'Greeting' },
] as const;

export interface CommandDeps {
  predictions: PredictionsClient;
  /** IANA zone of the kick-off times shown. */
  timeZone: string;
}

/** The gateway request id of an update: its log lines and the bot's share the update id. */
export const requestIdOf = (ctx: Context) => `telegram-${ctx.update.update_id}`;

export function helpReply(): Reply {
  const lines = COMMANDS.map((c) => `/${c.command}${c.args ? ` ${escapeHtml(c.args)}` : ''} — ${c.description}`);
  return {
    text: [
      ...lines,
      '',
      'Team names may be short, misspelt or without accents: “Man Utd”, “spurs”, “munchen”. Between them: vs, v, - or –.',
      'Competitions: en.1, en.2, de.1, es.1, it.1, fr.1, or a name such as “Premier League”.',
    ].join('\n'),
  };
}

export function startReply(firstName: string | undefined): Reply {
  const hello = firstName ? `Hello ${escapeHtml(firstName)}!` : 'Hello!';
  return {
    text: `${hello} I predict football matches in six European leagues: the likely outcome, its probability and the expected goal difference.\nSend /help to see the commands.`,
  };
}

/** A team as a command names it: what the user typed, or (from a button) its id. */
type TeamRef = { name: string } | { id: number };

/**
 * Button data (at most 64 bytes): `p:<home id>:<away>`, the away side an id or `=<name as typed>`.
 * A button always settles the home side first, so the home side is always an id.
 */
function pickData(home: number, away: TeamRef): string | undefined {
  const data = `p:${home}:${'id' in away ? away.id : `=${away.name}`}`;
  return Buffer.byteLength(data) <= 64 ? data : undefined;
}

export async function predictPairing(deps: CommandDeps, home: TeamRef, away: TeamRef, requestId: string): Promise<Reply> {
  const nameOf = (ref: TeamRef) => ('name' in ref ? ref.name : undefined);
  const resolved = await deps.predictions.resolveTeams({ home: nameOf(home), away: nameOf(away) }, requestId);
  const ids: Partial<Record<Side, number>> = {};
  const unsettled: UnsettledTeam[] = [];
  for (const [side, ref] of [
    ['home', home],
    ['away', away],
  ] as const) {
    if ('id' in ref) {
      ids[side] = ref.id;
      continue;
    }
    const r = resolved[side]!;
    if (r.status === 'FOUND' && r.team) ids[side] = r.team.id;
    else unsettled.push({ side, query: ref.name, ambiguous: r.status === 'AMBIGUOUS', candidates: r.candidates });
  }
  if (unsettled.length > 0) {
    const asking = unsettled[0].side;
    return teamQuestionReply(unsettled, (team: TeamName) =>
      asking === 'home' ? pickData(team.id, ids.away !== undefined ? { id: ids.away } : away) : pickData(ids.home!, { id: team.id }),
    );
  }
  const forecast = await deps.predictions.predictPairing(ids.home!, ids.away!, requestId);
  const competitions = await deps.predictions.competitions(requestId);
  const nameOfCompetition = (code: string | null) => competitions.find((c) => c.code === code)?.name ?? code ?? 'unknown competition';
  const label = forecast.crossLeague
    ? `Cross-league: ${nameOfCompetition(forecast.homeCompetition)} v ${nameOfCompetition(forecast.awayCompetition)}`
    : nameOfCompetition(forecast.competition);
  return pairingForecastReply(forecast, label, deps.timeZone);
}

/** Longer than any two team names and a separator: refused before any request is made. */
export const MAX_ARGUMENT_LENGTH = 120;

export const tooLongReply = (): Reply => ({
  text: `That is longer than I can read (${MAX_ARGUMENT_LENGTH} characters at most). Please send just the team names, e.g. /predict Arsenal vs Chelsea.`,
});

export async function predictCommand(deps: CommandDeps, args: string, requestId: string): Promise<Reply> {
  if (args.length > MAX_ARGUMENT_LENGTH) return tooLongReply();
  const readings = pairingReadings(args);
  if (readings.length === 0) return { text: PREDICT_USAGE };
  if (readings.length > 1) {
    // "Arsenal-Chelsea": the reading whose two names are both teams
    for (const r of readings) {
      const resolved = await deps.predictions.resolveTeams(r, requestId);
      if (resolved.home?.status === 'FOUND' && resolved.away?.status === 'FOUND') {
        return predictPairing(deps, { id: resolved.home.team!.id }, { id: resolved.away.team!.id }, requestId);
      }
    }
  }
  return predictPairing(deps, { name: readings[0].home }, { name: readings[0].away }, requestId);
}

async function nextMatchIn(deps: CommandDeps, competition: Competition | undefined, requestId: string): Promise<Reply> {
  const { match, leagues } = await deps.predictions.nextMatch(competition?.code, requestId);
  return match
    ? nextMatchReply(match, deps.timeZone)
    : noScheduledMatchReply(competition, competition ? leagues.filter((l) => l.code === competition.code) : leagues);
}

export async function nextMatchCommand(deps: CommandDeps, args: string, requestId: string): Promise<Reply> {
  if (args.length > MAX_ARGUMENT_LENGTH) return tooLongReply();
  const query = args.trim();
  if (!query) return nextMatchIn(deps, undefined, requestId);
  const competitions = await deps.predictions.competitions(requestId);
  const found = matchCompetition(query, competitions);
  if (found.kind === 'found') return nextMatchIn(deps, found.competition, requestId);
  const reply = competitionChoiceReply(query, found.kind === 'ambiguous' ? found.candidates : competitions, found.kind === 'ambiguous');
  return found.kind === 'ambiguous' ? reply : { ...reply, text: `${reply.text}\n${NEXTMATCH_USAGE}` };
}

/** The subscriber a command acts for: the Telegram user (follows and time zone are a person's, in any chat). */
export const subscriberOf = (ctx: Context) => (ctx.from ? `telegram:${ctx.from.id}` : undefined);

const teamList = (teams: { name: string }[]) => (teams.length ? teams.map((t) => escapeHtml(t.name)).join(', ') : 'no team');

export async function followCommand(deps: CommandDeps, subscriber: string, args: string, requestId: string): Promise<Reply> {
  if (args.length > MAX_ARGUMENT_LENGTH) return tooLongReply();
  const team = args.trim();
  if (!team) return { text: 'Usage: /follow &lt;team&gt;, e.g. /follow Arsenal' };
  const teams = await deps.predictions.follow(subscriber, team, requestId);
  return {
    text: `Following: ${teamList(teams)}.\nI'll tell you when a followed team's next prediction is out, and remind you before kick-off (in private chat; send /start there once).`,
  };
}

export async function unfollowCommand(deps: CommandDeps, subscriber: string, args: string, requestId: string): Promise<Reply> {
  if (args.length > MAX_ARGUMENT_LENGTH) return tooLongReply();
  const teams = await deps.predictions.unfollow(subscriber, args.trim() || null, requestId);
  return { text: teams.length ? `Still following: ${teamList(teams)}.` : 'You follow no team now.' };
}

export async function timeZoneCommand(deps: CommandDeps, subscriber: string, args: string, requestId: string): Promise<Reply> {
  if (args.length > MAX_ARGUMENT_LENGTH) return tooLongReply();
  const zone = args.trim();
  if (!zone) return { text: 'Usage: /timezone &lt;zone&gt;, e.g. /timezone Europe/Berlin or /timezone America/New_York' };
  const set = await deps.predictions.setTimeZone(subscriber, zone, requestId);
  return { text: `Kick-off times are now shown in ${escapeHtml(set)}.` };
}

/** The user's own time zone, else the bot's. */
const zoneOf = async (deps: CommandDeps, subscriber: string | undefined, requestId: string) =>
  (subscriber && (await deps.predictions.timeZoneOf(subscriber, requestId))) || deps.timeZone;

/** What a button press asks for; undefined for data this bot never sent (or no longer understands). */
export async function buttonReply(deps: CommandDeps, data: string, requestId: string): Promise<Reply | undefined> {
  const pick = /^p:(\d+):(?:(\d+)|=(.+))$/s.exec(data);
  if (pick) {
    const away: TeamRef = pick[2] !== undefined ? { id: Number(pick[2]) } : { name: pick[3] };
    return predictPairing(deps, { id: Number(pick[1]) }, away, requestId);
  }
  const next = /^n:(.+)$/.exec(data);
  if (next) {
    const competition = (await deps.predictions.competitions(requestId)).find((c) => c.code === next[1]);
    return competition ? nextMatchIn(deps, competition, requestId) : undefined;
  }
  return undefined;
}

const HTML = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };

export const sendReply = (ctx: Context, reply: Reply) => ctx.reply(reply.text, { ...HTML, reply_markup: reply.keyboard });

/** The commands, the buttons and a hint for anything else said to the bot in a private chat. */
export function commandHandlers(deps: CommandDeps): Composer<Context> {
  const commands = new Composer<Context>();
  commands.command('start', (ctx) => sendReply(ctx, startReply(ctx.from?.first_name)));
  commands.command('help', (ctx) => sendReply(ctx, helpReply()));
  // the user's own time zone for the kick-off times of these answers
  const withZone = async (ctx: Context) => ({ ...deps, timeZone: await zoneOf(deps, subscriberOf(ctx), requestIdOf(ctx)) });
  commands.command('predict', async (ctx) => sendReply(ctx, await predictCommand(await withZone(ctx), ctx.match, requestIdOf(ctx))));
  commands.command('nextmatch', async (ctx) => sendReply(ctx, await nextMatchCommand(await withZone(ctx), ctx.match, requestIdOf(ctx))));
  commands.command('follow', async (ctx) => sendReply(ctx, await followCommand(deps, subscriberOf(ctx)!, ctx.match, requestIdOf(ctx))));
  commands.command('unfollow', async (ctx) => sendReply(ctx, await unfollowCommand(deps, subscriberOf(ctx)!, ctx.match, requestIdOf(ctx))));
  commands.command('timezone', async (ctx) => sendReply(ctx, await timeZoneCommand(deps, subscriberOf(ctx)!, ctx.match, requestIdOf(ctx))));
  commands.on('callback_query:data', async (ctx) => {
    // stops the button's spinner at once; the answer replaces the question
    await ctx.answerCallbackQuery();
    const reply = (await buttonReply(deps, ctx.callbackQuery.data, requestIdOf(ctx))) ?? expiredButtonReply;
    await ctx.editMessageText(reply.text, { ...HTML, reply_markup: reply.keyboard });
  });
  commands.chatType('private').on('message:text', async (ctx) => {
    const command = /^\/(\S+)/.exec(ctx.message.text)?.[1];
    const text = command ? `I don't know /${escapeHtml(command)}. Send /help for the commands.` : 'Send /help to see what I can do.';
    await sendReply(ctx, { text });
  });
  return commands;
}
