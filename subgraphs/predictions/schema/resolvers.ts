import DataLoader from 'dataloader';
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { badInput, notFound } from '../../../lib/errors';
import { decodeCursor, encodeCursor, pageSize } from '../../../lib/pagination';
import { requestLoader, type SubgraphContext } from '../../../lib/subgraph';
import { confidenceBand, confidenceOf, predictedOutcome, type Forecast, type Metrics, type Outcome } from '../domain/model';
import { noActiveModel } from '../domain/pairings';
import { versionName } from '../domain/statistics';
import type { PredictionServices } from '../services';
import type { PredictionRow, RunRow, VersionRow } from '../store/prediction-store';
import {
  ConfidenceBandEnum,
  ConfidenceDistribution,
  JobStatus,
  MatchRef,
  ModelVersion,
  OutcomeEnum,
  PairingPrediction,
  Prediction,
  PredictionOverview,
  PredictionPage,
  PredictionSource,
  TrainingJob,
  type ModelMetrics,
} from './types';

export const OUTCOME_LABEL: Record<Outcome, string> = { H: 'Home Win', D: 'Draw', A: 'Away Win' };

const toForecast = (r: PredictionRow): Forecast => ({
  pHome: r.pHome, pDraw: r.pDraw, pAway: r.pAway, expHomeGoals: r.expHomeGoals, expAwayGoals: r.expAwayGoals, expGoalDiff: r.expHomeGoals - r.expAwayGoals,
});

function forecastFields(f: Forecast, outcome: Outcome, confidence: number) {
  return {
    probabilities: { home: f.pHome, draw: f.pDraw, away: f.pAway },
    expectedGoals: { home: f.expHomeGoals, away: f.expAwayGoals },
    expectedGoalDifference: f.expHomeGoals - f.expAwayGoals,
    predictedOutcome: outcome as OutcomeEnum,
    outcomeLabel: OUTCOME_LABEL[outcome],
    confidence,
    confidenceBand: confidenceBand(f) as ConfidenceBandEnum,
  };
}

export function toPrediction(r: PredictionRow): Prediction {
  return {
    id: String(r.id),
    matchId: r.matchId,
    match: { id: r.matchId, homeTeam: { id: r.homeTeamId, name: r.homeTeamName }, awayTeam: { id: r.awayTeamId, name: r.awayTeamName } },
    versionNumber: r.versionNumber,
    source: r.source as PredictionSource,
    competition: r.competition,
    kickoff: r.kickoff,
    ...forecastFields(toForecast(r), r.predictedOutcome, r.confidence),
    actualOutcome: (r.actualOutcome as OutcomeEnum) ?? null,
    correct: r.correct,
    createdAt: r.createdAt,
    resolvedAt: r.resolvedAt,
  };
}

function toMetrics(m: Metrics | null): ModelMetrics | null {
  if (!m) return null;
  return {
    count: m.count,
    accuracy: m.accuracy,
    rps: m.rps,
    brier: m.brier,
    logLoss: m.logLoss,
    perClass: (Object.keys(m.perClass) as Outcome[]).map((o) => ({ outcome: o as OutcomeEnum, ...m.perClass[o] })),
    bands: (Object.keys(m.bands) as ('high' | 'medium' | 'low')[]).map((b) => ({ band: b as ConfidenceBandEnum, ...m.bands[b] })),
  };
}

function toVersion(v: VersionRow, accuracy: number | null): ModelVersion {
  return {
    number: v.number,
    name: versionName(v.number),
    kind: v.kind,
    hyperparameters: v.hyper,
    trainingFrom: v.trainingFrom,
    trainedThrough: v.trainedThrough,
    matchCount: v.matchCount,
    evaluation: v.evaluation,
    metrics: toMetrics(v.metrics as Metrics | null),
    accuracy,
    trainingMs: v.trainingMs,
    active: v.isActive,
    createdAt: v.createdAt,
    activatedAt: v.activatedAt,
  };
}

