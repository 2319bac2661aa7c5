// Written by `npm run compose` (bin/operation-types.ts) from schema/supergraph.graphql and rest-adapter/predictions/operations/: do not edit.
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** The fields of the application form. */
export type AccessApplicationInput = {
  /** Name or organisation (2–200 characters) */
  name: string;
  /** Intended usage: the project or integration (10–2,000 characters) */
  usage: string;
  /** Contact e-mail address */
  email: string;
};

/** A confirmation link: not used yet (ready), used (the address is confirmed), or unknown or expired (invalid). */
export type AccessConfirmationState =
  | 'ready'
  | 'confirmed'
  | 'invalid';

export type ApiKeyRole =
  | 'client'
  | 'admin';

/** high ≥ 0.60, medium 0.45–0.60, low < 0.45 */
export type ConfidenceBand =
  | 'HIGH'
  | 'MEDIUM'
  | 'LOW';

/** UPCOMING: the next fixtures. RECENT: no fixture is known, so the most recent played matches (with their outcome). NONE: no prediction yet. */
export type LatestState =
  | 'UPCOMING'
  | 'RECENT'
  | 'NONE';

/** FINISHED with no score: played, score unknown (excluded from results). AWARDED: walk-over score, not a played result. */
export type MatchStatus =
  | 'SCHEDULED'
  | 'FINISHED'
  | 'CANCELLED'
  | 'AWARDED'
  | 'POSTPONED';

export type Outcome =
  | 'HOME_WIN'
  | 'DRAW'
  | 'AWAY_WIN';

/** Free (50 requests/day), Pro (5,000/day), Enterprise (custom per key) */
export type PlanCode =
  | 'free'
  | 'pro'
  | 'enterprise';

export type PredictionFilterInput = {
  state?: PredictionState;
  /** Competition code, e.g. en.1 */
  competition?: string | null | undefined;
  /** A team, as a person types it ("Man Utd"): its matches, home or away. */
  team?: string | null | undefined;
  /** Kick-off on or after. */
  from?: string | null | undefined;
  /** Kick-off on or before. */
  to?: string | null | undefined;
  /** RESOLVED only: right (true) or wrong (false). */
  correct?: boolean | null | undefined;
  source?: PredictionSource | null | undefined;
};

/** BACKTEST: made walk-forward, from matches before it only, when its version was trained. UPCOMING: made for a scheduled match. */
export type PredictionSource =
  | 'BACKTEST'
  | 'UPCOMING';

/** UPCOMING: open, its match kicks off after now. RESOLVED: its result is known (the track record). */
export type PredictionState =
  | 'UPCOMING'
  | 'RESOLVED';

export type TrainingJobStatus =
  | 'QUEUED'
  | 'RUNNING'
  | 'SUCCEEDED'
  | 'FAILED';

export type ApplicationConfirmationQueryVariables = Exact<{
  token: string;
}>;


export type ApplicationConfirmationQuery = {
  applicationConfirmation: {
    state: AccessConfirmationState,
    name: string | null
  }
};

export type ApplicationFormQueryVariables = Exact<{ [key: string]: never; }>;


export type ApplicationFormQuery = {
  plans: Array<{
    code: PlanCode,
    name: string,
    dailyLimit: number | null,
    description: string
  }>
};

export type CompareVersionsQueryVariables = Exact<{ [key: string]: never; }>;


export type CompareVersionsQuery = {
  modelVersions: Array<{
    name: string,
    kind: string,
    active: boolean,
    accuracy: number | null,
    trainingFrom: string,
    trainedThrough: string,
    matchCount: number,
    createdAt: string,
    live: {
      results: number,
      ratingsThrough: string
    },
    metrics: {
      count: number,
      rps: number,
      brier: number,
      logLoss: number,
      calibration: {
        binWidth: number,
        ece: number,
        home: {
          binFrom: Array<number>,
          binTo: Array<number>,
          count: Array<number>,
          predicted: Array<number | null>,
          observed: Array<number | null>,
          ece: number
        },
        draw: {
          binFrom: Array<number>,
          binTo: Array<number>,
          count: Array<number>,
          predicted: Array<number | null>,
          observed: Array<number | null>,
          ece: number
        },
        away: {
          binFrom: Array<number>,
          binTo: Array<number>,
          count: Array<number>,
          predicted: Array<number | null>,
          observed: Array<number | null>,
          ece: number
        }
      } | null
    } | null
  }>
};

