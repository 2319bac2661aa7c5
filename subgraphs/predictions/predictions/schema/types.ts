import { CONFIDENCE_BANDS_TEXT, JOB_STATUSES, type JobStatusName } from '../vocabulary';
import { GraphQLJSON } from 'graphql-scalars';
import { Directive, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum OutcomeEnum {
  HOME_WIN = 'H',
  DRAW = 'D',
  AWAY_WIN = 'A',
}
registerEnumType(OutcomeEnum, { name: 'Outcome' });

export enum ConfidenceBandEnum {
  HIGH = 'high',
  MEDIUM = 'medium',
  LOW = 'low',
}
registerEnumType(ConfidenceBandEnum, { name: 'ConfidenceBand', description: CONFIDENCE_BANDS_TEXT });

export enum PredictionSource {
  BACKTEST = 'backtest',
  UPCOMING = 'upcoming',
}
registerEnumType(PredictionSource, {
  name: 'PredictionSource',
  description: 'BACKTEST: made walk-forward, from matches before it only, when its version was trained. UPCOMING: made for a scheduled match.',
});

/** The GraphQL enum of the job statuses: QUEUED → 'queued', … (from the one list in the vocabulary). */
export const JobStatus = Object.fromEntries(JOB_STATUSES.map((s) => [s.toUpperCase(), s])) as { [S in JobStatusName as Uppercase<S>]: S };
export type JobStatus = JobStatusName;
registerEnumType(JobStatus, { name: 'TrainingJobStatus' });

@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Team', { simpleResolvers: true })
export class TeamRef {
  @Field(() => Int) id: number;
  /** Owned by football; this subgraph can provide it where it stored it with a prediction. */
  @Directive('@external')
  @Field()
  name?: string;
}

/**
 * The football subgraph's Match, extended with its predictions. The team names are football's
 * (@external); a prediction stores them when it is made, so Prediction.match provides them.
 */
@Directive('@key(fields: "id")')
@ObjectType('Match', { simpleResolvers: true })
export class MatchRef {
  @Field(() => Int) id: number;
  @Directive('@external')
  @Field(() => TeamRef)
  homeTeam?: TeamRef;
  @Directive('@external')
  @Field(() => TeamRef)
  awayTeam?: TeamRef;
}

@ObjectType({ simpleResolvers: true })
export class Probabilities {
  @Field(() => Float) home: number;
  @Field(() => Float) draw: number;
  @Field(() => Float) away: number;
}

@ObjectType({ simpleResolvers: true })
export class ExpectedGoals {
  @Field(() => Float) home: number;
  @Field(() => Float) away: number;
}

@ObjectType({ simpleResolvers: true })
export class ClassAccuracy {
  @Field(() => OutcomeEnum) outcome: OutcomeEnum;
  @Field(() => Int) predicted: number;
  @Field(() => Int) correct: number;
  @Field(() => Float, { nullable: true, description: 'correct / predicted' }) precision: number | null;
}

@ObjectType({ simpleResolvers: true })
export class BandStats {
  @Field(() => ConfidenceBandEnum) band: ConfidenceBandEnum;
  @Field(() => Int) count: number;
  @Field(() => Float, { nullable: true }) hitRate: number | null;
}

@ObjectType({
  simpleResolvers: true,
  description:
    'Reliability table: forecasts grouped in bands of predicted probability [binFrom[i], binTo[i]) against how often the event happened. ' +
    'Column-oriented (one list per column, one entry per band), as charts read it.',
})
export class ReliabilityTable {
  @Field(() => [Float]) binFrom: number[];
  @Field(() => [Float]) binTo: number[];
  @Field(() => [Int], { description: 'Forecasts in each band.' }) count: number[];
  @Field(() => [Float], { nullable: 'items', description: 'Mean predicted probability per band (null for an empty band).' }) predicted: (number | null)[];
  @Field(() => [Float], { nullable: 'items', description: 'Observed frequency per band (null for an empty band).' }) observed: (number | null)[];
  @Field(() => Float, { description: 'Expected calibration error: Σ (count / n) · |observed − predicted|.' }) ece: number;
}

@ObjectType({ simpleResolvers: true, description: "Calibration of a version's walk-forward forecasts." })
export class Calibration {
  @Field(() => Float) binWidth: number;
  @Field(() => Float, { description: 'Classwise expected calibration error: the mean of home, draw and away.' }) ece: number;
  @Field(() => ReliabilityTable, { description: 'P(home win) against home wins.' }) home: ReliabilityTable;
  @Field(() => ReliabilityTable, { description: 'P(draw) against draws.' }) draw: ReliabilityTable;
  @Field(() => ReliabilityTable, { description: 'P(away win) against away wins.' }) away: ReliabilityTable;
  @Field(() => ReliabilityTable, { description: "Confidence (the predicted outcome's probability) against the hit rate." }) confidence: ReliabilityTable;
}

@ObjectType({ simpleResolvers: true, description: 'Walk-forward backtest metrics of a version.' })
export class ModelMetrics {
  @Field(() => Int) count: number;
  @Field(() => Float) accuracy: number;
  @Field(() => Float, { description: 'Ranked probability score (lower is better).' }) rps: number;
  @Field(() => Float, { description: 'Multiclass Brier score, 0..2 (lower is better).' }) brier: number;
  @Field(() => Float) logLoss: number;
  @Field(() => [ClassAccuracy]) perClass: ClassAccuracy[];
  @Field(() => [BandStats]) bands: BandStats[];
  @Field(() => Calibration, { nullable: true, description: 'Reliability table and expected calibration error.' }) calibration: Calibration | null;
}

@ObjectType({ simpleResolvers: true, description: 'Results the version\'s ratings took in since it was trained (live ratings, no new version).' })
export class LiveRatingsState {
  @Field(() => Int, { description: 'Results applied since training.' }) results: number;
  @Field({ description: 'Latest match date in the ratings.' }) ratingsThrough: string;
  @Field(() => Date, { nullable: true, description: 'When results were last applied.' }) ratingsUpdatedAt: Date | null;
  @Field(() => String, { nullable: true, description: 'Data cut-off of the Dixon–Coles strengths (null for a model without them).' }) strengthsThrough: string | null;
  @Field(() => Date, { nullable: true, description: 'When the strengths were last refitted (null: not since training).' }) strengthsRefittedAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class ModelVersion {
  @Field(() => Int) number: number;
  @Field({ description: 'version_<number>, as compare_versions names it.' }) name: string;
  @Field() kind: string;
  @Field(() => GraphQLJSON) hyperparameters: Record<string, number>;
  @Field({ description: 'Earliest match in the training data.' }) trainingFrom: string;
  @Field({ description: 'Data cut-off: latest match in the training data.' }) trainedThrough: string;
  @Field(() => Int) matchCount: number;
  @Field(() => GraphQLJSON, { description: 'Evaluation window and method.' }) evaluation: Record<string, unknown>;
  @Field(() => ModelMetrics, { nullable: true }) metrics: ModelMetrics | null;
  @Field(() => Float, { nullable: true, description: 'Accuracy over all resolved predictions (backtest and live).' }) accuracy: number | null;
  @Field(() => Int) trainingMs: number;
  @Field(() => LiveRatingsState) live: LiveRatingsState;
  @Field() active: boolean;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) activatedAt: Date | null;
}

/**
 * What every forecast says, stored (Prediction) or not (PairingPrediction). Only inherited: no
 * field returns it, so it never appears in the schema itself.
 */
@ObjectType({ simpleResolvers: true })
export abstract class ForecastFields {
  @Field() competition: string;
  @Field(() => Probabilities) probabilities: Probabilities;
  @Field(() => ExpectedGoals) expectedGoals: ExpectedGoals;
  @Field(() => Float, { description: 'Expected goals, home minus away.' }) expectedGoalDifference: number;
  @Field(() => OutcomeEnum) predictedOutcome: OutcomeEnum;
  @Field({ description: '"Home Win", "Draw" or "Away Win".' }) outcomeLabel: string;
  @Field(() => Float, { description: 'Probability of the predicted outcome.' }) confidence: number;
  @Field(() => ConfidenceBandEnum) confidenceBand: ConfidenceBandEnum;
  @Field(() => Int, { description: 'The model version that made it.' }) versionNumber: number;
}

@ObjectType({ simpleResolvers: true })
export class Prediction extends ForecastFields {
  @Field(() => ID) id: string;
  @Field(() => Int) matchId: number;
  @Directive('@provides(fields: "homeTeam { id name } awayTeam { id name }")')
  @Field(() => MatchRef)
  match: MatchRef;
  @Field(() => PredictionSource) source: PredictionSource;
  @Field() kickoff: Date;
  @Field(() => OutcomeEnum, { nullable: true }) actualOutcome: OutcomeEnum | null;
  @Field(() => Boolean, { nullable: true }) correct: boolean | null;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) resolvedAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: "A team whose latest match is older than a season: its rating is that old." })