export const toJob = (r: RunRow): TrainingJob => ({
  id: r.id,
  kind: r.kind,
  status: r.status as JobStatus,
  phase: r.phase,
  progress: r.progress,
  versionNumber: r.versionNumber,
  error: r.error,
  createdAt: r.createdAt,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
});

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Resolver(() => Prediction)
export class PredictionResolver {
  constructor(private readonly services: PredictionServices) {}

  @Authorized()
  @Query(() => [Prediction], { description: 'The active version\'s predictions for the next scheduled matches, soonest kick-off first.' })
  async upcomingPredictions(
    @Arg('first', () => Int, { defaultValue: 20, description: '1..100' }) first: number,
    @Arg('competition', () => String, { nullable: true, description: 'Competition code, e.g. en.1' }) competition: string | null,
  ): Promise<Prediction[]> {
    if (!Number.isInteger(first) || first < 1 || first > 100) throw badInput('first must be between 1 and 100.', { limit: ['must be between 1 and 100'] });
    const active = await this.services.active.get();
    if (!active) return [];
    return (await this.services.store.upcoming(active.version.id, first, competition ?? undefined)).map(toPrediction);
  }

  @Authorized()
  @Query(() => PredictionOverview, { description: 'Totals over the active version\'s predictions (walk-forward backtest and live).' })
  predictionOverview(): Promise<PredictionOverview> {
    return this.services.statistics.overview();
  }

  @Authorized()
  @Query(() => ConfidenceDistribution, { description: 'The active version\'s predictions per confidence band.' })
  async confidenceDistribution(): Promise<ConfidenceDistribution> {
    const d = await this.services.statistics.confidence();
    return { high: d.high, medium: d.medium, low: d.low, thresholds: d.thresholds, highHitRate: d.hitRates.high, mediumHitRate: d.hitRates.medium, lowHitRate: d.hitRates.low };
  }

  @Authorized()
  @Query(() => [ModelVersion], { description: 'Every model version, oldest first, with its metrics.' })
  async modelVersions(): Promise<ModelVersion[]> {
    const [versions, accuracy] = await Promise.all([this.services.store.versions(), this.services.statistics.compareVersions()]);
    const byNumber = new Map(accuracy.map((a) => [a.number, a.accuracy]));
    return versions.map((v) => toVersion(v, byNumber.get(v.number) ?? null));
  }

  @Authorized()
  @Query(() => ModelVersion, { nullable: true })
  async activeModelVersion(): Promise<ModelVersion | null> {
    const a = await this.services.active.get();
    if (!a) return null;
    const acc = (await this.services.statistics.compareVersions()).find((v) => v.number === a.version.number);
    return toVersion(a.version, acc?.accuracy ?? null);
  }

  @Authorized()
  @Query(() => PairingPrediction, { description: 'Forecast for any pairing, teams by name, alias or id ("Man Utd", "spurs", "12").' })
  async predict(
    @Arg('home') home: string,
    @Arg('away') away: string,
    @Arg('competition', () => String, { nullable: true }) competition: string | null,
  ): Promise<PairingPrediction> {
    const p = await this.services.pairings.predict(home, away, competition);
    const f = p.forecast;
    return {
      homeTeam: { id: p.home.id },
      awayTeam: { id: p.away.id },
      competition: p.competition,
      ...forecastFields(f, predictedOutcome(f), confidenceOf(f)),
      versionNumber: p.version.number,
    };
  }

  @Authorized('admin')
  @Query(() => TrainingJob, { description: 'A training job and its progress (NOT_FOUND when there is no such job).' })
  async trainingJob(@Arg('id', () => ID) id: string): Promise<TrainingJob> {
    const run = UUID_RE.test(id) ? await this.services.store.run(id) : undefined;
    if (!run) throw notFound('No such training job.');
    return toJob(run);
  }

