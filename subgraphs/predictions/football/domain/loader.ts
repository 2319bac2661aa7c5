import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { badInput } from '../../../../lib/errors';
import { MATCHES_CHANGED, type MatchesChangedEvent } from '../../kernel/events';
import type { Logger } from '../../../../lib/logger';
import type { FootballStore, MatchUpsert } from '../store/football-store';
import {
  COMPETITIONS,
  ClubDirectory,
  DatasetError,
  competitionByCode,
  latestResultDate,
  parseSeasonFile,
  readDataset,
  validateSeason,
  type Club,
  type ClubResolver,
  type ParsedMatch,
  type RawSeasonFile,
} from './dataset';
import { normalizeName } from './names';
import { proveLeague, proveResultsPast, proveSeasonDates, proveTeams } from './season-proof';

export interface ImportReport {
  source: string;
  matches: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: boolean;
  /** Clubs the import added (a feed's promoted sides). */
  newTeams?: string[];
  /** Matches whose bookmakers' odds were stored. */
  odds?: number;
}

export interface ImportOptions {
  /** What the import is recorded as (`import`, `feed`). */
  source?: string;
  /** A team no club file or known team spells is a new club (feeds), instead of an error. */
  newClubs?: boolean;
  /**
   * A result dated after now is refused (a file from outside: the feed, the CLI). An administrator's
   * importMatches may record a result ahead of the product's clock (tests and corrections).
   */
  pastResultsOnly?: boolean;
}

/** Bump when the parsing rules change, so that a database loaded under the old rules reloads. */
const PARSING_RULES_VERSION = '2';

