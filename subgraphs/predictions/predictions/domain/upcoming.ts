import type { Logger } from '../../../../lib/logger';
import type { PredictionInsert, PredictionStore } from '../store/prediction-store';
import type { ActiveModel } from './active-model';
import type { FootballData } from './football-data';
import { confidenceOf, forecast, outcomeOf, predictedOutcome, type Forecast, type Outcome } from './model';

/** A stored prediction: the match as the football data names it, the forecast, and its result when known. */
export function predictionRow(
  m: Pick<PredictionInsert, 'competition' | 'season' | 'kickoff' | 'homeTeamId' | 'awayTeamId' | 'homeTeamName' | 'awayTeamName'> & { id: number },
  f: Forecast,
  actualOutcome: Outcome | null,
): PredictionInsert {
  return {
    matchId: m.id,
    competition: m.competition,
    season: m.season,
    kickoff: m.kickoff,
    homeTeamId: m.homeTeamId,
    awayTeamId: m.awayTeamId,
    homeTeamName: m.homeTeamName,
    awayTeamName: m.awayTeamName,
    pHome: f.pHome,
    pDraw: f.pDraw,
    pAway: f.pAway,
    expHomeGoals: f.expHomeGoals,
    expAwayGoals: f.expAwayGoals,
    predictedOutcome: predictedOutcome(f),
    confidence: confidenceOf(f),
    actualOutcome,
  };
}

/**
 * Predictions for every scheduled match without a result, by the active version: refreshed when a
 * version is activated or fixtures and results change; a prediction is resolved when its result arrives.
 */
export class UpcomingPredictions {
  private pending: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly store: PredictionStore,
    private readonly football: FootballData,
    private readonly active: ActiveModel,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Resolves arrived results, then predicts the current fixtures. Calls during a refresh coalesce into one more. */
  refresh(): Promise<void> {
    if (this.pending) {
      this.again = true;
      return this.pending;
    }
    this.pending = (async () => {
      try {
        do {
          this.again = false;
          await this.resolveResults();
          await this.predictFixtures();
        } while (this.again);
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  /** Settles when no refresh is in progress (for a clean shutdown). */
  async idle(): Promise<void> {
    await this.pending?.catch(() => undefined);
  }

  private async resolveResults(): Promise<void> {
    const open = await this.store.openMatchIds();
    if (!open.length) return;
    const matches = await this.football.matches(open);
    const results = matches
      .filter((m) => m.homeGoals !== null && m.status === 'FINISHED')
      .map((m) => ({ matchId: m.id, outcome: outcomeOf(m as { homeGoals: number; awayGoals: number }) }));
    const resolved = await this.store.resolve(results);
    if (resolved) this.logger.info({ resolved }, 'predictions resolved');
  }

  /**
   * Predicts the fixtures that have not kicked off. A prediction of a match that kicked off without a
   * result stays as it was made before kick-off (awaiting its result), and is resolved when it arrives.
   */
  private async predictFixtures(): Promise<void> {
    const active = await this.active.get();
    if (!active) return;
    const scheduled = await this.football.fixtures();
    const now = this.clock().getTime();
    const fixtures = scheduled.filter((m) => m.kickoff.getTime() > now);
    const rows: PredictionInsert[] = fixtures.map((m) => {
      const f = forecast(active.model, { competition: m.competition, season: m.season, date: m.date, home: String(m.homeTeamId), away: String(m.awayTeamId) });
      return predictionRow(m, f, null);
    });
    await this.store.transaction(async (client) => {
      await this.store.savePredictions(client, active.version.id, 'upcoming', rows);
      await this.store.dropStaleUpcoming(
        client,
        active.version.id,
        scheduled.map((m) => m.id),
      );
    });
    this.logger.info({ version: active.version.number, fixtures: rows.length }, 'upcoming predictions refreshed');
  }
}
