import { distance } from 'fastest-levenshtein';
import { looseKey, normalizeName } from './names';

/**
 * Team-name resolution: turns what a user types ("Man Utd", "spurs", "munchen", "Arsenl") into a
 * team, or says honestly that the name is ambiguous or unknown. Pure domain code (no database,
 * no GraphQL) so that the API and the Telegram bot share one behaviour.
 */

export interface TeamRecord {
  id: number;
  name: string;
  /** Other plain spellings of the club (language tags already stripped). */
  aliases: string[];
  /** Competition codes the team played in, e.g. ['en.1', 'en.2']. */
  competitions: string[];
  /** Date of the team's latest played match, YYYY-MM-DD. */
  lastPlayed?: string;
}

export type Resolution =
  { kind: 'found'; team: TeamRecord } | { kind: 'ambiguous'; candidates: TeamRecord[] } | { kind: 'not_found'; suggestions: TeamRecord[] };

export interface ResolveOptions {
  /** Competition code the caller is asking about: its teams win over equally good matches elsewhere. */
  competition?: string;
}

/** An ambiguous answer or a suggestion list is read by a person: a handful of names, not a page. */
const MAX_CANDIDATES = 5;

/** Below this length a substring or a typo-tolerant match says too little ("ar" is in half the league). */
const MIN_PARTIAL_LENGTH = 3;

/** Longest query, in words, also compared with the start of longer spellings when looking for typos. */
const MAX_TYPO_WORDS = 3;

/** One spelling (canonical name or alias) of one team. */
interface Spelling {
  team: number;
  isName: boolean;
  /** normalizeName() of it, for substring matching. */
  normalized: string;
}

/**
 * A query in the forms the indexes use. Keys compare space-free, so that "Nott'm" (normalised
 * "nott m") meets "Nottm", and "West Ham" meets "Westham".
 */
interface Query {
  compact: string;
  looseCompact: string;
  /** What to match word by word: the loose words, unless the query is nothing but club-form words ("FC", "Sporting"). */
  tokens: string[];
  /** The same words with their spaces, for substring matching. */
  text: string;
}

interface TypoTarget {
  text: string;
  /** letterSet(text), for a cheap lower bound on the edit distance. */
  letters: number;
  teams: number[];
}

/** Teams matched by one rank of the cascade; `byName` marks teams whose canonical name (not only an alias) matched. */
type Matches = Map<number, { byName: boolean }>;

export class TeamResolver {
  private readonly teams: readonly TeamRecord[];
  private readonly spellings: Spelling[] = [];
  private readonly exact = new Map<string, number[]>();
  private readonly loose = new Map<string, number[]>();
  private readonly acronyms = new Map<string, number[]>();
  /** token → spellings containing it as a whole word. */
  private readonly byToken = new Map<string, number[]>();
  /** The keys of byToken, sorted, so that all tokens with a given prefix form one binary-searchable run. */
  private readonly sortedTokens: string[];
  /** Space-free spelling forms for typo matching, by length: [0] whole spellings, [k] their first k words. */
  private readonly typoTargets: TypoTarget[][][];

  /** The match ranks of resolve(), strongest first, each from the indexes above (the typo rank comes after them, separately). */
  private readonly ranks: ReadonlyArray<(q: Query) => Matches> = [
    (q) => this.teamsOf(this.exact.get(q.compact)),
    (q) => this.teamsOf(q.looseCompact ? this.loose.get(q.looseCompact) : undefined),
    (q) => this.teamsOf(this.spellingsWithPrefixes(q.tokens)),
    (q) => this.teamsOf(isAcronymQuery(q) ? this.acronyms.get(q.looseCompact) : undefined),
    (q) => this.teamsOf(this.spellingsContaining(q.text)),
  ];

  constructor(teams: TeamRecord[]) {
    this.teams = teams;
    const typoForms = Array.from({ length: MAX_TYPO_WORDS + 1 }, () => new Map<string, Set<number>>());
    teams.forEach((team, t) => {
      const seen = new Set<string>();
      for (const raw of [team.name, ...team.aliases]) {
        const normalized = normalizeName(raw);
        if (!normalized || seen.has(normalized)) continue;
        seen.add(normalized);
        const tokens = normalized.split(' ');
        // looseKey(): the same words without club-form ones ("fc", "calcio", …)
        const looseTokens = looseKey(raw).split(' ').filter(Boolean);
        const s = this.spellings.length;
        this.spellings.push({ team: t, isName: raw === team.name, normalized });
        push(this.exact, tokens.join(''), s);
        if (looseTokens.length > 0 && dropsOnlyAbbreviations(tokens, looseTokens)) push(this.loose, looseTokens.join(''), s);
        // Initials of the identity words only: "Paris Saint-Germain" → "psg", "West Bromwich Albion" → "wba";
        // club-form words stay out, or "Arsenal Football Club" would claim "afc".
        if (looseTokens.length >= 2) push(this.acronyms, looseTokens.map((w) => w[0]).join(''), s);
        for (const token of new Set(tokens)) push(this.byToken, token, s);
        for (let k = 0; k <= MAX_TYPO_WORDS; k++) {
          const cut = (words: string[]) => (k === 0 ? words : words.slice(0, k)).join('');
          for (const form of [cut(tokens), cut(looseTokens)]) if (form) addTo(typoForms[k], form, t);
        }
      }
    });
    this.sortedTokens = [...this.byToken.keys()].sort();
    this.typoTargets = typoForms.map((forms) => {
      const byLength: TypoTarget[][] = [];
      for (const [text, ts] of forms) (byLength[text.length] ??= []).push({ text, letters: letterSet(text), teams: [...ts] });
      return byLength;
    });
  }

