import { badInput, DomainError } from '../../../../lib/errors';
import type { VersionRow } from '../store/prediction-store';
import type { ActiveModel } from './active-model';
import type { FootballData, TeamLookup, TeamRef } from './football-data';
import type { Forecast } from './model';

/** A team whose latest match is older than a season: its rating says how it played then. */
export interface RatingAge {
  team: TeamRef;
  lastPlayed: string;
  ageDays: number;
}

export interface PairingForecast {
  home: TeamRef;
  away: TeamRef;
  /** The competition whose model parameters (home advantage, goal rate) the forecast uses. */
  competition: string;
  /** The teams play in different competitions now (their latest matches): no league's match. */
  crossLeague: boolean;
  homeCompetition: string | null;
  awayCompetition: string | null;
  /** The sides whose rating is older than RATINGS_STALE_DAYS (their newest result). */
  staleRatings: RatingAge[];
  forecast: Forecast;
  version: VersionRow;
}

/** Older than this (RATINGS_STALE_DAYS), by default, a team's rating is flagged with its age. */
export const STALE_RATING_DAYS = 90;
const DAY_MS = 86_400_000;

export const noActiveModel = () => new DomainError('MODEL_NOT_READY', 503, 'No model version is active yet: the first training is still running.');

/** A forecast for any pairing, by team name or id: what the bot's /predict asks. */
export class PairingPredictions {
  constructor(
    private readonly football: FootballData,
    private readonly active: ActiveModel,
    private readonly clock: () => Date = () => new Date(),
    private readonly staleDays: number = STALE_RATING_DAYS,
  ) {}

  async predict(home: string, away: string, competition?: string | null): Promise<PairingForecast> {
    const [h, a] = await Promise.all([this.team(home, 'home', competition), this.team(away, 'away', competition)]);
    if (h.id === a.id) throw badInput(`A team cannot play itself (${h.name}).`);
    // where each side plays now (its latest match): two leagues make a cross-league pairing, never one league's match
    const current = (t: TeamRef) => t.currentCompetition ?? [...t.competitions].sort()[0] ?? null;
    const [hc, ac] = [current(h), current(a)];
    const crossLeague = hc !== ac;
    // the model's parameters: the competition asked for, else the one they share, else the home side's
    const comp = competition ?? hc ?? ac!;
    const now = this.clock();
    const today = now.toISOString().slice(0, 10);
    const result = await this.active.forecast({ competition: comp, date: today, home: String(h.id), away: String(a.id) });
    if (!result) throw noActiveModel();
    const staleRatings = [h, a].flatMap((t): RatingAge[] => {
      // its newest result, not a fixture it has not played
      const last = t.lastResult ?? t.lastPlayed;
      if (!last) return [];
      const ageDays = Math.floor((now.getTime() - Date.parse(`${last}T00:00:00Z`)) / DAY_MS);
      return ageDays > this.staleDays ? [{ team: t, lastPlayed: last, ageDays }] : [];
    });
    return {
      home: h,
      away: a,
      competition: comp,
      crossLeague,
      homeCompetition: hc,
      awayCompetition: ac,
      staleRatings,
      forecast: result.forecast,
      version: result.version,
    };
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
