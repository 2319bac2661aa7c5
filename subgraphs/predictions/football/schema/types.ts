import { Directive, Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum MatchStatusEnum {
  SCHEDULED = 'scheduled',
  FINISHED = 'finished',
  CANCELLED = 'cancelled',
  AWARDED = 'awarded',
  POSTPONED = 'postponed',
}
registerEnumType(MatchStatusEnum, {
  name: 'MatchStatus',
  description: 'FINISHED with no score: played, score unknown (excluded from results). AWARDED: walk-over score, not a played result.',
});

export enum SortOrder {
  ASC = 'ASC',
  DESC = 'DESC',
}
registerEnumType(SortOrder, { name: 'SortOrder' });

export enum ResolutionStatus {
  FOUND = 'found',
  AMBIGUOUS = 'ambiguous',
  NOT_FOUND = 'not_found',
}
registerEnumType(ResolutionStatus, { name: 'TeamResolutionStatus' });

@Directive('@key(fields: "code")')
@ObjectType({ simpleResolvers: true, description: 'A league: en.1 Premier League, en.2 Championship, de.1, es.1, it.1, fr.1.' })
export class Competition {
  @Field() code: string;
  @Field() name: string;
  @Field() country: string;
  @Field(() => Int) tier: number;
  @Field(() => [String], { description: 'Seasons with data, e.g. "2025-26".' }) seasons: string[];
}

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true })
export class Team {
  @Field(() => Int) id: number;
  /** Shareable: the predictions subgraph provides it with the predictions it stores. */
  @Directive('@shareable')
  @Field({ description: 'Canonical club name.' })
  name: string;
  @Field() country: string;
  @Field(() => [String], { description: 'Other spellings: short names, older names, translations.' }) aliases: string[];
  @Field(() => [String], { description: 'Competition codes the team has played in.' }) competitions: string[];
  @Field(() => String, { nullable: true, description: 'Date of its latest match in the data, YYYY-MM-DD (a fixture counts: it plays there).' }) lastPlayed: string | null;
  @Field(() => String, { nullable: true, description: 'Date of its newest result, YYYY-MM-DD: how recent its rating is.' }) lastResult: string | null;
  @Field(() => String, { nullable: true, description: 'Competition code of its latest match in the data: where it plays now, as far as the data knows.' })
  currentCompetition: string | null;
}

@ObjectType({ simpleResolvers: true })
export class Score {
  @Field(() => Int) home: number;
  @Field(() => Int) away: number;
}

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true })
export class Match {
  @Field(() => Int) id: number;
  @Field(() => Competition) competition: Competition;
  @Field() season: string;
  @Field({ description: '"Regular", or a play-off stage such as "Finals".' }) stage: string;
  @Field(() => String, { nullable: true }) round: string | null;
  @Field({ description: 'Local match date, YYYY-MM-DD.' }) date: string;
  @Field({ description: 'Kick-off instant (15:00 local when the time is not known).' }) kickoff: Date;
  @Field(() => MatchStatusEnum) status: MatchStatusEnum;
  @Directive('@shareable')
  @Field(() => Team)
  homeTeam: Team;
  @Directive('@shareable')
  @Field(() => Team)
  awayTeam: Team;
  @Field(() => Score, { nullable: true, description: 'Full-time score; null when not played or unknown.' }) score: Score | null;
  @Field(() => Score, { nullable: true }) halfTimeScore: Score | null;
  @Field({ description: 'Scheduled, kicked off, and its result not known yet.' }) awaitingResult: boolean;
}

@ObjectType({ simpleResolvers: true })
export class PageInfo {
  @Field() hasNextPage: boolean;
  @Field(() => String, { nullable: true }) endCursor: string | null;
}

@ObjectType({ simpleResolvers: true })
export class MatchEdge {
  @Field() cursor: string;
  @Field(() => Match) node: Match;
}

@ObjectType({ simpleResolvers: true })
export class MatchConnection {
  @Field(() => [MatchEdge]) edges: MatchEdge[];
  @Field(() => [Match]) nodes: Match[];
  @Field(() => PageInfo) pageInfo: PageInfo;
}

@InputType()
export class MatchFilterInput {
  @Field(() => [Int], { nullable: true, description: 'Only these match ids (at most 1,000).' }) ids?: number[] | null;
  @Field(() => String, { nullable: true, description: 'Competition code, e.g. en.1' }) competition?: string | null;
  @Field(() => String, { nullable: true, description: 'e.g. 2024-25' }) season?: string | null;
  @Field(() => Int, { nullable: true }) teamId?: number | null;
  @Field(() => String, { nullable: true, description: 'Team name or alias (must be unambiguous).' }) team?: string | null;
  @Field(() => MatchStatusEnum, { nullable: true }) status?: MatchStatusEnum | null;
  @Field(() => Date, { nullable: true, description: 'Kick-off on or after.' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Kick-off on or before.' }) to?: Date | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "Only matches kicking off after now (the service's clock): a past fixture without a result is awaiting it, never upcoming.",
  })
  upcoming?: boolean | null;
}

