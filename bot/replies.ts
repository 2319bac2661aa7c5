import { InlineKeyboard } from 'grammy';
import type { Competition, Forecast, LeagueFreshness, PairingForecast, TeamName, UpcomingMatch } from './predictions-client';

/**
 * The bot's messages. Telegram HTML (parse_mode "HTML"): only `&`, `<` and `>` need escaping, so
 * names with dots, apostrophes or ampersands ("1. FC Köln", "Nott'm Forest", "Brighton & Hove")
 * arrive as typed.
 */

export interface Reply {
  text: string;
  keyboard?: InlineKeyboard;
}

/** Buttons as [label, callback data], one per row (names are long). */
const oneButtonPerRow = (buttons: [string, string][]) => InlineKeyboard.from(buttons.map(([label, data]) => [InlineKeyboard.text(label, data)]));

export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

const bold = (text: string) => `<b>${escapeHtml(text)}</b>`;
const quoted = (text: string) => `“${escapeHtml(text)}”`;
const percent = (p: number) => `${Math.round(p * 100)}%`;
const signed = (x: number) => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(2)}`;

/** One formatter per time zone: building one costs more than formatting with it. */
const kickoffFormats = new Map<string, Intl.DateTimeFormat>();

export function formatKickoff(at: Date, timeZone: string): string {
  let format = kickoffFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    kickoffFormats.set(timeZone, format);
  }
  return format.format(at);
}

function forecastLines(f: Forecast): string[] {
  return [
    `Prediction: ${bold(f.outcomeLabel)}`,
    `Home win ${percent(f.probabilities.home)} · Draw ${percent(f.probabilities.draw)} · Away win ${percent(f.probabilities.away)}`,
    `Expected goal difference: ${signed(f.expectedGoalDifference)} (home minus away)`,
    `Confidence: ${percent(f.confidence)} (${f.confidenceBand.toLowerCase()})`,
    `<i>Model version ${f.versionNumber}</i>`,
  ];
}

/** "3 seasons", "14 months": how old a rating is. */
function ageText(days: number): string {
  const years = Math.floor(days / 365);
  return years >= 2 ? `${years} years` : `${Math.floor(days / 30.4)} months`;
}

export function pairingForecastReply(p: PairingForecast, label: string, timeZone: string): Reply {
  const when = p.kickoff ? `kick-off ${formatKickoff(p.kickoff, timeZone)}` : 'not scheduled: the forecast is for a match played today';
  const warnings = p.staleRatings.map(
    (s) => `⚠️ ${escapeHtml(s.teamName)}: no match in the data since ${s.lastPlayed} (${ageText(s.ageDays)} ago); its rating is that old.`,
  );
  return {
    text: [`${bold(p.homeTeam.name)} vs ${bold(p.awayTeam.name)}`, `${escapeHtml(label)} · ${when}`, ...warnings, '', ...forecastLines(p)].join('\n'),
  };
}

export function nextMatchReply(m: UpcomingMatch, timeZone: string): Reply {
  const lines = [
    `Next match in ${escapeHtml(m.competition.name)}:`,
    `${bold(m.homeTeam.name)} vs ${bold(m.awayTeam.name)}`,
    `Kick-off ${formatKickoff(m.kickoff, timeZone)}`,
    '',
  ];
  lines.push(...(m.prediction ? forecastLines(m.prediction) : ['No prediction yet: the model is still being trained. Try again in a minute.']));
  return { text: lines.join('\n') };
}

/** No fixture known: say so, and when each league's data last changed (off-season, or the data feed is behind). */
export function noScheduledMatchReply(competition: Competition | undefined, leagues: readonly LeagueFreshness[]): Reply {
  const head = competition ? `There is no upcoming match in ${escapeHtml(competition.name)} that I know of.` : 'There is no upcoming match that I know of.';
  const lines = leagues.map(
    (l) =>
      `${escapeHtml(l.name)}: ${l.updatedAt ? `data updated ${l.updatedAt.slice(0, 10)}` : 'shipped data, never updated'}, newest result ${l.latestResultDate ?? 'none'}`,
  );
  return { text: lines.length ? `${head}\nThe data was last updated:\n${lines.join('\n')}` : head };
}

export function competitionChoiceReply(query: string, candidates: readonly Competition[], known: boolean): Reply {
  const keyboard = oneButtonPerRow(candidates.map((c) => [`${c.name} (${c.code})`, `n:${c.code}`]));
  const question = known ? `${quoted(query)} could be several competitions. Which one?` : `I don't know the competition ${quoted(query)}. Choose one:`;
  return { text: question, keyboard };
}

export type Side = 'home' | 'away';

/** A team name the gateway could not settle, with what it offers instead. */
export interface UnsettledTeam {
  side: Side;
  query: string;
  ambiguous: boolean;
  candidates: TeamName[];
}

/** "A", "A or B", "A, B or C" */
const orList = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`);

/** What is wrong with one side; with `listCandidates`, the candidates are named in the text (no buttons). */
function unsettledLine(t: UnsettledTeam, listCandidates: boolean): string {
  const names = t.candidates.map((c) => escapeHtml(c.name));
  if (t.ambiguous) return `${quoted(t.query)} (${t.side}) could be several teams${listCandidates ? `: ${names.join(', ')}.` : '.'}`;
  const unknown = `I don't know a team called ${quoted(t.query)} (${t.side}).`;
  if (names.length === 0) return unknown;
  return `${unknown} Did you mean ${listCandidates ? `${orList(names)}?` : 'one of these?'}`;
}

/**
 * Asks which team was meant. `pick` gives each candidate's button data for the first side in
 * question, or undefined when a button cannot carry it: then the candidates are named in the text.
 */
export function teamQuestionReply(unsettled: readonly UnsettledTeam[], pick: (team: TeamName) => string | undefined): Reply {
  const [first] = unsettled;
  const buttons = unsettled.every((t) => t.candidates.length > 0) ? first.candidates.map((team) => ({ team, data: pick(team) })) : [];
  if (buttons.length > 0 && buttons.every((b) => b.data !== undefined)) {
    const keyboard = oneButtonPerRow(buttons.map((b) => [b.team.name, b.data!]));
    return { text: `${unsettledLine(first, false)}\nWhich one did you mean for the ${first.side} team?`, keyboard };
  }
  return { text: `${unsettled.map((t) => unsettledLine(t, true)).join('\n')}\n\n${PREDICT_USAGE}` };
}

export const PREDICT_USAGE = 'Usage: /predict &lt;home team&gt; vs &lt;away team&gt;, e.g. /predict Man Utd vs Arsenal';
export const NEXTMATCH_USAGE = 'Usage: /nextmatch [competition], e.g. /nextmatch, /nextmatch en.1 or /nextmatch Premier League';

export const expiredButtonReply: Reply = { text: 'That choice has expired. Send the command again, please.' };
