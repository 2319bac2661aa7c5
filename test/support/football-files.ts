import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths';

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
