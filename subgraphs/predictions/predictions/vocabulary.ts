import type { Outcome } from './domain/model/types';

/**
 * The prediction API's words, each defined once: the subgraph's domain, types and store, and the REST
 * surface's schemas and documentation import them from here (the REST layer reaches no domain/ module).
 */

/** The confidence bands' lower thresholds (ConfidenceBand: high ≥ 0.60, medium 0.45–0.60, low < 0.45). */
export const CONFIDENCE_BANDS = { high: 0.6, medium: 0.45 };

/** The outcome labels of the contract ("Labels seen: Home Win, Draw, Away Win"). */
export const OUTCOME_LABEL: Readonly<Record<Outcome, string>> = { H: 'Home Win', D: 'Draw', A: 'Away Win' };
export const OUTCOME_LABELS = [OUTCOME_LABEL.H, OUTCOME_LABEL.D, OUTCOME_LABEL.A] as const;

/** The statuses of a training job, in their order of life. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatusName = (typeof JOB_STATUSES)[number];

const percent = (x: number) => x.toFixed(2);

/** The confidence bands in words, from their thresholds: "high ≥ 0.60, medium 0.45–0.60, low < 0.45". */
export const CONFIDENCE_BANDS_TEXT = `high ≥ ${percent(CONFIDENCE_BANDS.high)}, medium ${percent(CONFIDENCE_BANDS.medium)}–${percent(CONFIDENCE_BANDS.high)}, low < ${percent(CONFIDENCE_BANDS.medium)}`;