  @Authorized('admin')
  @Query(() => [TrainingJob], { description: 'Recent training jobs, newest first.' })
  async trainingJobs(@Arg('first', () => Int, { defaultValue: 20 }) first: number): Promise<TrainingJob[]> {
    if (first < 1 || first > 100) throw badInput('first must be between 1 and 100.');
    return (await this.services.store.runs(first)).map(toJob);
  }

  @Authorized()
  @Query(() => PredictionPage, { description: 'A version\'s walk-forward backtest: each match predicted from earlier matches only, by kick-off.' })
  async backtestPredictions(
    @Arg('version', () => Int, { nullable: true, description: 'Version number; default: the active version.' }) version: number | null,
    @Arg('competition', () => String, { nullable: true }) competition: string | null,
    @Arg('first', () => Int, { defaultValue: 50, description: '1..500' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
  ): Promise<PredictionPage> {
    const limit = pageSize(first, 50, 500);
    const v = version === null ? (await this.services.active.get())?.version : await this.services.store.versionByNumber(version);
    if (!v) throw notFound(version === null ? 'No model version is active yet.' : `No model version ${version}.`);
    const cursor = after ? decodeCursor(after) : undefined;
    const rows = await this.services.store.backtest(v.id, { competition: competition ?? undefined, after: cursor && { kickoff: cursor.at, id: cursor.id }, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { nodes: page.map(toPrediction), pageInfo: { hasNextPage: rows.length > limit, endCursor: last ? encodeCursor(last.kickoff, last.matchId) : null } };
  }

  @Authorized('admin')
  @Mutation(() => ModelVersion, { description: 'Activates a model version (e.g. to roll back); the fixtures are re-predicted with it.' })
  async activateModelVersion(@Arg('number', () => Int) number: number): Promise<ModelVersion> {
    const v = await this.services.training.activate(number);
    const acc = (await this.services.statistics.compareVersions()).find((a) => a.number === v.number);
    return toVersion(v, acc?.accuracy ?? null);
  }

  @Authorized('admin')
  @Mutation(() => TrainingJob, { description: 'Starts a background retrain (one at a time). The new version is activated when its metrics are recorded.' })
  async retrainModel(@Arg('kind', () => String, { nullable: true, description: 'dixon-coles, elo, pi-ratings or ensemble' }) kind: string | null, @Ctx() ctx: SubgraphContext): Promise<TrainingJob> {
    const by = ctx.principal.kind === 'api-key' ? ctx.principal.prefix : ctx.principal.kind;
    return toJob(await this.services.training.request(kind ?? undefined, by));
  }
}

/** Per request: the active version's prediction for a batch of matches, one query per batch. */
function activePredictionLoader(ctx: SubgraphContext, services: PredictionServices) {
  return requestLoader(ctx, 'predictions.byMatch', () =>
    new DataLoader<number, PredictionRow | null>(async (ids) => {
      const active = await services.active.get();
      if (!active) return ids.map(() => null);
      const rows = await services.store.byMatchIds(active.version.id, ids);
      const byMatch = new Map(rows.map((r) => [r.matchId, r]));
      return ids.map((id) => byMatch.get(id) ?? null);
    }),
  );
}

@Resolver(() => MatchRef)
export class MatchPredictionResolver {
  constructor(private readonly services: PredictionServices) {}

  @FieldResolver(() => Prediction, { nullable: true, description: 'The active model version\'s prediction for this match.' })
  async prediction(@Root() match: MatchRef, @Ctx() ctx: SubgraphContext): Promise<Prediction | null> {
    const row = await activePredictionLoader(ctx, this.services).load(match.id);
    return row ? toPrediction(row) : null;
  }

  @FieldResolver(() => [Prediction], { description: 'Predictions of every model version for this match.' })
  async predictionHistory(@Root() match: MatchRef): Promise<Prediction[]> {
    return (await this.services.store.history(match.id)).map(toPrediction);
  }
}

export { noActiveModel };
