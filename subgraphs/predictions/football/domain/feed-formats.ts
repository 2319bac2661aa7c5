import { DatasetError, kickoffInstant, type CompetitionInfo, type RawMatch, type RawSeasonFile } from './dataset';

/**
 * The two formats a feed source may serve, recognised from the content: openfootball's football.json
 * (the format of data/football) and football-data.co.uk's CSV (results files and fixtures.csv). Both
 * become a RawSeasonFile, which the loader validates and imports as any import. Pure: no I/O.
 */

export type FeedFormat = 'football.json' | 'csv';

/** football-data.co.uk's division codes of the competitions this product covers. */
export const CSV_DIVISIONS: Record<string, string> = { E0: 'en.1', E1: 'en.2', D1: 'de.1', SP1: 'es.1', I1: 'it.1', F1: 'fr.1' };

/** Odds of one bookmaker (or market average/maximum) for home, draw and away, as decimal odds. */
export type Odds = [number, number, number];

export interface ParsedFeed {
  format: FeedFormat;
  file: RawSeasonFile;
  /** Rows of other divisions in a multi-division file (fixtures.csv), left out. */
  skipped: number;
}

export function detectFormat(text: string): FeedFormat {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) return 'football.json';
  const header = start.split(/\r?\n/, 1)[0] ?? '';
  const columns = header.split(',').map((c) => c.trim());
  if ((columns.includes('HomeTeam') || columns.includes('Home')) && (columns.includes('AwayTeam') || columns.includes('Away')) && columns.includes('Date')) {
    return 'csv';
  }
  throw new DatasetError(
    'not a format the feed reads: expected football.json (an object with "matches") or a football-data.co.uk CSV (Date, HomeTeam, AwayTeam, …)',
  );
}

export function parseFeed(text: string, competition: CompetitionInfo): ParsedFeed {
  const format = detectFormat(text);
  if (format === 'football.json') {
    let file: RawSeasonFile;
    try {
      file = JSON.parse(text.replace(/^\uFEFF/, '')) as RawSeasonFile;
    } catch (e) {
      // a file cut off in transfer ends here too
      throw new DatasetError(`not valid JSON (truncated?): ${(e as Error).message}`);
    }
    if (!file || typeof file !== 'object' || !Array.isArray(file.matches)) throw new DatasetError('expected an object with a "matches" array');
    return { format, file, skipped: 0 };
  }
  return { format, ...csvToSeasonFile(text, competition) };
}

