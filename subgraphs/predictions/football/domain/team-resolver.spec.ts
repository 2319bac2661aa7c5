import { teamsFromShippedData } from '../../../../test/support/predictions/shipped-teams';
import { Resolution, TeamRecord, TeamResolver } from './team-resolver';
import { fileMatches, isLeagueMatch, type FileMatch } from '../../../../test/support/predictions/football-files';

/* Speed: bench/team-resolver.ts (no timing assertions in tests). */

function namesOf(r: Resolution): string[] {
  if (r.kind === 'found') return [r.team.name];
  return r.kind === 'ambiguous' ? r.candidates.map((t) => t.name) : r.suggestions.map((t) => t.name);
}

describe('TeamResolver on the shipped data', () => {
  let teams: TeamRecord[];
  let resolver: TeamResolver;

  beforeAll(() => {
    teams = teamsFromShippedData();
    resolver = new TeamResolver(teams);
  });

  it("maps each season file's spellings onto exactly its clubs: n clubs play n × (n − 1) league matches", () => {
    // the raw files, read here as plain JSON: a club missed by the aliases would count twice, two clubs merged once
    const files = new Map<string, FileMatch[]>();
    for (const m of fileMatches()) {
      if (!isLeagueMatch(m)) continue;
      const key = `${m.season}/${m.competition}`;
      files.set(key, [...(files.get(key) ?? []), m]);
    }
    expect(files.size).toBe(85);
    const clubs = (matches: FileMatch[]) =>
      new Set(
        matches.flatMap((m) =>
          [m.team1, m.team2].map((name) => {
            const r = resolver.resolve(name);
            return r.kind === 'found' ? r.team.name : `unresolved: ${name}`;
          }),
        ),
      );
    const mismatches = [...files]
      .map(([file, matches]) => ({ file, matches: matches.length, clubs: clubs(matches).size }))
      .filter((f) => f.matches !== f.clubs * (f.clubs - 1));
    expect(mismatches).toEqual([]);
    // every club of the data set plays in some file
    const everyClub = new Set([...files.values()].flatMap((matches) => [...clubs(matches)]));
    expect(everyClub.size).toBe(teams.length);
  });

  it.each([
    // the examples
    ['Man Utd', 'Manchester United FC'],
    ['spurs', 'Tottenham Hotspur FC'],
    ['Bayern', 'Bayern München'],
    ['atletico', 'Atlético Madrid'],
    ['wolves', 'Wolverhampton Wanderers FC'],
    ['Inter', 'FC Internazionale Milano'],
    ['PSG', 'Paris Saint-Germain'], // acronym of the name: "PSG" is in no alias list
    ['Paris', 'Paris Saint-Germain'], // the club file lists "Paris" as a PSG alias
    ['Paris FC', 'Paris FC'],
    // case, accents, punctuation, spacing
    ['munchen', 'Bayern München'],
    ['MÜNCHEN', 'Bayern München'],
    ['ATLÉTICO MADRID', 'Atlético Madrid'],
    ["nott'm forest", 'Nottingham Forest FC'],
    ['Nottm Forest', 'Nottingham Forest FC'],
    ['Brighton and Hove', 'Brighton & Hove Albion FC'],
    ['westham', 'West Ham United FC'],
    ['Borussia M’gladbach', 'Bor. Mönchengladbach'],
    // club-form words
    ['Arsenal FC', 'Arsenal FC'],
    ['arsenal', 'Arsenal FC'],
    ['FC Liverpool', 'Liverpool FC'],
    ['AC Milan', 'AC Milan'],
    ['Milan', 'AC Milan'],
    // words and word starts, in any order
    ['munchen bayern', 'Bayern München'],
    ['Man U', 'Manchester United FC'],
    ['Bayer', 'Bayer 04 Leverkusen'], // an alias of Leverkusen, not merely the start of "Bayern"
    ['gladbach', 'Bor. Mönchengladbach'],
    ['WBA', 'West Bromwich Albion FC'],
    // small typos with one clearly closest team
    ['Arsenl', 'Arsenal FC'],
    ['Liverpol', 'Liverpool FC'],
    ['Tottenahm', 'Tottenham Hotspur FC'],
    ['Mancheste united', 'Manchester United FC'],
    ['Barcelonna', 'FC Barcelona'],
    ['Arsenl FC', 'Arsenal FC'],
  ])('resolves %j to %s', (query, name) => {
    expect(resolver.resolve(query)).toEqual({ kind: 'found', team: expect.objectContaining({ name }) });
  });

  it('"Manchester" is ambiguous between both Manchester clubs', () => {
    const r = resolver.resolve('Manchester');
    expect(r.kind).toBe('ambiguous');
    expect(namesOf(r).sort()).toEqual(['Manchester City FC', 'Manchester United FC']);
  });

  it('"Madrid" is ambiguous between Atlético, Real and Rayo, the clubs with Madrid in their name first', () => {
    const r = resolver.resolve('Madrid');
    expect(r.kind).toBe('ambiguous');
    // Rayo only through its alias "Rayo Vallecano de Madrid"
    expect(namesOf(r)).toEqual(['Atlético Madrid', 'Real Madrid', 'Rayo Vallecano']);
  });

  it('"Real" is ambiguous, with clubs named "Real …" first and at most five candidates', () => {
    const r = resolver.resolve('Real');
    expect(r.kind).toBe('ambiguous');
    expect(namesOf(r)).toContain('Real Madrid');
    expect(namesOf(r).length).toBe(5);
    expect(namesOf(r).every((n) => n.startsWith('Real '))).toBe(true);
  });

  it('does not let an abbreviation in an alias list outrank a word start', () => {
    // Espanyol's aliases include "Espanyol Barc.", so "barc" is a whole word there but only starts "Barcelona"
    expect(namesOf(resolver.resolve('barc'))).toEqual(['FC Barcelona', 'RCD Espanyol']);
    // nor a substring across two words: "ebar" is in "espanyol barcelona", but it is Eibar misspelt
    expect(namesOf(resolver.resolve('Ebar'))).toEqual(['SD Eibar']);
  });

  it('"United" is ambiguous between United clubs', () => {
    const r = resolver.resolve('United');
    expect(r.kind).toBe('ambiguous');
    expect(namesOf(r).every((n) => n.includes('United'))).toBe(true);
  });

  it('a competition narrows equally good matches to its teams, without overriding a better match', () => {
    expect(resolver.resolve('Sheffield').kind).toBe('ambiguous');
    expect(namesOf(resolver.resolve('Sheffield', { competition: 'en.1' }))).toEqual(['Sheffield United FC']);
    const united = resolver.resolve('United', { competition: 'en.2' });
    expect(united.kind).toBe('ambiguous');
    const inEn2 = new Set(teams.filter((t) => t.competitions.includes('en.2')).map((t) => t.name));
    expect(namesOf(united).every((n) => inEn2.has(n))).toBe(true);
    // neither Manchester club played in en.2: both stay plausible, so it stays a question
    expect(resolver.resolve('Manchester', { competition: 'en.2' }).kind).toBe('ambiguous');
    expect(namesOf(resolver.resolve('Inter', { competition: 'en.1' }))).toEqual(['FC Internazionale Milano']);
  });

  it('never picks between typo candidates that are equally close', () => {
    const r = resolver.resolve('Manchestr');
    expect(r.kind).toBe('not_found');
    expect(namesOf(r).slice(0, 2).sort()).toEqual(['Manchester City FC', 'Manchester United FC']);
  });

  it('offers a too-distant typo as a suggestion only', () => {
    // a transposition costs two edits, more than a seven-letter word may carry
    const cheslea = resolver.resolve('Cheslea');
    expect(cheslea.kind).toBe('not_found');
    expect(namesOf(cheslea)[0]).toBe('Chelsea FC');
    // "Cologne" is two edits from "Bologna" but must not become Bologna
    expect(resolver.resolve('Cologne').kind).toBe('not_found');
  });

  it.each(['Hogwarts FC', 'xqzvbnmwert'])('%j is not found', (query) => {
    const r = resolver.resolve(query);
    expect(r.kind).toBe('not_found');
    expect(namesOf(r)).toEqual([]);
  });

  it.each(['', '   ', '?!', 'a'])('%j is not found, with no suggestions', (query) => {
    expect(resolver.resolve(query)).toEqual({ kind: 'not_found', suggestions: [] });
  });

  it('resolves every canonical name and alias to its own team', () => {
    const misses: string[] = [];
    for (const team of teams) {
      for (const spelling of [team.name, ...team.aliases]) {
        const r = resolver.resolve(spelling);
        if (r.kind !== 'found' || r.team !== team) misses.push(spelling);
      }
    }
    expect(misses).toEqual([]);
    // the match files' "RC Celta" is RC Celta Vigo (an alias the club list lacks; the loader adds it)
    expect(namesOf(resolver.resolve('RC Celta'))).toEqual(['RC Celta Vigo']);
  });

  describe('search', () => {
    it('finds names and aliases by word start, case- and accent-insensitively, best first', () => {
      expect(
        resolver
          .search('man')
          .slice(0, 2)
          .map((t) => t.name)
          .sort(),
      ).toEqual(['Manchester City FC', 'Manchester United FC']);
      expect(resolver.search('MÜNCH').map((t) => t.name)).toContain('Bayern München');
      expect(resolver.search('spurs').map((t) => t.name)).toEqual(['Tottenham Hotspur FC']);
      expect(resolver.search('gladbach').map((t) => t.name)).toEqual(['Bor. Mönchengladbach']);
    });

    it('puts an exact match before partial ones and honours the limit', () => {
      const results = resolver.search('Inter', 3);
      expect(results[0].name).toBe('FC Internazionale Milano');
      expect(results.length).toBeLessThanOrEqual(3);
      expect(resolver.search('real', 3)).toHaveLength(3);
    });

    it('returns nothing for a blank query or a misspelling', () => {
      expect(resolver.search('  ')).toEqual([]);
      expect(resolver.search('Arsenl')).toEqual([]);
    });
  });
});

