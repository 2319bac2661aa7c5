import DataLoader from 'dataloader';
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { isAdmin } from '../../../../lib/principal';
import { requestLoader, type SubgraphContext } from '../../../../lib/subgraph';
import { confidenceBand, confidenceOf, predictedOutcome, type Forecast, type Metrics, type Outcome, type ReliabilityTable } from '../domain/model';
import { noActiveModel } from '../domain/pairings';
import { versionName } from '../domain/statistics';
import { OUTCOME_LABEL } from '../vocabulary';
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
  PredictionFilterInput,
  PredictionPage,
  PredictionSource,
  PredictionStateEnum,
  TrainingJob,
  type ModelMetrics,
  type ReliabilityTable as ReliabilityTableType,
  LatestPredictions,
  LatestStateEnum,
} from './types';


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

const toReliability = (t: ReliabilityTable): ReliabilityTableType => ({
  binFrom: t.bins.map((b) => b.from),
  binTo: t.bins.map((b) => b.to),
  count: t.bins.map((b) => b.count),
  predicted: t.bins.map((b) => b.predicted),
  observed: t.bins.map((b) => b.observed),
  ece: t.ece,
});

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
    calibration: m.calibration
      ? {
          binWidth: m.calibration.binWidth,
          ece: m.calibration.ece,
          home: toReliability(m.calibration.outcomes.H),
          draw: toReliability(m.calibration.outcomes.D),
          away: toReliability(m.calibration.outcomes.A),
          confidence: toReliability(m.calibration.confidence),
        }
      : null,
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
    live: {
      results: v.live.results,
      ratingsThrough: v.live.ratingsThrough,
      ratingsUpdatedAt: v.live.ratingsUpdatedAt && new Date(v.live.ratingsUpdatedAt),
      strengthsThrough: v.live.strengthsThrough,
      strengthsRefittedAt: v.live.strengthsRefittedAt && new Date(v.live.strengthsRefittedAt),
    },
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

@Resolver(() => Prediction)
export class PredictionResolver {
  constructor(private readonly services: PredictionServices) {}

  @Authorized()
  @Query(() => [Prediction], { description: 'The active version\'s predictions for the next scheduled matches, soonest kick-off first.' })
  async upcomingPredictions(
    @Arg('first', () => Int, { defaultValue: 20, description: '1..100' }) first: number,
    @Arg('competition', () => String, { nullable: true, description: 'Competition code, e.g. en.1' }) competition: string | null,
  ): Promise<Prediction[]> {
    return (await this.services.queries.upcoming(first, competition ?? undefined)).map(toPrediction);
  }

  @Authorized()
  @Query(() => LatestPredictions, {
    description:
      'The latest predictions, never empty while predictions exist: the upcoming fixtures (soonest first), else the most recent played matches with their outcome (latest first); `state` and `notice` say which.',
  })
  async latestPredictions(
    @Arg('first', () => Int, { defaultValue: 20, description: '1..100' }) first: number,
    @Arg('competition', () => String, { nullable: true, description: 'Competition code, e.g. en.1' }) competition: string | null,
  ): Promise<LatestPredictions> {
    const latest = await this.services.queries.latest(first, competition ?? undefined);
    return { state: latest.state as LatestStateEnum, notice: latest.notice, predictions: latest.rows.map(toPrediction) };
  }

  @Authorized()
  @Query(() => PredictionPage, {
    description:
      "The active version's predictions, filtered, by cursor: UPCOMING (kicking off after now, soonest first) or RESOLVED (the track record, each beside its result, latest first).",
  })
  async predictions(
    @Arg('filter', () => PredictionFilterInput, { nullable: true }) filter: PredictionFilterInput | null,
    @Arg('first', () => Int, { nullable: true, description: '1..100, default 20' }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
  ): Promise<PredictionPage> {
    const f = filter ?? { state: PredictionStateEnum.UPCOMING };
    const page = await this.services.queries.find({ ...f, state: f.state ?? PredictionStateEnum.UPCOMING }, { first, after });
    return { nodes: page.rows.map(toPrediction), pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor } };
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
    return (await this.services.queries.versions()).map((v) => toVersion(v.version, v.accuracy));
  }

  @Authorized()
  @Query(() => ModelVersion, { nullable: true })
  async activeModelVersion(): Promise<ModelVersion | null> {
    const a = await this.services.active.get();
    return a ? toVersion(a.version, await this.services.queries.accuracyOf(a.version)) : null;
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
      crossLeague: p.crossLeague,
      homeCompetition: p.homeCompetition,
      awayCompetition: p.awayCompetition,
      staleRatings: p.staleRatings.map((s) => ({ teamId: s.team.id, teamName: s.team.name, lastPlayed: s.lastPlayed, ageDays: s.ageDays })),
      ...forecastFields(f, predictedOutcome(f), confidenceOf(f)),
      versionNumber: p.version.number,
    };
  }

  @Authorized('admin')
  @Query(() => TrainingJob, { description: 'A training job and its progress (NOT_FOUND when there is no such job).' })
  async trainingJob(@Arg('id', () => ID) id: string): Promise<TrainingJob> {
    return toJob(await this.services.queries.job(id));
  }

  @Authorized()
  @Query(() => TrainingJob, {
    nullable: true,
    description: 'The retrain in progress, else the latest one (null before any): status, phase and progress for dashboards. Its error only for administrator keys.',
  })
  async currentTrainingJob(@Ctx() ctx: SubgraphContext): Promise<TrainingJob | null> {
    const run = await this.services.queries.currentJob();
    if (!run) return null;
    return { ...toJob(run), error: isAdmin(ctx.principal) ? run.error : null };
  }

  @Authorized('admin')
  @Query(() => [TrainingJob], { description: 'Recent training jobs, newest first.' })
  async trainingJobs(@Arg('first', () => Int, { defaultValue: 20 }) first: number): Promise<TrainingJob[]> {
    return (await this.services.queries.jobs(first)).map(toJob);
  }

  @Authorized()
  @Query(() => PredictionPage, { description: 'A version\'s walk-forward backtest: each match predicted from earlier matches only, by kick-off.' })
  async backtestPredictions(
    @Arg('version', () => Int, { nullable: true, description: 'Version number; default: the active version.' }) version: number | null,
    @Arg('competition', () => String, { nullable: true }) competition: string | null,
    @Arg('first', () => Int, { defaultValue: 50, description: '1..500' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
  ): Promise<PredictionPage> {
    // an omitted argument arrives as undefined, an explicit null as null: both mean the active version
    const page = await this.services.queries.backtest({ version: version ?? null, competition: competition ?? undefined, first, after });
    return { nodes: page.rows.map(toPrediction), pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor } };
  }

  @Authorized('admin')
  @Mutation(() => ModelVersion, { description: 'Activates a model version (e.g. to roll back); the fixtures are re-predicted with it.' })
  async activateModelVersion(@Arg('number', () => Int) number: number): Promise<ModelVersion> {
    const v = await this.services.training.activate(number);
    return toVersion(v, await this.services.queries.accuracyOf(v));
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
    new DataLoader<number, PredictionRow | null>((ids) => services.queries.activeFor(ids)),
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
    return (await this.services.queries.history(match.id)).map(toPrediction);
  }
}

export { noActiveModel };
