import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { readDataset } from '../../../subgraphs/predictions/football/domain/dataset';
import { stripLanguageTag } from '../../../subgraphs/predictions/football/domain/names';
import type { TeamRecord } from '../../../subgraphs/predictions/football/domain/team-resolver';

const DATA_DIR = join(projectRoot(), 'data', 'football');

/**
 * Alias lists straight from the club files: ClubDirectory keeps its lists private (it only answers
 * resolve()), so they are read here the way it reads them (language tags stripped).
 */
function clubFileAliases(): Map<string, string[]> {
  const aliases = new Map<string, string[]>();
  const dir = join(DATA_DIR, 'clubs');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.clubs.json'))) {
    const { clubs } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { clubs: { name: string; aliases: string[] }[] };
    for (const club of clubs) aliases.set(club.name, club.aliases.map(stripLanguageTag).filter(Boolean));
  }
  return aliases;
}

/**
 * Every team of the shipped matches, as the team resolver sees them without a database: canonical
 * name, club-file aliases plus the match files' own spellings, competitions, last played date.
 * Shared by the resolver's unit test and its benchmark.
 */
export function teamsFromShippedData(): TeamRecord[] {
  const aliases = clubFileAliases();
  const byName = new Map<string, TeamRecord>();
  for (const m of readDataset(DATA_DIR).matches) {
    for (const [name, raw] of [
      [m.home, m.rawHome],
      [m.away, m.rawAway],
    ]) {
      let team = byName.get(name);
      if (!team) {
        team = { id: byName.size + 1, name, aliases: [...(aliases.get(name) ?? [])], competitions: [] };
        byName.set(name, team);
      }
      if (raw !== name && !team.aliases.includes(raw)) team.aliases.push(raw);
      if (!team.competitions.includes(m.competition)) team.competitions.push(m.competition);
      const played = m.status === 'finished' || m.status === 'awarded';
      if (played && (!team.lastPlayed || m.date > team.lastPlayed)) team.lastPlayed = m.date;
    }
  }
  return [...byName.values()];
}