export type ConfidenceDistributionQueryVariables = Exact<{ [key: string]: never; }>;


export type ConfidenceDistributionQuery = {
  confidenceDistribution: {
    high: number,
    medium: number,
    low: number
  }
};

export type ConfirmApplicationMutationVariables = Exact<{
  token: string;
}>;


export type ConfirmApplicationMutation = {
  confirmApplication: {
    state: AccessConfirmationState,
    name: string | null
  }
};

export type FixtureQueryVariables = Exact<{
  id: number;
}>;


export type FixtureQuery = {
  match: {
    id: number,
    season: string,
    stage: string,
    round: string | null,
    kickoff: string,
    status: MatchStatus,
    awaitingResult: boolean,
    competition: {
      code: string,
      name: string
    },
    homeTeam: {
      name: string
    },
    awayTeam: {
      name: string
    },
    score: {
      home: number,
      away: number
    } | null,
    prediction: {
      expectedGoalDifference: number,
      outcomeLabel: string,
      confidence: number,
      confidenceBand: ConfidenceBand,
      versionNumber: number,
      source: PredictionSource,
      actualOutcome: Outcome | null,
      correct: boolean | null,
      expectedGoals: {
        home: number,
        away: number
      },
      probabilities: {
        home: number,
        draw: number,
        away: number
      }
    } | null
  } | null
};

export type LatestPredictionsQueryVariables = Exact<{
  first: number;
  competition?: string | null | undefined;
}>;


export type LatestPredictionsQuery = {
  latestPredictions: {
    state: LatestState,
    notice: string | null,
    predictions: Array<{
      matchId: number,
      outcomeLabel: string,
      expectedGoalDifference: number,
      confidence: number,
      match: {
        homeTeam: {
          name: string
        },
        awayTeam: {
          name: string
        }
      }
    }>
  }
};

export type ModelVersionsQueryVariables = Exact<{ [key: string]: never; }>;


export type ModelVersionsQuery = {
  modelVersions: Array<{
    number: number,
    name: string,
    kind: string,
    active: boolean,
    accuracy: number | null,
    trainingFrom: string,
    trainedThrough: string,
    matchCount: number,
    createdAt: string,
    activatedAt: string | null,
    metrics: {
      count: number,
      accuracy: number,
      rps: number,
      brier: number,
      logLoss: number,
      perClass: Array<{
        outcome: Outcome,
        predicted: number,
        correct: number,
        precision: number | null
      }>,
      bands: Array<{
        band: ConfidenceBand,
        count: number,
        hitRate: number | null
      }>,
      calibration: {
        binWidth: number,
        ece: number,
        confidence: {
          binFrom: Array<number>,
          binTo: Array<number>,
          count: Array<number>,
          predicted: Array<number | null>,
          observed: Array<number | null>,
          ece: number
        },
        home: {
          binFrom: Array<number>,
          binTo: Array<number>,
          count: Array<number>,
          predicted: Array<number | null>,
          observed: Array<number | null>,
          ece: number
        },
        draw: {
          binFrom: Array<number>,
          binTo: Array<number>,
          count: Array<number>,
          predicted: Array<number | null>,
          observed: Array<number | null>,
          ece: number
        },
        away: {
          binFrom: Array<number>,
          binTo: Array<number>,
          count: Array<number>,
          predicted: Array<number | null>,
          observed: Array<number | null>,
          ece: number
        }
      } | null
    } | null,
    live: {
      results: number,
      ratingsThrough: string,
      ratingsUpdatedAt: string | null,
      strengthsThrough: string | null,
      strengthsRefittedAt: string | null
    }
  }>
};

export type PredictPairingQueryVariables = Exact<{
  home: string;
  away: string;
  competition?: string | null | undefined;
}>;


