import { competitionByCode, DatasetError } from './dataset';
import { csvToSeasonFile, detectFormat, parseCsv, parseFeed } from './feed-formats';

const EN1 = competitionByCode('en.1')!;
const DE1 = competitionByCode('de.1')!;

describe('detectFormat', () => {
  it('knows football.json by its object and the CSV by its header', () => {
    expect(detectFormat('\uFEFF  {"matches": []}')).toBe('football.json');
    expect(detectFormat('Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG\n')).toBe('csv');
    expect(detectFormat('Date,Home,Away,HG,AG,Res\n')).toBe('csv');
  });

  it('refuses anything else', () => {
    expect(() => detectFormat('<html>Not found</html>')).toThrow(DatasetError);
    expect(() => detectFormat('a,b,c\n1,2,3')).toThrow(/not a format the feed reads/);
  });
});

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",z\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
    ]);
  });

  it('refuses a quote left open (a cut file)', () => {
    expect(() => parseCsv('a,b\n"open,1')).toThrow(/truncated/);
  });
});

describe('csvToSeasonFile', () => {
  it('keeps the competition rows, converts UK kick-off times to local time, and keeps each bookmaker with all three odds', () => {
    const csv = [
      'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,B365H,B365D,B365A,PSH,PSD,PSA,B365>2.5,B365<2.5',
      'D1,21/08/2026,19:30,Bayern Munich,RB Leipzig,3,1,H,1,0,1.40,5.00,7.50,1.41,,7.60,1.30,3.50',
      'E0,22/08/26,15:00,Arsenal,Chelsea,,,,,,1.90,3.60,4.00,,,,,',
      'D1,29/03/2027,14:30,Dortmund,Leverkusen,,,,,,,,,,,,,',
    ].join('\n');
    const { file, skipped } = csvToSeasonFile(csv, DE1);
    expect(skipped).toBe(1);
    expect(file.matches).toEqual([
      // 19:30 UK (BST) is 20:30 in Germany
      { date: '2026-08-21', time: '20:30', team1: 'Bayern Munich', team2: 'RB Leipzig', score: { ft: [3, 1], ht: [1, 0] }, odds: { B365: [1.4, 5, 7.5] } },
      // after the clocks change in both countries: still an hour apart
      { date: '2027-03-29', time: '15:30', team1: 'Dortmund', team2: 'Leverkusen' },
    ]);
  });

  it('refuses a row cut short, a score contradicting its result, or a half score', () => {
    const header = 'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR';
    expect(() => csvToSeasonFile(`${header}\nE0,15/08/2026,Arsenal,Chelsea,1`, EN1)).toThrow(/line 2: 5 of 7 columns \(truncated\?\)/);
    expect(() => csvToSeasonFile(`${header}\nE0,15/08/2026,Arsenal,Chelsea,1,0,A`, EN1)).toThrow(/contradicts the score 1-0/);
    expect(() => csvToSeasonFile(`${header}\nE0,15/08/2026,Arsenal,Chelsea,1,,`, EN1)).toThrow(/needs both FTHG and FTAG/);
    expect(() => csvToSeasonFile(`${header}\nE0,31/02/2026,Arsenal,Chelsea,,,`, EN1)).toThrow(/Date must be/);
  });
});

describe('parseFeed', () => {
  it('reports JSON cut off in transfer', () => {
    expect(() => parseFeed('{"matches": [{"date": "2026-08-15", "te', EN1)).toThrow(/not valid JSON \(truncated\?\)/);
  });
});
