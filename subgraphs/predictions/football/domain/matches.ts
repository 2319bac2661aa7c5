import { badInput } from '../../../../lib/errors';
import { NotifiedMemo } from '../../../../lib/notified-memo';
import { decodeCursor, encodeCursor, pageSize } from '../../../../lib/pagination';
import type { DatasetSummary, FootballStore, LeagueStatusRow, MatchRow } from '../store/football-store';
import type { FootballCatalogue } from './catalogue';
import type { MatchStatus } from './dataset';

export interface MatchFilter {
  ids?: number[] | null;
  competition?: string | null;
  season?: string | null;
  teamId?: number | null;
  /** A team name or alias; must resolve to exactly one team. */
  team?: string | null;
  status?: MatchStatus | null;
  from?: Date | null;
  to?: Date | null;
  /** Only matches that kick off after now (the product's clock): what "upcoming" means everywhere. */
  upcoming?: boolean | null;
}

export interface MatchPage {
  rows: MatchRow[];
  hasNextPage: boolean;
  endCursor: string | null;
  cursorOf(row: MatchRow): string;
}

/** The earliest next kick-off of the leagues: the per-league counts change then, by time alone. */
const nextKickoffOf = (leagues: LeagueStatusRow[]): number | undefined => {
  let next: number | undefined;
  for (const l of leagues) {
    const at = l.nextKickoff === null ? undefined : new Date(l.nextKickoff).getTime();
    if (at !== undefined && (next === undefined || at < next)) next = at;
  }
  return next;
};

/** A league's ratings are stale when its newest result is more than `days` before now. */
export function ratingsStale(latestResultDate: string | null, now: Date, days: number): boolean {
  if (!latestResultDate) return true;
  return now.getTime() - Date.parse(`${latestResultDate}T00:00:00Z`) > days * 86_400_000;
}

/**
 * Reading matches: filters, keyset pagination, the next scheduled match, the data set's extent. The
 * extent (summary and per-league status) is kept in memory, computed again when the football tables
 * announce a change (`invalidate`) or the next kick-off passes; while the announcements do not arrive
 * (`listening(false)`), every read computes it.
 */
export class MatchService {
  private readonly summaryMemo: NotifiedMemo<DatasetSummary>;
  private readonly leaguesMemo: NotifiedMemo<LeagueStatusRow[]>;

  constructor(
    private readonly store: FootballStore,
    private readonly catalogue: FootballCatalogue,
    private readonly clock: () => Date = () => new Date(),
  ) {
    const now = () => this.clock().getTime();
    this.summaryMemo = new NotifiedMemo(() => this.store.summary(), { now });
    this.leaguesMemo = new NotifiedMemo(() => this.store.leagueStatus(this.clock()), { now, validUntil: nextKickoffOf });
  }

  now(): Date {
    return this.clock();
  }

  /** Per league: newest result, last change, next kick-off, upcoming and awaiting-result counts. */
  leagues(): Promise<LeagueStatusRow[]> {
    return this.leaguesMemo.get();
  }

  /** For DataLoader: rows in the order of `ids`, undefined where there is no such match. */
  async byIds(ids: readonly number[]): Promise<(MatchRow | undefined)[]> {
    const rows = await this.store.matchesByIds(ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id));
  }

  async find(filter: MatchFilter, page: { first?: number | null; after?: string | null; descending?: boolean }): Promise<MatchPage> {
    const limit = pageSize(page.first, 20, 200);
    const after = page.after ? decodeCursor(page.after) : undefined;
    let competitionId: number | undefined;
    if (filter.competition) {
      const c = this.catalogue.competition(filter.competition);
      if (!c) throw badInput(`Unknown competition "${filter.competition}".`);
      competitionId = c.id;
    }
    let teamId = filter.teamId ?? undefined;
    if (filter.team) {
      const r = this.catalogue.resolveTeam(filter.team, filter.competition ?? undefined);
      if (r.kind === 'ambiguous') throw badInput(`"${filter.team}" is ambiguous: ${r.candidates.map((c) => c.name).join(', ')}.`);
      if (r.kind === 'not_found') throw badInput(`No team matches "${filter.team}".`);
      teamId = r.team.id;
    }
    if (filter.from && filter.to && filter.from > filter.to) throw badInput('from must not be after to.');
    if (filter.ids && filter.ids.length > 1000) throw badInput('ids: at most 1,000 match ids.');
    let from = filter.from ?? undefined;
    if (filter.upcoming) {
      const after = new Date(this.clock().getTime() + 1);
      if (!from || from < after) from = after;
    }
    const rows = await this.store.findMatches({
      ids: filter.ids ?? undefined,
      competitionId,
      season: filter.season ?? undefined,
      teamId,
      status: filter.status ?? undefined,
      from,
      to: filter.to ?? undefined,
      after: after ? { kickoff: after.at, id: after.id } : undefined,
      descending: page.descending ?? false,
      limit: limit + 1,
    });
    const hasNextPage = rows.length > limit;
    const pageRows = rows.slice(0, limit);
    const last = pageRows[pageRows.length - 1];
    return {
      rows: pageRows,
      hasNextPage,
      endCursor: last ? encodeCursor(last.kickoff, last.id) : null,
      cursorOf: (r) => encodeCursor(r.kickoff, r.id),
    };
  }

  /** The earliest scheduled match without a result that has not kicked off. */
  async next(competition?: string | null): Promise<MatchRow | undefined> {
    let competitionId: number | undefined;
    if (competition) {
      const c = this.catalogue.competition(competition);
      if (!c) throw badInput(`Unknown competition "${competition}".`);
      competitionId = c.id;
    }
    return this.store.nextScheduled(this.clock(), competitionId);
  }

  summary(): Promise<DatasetSummary> {
    return this.summaryMemo.get();
  }

  /** The football tables changed (their announcement, or an import in this process): the extent is stale. */
  invalidate(): void {
    this.summaryMemo.invalidate();
    this.leaguesMemo.invalidate();
  }

  /** Whether the tables' announcements arrive: the extent is kept in memory only while they do. */
  listening(on: boolean): void {
    this.summaryMemo.listening(on);
    this.leaguesMemo.listening(on);
  }
}
