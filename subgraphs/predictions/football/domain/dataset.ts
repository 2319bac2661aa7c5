import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { looseKey, normalizeName, stripLanguageTag } from './names';

/**
 * Parses the openfootball JSON format (see data/football/README.md) into clean records.
 * Pure: no database. Every quirk of the shipped data is handled here, once, so that the
 * loader, the importer and the model all see the same matches.
 */

export type MatchStatus = 'scheduled' | 'finished' | 'cancelled' | 'awarded' | 'postponed';

export interface CompetitionInfo {
  code: string;
  name: string;
  country: string;
  tier: number;
  timeZone: string;
  /** Club files whose clubs may play in this competition (Welsh clubs play in England, Monaco in France). */
  clubFiles: string[];
}

export const COMPETITIONS: readonly CompetitionInfo[] = [
  { code: 'en.1', name: 'English Premier League', country: 'England', tier: 1, timeZone: 'Europe/London', clubFiles: ['eng', 'wal'] },
  { code: 'en.2', name: 'English Championship', country: 'England', tier: 2, timeZone: 'Europe/London', clubFiles: ['eng', 'wal'] },
  { code: 'de.1', name: 'Bundesliga', country: 'Germany', tier: 1, timeZone: 'Europe/Berlin', clubFiles: ['de'] },
  { code: 'es.1', name: 'La Liga', country: 'Spain', tier: 1, timeZone: 'Europe/Madrid', clubFiles: ['es'] },
  { code: 'it.1', name: 'Serie A', country: 'Italy', tier: 1, timeZone: 'Europe/Rome', clubFiles: ['it'] },
  { code: 'fr.1', name: 'Ligue 1', country: 'France', tier: 1, timeZone: 'Europe/Paris', clubFiles: ['fr', 'mc'] },
];

export function competitionByCode(code: string): CompetitionInfo | undefined {
  return COMPETITIONS.find((c) => c.code === code);
}

/**
 * Two spellings in the match files are missing from the alias lists (data README, quirk 2):
 * "RC Celta" is RC Celta Vigo and "Gazélec FC Ajaccio" is GFC Ajaccio.
 */
const MISSING_ALIASES: Record<string, Record<string, string[]>> = {
  es: { 'RC Celta Vigo': ['RC Celta'] },
  fr: { 'GFC Ajaccio': ['Gazélec FC Ajaccio'] },
};

export interface ClubEntry {
  name: string;
  aliases: string[];
}

export interface Club {
  /** Canonical name, the club file's `name`. Unique across the data set. */
  name: string;
  country: string;
  aliases: string[];
}

export interface ParsedMatch {
  competition: string;
  season: string;
  stage: string;
  round: string | null;
  /** Local match date, YYYY-MM-DD, after the 2019-20 correction. */
  date: string;
  time: string | null;
  kickoff: Date;
  home: string;
  away: string;
  /** Team names as the file spells them, kept as aliases. */
  rawHome: string;
  rawAway: string;
  status: MatchStatus;
  homeGoals: number | null;
  awayGoals: number | null;
  homeGoalsHalfTime: number | null;
  awayGoalsHalfTime: number | null;
  /** Decimal odds [home, draw, away] by bookmaker, when the source carries them (CSV feeds). */
  odds?: Record<string, [number, number, number]>;
}

export interface RawMatch {
  round?: string;
  stage?: string;
  date: string;
  time?: string;
  team1: string;
  team2: string;
  score?: { ft?: number[]; ht?: number[] };
  status?: string;
  odds?: Record<string, [number, number, number]>;
}

export interface RawSeasonFile {
  name?: string;
  matches: RawMatch[];
  /** A CSV's division codes (its `Div` column), when it has one: its proof of league. */
  divisions?: string[];
}

export class DatasetError extends Error {}

/** Resolves a raw team name from a match file to its club. */
export interface ClubResolver {
  resolve(raw: string, clubFiles: readonly string[]): Club | undefined;
}

