import type { VerificationLevel } from '../vocabulary';
import type { ReviewDecision } from './states';

/** A provider's decision on an applicant. */
export interface ReviewOutcome {
  decision: ReviewDecision;
  reason: string;
}

/** A signed webhook delivery, verified and read. */
export interface WebhookEvent {
  /** Unique per delivery content: the same delivery twice is applied once. */
  deliveryId: string;
  applicantId: string;
  /** Undefined for an event type that decides nothing (acknowledged, ignored). */
  outcome?: ReviewOutcome;
}

/**
 * An identity-verification provider (Sumsub, Onfido…): an applicant per verification, its documents,
 * a submission, and the decision — at once (the sandbox) or later by a signed webhook.
 */
export interface VerificationProvider {
  readonly name: string;
  createApplicant(input: { externalUserId: string; level: VerificationLevel; firstName: string; lastName: string }): Promise<{ applicantId: string }>;
  addDocument(applicantId: string, document: { kind: string; contentType: string; fileName: string; bytes: Buffer }): Promise<void>;
  /** Asks for the review; the sandbox answers the outcome at once, a real provider by webhook later (undefined). */
  submit(applicant: { applicantId: string; firstName: string; lastName: string }): Promise<ReviewOutcome | undefined>;
  /** Verifies a webhook's signature over its raw body and reads it; throws 401 WEBHOOK_SIGNATURE_INVALID. Undefined: no webhooks. */
  readWebhook?(rawBody: string, headers: Record<string, string | undefined>): Promise<WebhookEvent>;
}
