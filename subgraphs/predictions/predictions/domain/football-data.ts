import type { TrainingMatch } from './model';

/** A match as the predictions domain needs it (read from the football subgraph through the supergraph). */
export interface FootballMatch {
  id: number;
  competition: string;
  season: string;
  date: string;
  kickoff: Date;
  status: 'SCHEDULED' | 'FINISHED' | 'CANCELLED' | 'AWARDED' | 'POSTPONED';
  homeTeamId: number;
  awayTeamId: number;
  homeTeamName: string;
  awayTeamName: string;
  homeGoals: number | null;
  awayGoals: number | null;
}

export interface TeamRef {
  id: number;
  name: string;
  competitions: string[];
  /** Date of its latest match in the data (YYYY-MM-DD). */
  lastPlayed?: string | null;
  /** Date of its newest result (YYYY-MM-DD): how recent its rating is. */
  lastResult?: string | null;
  /** Competition of its latest match: where it plays now, as far as the data knows. */
  currentCompetition?: string | null;
}

export type TeamLookup = { status: 'FOUND'; team: TeamRef } | { status: 'AMBIGUOUS' | 'NOT_FOUND'; candidates: TeamRef[] };

/** What the predictions domain reads from the football domain (the port; store/football-client.ts reads it through the supergraph). */
export interface FootballData {
  /** Finished matches with a known score (the training data), kicked off on or after `from` if given. `signal` stops the paging early. */
  results(signal?: AbortSignal, from?: Date): Promise<FootballMatch[]>;
  /** Scheduled matches without a result. */
  fixtures(): Promise<FootballMatch[]>;
  matches(ids: number[]): Promise<FootballMatch[]>;
  resolveTeam(name: string, competition?: string): Promise<TeamLookup>;
  team(id: number): Promise<TeamRef | undefined>;
}

/** Team ids are the model's team keys. */
export function toTrainingMatch(m: FootballMatch): TrainingMatch & { id: number } {
  return {
    id: m.id,
    competition: m.competition,
    season: m.season,
    date: m.date,
    home: String(m.homeTeamId),
    away: String(m.awayTeamId),
    homeGoals: m.homeGoals!,
    awayGoals: m.awayGoals!,
  };
}
