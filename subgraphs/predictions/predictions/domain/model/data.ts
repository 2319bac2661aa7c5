/**
 * Small helpers about dates, seasons and competitions shared by every model.
 */
import type { Fixture, TrainingMatch } from './types';

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 for a YYYY-MM-DD date (calendar arithmetic, no time zones). */
export function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY);
}

export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The season a match belongs to: its own `season`, else derived with a July cut-off (2024-08-17 → 2024-25). */
export function seasonOf(m: Pick<Fixture, 'date' | 'season'>): string {
  if (m.season) return m.season;
  const year = Number(m.date.slice(0, 4));
  const start = Number(m.date.slice(5, 7)) >= 7 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/**
 * Competitions of one country (`en.1`, `en.2`) form a group: their teams move between them,
 * so they share one rating scale. Groups never meet in the data, so each group is fitted on its own.
 */
export function groupOf(competition: string): string {
  const dot = competition.indexOf('.');
  return dot < 0 ? competition : competition.slice(0, dot);
}

/** Tier of a competition code (`en.2` → 2); 1 when the code carries none. */
export function tierOf(competition: string): number {
  const tier = Number(competition.slice(competition.indexOf('.') + 1));
  return Number.isInteger(tier) && tier > 0 ? tier : 1;
}

/** A total order on matches, so that results never depend on the order the caller passes them in. */
export function compareMatches(a: TrainingMatch, b: TrainingMatch): number {
  return cmp(a.date, b.date) || cmp(a.competition, b.competition) || cmp(a.home, b.home) || cmp(a.away, b.away);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Matches dated strictly before `asOf`, in the canonical order (a new array). */
export function matchesBefore(matches: readonly TrainingMatch[], asOf: string): TrainingMatch[] {
  const before = matches.filter((m) => m.date < asOf);
  // callers such as the walk-forward pass sorted data many times over: skip the sort then
  for (let i = 1; i < before.length; i++) {
    if (compareMatches(before[i - 1], before[i]) > 0) return before.sort(compareMatches);
  }
  return before;
}

/** The shape of a parsed data-set row this module needs (structurally `ParsedMatch` of the football subgraph). */
export interface MatchRecord {
  competition: string;
  season: string;
  date: string;
  home: string;
  away: string;
  status: string;
  homeGoals: number | null;
  awayGoals: number | null;
  homeGoalsHalfTime?: number | null;
  awayGoalsHalfTime?: number | null;
}

/** Training rows from parsed matches: finished with a known score only (awarded walk-overs excluded). */
export function toTrainingMatches(records: readonly MatchRecord[]): TrainingMatch[] {
  const out: TrainingMatch[] = [];
  for (const r of records) {
    if (r.status !== 'finished' || r.homeGoals === null || r.awayGoals === null) continue;
    out.push({
      competition: r.competition,
      season: r.season,
      date: r.date,
      home: r.home,
      away: r.away,
      homeGoals: r.homeGoals,
      awayGoals: r.awayGoals,
      ...halfTime(r),
    });
  }
  return out.sort(compareMatches);
}

/**
 * The half-time score when it is known and consistent with the full-time one (never more goals at half
 * time). The data leaves it out of exactly the goalless draws, whose half-time score can only be 0-0.
 */
function halfTime(r: MatchRecord): Pick<TrainingMatch, 'homeGoalsHalfTime' | 'awayGoalsHalfTime'> {
  if (r.homeGoals === 0 && r.awayGoals === 0) return { homeGoalsHalfTime: 0, awayGoalsHalfTime: 0 };
  const [h, a] = [r.homeGoalsHalfTime, r.awayGoalsHalfTime];
  if (h === null || h === undefined || a === null || a === undefined || h > r.homeGoals! || a > r.awayGoals!) return {};
  return { homeGoalsHalfTime: h, awayGoalsHalfTime: a };
}
