import type { SupergraphClient } from '../../../../lib/supergraph-client';
import type { FootballData, FootballMatch, TeamLookup, TeamRef } from '../domain/football-data';

const MATCH_FIELDS = 'id season date kickoff status competition { code } homeTeam { id name } awayTeam { id name } score { home away }';
const PAGE = 200;
const TEAM_FIELDS = 'id name competitions lastPlayed lastResult currentCompetition';

const MATCHES = `query PredictionsMatches($filter: MatchFilterInput, $after: String) {
  matches(filter: $filter, first: ${PAGE}, after: $after) { nodes { ${MATCH_FIELDS} } pageInfo { hasNextPage endCursor } }
}`;

interface MatchNode {
  id: number;
  season: string;
  date: string;
  kickoff: string;
  status: FootballMatch['status'];
  competition: { code: string };
  homeTeam: { id: number; name: string };
  awayTeam: { id: number; name: string };
  score: { home: number; away: number } | null;
}

const toMatch = (n: MatchNode): FootballMatch => ({
  id: n.id,
  competition: n.competition.code,
  season: n.season,
  date: n.date,
  kickoff: new Date(n.kickoff),
  status: n.status,
  homeTeamId: n.homeTeam.id,
  awayTeamId: n.awayTeam.id,
  homeTeamName: n.homeTeam.name,
  awayTeamName: n.awayTeam.name,
  homeGoals: n.score?.home ?? null,
  awayGoals: n.score?.away ?? null,
});

/** The football domain, read through the supergraph like any other client. */
export class SupergraphFootballData implements FootballData {
  constructor(private readonly supergraph: SupergraphClient) {}

  private async all(filter: Record<string, unknown>, signal?: AbortSignal): Promise<FootballMatch[]> {
    const out: FootballMatch[] = [];
    let after: string | null = null;
    do {
      signal?.throwIfAborted();
      const data: { matches: { nodes: MatchNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } = await this.supergraph.request(MATCHES, {
        filter,
        after,
      });
      out.push(...data.matches.nodes.map(toMatch));
      after = data.matches.pageInfo.hasNextPage ? data.matches.pageInfo.endCursor : null;
    } while (after);
    return out;
  }

  async results(signal?: AbortSignal, from?: Date): Promise<FootballMatch[]> {
    return (await this.all({ status: 'FINISHED', ...(from ? { from: from.toISOString() } : {}) }, signal)).filter((m) => m.homeGoals !== null);
  }

  fixtures(): Promise<FootballMatch[]> {
    return this.all({ status: 'SCHEDULED' });
  }

  async matches(ids: number[]): Promise<FootballMatch[]> {
    const out: FootballMatch[] = [];
    for (let i = 0; i < ids.length; i += 1000) out.push(...(await this.all({ ids: ids.slice(i, i + 1000) })));
    return out;
  }

  async resolveTeam(name: string, competition?: string): Promise<TeamLookup> {
    const data = await this.supergraph.request<{ resolveTeam: { status: TeamLookup['status']; team: TeamRef | null; candidates: TeamRef[] } }>(
      `query PredictionsResolveTeam($name: String!, $competition: String) {
        resolveTeam(name: $name, competition: $competition) { status team { ${TEAM_FIELDS} } candidates { ${TEAM_FIELDS} } }
      }`,
      { name, competition: competition ?? null },
    );
    const r = data.resolveTeam;
    return r.status === 'FOUND' ? { status: 'FOUND', team: r.team! } : { status: r.status, candidates: r.candidates };
  }

  async team(id: number): Promise<TeamRef | undefined> {
    const data = await this.supergraph.request<{ team: TeamRef | null }>(`query PredictionsTeam($id: Int!) { team(id: $id) { ${TEAM_FIELDS} } }`, { id });
    return data.team ?? undefined;
  }
}
