import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';

/**
 * The shipped football files (data/football/<season>/<competition>.json) read as plain JSON, not
 * through the loader: expectations that tests derive from them are independent of the code under test.
 */
export interface FileMatch {
  competition: string;
  season: string;
  date: string;
  team1: string;
  team2: string;
  stage?: string;
  round?: string;
  /** Full-time score [home, away], when the file has one. */
  ft?: [number, number];
  status?: string;
}

const DATA = join(projectRoot(), 'data', 'football');

export function fileMatches(filter: { season?: string; competition?: string } = {}): FileMatch[] {
  const out: FileMatch[] = [];
  for (const season of readdirSync(DATA).filter((d) => /^\d{4}-\d{2}$/.test(d))) {
    if (filter.season && season !== filter.season) continue;
    for (const file of readdirSync(join(DATA, season)).filter((f) => f.endsWith('.json'))) {
      const competition = file.replace(/\.json$/, '');
      if (filter.competition && competition !== filter.competition) continue;
      const { matches } = JSON.parse(readFileSync(join(DATA, season, file), 'utf8')) as {
        matches: { date: string; team1: string; team2: string; stage?: string; round?: string; status?: string; score?: { ft?: [number, number] } }[];
      };
      for (const m of matches) {
        out.push({ competition, season, date: m.date, team1: m.team1, team2: m.team2, stage: m.stage, round: m.round, ft: m.score?.ft, status: m.status });
      }
    }
  }
  return out;
}

/** A played result: a full-time score that is not a walk-over award of a cancelled match (data/football/README.md). */
export const isResult = (m: FileMatch): boolean => m.ft !== undefined && m.ft.length === 2 && m.status !== 'awarded' && m.status !== 'cancelled';

/** A league match, not a promotion play-off (marked by `stage`, or in 2024-25 by a "Finals, …" round). */
export const isLeagueMatch = (m: FileMatch): boolean => (!m.stage || m.stage === 'Regular') && !/^(Finals|Playoffs)\b/.test(m.round ?? '');

export const COMPETITIONS = ['en.1', 'en.2', 'de.1', 'es.1', 'it.1', 'fr.1'] as const;

/** GraphQL's Outcome of a score. */
export const outcomeOfScore = (home: number, away: number): 'HOME_WIN' | 'DRAW' | 'AWAY_WIN' => (home > away ? 'HOME_WIN' : home < away ? 'AWAY_WIN' : 'DRAW');

/** The openfootball files copied under test/fixtures/openfootball (CC0, see its README). */
export const OPENFOOTBALL_FIXTURES = join(projectRoot(), 'test', 'fixtures', 'openfootball');

export function openfootballFile(season: string, competition: string): string {
  return readFileSync(join(OPENFOOTBALL_FIXTURES, season, `${competition}.json`), 'utf8');
}

/**
 * An openfootball season file written in football-data.co.uk's results layout: their header, a
 * byte-order mark, CRLF line ends, dd/mm/yyyy dates, UK times; no round (their files have none).
 * Made from the CC0 data, not a copy of theirs. `halfTime` gives half-time scores the file lacks.
 */
export function footballDataCsv(
  json: string,
  division: string,
  opts: { timeZone?: string; halfTime?: (m: { team1: string; team2: string }) => [number, number] | undefined } = {},
): string {
  const { matches } = JSON.parse(json) as {
    matches: { date: string; time?: string; team1: string; team2: string; score?: { ft?: [number, number]; ht?: [number, number] } }[];
  };
  const header = 'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,HTR';
  const ukTime = (date: string, time: string) => {
    const zone = opts.timeZone ?? 'Europe/London';
    // the local kick-off as an instant, shown in UK time
    const guess = new Date(`${date}T${time}:00Z`);
    const local = new Date(guess.toLocaleString('en-US', { timeZone: zone }));
    const instant = new Date(guess.getTime() + (guess.getTime() - local.getTime()));
    const uk = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(instant);
    const ukDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(instant);
    return { uk, ukDate };
  };
  const res = (h: number, a: number) => (h > a ? 'H' : h < a ? 'A' : 'D');
  const rows = matches.map((m) => {
    const { uk, ukDate } = m.time ? ukTime(m.date, m.time) : { uk: '', ukDate: m.date };
    const [y, mo, d] = ukDate.split('-');
    const ft = m.score?.ft;
    const ht = m.score?.ht ?? (ft ? opts.halfTime?.(m) : undefined);
    return [
      division,
      `${d}/${mo}/${y}`,
      uk,
      m.team1,
      m.team2,
      ft?.[0] ?? '',
      ft?.[1] ?? '',
      ft ? res(ft[0], ft[1]) : '',
      ht?.[0] ?? '',
      ht?.[1] ?? '',
      ht ? res(ht[0], ht[1]) : '',
    ].join(',');
  });
  return `\uFEFF${[header, ...rows].join('\r\n')}\r\n`;
}