export type PredictPairingQuery = {
  predict: {
    competition: string,
    crossLeague: boolean,
    homeCompetition: string | null,
    awayCompetition: string | null,
    expectedGoalDifference: number,
    outcomeLabel: string,
    confidence: number,
    confidenceBand: ConfidenceBand,
    versionNumber: number,
    homeTeam: {
      id: number,
      name: string
    },
    awayTeam: {
      id: number,
      name: string
    },
    staleRatings: Array<{
      teamName: string,
      lastPlayed: string,
      ageDays: number
    }>,
    probabilities: {
      home: number,
      draw: number,
      away: number
    },
    expectedGoals: {
      home: number,
      away: number
    }
  }
};

export type PredictionOverviewQueryVariables = Exact<{ [key: string]: never; }>;


export type PredictionOverviewQuery = {
  predictionOverview: {
    totalPredictions: number,
    accuracy: number,
    averageConfidence: number
  }
};

export type PredictionsQueryVariables = Exact<{
  filter: PredictionFilterInput;
  first: number;
  after?: string | null | undefined;
}>;


export type PredictionsQuery = {
  predictions: {
    nodes: Array<{
      matchId: number,
      competition: string,
      kickoff: string,
      expectedGoalDifference: number,
      outcomeLabel: string,
      confidence: number,
      confidenceBand: ConfidenceBand,
      versionNumber: number,
      source: PredictionSource,
      actualOutcome: Outcome | null,
      correct: boolean | null,
      match: {
        homeTeam: {
          name: string
        },
        awayTeam: {
          name: string
        }
      },
      probabilities: {
        home: number,
        draw: number,
        away: number
      }
    }>,
    pageInfo: {
      hasNextPage: boolean,
      endCursor: string | null
    }
  }
};

export type RetrainModelMutationVariables = Exact<{
  kind?: string | null | undefined;
}>;


export type RetrainModelMutation = {
  retrainModel: {
    id: string,
    kind: string,
    status: TrainingJobStatus,
    phase: string | null,
    progress: number,
    createdAt: string
  }
};

export type RetrainProgressQueryVariables = Exact<{ [key: string]: never; }>;


export type RetrainProgressQuery = {
  currentTrainingJob: {
    kind: string,
    status: TrainingJobStatus,
    phase: string | null,
    progress: number,
    versionNumber: number | null,
    createdAt: string,
    startedAt: string | null,
    finishedAt: string | null
  } | null
};

export type ServiceInfoQueryVariables = Exact<{ [key: string]: never; }>;


export type ServiceInfoQuery = {
  viewer: {
    prefix: string,
    name: string,
    plan: PlanCode,
    role: ApiKeyRole
  },
  plans: Array<{
    code: PlanCode,
    name: string,
    dailyLimit: number | null
  }>,
  footballData: {
    competitions: number,
    teams: number,
    matches: number,
    finishedMatches: number,
    scheduledMatches: number,
    latestResultDate: string | null,
    leagues: Array<{
      code: string,
      name: string,
      latestResultDate: string | null,
      updatedAt: string | null,
      nextKickoff: string | null,
      upcomingMatches: number,
      awaitingResult: number,
      ratingsStale: boolean
    }>
  },
  applicationMailbox: {
    address: string,
    smtpHost: string,
    smtpPort: number | null
  },
  footballFeed: {
    configured: boolean,
    intervalMinutes: number,
    lastSuccessAt: string | null,
    lastErrorAt: string | null,
    lastError: string | null,
    lastRun: {
      finishedAt: string | null
    } | null
  }
};

export type SubmitApplicationMutationVariables = Exact<{
  input: AccessApplicationInput;
  origin?: string | null | undefined;
}>;


export type SubmitApplicationMutation = {
  submitApplication: {
    message: string
  }
};

export type SubmitApplicationEmailMutationVariables = Exact<{
  rawMessage: string;
  origin?: string | null | undefined;
}>;


export type SubmitApplicationEmailMutation = {
  submitApplicationEmail: {
    message: string
  }
};

export type TrainingJobQueryVariables = Exact<{
  id: string | number;
}>;