/** Club directory: resolves any spelling of a club to its canonical club, per country group. */
export class ClubDirectory implements ClubResolver {
  private readonly byFile = new Map<string, Club[]>();
  private readonly exact = new Map<string, Map<string, Club>>();
  private readonly loose = new Map<string, Map<string, Club | null>>();

  constructor(files: Record<string, { country: string; clubs: ClubEntry[] }>) {
    for (const [file, { country, clubs }] of Object.entries(files)) {
      const all = clubs.map((c) => ({
        name: c.name,
        country,
        aliases: unique([...c.aliases, ...(MISSING_ALIASES[file]?.[c.name] ?? [])].map(stripLanguageTag).filter((a) => a && a !== c.name)),
      }));
      this.byFile.set(file, all);
      const exact = new Map<string, Club>();
      const loose = new Map<string, Club | null>();
      for (const club of all) {
        for (const spelling of [club.name, ...club.aliases]) {
          const key = normalizeName(spelling);
          if (!exact.has(key)) exact.set(key, club);
          const lk = looseKey(spelling);
          if (!lk) continue;
          const seen = loose.get(lk);
          // a loose key shared by two clubs is ambiguous: remember that, never guess
          loose.set(lk, seen === undefined || seen === club ? club : null);
        }
      }
      this.exact.set(file, exact);
      this.loose.set(file, loose);
    }
  }

  static fromDirectory(dir: string): ClubDirectory {
    const files: Record<string, { country: string; clubs: ClubEntry[] }> = {};
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.clubs.json'))) {
      const json = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { clubs: ClubEntry[] };
      const file = f.replace('.clubs.json', '');
      files[file] = { country: COUNTRY_OF_FILE[file] ?? file, clubs: json.clubs };
    }
    return new ClubDirectory(files);
  }

  /** A club by its canonical name. */
  clubOf(name: string): Club | undefined {
    for (const clubs of this.byFile.values()) {
      const hit = clubs.find((c) => c.name === name);
      if (hit) return hit;
    }
    return undefined;
  }

  /** The club a raw name from a match file means, searching the competition's club files. */
  resolve(raw: string, clubFiles: readonly string[]): Club | undefined {
    const key = normalizeName(raw);
    for (const f of clubFiles) {
      const hit = this.exact.get(f)?.get(key);
      if (hit) return hit;
    }
    const lk = looseKey(raw);
    for (const f of clubFiles) {
      const hit = this.loose.get(f)?.get(lk);
      if (hit) return hit;
    }
    return undefined;
  }
}

const COUNTRY_OF_FILE: Record<string, string> = {
  eng: 'England',
  wal: 'Wales',
  de: 'Germany',
  es: 'Spain',
  it: 'Italy',
  fr: 'France',
  mc: 'Monaco',
};

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/**
 * Quirk 1: the 2019-20 restart matches (1–26 July 2020) are dated a year early, 2019-07-xx. A date
 * before SEASONSTART-07-28 belongs to the next year: no season in the data starts before 29 July,
 * and the restart ran until 26 July. (The data README's 07-15 cut-off fixes only the first half.)
 */