describe('TeamResolver ranking rules', () => {
  const team = (id: number, name: string, competitions: string[], lastPlayed?: string, aliases: string[] = []): TeamRecord => ({
    id,
    name,
    aliases,
    competitions,
    lastPlayed,
  });
  // names chosen so that alphabetical order disagrees with every rule under test
  const northtown = team(1, 'Northtown Rovers FC', ['xx.1'], '2025-11-30');
  const ashby = team(2, 'Ashby Rovers FC', ['xx.2'], '2012-04-28');
  const aardvark = team(3, 'Aardvark FC', ['xx.1'], '2025-12-01', ['Rovers of the West']);
  const resolver = new TeamResolver([ashby, northtown, aardvark]);

  it('lists equally good matches canonical name first, then most recently played', () => {
    expect(resolver.resolve('Rovers')).toEqual({ kind: 'ambiguous', candidates: [northtown, ashby, aardvark] });
  });

  it('lets the competition decide only when a single match plays in it', () => {
    expect(resolver.resolve('Rovers', { competition: 'xx.2' })).toEqual({ kind: 'found', team: ashby });
    expect(resolver.resolve('Rovers', { competition: 'xx.1' })).toEqual({ kind: 'ambiguous', candidates: [northtown, aardvark] });
    expect(resolver.resolve('Rovers', { competition: 'yy.1' })).toEqual({ kind: 'ambiguous', candidates: [northtown, ashby, aardvark] });
  });
});
