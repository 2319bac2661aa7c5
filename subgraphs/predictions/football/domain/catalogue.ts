import type { CompetitionRow, FootballStore, TeamRow } from '../store/football-store';
import { TeamResolver, type Resolution } from './team-resolver';

/**
 * Competitions and teams are few (tens and hundreds) and read on every match: they are held in
 * memory, and reloaded when an import changes the data.
 */
export class FootballCatalogue {
  private competitionsByCode = new Map<string, CompetitionRow>();
  private competitionsById = new Map<number, CompetitionRow>();
  private teamsById = new Map<number, TeamRow>();
  private resolver = new TeamResolver([]);
  private loading: Promise<void> | undefined;

  constructor(private readonly store: FootballStore) {}

  /** Reloads from the database; concurrent calls share one reload. */
  refresh(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const [competitions, teams] = await Promise.all([this.store.competitions(), this.store.teams()]);
        this.competitionsByCode = new Map(competitions.map((c) => [c.code, c]));
        this.competitionsById = new Map(competitions.map((c) => [c.id, c]));
        this.teamsById = new Map(teams.map((t) => [t.id, t]));
        this.resolver = new TeamResolver(teams.map((t) => ({ ...t, lastPlayed: t.lastPlayed ?? undefined })));
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  competitions(): CompetitionRow[] {
    return [...this.competitionsByCode.values()];
  }

  competition(code: string): CompetitionRow | undefined {
    return this.competitionsByCode.get(code);
  }

  competitionById(id: number): CompetitionRow | undefined {
    return this.competitionsById.get(id);
  }

  team(id: number): TeamRow | undefined {
    return this.teamsById.get(id);
  }

  teams(opts: { search?: string; competition?: string; limit: number }): TeamRow[] {
    let list: TeamRow[];
    if (opts.search?.trim()) list = this.resolver.search(opts.search, 1000).map((r) => this.teamsById.get(r.id)!);
    else list = [...this.teamsById.values()].sort((a, b) => a.name.localeCompare(b.name));
    if (opts.competition) list = list.filter((t) => t.competitions.includes(opts.competition!));
    return list.slice(0, opts.limit);
  }

  resolveTeam(name: string, competition?: string): Resolution {
    return this.resolver.resolve(name, { competition });
  }
}
