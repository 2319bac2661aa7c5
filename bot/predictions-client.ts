import type { GatewayClient } from './gateway-client';

/**
 * The operations the bot sends: only GraphQL the supergraph already serves (`resolveTeam`,
 * `predict`, `matches`, `nextMatch`, `competitions`). Each command costs the bot's key one or two
 * metered operations.
 */

export interface TeamName {
  id: number;
  name: string;
}

export type ResolutionStatus = 'FOUND' | 'AMBIGUOUS' | 'NOT_FOUND';

export interface TeamResolution {
  status: ResolutionStatus;
  team: TeamName | null;
  /** The candidates (ambiguous) or the closest spellings (not found), best first. */
  candidates: TeamName[];
}

export interface Forecast {
  competition: string;
  outcomeLabel: string;
  confidence: number;
  confidenceBand: 'HIGH' | 'MEDIUM' | 'LOW';
  probabilities: { home: number; draw: number; away: number };
  expectedGoalDifference: number;
  versionNumber: number;
}

export interface PairingForecast extends Forecast {
  homeTeam: TeamName;
  awayTeam: TeamName;
  /** The teams play in different competitions now. */
  crossLeague: boolean;
  homeCompetition: string | null;
  awayCompetition: string | null;
  /** Sides whose rating is older than a season. */
  staleRatings: { teamName: string; lastPlayed: string; ageDays: number }[];
  /** Kick-off of the scheduled match between them (home at home), if there is one. */
  kickoff: Date | null;
}

export interface Competition {
  code: string;
  name: string;
  country: string;
  tier: number;
}

export interface UpcomingMatch {
  kickoff: Date;
  competition: { code: string; name: string };
  homeTeam: { name: string };
  awayTeam: { name: string };
  /** The active model version's prediction; null while none is active. */
  prediction: Forecast | null;
}

const FORECAST_FIELDS = 'competition outcomeLabel confidence confidenceBand probabilities { home draw away } expectedGoalDifference versionNumber';
const RESOLUTION_FIELDS = 'status team { id name } candidates { id name }';

export const RESOLVE_TEAMS = `query BotResolveTeams($home: String!, $away: String!, $withHome: Boolean!, $withAway: Boolean!) {
  home: resolveTeam(name: $home) @include(if: $withHome) { ${RESOLUTION_FIELDS} }
  away: resolveTeam(name: $away) @include(if: $withAway) { ${RESOLUTION_FIELDS} }
}`;

/** Teams by id (`predict` takes names or ids); the home side's upcoming fixtures (after now, the service's clock) give the kick-off when the pairing is scheduled. */
export const PREDICT_PAIRING = `query BotPredictPairing($home: String!, $away: String!, $homeId: Int!) {
  predict(home: $home, away: $away) {
    homeTeam { id name } awayTeam { id name } crossLeague homeCompetition awayCompetition staleRatings { teamName lastPlayed ageDays } ${FORECAST_FIELDS}
  }
  fixtures: matches(filter: { teamId: $homeId, status: SCHEDULED, upcoming: true }, first: 100) { nodes { kickoff homeTeam { id } awayTeam { id } } }
}`;

export const NEXT_MATCH = `query BotNextMatch($competition: String) {
  nextMatch(competition: $competition) {
    kickoff competition { code name } homeTeam { name } awayTeam { name }
    prediction { ${FORECAST_FIELDS} }
  }
  footballData { leagues { code name latestResultDate updatedAt } }
}`;

/** How fresh one league's data is (what the bot says when no fixture is known). */
export interface LeagueFreshness {
  code: string;
  name: string;
  latestResultDate: string | null;
  updatedAt: string | null;
}

export const COMPETITIONS = 'query BotCompetitions { competitions { code name country tier } }';

const FOLLOWED = 'teamId name';
export const FOLLOW = `mutation BotFollow($subscriber: String!, $team: String!) { followTeam(subscriber: $subscriber, team: $team) { ${FOLLOWED} } }`;
export const UNFOLLOW = `mutation BotUnfollow($subscriber: String!, $team: String) { unfollowTeam(subscriber: $subscriber, team: $team) { ${FOLLOWED} } }`;
export const SET_TIME_ZONE = 'mutation BotTimeZone($subscriber: String!, $zone: String!) { setSubscriberTimeZone(subscriber: $subscriber, zone: $zone) }';
export const TIME_ZONE = 'query BotSubscriberTimeZone($subscriber: String!) { subscriberTimeZone(subscriber: $subscriber) }';
export const FOLLOW_NOTICES = `query BotFollowNotices($reminderMinutes: Int!) {
  followNotices(reminderMinutes: $reminderMinutes, first: 200) { subscriber matchId kind kickoff competition homeTeamName awayTeamName outcomeLabel confidence timeZone }
}`;
export const MARK_NOTICES = 'mutation BotNoticesSent($notices: [FollowNoticeInput!]!) { markFollowNoticesSent(notices: $notices) }';

