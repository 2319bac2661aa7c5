import { COMPETITIONS } from './dataset';
import { currentSeason, defaultFeedSources, feedPlan, OPENFOOTBALL_BASE } from './default-sources';

describe('the default feed sources', () => {
  it.each([
    ['2026-12-07T10:00:00Z', '2026-27'],
    ['2027-03-01T10:00:00Z', '2026-27'],
    ['2027-06-30T23:59:59Z', '2026-27'],
    ['2027-07-01T00:00:00Z', '2027-28'],
    ['2099-08-01T00:00:00Z', '2099-00'],
  ])('on %s the current season is %s', (at, season) => expect(currentSeason(new Date(at))).toBe(season));

  it('every shipped league at openfootball, its current season; from June the next one too, optional', () => {
    const dec = defaultFeedSources(new Date('2026-12-07T00:00:00Z'));
    expect(dec.map((s) => s.url)).toEqual(COMPETITIONS.map((c) => `${OPENFOOTBALL_BASE}/2026-27/${c.code}.json`));
    expect(dec.every((s) => !s.optional)).toBe(true);
    const june = defaultFeedSources(new Date('2027-06-10T00:00:00Z'), 'http://peer/base/');
    expect(june.filter((s) => s.optional).map((s) => s.key)).toEqual(COMPETITIONS.map((c) => `${c.code}@2027-28`));
    expect(june.find((s) => s.key === 'en.1@2026-27')!.url).toBe('http://peer/base/2026-27/en.1.json');
  });

  it('FOOTBALL_FEED_URLS overrides; off disables; unset follows the defaults', () => {
    const base = { FOOTBALL_DEFAULT_SOURCE_BASE: OPENFOOTBALL_BASE };
    expect(feedPlan({ ...base, FOOTBALL_FEED_URLS: ['off'] }).origin).toBe('off');
    expect(feedPlan({ ...base, FOOTBALL_FEED_URLS: [] }).origin).toBe('default');
    const configured = feedPlan({ ...base, FOOTBALL_FEED_URLS: ['en.1@2026-27=https://example.org/en.1.json'] });
    expect(configured).toMatchObject({ origin: 'configured', sources: [{ key: 'en.1@2026-27' }] });
  });
});
