import { badInput, DomainError } from '../../../../lib/errors';
import type { VersionRow } from '../store/prediction-store';
import type { ActiveModel } from './active-model';
import type { FootballData, TeamLookup, TeamRef } from './football-data';
import type { Forecast } from './model';

export interface PairingForecast {
  home: TeamRef;
  away: TeamRef;
  competition: string;
  forecast: Forecast;
  version: VersionRow;
}

export const noActiveModel = () => new DomainError('MODEL_NOT_READY', 503, 'No model version is active yet: the first training is still running.');

/** A forecast for any pairing, by team name or id: what the bot's /predict asks. */
export class PairingPredictions {
  constructor(
    private readonly football: FootballData,
    private readonly active: ActiveModel,
  ) {}

  async predict(home: string, away: string, competition?: string | null): Promise<PairingForecast> {
    const [h, a] = await Promise.all([this.team(home, 'home', competition), this.team(away, 'away', competition)]);
    if (h.id === a.id) throw badInput(`A team cannot play itself (${h.name}).`);
    // the competition: the one asked for, else one both teams play in (tier 1 first), else the home team's
    const shared = h.competitions.filter((c) => a.competitions.includes(c)).sort();
    const comp = competition ?? shared[0] ?? [...h.competitions].sort()[0];
    const today = new Date().toISOString().slice(0, 10);
    const result = await this.active.forecast({ competition: comp, date: today, home: String(h.id), away: String(a.id) });
    if (!result) throw noActiveModel();
    return { home: h, away: a, competition: comp, forecast: result.forecast, version: result.version };
  }

  private async team(ref: string, side: 'home' | 'away', competition?: string | null): Promise<TeamRef> {
    const trimmed = ref.trim();
    if (!trimmed) throw badInput(`${side} team is required.`);
    if (/^\d+$/.test(trimmed)) {
      const t = await this.football.team(Number(trimmed));
      if (!t) throw badInput(`No team with id ${trimmed}.`, { [side]: [`unknown team id ${trimmed}`] });
      return t;
    }
    const r: TeamLookup = await this.football.resolveTeam(trimmed, competition ?? undefined);
    if (r.status === 'FOUND') return r.team;
    const names = r.candidates.map((c) => c.name);
    if (r.status === 'AMBIGUOUS') throw badInput(`"${trimmed}" is ambiguous: ${names.join(', ')}.`, { [side]: names });
    throw badInput(`No team matches "${trimmed}"${names.length ? `; did you mean ${names.join(', ')}?` : '.'}`, { [side]: names });
  }
}