  /**
   * The team a query names. Match ranks, strongest first: exact name or alias > same name without
   * club-form words > every query word starts a word of one spelling > acronym > substring > small typo. The first rank with any match decides; several teams
   * there are returned as candidates (a `competition` narrows them to its teams, when it has any)
   * rather than guessed between, since a wrong team is worse than a follow-up question.
   */
  resolve(query: string, opts: ResolveOptions = {}): Resolution {
    const q = parseQuery(query);
    if (!q) return { kind: 'not_found', suggestions: [] };
    for (const rank of this.ranks) {
      const matches = rank(q);
      if (matches.size === 0) continue;
      let teams = this.order(matches, opts.competition);
      // the competition makes teams outside it implausible, but only if one of the matches is in it
      const inCompetition = teams.filter((t) => opts.competition !== undefined && t.competitions.includes(opts.competition));
      if (inCompetition.length > 0) teams = inCompetition;
      return teams.length === 1 ? { kind: 'found', team: teams[0] } : { kind: 'ambiguous', candidates: teams.slice(0, MAX_CANDIDATES) };
    }
    return this.resolveTypo(q, opts.competition);
  }

  /** Teams whose name or an alias matches the query as a whole, by words, word starts, acronym or substring; best first. No typo tolerance: a search lists what is there. */
  search(query: string, limit = 10): TeamRecord[] {
    const q = parseQuery(query);
    if (!q || limit <= 0) return [];
    const found = new Set<TeamRecord>();
    for (const rank of this.ranks) {
      for (const team of this.order(rank(q))) {
        found.add(team);
        if (found.size >= limit) return [...found];
      }
    }
    return [...found];
  }

  /**
   * Last resort, a misspelling: edit distance to every spelling, whole or cut to as many words as
   * the query has ("Manchestr" vs "manchester city" → "manchester"). A team is returned only when
   * it is alone at the smallest distance and within the typo budget; otherwise the closest teams
   * are offered as suggestions, never picked.
   */
  private resolveTypo(q: Query, competition: string | undefined): Resolution {
    // club-form words are noise here too: "Arsenl FC" is one typo away from "arsenal", not from "arsenal fc"
    const form = q.looseCompact || q.compact;
    if (form.length < MIN_PARTIAL_LENGTH) return { kind: 'not_found', suggestions: [] };
    const budget = typoBudget(form.length);
    // suggestions may be a little further off than a match we would act on
    const reach = budget + 2;
    const letters = letterSet(form);
    const best = new Map<number, number>();
    // only lengths within reach: every character of length difference costs an edit
    const candidates = [this.typoTargets[0], this.typoTargets[q.tokens.length] ?? []].flatMap((byLength) =>
      byLength.slice(Math.max(0, form.length - reach), form.length + reach + 1).flat(),
    );
    for (const { text, letters: targetLetters, teams } of candidates) {
      // a cheap lower bound next: every letter that one side lacks costs an edit too
      if (bitCount(letters & ~targetLetters) > reach || bitCount(targetLetters & ~letters) > reach) continue;
      const d = distance(form, text);
      // a target that would have to be mostly rewritten is no "closest spelling" ("barca" is not "acf")
      if (d > reach || d * 2 > text.length) continue;
      for (const t of teams) if (d < (best.get(t) ?? reach + 1)) best.set(t, d);
    }
    const closest = Math.min(...best.values());
    const atClosest = [...best].filter(([, d]) => d === closest);
    if (atClosest.length === 1 && closest <= budget) return { kind: 'found', team: this.teams[atClosest[0][0]] };
    const suggestions = [...best]
      .sort(([a, da], [b, db]) => da - db || this.compareTeams(a, b, competition))
      .slice(0, MAX_CANDIDATES)
      .map(([t]) => this.teams[t]);
    return { kind: 'not_found', suggestions };
  }

  /**
   * Matched teams best first: in the asked competition, then matched by canonical name rather than
   * only an alias ("Real" → Real Madrid before Espanyol's "Real Club Deportivo Espanyol"), then
   * by the season last played in (a day's difference between two current teams means nothing), then alphabetical.
   */
  private order(matches: Matches, competition?: string): TeamRecord[] {
    return [...matches.keys()].sort((a, b) => this.compareTeams(a, b, competition, matches)).map((t) => this.teams[t]);
  }

