import { COMPETITIONS } from './dataset';
import { parseFeedSources, type FeedSource } from './feed';

/**
 * Where openfootball publishes each league's season (football.json, CC0 — the shipped data's own
 * source): `<base>/<season>/<league>.json`. FOOTBALL_DEFAULT_SOURCE_BASE moves the base (a mirror, a test peer).
 */
export const OPENFOOTBALL_BASE = 'https://raw.githubusercontent.com/openfootball/football.json/master';

/** The month (1–12) from which the next season's file is looked for too: fixture lists come out in June. */
const NEXT_SEASON_FROM_MONTH = 6;

/** The season running on `now`: a season starts on 1 July (2026-12-07 → 2026-27, 2027-03-01 → 2026-27). */
export function currentSeason(now: Date): string {
  const y = now.getUTCFullYear();
  const start = now.getUTCMonth() + 1 >= 7 ? y : y - 1;
  return seasonStarting(start);
}

const seasonStarting = (year: number) => `${year}-${String((year + 1) % 100).padStart(2, '0')}`;

/**
 * The default sources on `now`: every shipped league's current season, and from June on its next season
 * too (`optional`: not published yet is not a failure; once it is, the feed follows it).
 */
export function defaultFeedSources(now: Date, base = OPENFOOTBALL_BASE): FeedSource[] {
  const current = currentSeason(now);
  const month = now.getUTCMonth() + 1;
  const seasons = [{ season: current, optional: false }];
  if (month >= NEXT_SEASON_FROM_MONTH && month < 7) seasons.push({ season: seasonStarting(now.getUTCFullYear()), optional: true });
  const root = base.replace(/\/+$/, '');
  return COMPETITIONS.flatMap((c) =>
    seasons.map(({ season, optional }) => ({ key: `${c.code}@${season}`, competition: c.code, season, url: `${root}/${season}/${c.code}.json`, optional })),
  );
}

/** What the feed follows: FOOTBALL_FEED_URLS's sources, openfootball's by default, or none (`off`). */
export type FeedPlan =
  { origin: 'configured'; sources: FeedSource[] } | { origin: 'default'; base: string; sources: (now: Date) => FeedSource[] } | { origin: 'off'; sources: [] };

export function feedPlan(config: { FOOTBALL_FEED_URLS: string[]; FOOTBALL_DEFAULT_SOURCE_BASE: string }): FeedPlan {
  const entries = config.FOOTBALL_FEED_URLS;
  if (entries.length === 1 && entries[0].toLowerCase() === 'off') return { origin: 'off', sources: [] };
  if (entries.length) return { origin: 'configured', sources: parseFeedSources(entries) };
  const base = config.FOOTBALL_DEFAULT_SOURCE_BASE;
  return { origin: 'default', base, sources: (now) => defaultFeedSources(now, base) };
}
