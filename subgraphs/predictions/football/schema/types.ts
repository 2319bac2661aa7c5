import { Directive, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

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
}

@ObjectType({ simpleResolvers: true })
export class ImportReport {
  @Field() source: string;
  @Field(() => Int) matches: number;
  @Field(() => Int) inserted: number;
  @Field(() => Int) updated: number;
  @Field(() => Int) unchanged: number;
}
