import { DomainError } from '../../../../lib/errors';
import type { KycLevel } from '../../kernel/kyc';

/** The levels a user verifies at (identity's KYC_LEVELS without `none`); enhanced requires basic. */
export const VERIFICATION_LEVELS = ['basic', 'enhanced'] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

/**
 * A verification's states (Sumsub/Onfido): created `unverified`; documents are uploaded while it is
 * `unverified`, `resubmission_required` or `expired`; submitting makes it `pending` at the provider,
 * which decides `verified`, `rejected` (final) or `resubmission_required` (retry), or holds it
 * `in_review` for a person (the admin console's review); a `verified` level lapses to `expired`.
 */
export const KYC_STATES = ['unverified', 'pending', 'in_review', 'verified', 'rejected', 'resubmission_required', 'expired'] as const;
export type KycState = (typeof KYC_STATES)[number];

/** States in which documents may be added and the verification submitted. */
export const OPEN_STATES: readonly KycState[] = ['unverified', 'resubmission_required', 'expired'];
/** States awaiting a decision (the provider's or an administrator's). */
export const DECIDING_STATES: readonly KycState[] = ['pending', 'in_review'];

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