export function correctSeasonDate(season: string, date: string): string {
  const start = Number(season.slice(0, 4));
  if (date < `${start}-07-28`) return `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;
  return date;
}

/** Local date + time in the competition's time zone → UTC instant. Kick-off time defaults to 15:00 local. */
export function kickoffInstant(date: string, time: string | null, timeZone: string): Date {
  const [h, m] = (time ?? '15:00').split(':').map(Number);
  const naiveUtc = Date.parse(`${date}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00Z`);
  // offset of the zone at that moment (apply twice to settle around DST changes)
  let instant = naiveUtc - zoneOffsetMs(naiveUtc, timeZone);
  instant = naiveUtc - zoneOffsetMs(instant, timeZone);
  return new Date(instant);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
function zoneOffsetMs(utcMs: number, timeZone: string): number {
  let fmt = offsetFormatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, fmt);
  }
  const parts = Object.fromEntries(fmt.formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

const SEASON_RE = /^(\d{4})-(\d{2})$/;

export function validateSeason(season: string): void {
  const m = SEASON_RE.exec(season);
  if (!m || (Number(m[1]) + 1) % 100 !== Number(m[2])) throw new DatasetError(`season must look like 2025-26, got "${season}"`);
}

function isScore(x: unknown): x is [number, number] {
  return Array.isArray(x) && x.length === 2 && x.every((n) => Number.isInteger(n) && n >= 0 && n < 100);
}

/** Splits "Regular, Matchday 46" / "Finals, Semifinals" into stage and round. */
function stageAndRound(m: RawMatch): { stage: string; round: string | null } {
  const round = m.round?.trim() || null;
  if (m.stage) return { stage: m.stage, round };
  if (round && round.includes(', ')) {
    const [stage, ...rest] = round.split(', ');
    return { stage, round: rest.join(', ') };
  }
  return { stage: 'Regular', round };
}

export interface ParseOptions {
  competition: CompetitionInfo;
  season: string;
  clubs: ClubResolver;
  /**
   * Latest date with a known result in this competition. A match without a score dated on or
   * before it was played, but its score is unknown (quirk 3): finished, score null.
   */
  resultCutoff: string | null;
  /**
   * A name no club file or known team spells: a new club (a feed's promoted side), when given;
   * otherwise the file is rejected.
   */
  newClub?: (raw: string) => Club;
}

/** Parses one season file. Throws DatasetError with the offending row on bad input; returns nothing partial. */
export function parseSeasonFile(file: RawSeasonFile, opts: ParseOptions): ParsedMatch[] {
  validateSeason(opts.season);
  if (!file || !Array.isArray(file.matches)) throw new DatasetError('expected an object with a "matches" array');
  const seen = new Map<string, number>();
  return file.matches.map((m, i) => {
    const where = `matches[${i}]`;
    if (!m || typeof m !== 'object') throw new DatasetError(`${where}: not an object`);
    if (typeof m.team1 !== 'string' || typeof m.team2 !== 'string' || !m.team1.trim() || !m.team2.trim()) {
      throw new DatasetError(`${where}: team1 and team2 must be non-empty strings`);
    }
    if (typeof m.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(m.date) || Number.isNaN(Date.parse(m.date))) {
      throw new DatasetError(`${where}: date must be YYYY-MM-DD`);
    }
    if (m.time !== undefined && (typeof m.time !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(m.time))) {
      throw new DatasetError(`${where}: time must be HH:MM`);
    }
    const home = opts.clubs.resolve(m.team1, opts.competition.clubFiles) ?? opts.newClub?.(m.team1.trim());
    const away = opts.clubs.resolve(m.team2, opts.competition.clubFiles) ?? opts.newClub?.(m.team2.trim());
    if (!home) throw new DatasetError(`${where}: unknown team "${m.team1}"`);
    if (!away) throw new DatasetError(`${where}: unknown team "${m.team2}"`);
    if (home === away) throw new DatasetError(`${where}: a team cannot play itself ("${m.team1}")`);
    const ft = m.score?.ft;
    const ht = m.score?.ht;
    if (ft !== undefined && !isScore(ft)) throw new DatasetError(`${where}: score.ft must be [home, away] goals`);
    if (ht !== undefined && !isScore(ht)) throw new DatasetError(`${where}: score.ht must be [home, away] goals`);
    const date = correctSeasonDate(opts.season, m.date);
    const time = m.time ?? null;
    const { stage, round } = stageAndRound(m);
    // one pairing per stage and season: a second one would be the same match told twice, differently
    const key = matchKey({ competition: opts.competition.code, season: opts.season, stage, home: home.name, away: away.name });
    const first = seen.get(key);
    if (first !== undefined) throw new DatasetError(`${where}: ${home.name} v ${away.name} (${stage}) is also matches[${first}]`);
    seen.set(key, i);
    if (m.odds !== undefined && !validOdds(m.odds)) throw new DatasetError(`${where}: odds must map bookmakers to [home, draw, away] decimal odds`);
    let status: MatchStatus;
    let score: [number, number] | null = ft ?? null;
    switch (m.status) {
      case undefined:
        status = score || (opts.resultCutoff !== null && date <= opts.resultCutoff) ? 'finished' : 'scheduled';
        break;
      case 'awarded':
        status = 'awarded';
        break;
      case 'cancelled':
        status = 'cancelled';
        score = null;
        break;
      case 'postponed':
        status = 'postponed';
        score = null;
        break;
      default:
        throw new DatasetError(`${where}: unknown status "${m.status}"`);
    }
    return {
      competition: opts.competition.code,
      season: opts.season,
      stage,
      round,
      date,
      time,
      kickoff: kickoffInstant(date, time, opts.competition.timeZone),
      home: home.name,
      away: away.name,
      rawHome: m.team1,
      rawAway: m.team2,
      status,
      homeGoals: score ? score[0] : null,
      awayGoals: score ? score[1] : null,
      homeGoalsHalfTime: ht && status !== 'cancelled' && status !== 'postponed' ? ht[0] : null,
      awayGoalsHalfTime: ht && status !== 'cancelled' && status !== 'postponed' ? ht[1] : null,
      ...(m.odds && Object.keys(m.odds).length ? { odds: m.odds } : {}),
    };
  });
}

function validOdds(odds: unknown): boolean {
  if (!odds || typeof odds !== 'object' || Array.isArray(odds)) return false;
  return Object.entries(odds as Record<string, unknown>).every(
    ([bookmaker, o]) =>
      /^[A-Za-z0-9]{1,16}$/.test(bookmaker) &&
      Array.isArray(o) &&
      o.length === 3 &&
      o.every((x) => typeof x === 'number' && Number.isFinite(x) && x > 1 && x < 10_000),
  );
}

/** Latest date with a full-time score in a file (undefined when none). */
export function latestResultDate(file: RawSeasonFile, season: string): string | undefined {
  let latest: string | undefined;
  for (const m of Array.isArray(file?.matches) ? file.matches : []) {
    if (m && m.score && isScore(m.score.ft) && typeof m.date === 'string') {
      const d = correctSeasonDate(season, m.date);
      if (!latest || d > latest) latest = d;
    }
  }
  return latest;
}

export interface SeasonFileRef {
  competition: CompetitionInfo;
  season: string;
  path: string;
}

/** Every season file of the shipped data set, oldest first. */
export function listSeasonFiles(dataDir: string): SeasonFileRef[] {
  const refs: SeasonFileRef[] = [];
  for (const season of readdirSync(dataDir)
    .filter((d) => SEASON_RE.test(d))
    .sort()) {
    for (const competition of COMPETITIONS) {
      const path = join(dataDir, season, `${competition.code}.json`);
      if (existsSync(path)) refs.push({ competition, season, path });
    }
  }
  return refs;
}

export interface Dataset {
  clubs: ClubDirectory;
  matches: ParsedMatch[];
}

/** Reads the whole shipped data set (about 33k matches). */
export function readDataset(dataDir: string): Dataset {
  const clubs = ClubDirectory.fromDirectory(join(dataDir, 'clubs'));
  const refs = listSeasonFiles(dataDir);
  const files = refs.map((ref) => ({ ref, json: JSON.parse(readFileSync(ref.path, 'utf8')) as RawSeasonFile }));
  const cutoff = new Map<string, string>();
  for (const { ref, json } of files) {
    const latest = latestResultDate(json, ref.season);
    const prev = cutoff.get(ref.competition.code);
    if (latest && (!prev || latest > prev)) cutoff.set(ref.competition.code, latest);
  }
  const matches = files.flatMap(({ ref, json }) =>
    parseSeasonFile(json, { competition: ref.competition, season: ref.season, clubs, resultCutoff: cutoff.get(ref.competition.code) ?? null }),
  );
  return { clubs, matches };
}

/** The match's identity across reloads and imports. */
export function matchKey(m: Pick<ParsedMatch, 'competition' | 'season' | 'stage' | 'home' | 'away'>): string {
  return `${m.competition}|${m.season}|${m.stage}|${m.home}|${m.away}`;
}
