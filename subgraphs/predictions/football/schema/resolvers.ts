import DataLoader from 'dataloader';
import { GraphQLJSON } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { badInput } from '../../../../lib/errors';
import { requestLoader, type SubgraphContext } from '../../../../lib/subgraph';
import type { FootballServices } from '../services';
import type { CompetitionRow, MatchRow, TeamRow } from '../store/football-store';
import type { FeedRunRow } from '../store/feed-store';
import type { RawSeasonFile } from '../domain/dataset';
import { ratingsStale } from '../domain/matches';
import {
  Competition,
  FeedRun,
  FeedSyncReport,
  FootballData,
  FootballFeedStatus,
  ImportReport,
  Match,
  MatchConnection,
  MatchFilterInput,
  MatchStatusEnum,
  ResolutionStatus,
  SortOrder,
  Team,
  TeamResolution,
} from './types';

const toCompetition = (c: CompetitionRow): Competition => ({ code: c.code, name: c.name, country: c.country, tier: c.tier, seasons: c.seasons });
const toTeam = (t: TeamRow): Team => ({ id: t.id, name: t.name, country: t.country, aliases: t.aliases, competitions: t.competitions, lastPlayed: t.lastPlayed, lastResult: t.lastResult, currentCompetition: t.currentCompetition });

export function toMatch(row: MatchRow, services: FootballServices): Match {
  const { catalogue } = services;
  return {
    id: row.id,
    competition: toCompetition(catalogue.competitionById(row.competitionId)!),
    season: row.season,
    stage: row.stage,
    round: row.round,
    date: row.date,
    kickoff: row.kickoff,
    status: row.status as MatchStatusEnum,
    homeTeam: toTeam(catalogue.team(row.homeTeamId)!),
    awayTeam: toTeam(catalogue.team(row.awayTeamId)!),
    score: row.homeGoals === null ? null : { home: row.homeGoals, away: row.awayGoals! },
    halfTimeScore: row.homeGoalsHalfTime === null || row.awayGoalsHalfTime === null ? null : { home: row.homeGoalsHalfTime, away: row.awayGoalsHalfTime },
    awaitingResult: row.status === 'scheduled' && row.homeGoals === null && row.kickoff.getTime() <= services.matches.now().getTime(),
  };
}

const toRun = (r: FeedRunRow): FeedRun => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  progress: r.sources ? r.sourcesDone / r.sources : 1,
  sources: r.sources,
  changed: r.changed,
  failed: r.failed,
  error: r.error,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
});

/** One query per batch of match references (entity fetches from other subgraphs), never one per match. */
export function matchLoader(ctx: SubgraphContext, services: FootballServices) {
  return requestLoader(ctx, 'football.match', () => new DataLoader<number, MatchRow | undefined>((ids) => services.matches.byIds(ids)));
}

@Resolver(() => Competition)
export class CompetitionResolver {
  constructor(private readonly services: FootballServices) {}

  @Authorized()
  @Query(() => [Competition], { description: 'The competitions in the data set.' })
  competitions(): Competition[] {
    return this.services.catalogue.competitions().map(toCompetition);
  }
}

@Resolver(() => Team)
export class TeamResolver {
  constructor(private readonly services: FootballServices) {}

  @Authorized()
  @Query(() => [Team], { description: 'Teams, optionally searched by name or alias (case- and accent-insensitive).' })
  teams(
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Arg('competition', () => String, { nullable: true }) competition: string | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
  ): Team[] {
    if (first < 1 || first > 500) throw badInput('first must be between 1 and 500.');
    return this.services.catalogue.teams({ search: search ?? undefined, competition: competition ?? undefined, limit: first }).map(toTeam);
  }

  @Authorized()
  @Query(() => Team, { nullable: true })
  team(@Arg('id', () => Int) id: number): Team | null {
    const t = this.services.catalogue.team(id);
    return t ? toTeam(t) : null;
  }

  @Authorized()
  @Query(() => TeamResolution, { description: 'Resolves what a person typed ("Man Utd", "spurs") to one team, or lists the candidates.' })
  resolveTeam(@Arg('name') name: string, @Arg('competition', () => String, { nullable: true }) competition: string | null): TeamResolution {
    const r = this.services.catalogue.resolveTeam(name, competition ?? undefined);
    const team = (id: number) => toTeam(this.services.catalogue.team(id)!);
    if (r.kind === 'found') return { status: ResolutionStatus.FOUND, team: team(r.team.id), candidates: [] };
    const list = r.kind === 'ambiguous' ? r.candidates : r.suggestions;
    return { status: r.kind === 'ambiguous' ? ResolutionStatus.AMBIGUOUS : ResolutionStatus.NOT_FOUND, team: null, candidates: list.map((c) => team(c.id)) };
  }
}

