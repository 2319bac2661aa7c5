import { csvField, toCsv } from './list';
import { when } from './kit';

describe('console kit', () => {
  it('formats dates one way (strings and Dates alike)', () => {
    expect(when('2026-11-27T17:12:47.123Z')).toBe('2026-11-27 17:12:47 UTC');
    expect(when(new Date('2026-11-27T17:12:47.123Z'))).toBe('2026-11-27 17:12:47 UTC');
    expect(when('2026-11-27T17:12:47Z', { seconds: false })).toBe('2026-11-27 17:12 UTC');
    expect(when(null)).toBe('—');
  });

  it('writes CSV fields as RFC 4180 says, and never as a formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
    expect(toCsv([{ label: 'Name', cell: (r: { n: string }) => r.n }], [{ n: 'ada' }])).toBe('Name\r\nada\r\n');
  });
});
