import { DomainError } from '../../../../lib/errors';
import type { KycLevel } from '../../kernel/kyc';
import type { KycState, VerificationLevel } from '../vocabulary';

/* The verification levels and states, and the states awaiting a decision, are the subgraph's published words (../vocabulary.ts). */

/** States in which documents may be added and the verification submitted. */
export const OPEN_STATES: readonly KycState[] = ['unverified', 'resubmission_required', 'expired'];

/** A decision on a submitted verification. */
export const REVIEW_DECISIONS = ['verified', 'rejected', 'resubmission_required', 'in_review'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** How long a verified level holds before the user verifies again (days). */
export const VALIDITY_DAYS: Record<VerificationLevel, number> = { basic: 730, enhanced: 365 };

/** 409: the operation does not apply in the verification's current state (named in the answer). */
export const invalidStateError = (state: KycState, action: string) =>
  new DomainError('KYC_INVALID_STATE', 409, `The verification is ${state.replace(/_/g, ' ')}: it cannot be ${action}.`, { state });

/** The user's level from their verifications: enhanced needs both verified, as it builds on basic. */
export function effectiveLevel(verifications: readonly { level: VerificationLevel; state: KycState }[]): KycLevel {
  const verified = (level: VerificationLevel) => verifications.some((v) => v.level === level && v.state === 'verified');
  if (!verified('basic')) return 'none';
  return verified('enhanced') ? 'enhanced' : 'basic';
}