/** RFC 4180 rows (quoted fields may hold commas and quotes); a quote left open is an error. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (quoted) throw new DatasetError('CSV ends inside a quoted field (truncated?)');
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0].trim() === ''));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/mm/yy or dd/mm/yyyy → YYYY-MM-DD (undefined when not a real date). */
function csvDate(raw: string): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(raw.trim());
  if (!m) return undefined;
  const year = m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  const iso = `${year}-${pad(Number(m[2]))}-${pad(Number(m[1]))}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

const localParts = (instant: Date, timeZone: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
};

/** Goals: a whole number 0–99, or absent (empty). */
function goals(raw: string | undefined, where: string, column: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d{1,2}$/.test(raw.trim())) throw new DatasetError(`${where}: ${column} must be a number of goals, got "${raw}"`);
  return Number(raw.trim());
}

/** The bookmakers of a header: every prefix with an H, a D and an A column (B365H/B365D/B365A, AvgCH/AvgCD/AvgCA, …). */
function oddsColumns(header: string[]): { bookmaker: string; h: number; d: number; a: number }[] {
  const index = new Map(header.map((c, i) => [c.trim(), i]));
  const out: { bookmaker: string; h: number; d: number; a: number }[] = [];
  for (const [name, h] of index) {
    const m = /^([A-Za-z0-9]+)H$/.exec(name);
    if (!m || m[1] === 'FT' || m[1] === 'HT') continue;
    const d = index.get(`${m[1]}D`);
    const a = index.get(`${m[1]}A`);
    if (d !== undefined && a !== undefined) out.push({ bookmaker: m[1], h, d, a });
  }
  return out;
}

const decimalOdds = (raw: string | undefined): number | undefined => {
  const x = Number(raw?.trim());
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(x) && x > 1 && x < 10_000 ? x : undefined;
};

/**
 * football-data.co.uk CSV → season file. Results files carry FTHG/FTAG (or HG/AG in the extra
 * leagues' layout) and HTHG/HTAG; fixtures.csv has none and holds every division (only the
 * competition's rows are kept). Times are UK time; they become the competition's local time. Every
 * row must be whole: a row with fewer columns than the header (a cut-off file), a score that
 * contradicts its FTR, an unreadable date or goal count rejects the file.
 */
export function csvToSeasonFile(text: string, competition: CompetitionInfo): { file: RawSeasonFile; skipped: number } {
  const rows = parseCsv(text);
  if (rows.length === 0) throw new DatasetError('empty CSV');
  const header = rows[0].map((c) => c.trim());
  const col = (...names: string[]) => names.map((n) => header.indexOf(n)).find((i) => i >= 0);
  const iDiv = col('Div');
  const iDate = col('Date')!;
  const iTime = col('Time');
  const iHome = col('HomeTeam', 'Home')!;
  const iAway = col('AwayTeam', 'Away')!;
  const iFthg = col('FTHG', 'HG');
  const iFtag = col('FTAG', 'AG');
  const iFtr = col('FTR', 'Res');
  const iHthg = col('HTHG');
  const iHtag = col('HTAG');
  const odds = oddsColumns(header);
  const matches: RawMatch[] = [];
  const divisions = new Set<string>();
  let skipped = 0;
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r];
    const where = `line ${r + 1}`;
    if (row.length < header.length) throw new DatasetError(`${where}: ${row.length} of ${header.length} columns (truncated?)`);
    if (iDiv !== undefined) {
      const div = row[iDiv].trim();
      divisions.add(div);
      if (CSV_DIVISIONS[div] !== competition.code) {
        skipped++;
        continue;
      }
    }
    const date = csvDate(row[iDate]);
    if (!date) throw new DatasetError(`${where}: Date must be dd/mm/yy or dd/mm/yyyy, got "${row[iDate]}"`);
    const time = iTime !== undefined && row[iTime].trim() ? row[iTime].trim() : undefined;
    if (time !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) throw new DatasetError(`${where}: Time must be HH:MM, got "${time}"`);
    const local = time ? localParts(kickoffInstant(date, time, 'Europe/London'), competition.timeZone) : { date, time: undefined };
    const fthg = goals(iFthg === undefined ? undefined : row[iFthg], where, 'FTHG');
    const ftag = goals(iFtag === undefined ? undefined : row[iFtag], where, 'FTAG');
    if ((fthg === undefined) !== (ftag === undefined)) throw new DatasetError(`${where}: a full-time score needs both FTHG and FTAG`);
    if (fthg !== undefined && iFtr !== undefined && row[iFtr].trim()) {
      const expected = fthg > ftag! ? 'H' : fthg < ftag! ? 'A' : 'D';
      if (row[iFtr].trim() !== expected) throw new DatasetError(`${where}: FTR "${row[iFtr].trim()}" contradicts the score ${fthg}-${ftag}`);
    }
    const hthg = goals(iHthg === undefined ? undefined : row[iHthg], where, 'HTHG');
    const htag = goals(iHtag === undefined ? undefined : row[iHtag], where, 'HTAG');
    const match: RawMatch = { date: local.date, team1: row[iHome].trim(), team2: row[iAway].trim() };
    if (local.time) match.time = local.time;
    if (fthg !== undefined) match.score = { ft: [fthg, ftag!], ...(hthg !== undefined && htag !== undefined ? { ht: [hthg, htag] } : {}) };
    const quoted: Record<string, Odds> = {};
    for (const o of odds) {
      const [h, d, a] = [decimalOdds(row[o.h]), decimalOdds(row[o.d]), decimalOdds(row[o.a])];
      if (h !== undefined && d !== undefined && a !== undefined) quoted[o.bookmaker] = [h, d, a];
    }
    if (Object.keys(quoted).length) match.odds = quoted;
    matches.push(match);
  }
  return { file: { matches, ...(iDiv !== undefined ? { divisions: [...divisions].sort() } : {}) }, skipped };
}