  private compareTeams(a: number, b: number, competition: string | undefined, matches?: Matches): number {
    const ta = this.teams[a];
    const tb = this.teams[b];
    const inComp = (t: TeamRecord) => (competition !== undefined && t.competitions.includes(competition) ? 1 : 0);
    const byName = (t: number) => (matches?.get(t)?.byName ? 1 : 0);
    return inComp(tb) - inComp(ta) || byName(b) - byName(a) || seasonOf(tb) - seasonOf(ta) || ta.name.localeCompare(tb.name);
  }

  private teamsOf(spellings: Iterable<number> | undefined): Matches {
    const matches: Matches = new Map();
    for (const s of spellings ?? []) {
      const { team, isName } = this.spellings[s];
      matches.set(team, { byName: isName || (matches.get(team)?.byName ?? false) });
    }
    return matches;
  }

  /**
   * Spellings in which every query token starts some word, in any order ("munchen bayern", "man u").
   * A whole word does not outrank a word start: the alias lists abbreviate ("Eint. Frankfurt",
   * "Barnsley St. Peter's"), so "eint" or "peter" being a whole word somewhere means little.
   */
  private spellingsWithPrefixes(tokens: string[]): Set<number> {
    let result: Set<number> | undefined;
    for (const prefix of tokens) {
      const hits = new Set<number>();
      for (let i = lowerBound(this.sortedTokens, prefix); i < this.sortedTokens.length && this.sortedTokens[i].startsWith(prefix); i++) {
        for (const s of this.byToken.get(this.sortedTokens[i])!) if (!result || result.has(s)) hits.add(s);
      }
      result = hits;
      if (result.size === 0) break;
    }
    return result ?? new Set();
  }

  /** Spellings containing the query's text; with the spaces kept, so that "ebar" is not found across "Espanyol Barcelona". */
  private spellingsContaining(text: string): number[] {
    if (text.replace(/ /g, '').length < MIN_PARTIAL_LENGTH) return [];
    const out: number[] = [];
    this.spellings.forEach((s, i) => {
      if (s.normalized.includes(text)) out.push(i);
    });
    return out;
  }
}

/** The query in the forms the indexes use; undefined when it is too short to name anything ("", "?!", "a"). */
function parseQuery(raw: string): Query | undefined {
  const normalized = normalizeName(raw);
  if (normalized.replace(/ /g, '').length < 2) return undefined;
  const loose = looseKey(raw);
  const text = loose || normalized;
  return { compact: normalized.replace(/ /g, ''), looseCompact: loose.replace(/ /g, ''), tokens: [...new Set(text.split(' '))], text };
}

/** "PSG", "WBA": one short word; shorter than three letters collides with too many initials. */
function isAcronymQuery(q: Query): boolean {
  return q.tokens.length === 1 && q.looseCompact.length >= 3 && q.looseCompact.length <= 5;
}

/**
 * Edits a query may contain and still be taken as one team: about one per four letters, at most three.
 * A transposition costs two, so "Liverpol"/"Tottenahm" pass while "Cologne" stays clear of "Bologna".
 */
function typoBudget(length: number): number {
  if (length < 4) return 0;
  return Math.min(3, Math.max(1, Math.floor(length / 4)));
}

/**
 * Whether the club-form words looseKey() dropped from a spelling were only abbreviations and
 * articles (FC, AC, VfB, de, the). "Arsenal FC" may stand for "Arsenal", but "Real Sporting"
 * without "sporting" would claim the generic "Real", and "Athletic Club" the generic "Athletic".
 */
function dropsOnlyAbbreviations(tokens: readonly string[], looseTokens: readonly string[]): boolean {
  const kept = new Set(looseTokens);
  return tokens.every((w) => kept.has(w) || w.length <= 3);
}

/** Start year of the season (July to June) of the team's last match; 0 when unknown. */
function seasonOf(team: TeamRecord): number {
  if (!team.lastPlayed) return 0;
  const year = Number(team.lastPlayed.slice(0, 4));
  return team.lastPlayed.slice(5, 7) < '07' ? year - 1 : year;
}

/** The set of characters of a normalised string as bits: a–z one bit each, digits folded onto the six spare bits (a lower bound stays a lower bound). */
function letterSet(text: string): number {
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bits |= 1 << (c >= 97 ? c - 97 : 26 + ((c - 48) % 6));
  }
  return bits;
}

/** Population count of a 32-bit integer (SWAR: bits summed pairwise, then in nibbles, then bytes). */
function bitCount(bits: number): number {
  let x = bits - ((bits >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  x += x >>> 8;
  x += x >>> 16;
  return x & 0x3f;
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** First index whose value is >= key in a sorted array. */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