export interface FollowedTeam {
  teamId: number;
  name: string;
}

export interface FollowNotice {
  subscriber: string;
  matchId: number;
  kind: 'published' | 'reminder';
  kickoff: Date;
  competition: string;
  homeTeamName: string;
  awayTeamName: string;
  outcomeLabel: string;
  confidence: number;
  timeZone: string | null;
}

/** The competitions change only when a new league is imported: an hour's staleness is harmless. */
const COMPETITIONS_TTL_MS = 60 * 60 * 1000;

export class PredictionsClient {
  private competitionCache: { at: number; list: Competition[] } | undefined;

  constructor(private readonly gateway: GatewayClient) {}

  /** Resolves the names given (a side left out is not asked for). */
  async resolveTeams(names: { home?: string; away?: string }, requestId: string): Promise<{ home?: TeamResolution; away?: TeamResolution }> {
    if (names.home === undefined && names.away === undefined) return {};
    const data = await this.gateway.request<{ home?: TeamResolution; away?: TeamResolution }>(
      RESOLVE_TEAMS,
      { home: names.home ?? '', away: names.away ?? '', withHome: names.home !== undefined, withAway: names.away !== undefined },
      requestId,
    );
    return { home: data.home, away: data.away };
  }

  async predictPairing(homeId: number, awayId: number, requestId: string): Promise<PairingForecast> {
    const data = await this.gateway.request<{
      predict: Omit<PairingForecast, 'kickoff'>;
      fixtures: { nodes: { kickoff: string; homeTeam: { id: number }; awayTeam: { id: number } }[] };
    }>(PREDICT_PAIRING, { home: String(homeId), away: String(awayId), homeId }, requestId);
    const fixture = data.fixtures.nodes.find((m) => m.homeTeam.id === homeId && m.awayTeam.id === awayId);
    return { ...data.predict, kickoff: fixture ? new Date(fixture.kickoff) : null };
  }

  /** The next scheduled match, of one competition (its code) or of all. */
  /** The next fixture from now, of one competition (its code) or of all; with each league's freshness, for when there is none. */
  async nextMatch(competition: string | undefined, requestId: string): Promise<{ match: UpcomingMatch | null; leagues: LeagueFreshness[] }> {
    const data = await this.gateway.request<{
      nextMatch: (Omit<UpcomingMatch, 'kickoff'> & { kickoff: string }) | null;
      footballData: { leagues: LeagueFreshness[] };
    }>(NEXT_MATCH, { competition: competition ?? null }, requestId);
    return { match: data.nextMatch && { ...data.nextMatch, kickoff: new Date(data.nextMatch.kickoff) }, leagues: data.footballData.leagues };
  }

  async follow(subscriber: string, team: string, requestId: string): Promise<FollowedTeam[]> {
    return (await this.gateway.request<{ followTeam: FollowedTeam[] }>(FOLLOW, { subscriber, team }, requestId)).followTeam;
  }

  async unfollow(subscriber: string, team: string | null, requestId: string): Promise<FollowedTeam[]> {
    return (await this.gateway.request<{ unfollowTeam: FollowedTeam[] }>(UNFOLLOW, { subscriber, team }, requestId)).unfollowTeam;
  }

  async setTimeZone(subscriber: string, zone: string, requestId: string): Promise<string> {
    return (await this.gateway.request<{ setSubscriberTimeZone: string }>(SET_TIME_ZONE, { subscriber, zone }, requestId)).setSubscriberTimeZone;
  }

  async timeZoneOf(subscriber: string, requestId: string): Promise<string | null> {
    return (await this.gateway.request<{ subscriberTimeZone: string | null }>(TIME_ZONE, { subscriber }, requestId)).subscriberTimeZone;
  }

  async followNotices(reminderMinutes: number, requestId: string): Promise<FollowNotice[]> {
    const data = await this.gateway.request<{ followNotices: (Omit<FollowNotice, 'kickoff'> & { kickoff: string })[] }>(
      FOLLOW_NOTICES,
      { reminderMinutes },
      requestId,
    );
    return data.followNotices.map((n) => ({ ...n, kickoff: new Date(n.kickoff) }));
  }

  async markFollowNoticesSent(notices: { subscriber: string; matchId: number; kind: string }[], requestId: string): Promise<void> {
    await this.gateway.request(MARK_NOTICES, { notices }, requestId);
  }

  async competitions(requestId: string): Promise<Competition[]> {
    const cached = this.competitionCache;
    if (cached && Date.now() - cached.at < COMPETITIONS_TTL_MS) return cached.list;
    const { competitions } = await this.gateway.request<{ competitions: Competition[] }>(COMPETITIONS, {}, requestId);
    this.competitionCache = { at: Date.now(), list: competitions };
    return competitions;
  }
}
