/**
 * Team-name normalisation shared by the data loader and the team resolver.
 * NFKD-fold accents, lower-case, `&` → `and`, drop punctuation, collapse spaces.
 */
export function normalizeName(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/ø/gi, 'o')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Club-form words that carry no identity ("FC", "AFC", "Calcio", …): dropped for the loose key. */
const CLUB_FORM_WORDS = new Set([
  'fc',
  'afc',
  'cf',
  'sc',
  'ac',
  'as',
  'ssc',
  'ss',
  'us',
  'sv',
  'vfl',
  'vfb',
  'tsg',
  'rc',
  'rcd',
  'cd',
  'ud',
  'sd',
  'club',
  'calcio',
  'football',
  'futbol',
  'de',
  'the',
  'hsc',
  'ogc',
  'osc',
  'fk',
  'tsv',
  '1',
  'sco',
  'sporting',
]);

/** A looser key: the normalised name without club-form words ("Watford FC" and "Watford" share it). */
export function looseKey(raw: string): string {
  const words = normalizeName(raw)
    .split(' ')
    .filter((w) => w && !CLUB_FORM_WORDS.has(w));
  return words.join(' ');
}

/** Alias entries in the club files carry an optional language tag: "Bayern Munich [en]". */
export function stripLanguageTag(alias: string): string {
  return alias.replace(/\s*\[[a-z]{2}\]\s*$/i, '').trim();
}
