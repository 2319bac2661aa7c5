import { DatasetError, type CompetitionInfo, type ParsedMatch, type RawSeasonFile } from './dataset';
import { CSV_DIVISIONS } from './feed-formats';

/**
 * A season file must prove it is what its key (competition@season) says before anything of it is
 * written: its own competition name (football.json's `name`) or division code (the CSV's `Div`)
 * names the key's league, its dates fall in the key's season, its teams are mostly the league's own
 * (promoted clubs aside), and no result is dated after now. Pure: the caller gives the league's
 * known teams and the time.
 */

/** The words by which each league's files name it (openfootball's names across 2010-11 … 2025-26, and the usual others). */
const LEAGUE_NAMES: Record<string, RegExp> = {
  'en.1': /premier\s*league/i,
  'en.2': /championship/i,
  'de.1': /^(?!.*\b2\.\s*bundesliga).*bundesliga/i,
  'es.1': /primera\s*divisi[oó]n|la\s*liga|laliga/i,
  'it.1': /serie\s*a\b/i,
  'fr.1': /ligue\s*1\b/i,
};

const divisionOf = (code: string) => Object.keys(CSV_DIVISIONS).find((d) => CSV_DIVISIONS[d] === code) ?? '?';

/** The league a name names, if any. */
export function leagueNamed(name: string): string | undefined {
  return Object.keys(LEAGUE_NAMES).find((code) => LEAGUE_NAMES[code].test(name));
}

/** "2025/26", "2025-26", "2025/2026" in a name → "2025-26". */
function seasonNamed(name: string): string | undefined {
  const m = /\b(\d{4})\s*[/-]\s*(\d{2}|\d{4})\b/.exec(name);
  if (!m) return undefined;
  return `${m[1]}-${m[2].slice(-2)}`;
}

/** The file's own name or divisions agree with the key. */
export function proveLeague(file: RawSeasonFile, competition: CompetitionInfo, season: string): void {
  if (typeof file.name === 'string' && file.name.trim()) {
    const named = leagueNamed(file.name);
    if (named && named !== competition.code) {
      throw new DatasetError(`the file is "${file.name}" (${named}), not ${competition.code} (${competition.name}): refused, nothing written`);
    }
    // a name that says nothing of a league (a hand-made file): its dates and teams must prove it
    const namedSeason = seasonNamed(file.name);
    if (namedSeason && namedSeason !== season) {
      throw new DatasetError(`the file is "${file.name}" (season ${namedSeason}), not ${competition.code}@${season}: refused, nothing written`);
    }
  }
  const divisions = file.divisions;
  if (divisions && divisions.length && file.matches.length === 0) {
    throw new DatasetError(
      `no row of division ${divisionOf(competition.code)} (${competition.code}); the file holds ${divisions.join(', ')}: refused, nothing written`,
    );
  }
}

/** The window of a season's raw dates: 1 July of its first year to 31 July of its second (the 2019-20 restart ended on 26 July). */
export function seasonWindow(season: string): { from: string; to: string } {
  const start = Number(season.slice(0, 4));
  return { from: `${start}-07-01`, to: `${start + 1}-07-31` };
}

const isCalendarDate = (d: string) => {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(d) ? Date.parse(`${d}T00:00:00Z`) : NaN;
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(d);
};

/** Every date the file gives lies in the key's season (read before any correction of dates). */
export function proveSeasonDates(file: RawSeasonFile, competition: CompetitionInfo, season: string): void {
  const { from, to } = seasonWindow(season);
  // a date that is not a calendar date at all is the row validator's to report (with its row)
  const outside = file.matches.filter((m) => m && typeof m.date === 'string' && isCalendarDate(m.date) && (m.date < from || m.date > to));
  if (outside.length) {
    const dates = outside.map((m) => m.date).sort();
    throw new DatasetError(
      `${outside.length} of ${file.matches.length} matches are dated outside the season ${season} (${from} … ${to}): ` +
        `${dates[0]}${dates.length > 1 ? ` … ${dates[dates.length - 1]}` : ''}; not a ${competition.code}@${season} file: refused, nothing written`,
    );
  }
}

/**
 * Most of the file's teams have played in this league before (a season changes a few clubs: promoted
 * sides). Checked when the league has known teams and the file names at least four.
 */
export function proveTeams(matches: readonly ParsedMatch[], competition: CompetitionInfo, leagueTeams: ReadonlySet<string>): void {
  if (leagueTeams.size === 0) return;
  const teams = [...new Set(matches.flatMap((m) => [m.home, m.away]))];
  if (teams.length < 4) {
    const strangers = teams.filter((t) => !leagueTeams.has(t));
    if (strangers.length === teams.length && teams.length > 0) {
      throw new DatasetError(`none of the file's teams (${teams.join(', ')}) has played in ${competition.code}: refused, nothing written`);
    }
    return;
  }
  const known = teams.filter((t) => leagueTeams.has(t));
  if (known.length * 2 < teams.length) {
    const strangers = teams.filter((t) => !leagueTeams.has(t));
    throw new DatasetError(
      `${strangers.length} of the file's ${teams.length} teams never played in ${competition.code} (${strangers.slice(0, 5).join(', ')}${strangers.length > 5 ? ', …' : ''}): ` +
        `not a ${competition.code} file: refused, nothing written`,
    );
  }
}

/** No result after now: a score dated in the future is invented. */
export function proveResultsPast(matches: readonly ParsedMatch[], now: Date): void {
  const future = matches.filter((m) => m.homeGoals !== null && m.kickoff.getTime() > now.getTime());
  if (future.length) {
    const first = future.map((m) => m.date).sort()[0];
    throw new DatasetError(
      `${future.length} results are dated after now (${now.toISOString().slice(0, 10)}), the first on ${first} (${future[0].home} v ${future[0].away}): refused, nothing written`,
    );
  }
}
