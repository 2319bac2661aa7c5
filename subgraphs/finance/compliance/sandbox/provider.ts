import { randomUUID } from 'node:crypto';
import type { ReviewOutcome, VerificationProvider } from '../domain/provider';

/**
 * The offline sandbox (the default, and the demo's): decides at submission from the applicant's last
 * name, the documented magic values —
 *
 *   `Reject`  → rejected (final),   `Resubmit` → resubmission_required,
 *   `Review`  → in_review (an administrator decides),   `Pending` → stays pending,
 *   anything else → verified.
 */
export const SANDBOX_LAST_NAMES: Record<string, ReviewOutcome['decision'] | 'pending'> = {
  reject: 'rejected',
  resubmit: 'resubmission_required',
  review: 'in_review',
  pending: 'pending',
};

export class SandboxVerificationProvider implements VerificationProvider {
  readonly name = 'sandbox';

  async createApplicant(): Promise<{ applicantId: string }> {
    return { applicantId: `sandbox_${randomUUID()}` };
  }

  async addDocument(): Promise<void> {}

  async submit({ lastName }: { lastName: string }): Promise<ReviewOutcome | undefined> {
    const magic = SANDBOX_LAST_NAMES[lastName.trim().toLowerCase()];
    if (magic === 'pending') return undefined;
    const decision = magic ?? 'verified';
    return { decision, reason: decision === 'verified' ? '' : `Sandbox decision for the last name "${lastName}".` };
  }
}