export class RatingAge {
  @Field(() => Int) teamId: number;
  @Field() teamName: string;
  @Field({ description: 'Date of its latest match in the data.' }) lastPlayed: string;
  @Field(() => Int, { description: 'Days since then.' }) ageDays: number;
}

@ObjectType({ simpleResolvers: true, description: 'A forecast for any pairing (not stored).' })
export class PairingPrediction extends ForecastFields {
  @Field(() => TeamRef) homeTeam: TeamRef;
  @Field(() => TeamRef) awayTeam: TeamRef;
  @Field({ description: 'The teams play in different competitions now (their latest matches): no league\'s match. `competition` is then the one whose parameters the forecast uses (the home side\'s).' })
  crossLeague: boolean;
  @Field(() => String, { nullable: true, description: "The home side's competition now." }) homeCompetition: string | null;
  @Field(() => String, { nullable: true, description: "The away side's competition now." }) awayCompetition: string | null;
  @Field(() => [RatingAge], { description: 'Sides whose rating is older than a season (their latest match), with its age.' }) staleRatings: RatingAge[];
}

@ObjectType({ simpleResolvers: true })
export class PredictionOverview {
  @Field(() => Int, { nullable: true, description: 'The active version these figures describe.' }) versionNumber: number | null;
  @Field(() => Int, { description: 'Predictions whose result is known (the track record); accuracy and averageConfidence are over them.' })
  totalPredictions: number;
  @Field(() => Int) resolvedPredictions: number;
  @Field(() => Int, { description: 'Predictions still waiting for their result: upcoming, or kicked off and awaiting the result.' })
  openPredictions: number;
  @Field(() => Float) accuracy: number;
  @Field(() => Float) averageConfidence: number;
}

