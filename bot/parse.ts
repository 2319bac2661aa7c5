import type { Competition } from './predictions-client';

/**
 * What people type after a command, read without the gateway: "Man Utd vs Arsenal", "en.1",
 * "Premier League". Team names themselves are resolved by the gateway (`resolveTeam`).
 */

/** "vs", "vs.", "v", "v.", "-", "–" or "—" between spaces; a hyphen inside a name ("Saint-Germain") is not one. */
const SEPARATOR = /\s+(?:vs\.?|v\.?|-|–|—)\s+/i;

export interface Pairing {
  home: string;
  away: string;
}

/** `<home> vs <away>`; undefined when either side is missing or there are more than two. */
export function parsePairing(text: string): Pairing | undefined {
  const parts = text.trim().split(SEPARATOR);
  if (parts.length !== 2) return undefined;
  const [home, away] = parts.map((p) => p.trim().replace(/\s+/g, ' '));
  return home && away ? { home, away } : undefined;
}

/** A hyphen or dash with no space around it, between two words: "Arsenal-Chelsea". */
const TIGHT_DASH = /(?<=\S)[-–—](?=\S)/g;

/** Each way of reading the text as a pairing, the likeliest first (at most this many). */
const MAX_READINGS = 4;

/**
 * The readings of a pairing: the one with a spaced separator if there is one; else one per hyphen
 * or dash between words ("Arsenal-Chelsea", "Paris Saint-Germain-Lyon": the gateway tells which
 * names exist). Empty when there is no pairing.
 */
export function pairingReadings(text: string): Pairing[] {
  const spaced = parsePairing(text);
  if (spaced) return [spaced];
  if (SEPARATOR.test(text)) return [];
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const readings: Pairing[] = [];
  for (const m of trimmed.matchAll(TIGHT_DASH)) {
    const home = trimmed.slice(0, m.index).trim();
    const away = trimmed.slice(m.index + 1).trim();
    if (home && away) readings.push({ home, away });
  }
  // the last dash first: a hyphen inside a name ("Saint-Germain") comes before the one between the teams more often than after
  return readings.reverse().slice(0, MAX_READINGS);
}

/** Lower case, accents and punctuation gone: "Ligue 1" → "ligue 1", "EN.1" → "en 1". */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export type CompetitionMatch = { kind: 'found'; competition: Competition } | { kind: 'ambiguous'; candidates: Competition[] } | { kind: 'not_found' };

/**
 * A competition by code ("en.1"), name or the start of its words ("premier league", "bundesliga",
 * "prem"), initials ("EPL") or country ("Germany"). Several matches (e.g. "England") are a question.
 */
export function matchCompetition(query: string, competitions: readonly Competition[]): CompetitionMatch {
  const q = normalize(query);
  if (!q) return { kind: 'not_found' };
  const words = q.split(' ');
  const rules: ((c: Competition) => boolean)[] = [
    (c) => normalize(c.code) === q || normalize(c.name) === q,
    (c) => {
      const nameWords = normalize(c.name).split(' ');
      return words.every((w) => nameWords.some((n) => n.startsWith(w))) || nameWords.map((n) => n[0]).join('') === q;
    },
    (c) => normalize(c.country) === q,
  ];
  for (const rule of rules) {
    const found = competitions.filter(rule);
    if (found.length === 1) return { kind: 'found', competition: found[0] };
    if (found.length > 1) return { kind: 'ambiguous', candidates: [...found].sort((a, b) => a.tier - b.tier || a.code.localeCompare(b.code)) };
  }
  return { kind: 'not_found' };
}