export type TrainingJobQuery = {
  trainingJob: {
    id: string,
    kind: string,
    status: TrainingJobStatus,
    phase: string | null,
    progress: number,
    versionNumber: number | null,
    error: string | null,
    createdAt: string,
    startedAt: string | null,
    finishedAt: string | null
  }
};

export type UpcomingFixturesQueryVariables = Exact<{
  first: number;
  competition?: string | null | undefined;
}>;


export type UpcomingFixturesQuery = {
  upcomingPredictions: Array<{
    matchId: number,
    competition: string,
    kickoff: string,
    versionNumber: number,
    outcomeLabel: string,
    confidence: number,
    match: {
      homeTeam: {
        name: string
      },
      awayTeam: {
        name: string
      }
    },
    probabilities: {
      home: number,
      draw: number,
      away: number
    },
    expectedGoals: {
      home: number,
      away: number
    }
  }>
};

export type ApplicationConfirmationFieldsFragment = {
  state: AccessConfirmationState,
  name: string | null
};

export type CalibrationFragment = {
  binWidth: number,
  ece: number,
  home: {
    binFrom: Array<number>,
    binTo: Array<number>,
    count: Array<number>,
    predicted: Array<number | null>,
    observed: Array<number | null>,
    ece: number
  },
  draw: {
    binFrom: Array<number>,
    binTo: Array<number>,
    count: Array<number>,
    predicted: Array<number | null>,
    observed: Array<number | null>,
    ece: number
  },
  away: {
    binFrom: Array<number>,
    binTo: Array<number>,
    count: Array<number>,
    predicted: Array<number | null>,
    observed: Array<number | null>,
    ece: number
  }
};

export type ReliabilityColumnsFragment = {
  binFrom: Array<number>,
  binTo: Array<number>,
  count: Array<number>,
  predicted: Array<number | null>,
  observed: Array<number | null>,
  ece: number
};

export type StoredPredictionFragment = {
  expectedGoalDifference: number,
  outcomeLabel: string,
  confidence: number,
  confidenceBand: ConfidenceBand,
  versionNumber: number,
  source: PredictionSource,
  actualOutcome: Outcome | null,
  correct: boolean | null,
  probabilities: {
    home: number,
    draw: number,
    away: number
  }
};

/** Each persisted operation's result and variables, by operation name. */
export interface Operations {
  ApplicationConfirmation: { result: ApplicationConfirmationQuery; variables: ApplicationConfirmationQueryVariables };
  ApplicationForm: { result: ApplicationFormQuery; variables: ApplicationFormQueryVariables };
  CompareVersions: { result: CompareVersionsQuery; variables: CompareVersionsQueryVariables };
  ConfidenceDistribution: { result: ConfidenceDistributionQuery; variables: ConfidenceDistributionQueryVariables };
  ConfirmApplication: { result: ConfirmApplicationMutation; variables: ConfirmApplicationMutationVariables };
  Fixture: { result: FixtureQuery; variables: FixtureQueryVariables };
  LatestPredictions: { result: LatestPredictionsQuery; variables: LatestPredictionsQueryVariables };
  ModelVersions: { result: ModelVersionsQuery; variables: ModelVersionsQueryVariables };
  PredictionOverview: { result: PredictionOverviewQuery; variables: PredictionOverviewQueryVariables };
  Predictions: { result: PredictionsQuery; variables: PredictionsQueryVariables };
  PredictPairing: { result: PredictPairingQuery; variables: PredictPairingQueryVariables };
  RetrainModel: { result: RetrainModelMutation; variables: RetrainModelMutationVariables };
  RetrainProgress: { result: RetrainProgressQuery; variables: RetrainProgressQueryVariables };
  ServiceInfo: { result: ServiceInfoQuery; variables: ServiceInfoQueryVariables };
  SubmitApplication: { result: SubmitApplicationMutation; variables: SubmitApplicationMutationVariables };
  SubmitApplicationEmail: { result: SubmitApplicationEmailMutation; variables: SubmitApplicationEmailMutationVariables };
  TrainingJob: { result: TrainingJobQuery; variables: TrainingJobQueryVariables };
  UpcomingFixtures: { result: UpcomingFixturesQuery; variables: UpcomingFixturesQueryVariables };
}