@Resolver(() => Match)
export class MatchResolver {
  constructor(private readonly services: FootballServices) {}

  @Authorized()
  @Query(() => MatchConnection, { description: 'Matches by kick-off (cursor pagination).' })
  async matches(
    @Arg('filter', () => MatchFilterInput, { nullable: true }) filter: MatchFilterInput | null,
    @Arg('first', () => Int, { nullable: true, description: '1..200, default 20' }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('order', () => SortOrder, { defaultValue: SortOrder.ASC }) order: SortOrder,
  ): Promise<MatchConnection> {
    const page = await this.services.matches.find({ ...(filter ?? {}), status: filter?.status ?? undefined }, { first, after, descending: order === SortOrder.DESC });
    const nodes = page.rows.map((r) => toMatch(r, this.services));
    return {
      nodes,
      edges: page.rows.map((r, i) => ({ cursor: page.cursorOf(r), node: nodes[i] })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    };
  }

  @Authorized()
  @Query(() => Match, { nullable: true })
  async match(@Arg('id', () => Int) id: number, @Ctx() ctx: SubgraphContext): Promise<Match | null> {
    const row = await matchLoader(ctx, this.services).load(id);
    return row ? toMatch(row, this.services) : null;
  }

  @Authorized()
  @Query(() => Match, { nullable: true, description: 'The earliest scheduled match without a result.' })
  async nextMatch(@Arg('competition', () => String, { nullable: true }) competition: string | null): Promise<Match | null> {
    const row = await this.services.matches.next(competition);
    return row ? toMatch(row, this.services) : null;
  }

  @Authorized()
  @Query(() => FootballData, { description: 'What the football data set holds.' })
  async footballData(): Promise<FootballData> {
    const [s, leagues] = await Promise.all([this.services.matches.summary(), this.services.matches.leagues()]);
    return {
      leagues: leagues.map((l) => ({
        code: l.code,
        name: l.name,
        latestResultDate: l.latestResultDate,
        ratingsStale: ratingsStale(l.latestResultDate, this.services.matches.now(), this.services.staleRatingDays),
        updatedAt: l.updatedAt,
        nextKickoff: l.nextKickoff,
        upcomingMatches: l.upcoming,
        awaitingResult: l.awaitingResult,
      })),
      competitions: s.competitions,
      teams: s.teams,
      matches: s.matches,
      finishedMatches: s.finished,
      scheduledMatches: s.scheduled,
      latestResultDate: s.latestResult,
    };
  }

  @Authorized()
  @Query(() => FootballFeedStatus, { description: 'The live data feed: its sources, the pass in progress, the last success and the last error.' })
  async footballFeed(): Promise<FootballFeedStatus> {
    const s = await this.services.feedStatus();
    return {
      configured: s.configured,
      intervalMinutes: s.intervalMinutes,
      running: s.running ? toRun(s.running) : null,
      lastRun: s.lastRun ? toRun(s.lastRun) : null,
      lastSuccessAt: s.lastSuccessAt,
      lastErrorAt: s.lastError?.at ?? null,
      lastError: s.lastError?.message ?? null,
      sources: s.sources.map((r) => ({
        key: r.key,
        competition: r.competition,
        season: r.season,
        url: r.displayUrl,
        format: r.format,
        lastCheckedAt: r.lastCheckedAt,
        lastChangedAt: r.lastChangedAt,
        lastSuccessAt: r.lastSuccessAt,
        lastError: r.lastError,
        lastErrorAt: r.lastErrorAt,
      })),
    };
  }

  @Authorized('admin')
  @Mutation(() => FeedSyncReport, { description: 'Runs one pass of the data feed now (waits for a pass in progress to end first).' })
  async syncFootballFeed(): Promise<FeedSyncReport> {
    const r = await this.services.feed.sync('api');
    return { runId: r.runId, ms: r.ms, changed: r.changed, failed: r.failed, sources: r.sources };
  }

  @Authorized('admin')
  @Mutation(() => ImportReport, { description: 'Imports fixtures and results for one competition season, in the openfootball JSON format of data/football.' })
  async importMatches(
    @Arg('competition') competition: string,
    @Arg('season') season: string,
    @Arg('data', () => GraphQLJSON, { description: '{"matches": [{"date", "time"?, "team1", "team2", "score"?: {"ft": [h, a]}, "status"?}]}' }) data: unknown,
  ): Promise<ImportReport> {
    return this.services.importSeason(competition, season, data as RawSeasonFile);
  }
}