@ObjectType({ simpleResolvers: true, description: 'A team name resolved: one team, the candidates when ambiguous, or suggestions.' })
export class TeamResolution {
  @Field(() => ResolutionStatus) status: ResolutionStatus;
  @Field(() => Team, { nullable: true }) team: Team | null;
  @Field(() => [Team], { description: 'Candidates (ambiguous) or closest spellings (not found).' }) candidates: Team[];
}

@ObjectType({ simpleResolvers: true })
export class FootballData {
  @Field(() => Int) competitions: number;
  @Field(() => Int) teams: number;
  @Field(() => Int) matches: number;
  @Field(() => Int, { description: 'Finished matches with a known score.' }) finishedMatches: number;
  @Field(() => Int) scheduledMatches: number;
  @Field(() => String, { nullable: true, description: 'Date of the latest known result.' }) latestResultDate: string | null;
  @Field(() => [LeagueData], { description: 'Per competition: how fresh its data is.' }) leagues: LeagueData[];
}

@ObjectType({ simpleResolvers: true, description: 'How fresh the data of one competition is.' })
export class LeagueData {
  @Field() code: string;
  @Field() name: string;
  @Field(() => String, { nullable: true, description: 'Date of its newest result.' }) latestResultDate: string | null;
  @Field(() => Boolean, { description: 'Its newest result is older than RATINGS_STALE_DAYS: its ratings say how its teams played then.' })
  ratingsStale: boolean;
  @Field(() => Date, { nullable: true, description: 'The last successful feed pass that changed its fixtures or results; null: the shipped data, never updated.' }) updatedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'Its next kick-off; null when no fixture is known (off-season, or a stale feed).' }) nextKickoff: Date | null;
  @Field(() => Int, { description: 'Fixtures still to kick off.' }) upcomingMatches: number;
  @Field(() => Int, { description: 'Matches that kicked off without a known result.' }) awaitingResult: number;
}

@ObjectType({ simpleResolvers: true, description: 'One configured feed source and what it last answered.' })
export class FeedSourceStatus {
  @Field({ description: '<competition>@<season>' }) key: string;
  @Field() competition: string;
  @Field() season: string;
  @Field({ description: 'The URL without credentials or query.' }) url: string;
  @Field(() => String, { nullable: true, description: 'football.json or csv, as recognised.' }) format: string | null;
  @Field(() => Date, { nullable: true }) lastCheckedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it last brought a change.' }) lastChangedAt: Date | null;
  @Field(() => Date, { nullable: true }) lastSuccessAt: Date | null;
  @Field(() => String, { nullable: true }) lastError: string | null;
  @Field(() => Date, { nullable: true }) lastErrorAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: 'One pass of the feed over its sources.' })
export class FeedRun {
  @Field(() => Int) id: number;
  @Field({ description: 'schedule, cli or api' }) trigger: string;
  @Field() status: string;
  @Field(() => Float, { description: 'Sources done / sources, 0..1.' }) progress: number;
  @Field(() => Int) sources: number;
  @Field(() => Int) changed: number;
  @Field(() => Int) failed: number;
  @Field(() => String, { nullable: true }) error: string | null;
  @Field() startedAt: Date;
  @Field(() => Date, { nullable: true }) finishedAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: 'The live data feed (FOOTBALL_FEED_URLS): sources, the pass running, the last success and error.' })
export class FootballFeedStatus {
  @Field() configured: boolean;
  @Field(() => Int) intervalMinutes: number;
  @Field(() => FeedRun, { nullable: true, description: 'The pass in progress, with its progress.' }) running: FeedRun | null;
  @Field(() => FeedRun, { nullable: true }) lastRun: FeedRun | null;
  @Field(() => Date, { nullable: true, description: 'End of the last pass in which every source succeeded.' }) lastSuccessAt: Date | null;
  @Field(() => Date, { nullable: true }) lastErrorAt: Date | null;
  @Field(() => String, { nullable: true }) lastError: string | null;
  @Field(() => [FeedSourceStatus]) sources: FeedSourceStatus[];
}

@ObjectType({ simpleResolvers: true, description: 'What one pass did to one source.' })
export class FeedSourceOutcome {
  @Field() key: string;
  @Field() url: string;
  @Field({ description: 'changed, unchanged, not-modified, not-published (a next season not out yet) or failed (then nothing of it was written).' }) status: string;
  @Field(() => String, { nullable: true }) format: string | null;
  @Field(() => Int) matches: number;
  @Field(() => Int) inserted: number;
  @Field(() => Int) updated: number;
  @Field(() => [String]) newTeams: string[];
  @Field(() => Int, { description: 'Matches whose bookmakers\' odds were stored.' }) odds: number;
  @Field(() => String, { nullable: true }) error: string | null;
  @Field(() => Int) ms: number;
}

@ObjectType({ simpleResolvers: true })
export class FeedSyncReport {
  @Field(() => Int) runId: number;
  @Field(() => Int) ms: number;
  @Field(() => Int) changed: number;
  @Field(() => Int) failed: number;
  @Field(() => [FeedSourceOutcome]) sources: FeedSourceOutcome[];
}

@ObjectType({ simpleResolvers: true })
export class ImportReport {
  @Field() source: string;
  @Field(() => Int) matches: number;
  @Field(() => Int) inserted: number;
  @Field(() => Int) updated: number;
  @Field(() => Int) unchanged: number;
}
