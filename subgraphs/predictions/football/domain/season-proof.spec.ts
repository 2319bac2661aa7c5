import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../../lib/paths';
import { competitionByCode, DatasetError, kickoffInstant, type ParsedMatch, type RawSeasonFile } from './dataset';
import { csvToSeasonFile } from './feed-formats';
import { leagueNamed, proveLeague, proveResultsPast, proveSeasonDates, proveTeams } from './season-proof';

const EN1 = competitionByCode('en.1')!;
const DE1 = competitionByCode('de.1')!;
// the real 2025-26 Premier League file (openfootball, CC0), as shipped
const en1File = JSON.parse(readFileSync(join(projectRoot(), 'data', 'football', '2025-26', 'en.1.json'), 'utf8')) as RawSeasonFile;

describe('a file proves its key', () => {
  it('the 2025-26 Premier League file is en.1@2025-26', () => {
    expect(() => proveLeague(en1File, EN1, '2025-26')).not.toThrow();
    expect(() => proveSeasonDates(en1File, EN1, '2025-26')).not.toThrow();
  });

  it('under en.1@2026-27 it is refused by its name and by its dates', () => {
    expect(() => proveLeague(en1File, EN1, '2026-27')).toThrow(/"English Premier League 2025\/26" \(season 2025-26\), not en\.1@2026-27/);
    expect(() => proveSeasonDates({ matches: en1File.matches }, EN1, '2026-27')).toThrow(
      /380 of 380 matches are dated outside the season 2026-27 \(2026-07-01 … 2027-07-31\): 2025-08-15 … 2026-05-24/,
    );
  });

  it('under de.1@2025-26 it is refused by its name', () => {
    expect(() => proveLeague(en1File, DE1, '2025-26')).toThrow(DatasetError);
    expect(() => proveLeague(en1File, DE1, '2025-26')).toThrow(/"English Premier League 2025\/26" \(en\.1\), not de\.1/);
  });

  it('knows every league by the names openfootball gave it', () => {
    expect(leagueNamed('English Premier League 2010/11')).toBe('en.1');
    expect(leagueNamed('English Championship 2024/25')).toBe('en.2');
    expect(leagueNamed('Deutsche Bundesliga 2025/26')).toBe('de.1');
    expect(leagueNamed('Deutsche 2. Bundesliga 2025/26')).toBeUndefined();
    expect(leagueNamed('Primera División de España 2018/19')).toBe('es.1');
    expect(leagueNamed('Spain Primera División 2025/26')).toBe('es.1');
    expect(leagueNamed('Italian Serie A 2025/26')).toBe('it.1');
    expect(leagueNamed('French Ligue 1 2025/26')).toBe('fr.1');
  });

  it('a CSV with no row of the key’s division is refused, naming the divisions it holds', () => {
    const csv = 'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG\r\nE0,15/08/2025,20:00,Liverpool,Bournemouth,4,2\r\n';
    const { file } = csvToSeasonFile(csv, DE1);
    expect(() => proveLeague(file, DE1, '2025-26')).toThrow(/no row of division D1 \(de\.1\); the file holds E0/);
    expect(() => proveLeague(csvToSeasonFile(csv, EN1).file, EN1, '2025-26')).not.toThrow();
  });
});

const match = (home: string, away: string, date: string, goals: [number, number] | null): ParsedMatch => ({
  competition: 'en.1',
  season: '2025-26',
  stage: 'Regular',
  round: null,
  date,
  time: '15:00',
  kickoff: kickoffInstant(date, '15:00', 'Europe/London'),
  home,
  away,
  rawHome: home,
  rawAway: away,
  status: goals ? 'finished' : 'scheduled',
  homeGoals: goals?.[0] ?? null,
  awayGoals: goals?.[1] ?? null,
  homeGoalsHalfTime: null,
  awayGoalsHalfTime: null,
});

describe('teams and time', () => {
  const league = new Set(['A', 'B', 'C', 'D', 'E', 'F']);
  it('a few promoted clubs pass; a file of another league’s teams does not', () => {
    expect(() =>
      proveTeams([match('A', 'B', '2025-08-16', null), match('C', 'New1', '2025-08-16', null), match('D', 'New2', '2025-08-16', null)], EN1, league),
    ).not.toThrow();
    expect(() =>
      proveTeams([match('X', 'Y', '2025-08-16', null), match('Z', 'W', '2025-08-16', null), match('A', 'V', '2025-08-16', null)], EN1, league),
    ).toThrow(/5 of the file's 6 teams never played in en\.1/);
    expect(() => proveTeams([match('X', 'Y', '2025-08-16', null)], EN1, league)).toThrow(/none of the file's teams/);
  });

  it('a result after now is refused; a fixture after now is not', () => {
    const now = new Date('2025-12-31T00:00:00Z');
    expect(() => proveResultsPast([match('A', 'B', '2025-12-30', [1, 0]), match('C', 'D', '2026-01-02', null)], now)).not.toThrow();
    expect(() => proveResultsPast([match('A', 'B', '2026-01-02', [1, 0])], now)).toThrow(
      /1 results are dated after now \(2025-12-31\), the first on 2026-01-02/,
    );
  });
});