@ObjectType({ simpleResolvers: true })
export class BandThresholds {
  @Field(() => Float) high: number;
  @Field(() => Float) medium: number;
}

@ObjectType({ simpleResolvers: true })
export class ConfidenceDistribution {
  @Field(() => Int) high: number;
  @Field(() => Int) medium: number;
  @Field(() => Int) low: number;
  @Field(() => BandThresholds) thresholds: BandThresholds;
  @Field(() => Float, { nullable: true }) highHitRate: number | null;
  @Field(() => Float, { nullable: true }) mediumHitRate: number | null;
  @Field(() => Float, { nullable: true }) lowHitRate: number | null;
}

@ObjectType({ simpleResolvers: true })
export class TrainingJob {
  @Field(() => ID) id: string;
  @Field() kind: string;
  @Field(() => JobStatus) status: JobStatus;
  @Field(() => String, { nullable: true }) phase: string | null;
  @Field(() => Float, { description: '0..1' }) progress: number;
  @Field(() => Int, { nullable: true, description: 'The version it produced.' }) versionNumber: number | null;
  @Field(() => String, { nullable: true, description: 'Why it failed (shown to administrator keys only).' }) error: string | null;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) startedAt: Date | null;
  @Field(() => Date, { nullable: true }) finishedAt: Date | null;
}

export enum PredictionStateEnum {
  UPCOMING = 'upcoming',
  RESOLVED = 'resolved',
}
registerEnumType(PredictionStateEnum, {
  name: 'PredictionState',
  description: 'UPCOMING: open, its match kicks off after now. RESOLVED: its result is known (the track record).',
});

@InputType()
export class PredictionFilterInput {
  @Field(() => PredictionStateEnum, { defaultValue: PredictionStateEnum.UPCOMING }) state: PredictionStateEnum;
  @Field(() => String, { nullable: true, description: 'Competition code, e.g. en.1' }) competition?: string | null;
  @Field(() => String, { nullable: true, description: 'A team, as a person types it ("Man Utd"): its matches, home or away.' }) team?: string | null;
  @Field(() => Date, { nullable: true, description: 'Kick-off on or after.' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Kick-off on or before.' }) to?: Date | null;
  @Field(() => Boolean, { nullable: true, description: 'RESOLVED only: right (true) or wrong (false).' }) correct?: boolean | null;
  @Field(() => PredictionSource, { nullable: true }) source?: PredictionSource | null;
}

@ObjectType({ simpleResolvers: true })
export class PredictionPageInfo {
  @Field() hasNextPage: boolean;
  @Field(() => String, { nullable: true }) endCursor: string | null;
}

@ObjectType({ simpleResolvers: true })
export class PredictionPage {
  @Field(() => [Prediction]) nodes: Prediction[];
  @Field(() => PredictionPageInfo) pageInfo: PredictionPageInfo;
}

export enum LatestStateEnum {
  UPCOMING = 'upcoming',
  RECENT = 'recent',
  NONE = 'none',
}
registerEnumType(LatestStateEnum, {
  name: 'LatestState',
  description: 'UPCOMING: the next fixtures. RECENT: no fixture is known, so the most recent played matches (with their outcome). NONE: no prediction yet.',
});

@ObjectType({ description: 'The latest predictions: never empty while predictions exist.' })
export class LatestPredictions {
  @Field(() => LatestStateEnum) state: LatestStateEnum;
  @Field(() => String, { nullable: true, description: 'Says what the list holds when it is not the upcoming fixtures.' }) notice: string | null;
  @Field(() => [Prediction]) predictions: Prediction[];
}