function checksumOf(dir: string): string {
  const hash = createHash('sha256').update(PARSING_RULES_VERSION);
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) hash.update(relative(dir, path)).update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** Loads the shipped data set and imports new fixtures and results in the same JSON format. */
export class FootballLoader {
  constructor(
    private readonly store: FootballStore,
    private readonly dataDir: string,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Idempotent: skipped when the shipped files are unchanged since the last load. */
  async loadShipped(opts: { force?: boolean } = {}): Promise<ImportReport> {
    const checksum = checksumOf(this.dataDir);
    const source = 'shipped';
    if (!opts.force && (await this.store.lastChecksum(source)) === checksum) {
      return { source, matches: 0, inserted: 0, updated: 0, unchanged: 0, skipped: true };
    }
    const started = Date.now();
    const { clubs, matches } = readDataset(this.dataDir);
    const report = await this.persist(source, checksum, matches, clubs);
    this.logger.info({ ...report, ms: Date.now() - started }, 'football data loaded');
    return report;
  }

  /** Imports one season file (openfootball JSON) for a competition: new fixtures, results, corrections. */
  async importSeason(competitionCode: string, season: string, file: RawSeasonFile, opts: ImportOptions = {}): Promise<ImportReport> {
    const source = opts.source ?? 'import';
    const competition = competitionByCode(competitionCode);
    if (!competition) throw badInput(`Unknown competition "${competitionCode}"; known: ${COMPETITIONS.map((c) => c.code).join(', ')}.`);
    try {
      validateSeason(season);
    } catch (e) {
      throw badInput((e as Error).message);
    }
    const clubs = new KnownTeamsResolver(ClubDirectory.fromDirectory(join(this.dataDir, 'clubs')), await this.store.teamsForResolution());
    const competitionId = (await this.store.competitionIds()).get(competition.code);
    const dbCutoff = competitionId === undefined ? null : await this.store.resultCutoff(competitionId);
    let matches: ParsedMatch[];
    const newTeams = new Map<string, Club>();
    const newClub = opts.newClubs
      ? (raw: string): Club => {
          let club = newTeams.get(normalizeName(raw));
          if (!club) {
            club = { name: raw, country: competition.country, aliases: [] };
            newTeams.set(normalizeName(raw), club);
          }
          return club;
        }
      : undefined;
    try {
      if (!file || typeof file !== 'object' || !Array.isArray(file.matches)) throw new DatasetError('expected an object with a "matches" array');
      // the file proves it is what its key says before anything is read into the data
      proveLeague(file, competition, season);
      proveSeasonDates(file, competition, season);
      const fileCutoff = latestResultDate(file, season);
      const cutoff =
        [dbCutoff, fileCutoff]
          .filter((d): d is string => !!d)
          .sort()
          .pop() ?? null;
      matches = parseSeasonFile(file, { competition, season, clubs, resultCutoff: cutoff, newClub });
      if (competitionId !== undefined) proveTeams(matches, competition, await this.store.teamsOfCompetition(competitionId));
      if (opts.pastResultsOnly) proveResultsPast(matches, this.clock());
    } catch (e) {
      if (e instanceof DatasetError) throw badInput(e.message);
      throw e;
    }
    const checksum = createHash('sha256').update(JSON.stringify(file)).digest('hex');
    const added = [...newTeams.values()];
    const report = await this.persist(`${source}:${competition.code}:${season}`, checksum, matches, {
      resolve: (raw, files) => clubs.resolve(raw, files),
      clubOf: (name) => clubs.clubOf(name) ?? added.find((c) => c.name === name),
    });
    return added.length ? { ...report, newTeams: added.map((c) => c.name) } : report;
  }

  private async persist(
    source: string,
    checksum: string,
    matches: ParsedMatch[],
    clubs: ClubResolver & { clubOf(name: string): Club | undefined },
  ): Promise<ImportReport> {
    return this.store.transaction(async (client) => {
      const competitionIds = await this.store.upsertCompetitions(
        client,
        COMPETITIONS.map(({ code, name, country, tier }) => ({ code, name, country, tier })),
      );
      const teams = new Map<string, { name: string; country: string; aliases: Set<string> }>();
      for (const m of matches) {
        for (const [name, raw] of [
          [m.home, m.rawHome],
          [m.away, m.rawAway],
        ]) {
          let t = teams.get(name);
          if (!t) {
            const club = clubs.clubOf(name);
            t = { name, country: club?.country ?? '', aliases: new Set(club?.aliases ?? []) };
            teams.set(name, t);
          }
          if (raw !== name) t.aliases.add(raw);
        }
      }
      const teamIds = await this.store.upsertTeams(
        client,
        [...teams.values()].map((t) => ({ name: t.name, country: t.country, aliases: [...t.aliases] })),
      );
      const rows: MatchUpsert[] = matches.map((m) => ({
        competitionId: competitionIds.get(m.competition)!,
        season: m.season,
        stage: m.stage,
        round: m.round,
        date: m.date,
        kickoff: m.kickoff,
        homeTeamId: teamIds.get(m.home)!,
        awayTeamId: teamIds.get(m.away)!,
        status: m.status,
        homeGoals: m.homeGoals,
        awayGoals: m.awayGoals,
        homeGoalsHalfTime: m.homeGoalsHalfTime,
        awayGoalsHalfTime: m.awayGoalsHalfTime,
      }));
      const { inserted, updated, ids } = await this.store.upsertMatches(client, rows);
      // the bookmakers' odds a source carries, beside the matches, in the same transaction
      const priced = matches.flatMap((m, i) => (m.odds ? [i] : []));
      if (priced.length) {
        const matchIds = await this.store.matchIdsOf(
          client,
          priced.map((i) => rows[i]),
        );
        await this.store.upsertOdds(
          client,
          priced.flatMap((i, k) =>
            Object.entries(matches[i].odds!).map(([bookmaker, [home, draw, away]]) => ({ matchId: matchIds[k], bookmaker, home, draw, away })),
          ),
        );
      }
      await this.store.recordImport(client, { source, checksum, matches: rows.length, inserted, updated });
      if (ids.length)
        await client.query('SELECT pg_notify($1, $2)', [MATCHES_CHANGED, JSON.stringify({ source, changed: ids.length } satisfies MatchesChangedEvent)]);
      return {
        source,
        matches: rows.length,
        inserted,
        updated,
        unchanged: rows.length - inserted - updated,
        skipped: false,
        ...(priced.length ? { odds: priced.length } : {}),
      };
    });
  }
}

/** The club files first, then the teams already in the database (by name or alias). */
class KnownTeamsResolver implements ClubResolver {
  private readonly known = new Map<string, Club>();

  constructor(
    private readonly directory: ClubDirectory,
    teams: { name: string; country: string; aliases: string[] }[],
  ) {
    for (const t of teams) {
      const club: Club = { name: t.name, country: t.country, aliases: t.aliases };
      for (const spelling of [t.name, ...t.aliases]) this.known.set(normalizeName(spelling), club);
    }
  }

  resolve(raw: string, clubFiles: readonly string[]): Club | undefined {
    return this.directory.resolve(raw, clubFiles) ?? this.known.get(normalizeName(raw));
  }

  clubOf(name: string): Club | undefined {
    return this.known.get(normalizeName(name)) ?? this.directory.clubOf(name);
  }
}
