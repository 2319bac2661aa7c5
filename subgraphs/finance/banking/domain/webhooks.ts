import { timingSafeEqual } from 'node:crypto';
import { webhookSignatureInvalid } from '../../kernel/provider-http';
import { signPayload } from './providers';

/** How far a webhook's timestamp may be from our clock (Stripe's default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Checks a webhook's `X-Banking-Signature: v1=<hex>` (HMAC-SHA256 over `<timestamp>.<raw body>`, in
 * constant time; several `v1=` entries while a secret rotates) and that its timestamp is recent: a
 * captured delivery replayed later fails here, one replayed within the window is caught by its event id.
 */
export function verifyWebhook(
  secret: string,
  payload: string,
  timestamp: string | null | undefined,
  signature: string | null | undefined,
  now = Date.now(),
): void {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) throw webhookSignatureInvalid('X-Banking-Timestamp is missing or not a Unix time in seconds.');
  if (Math.abs(now / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS)
    throw webhookSignatureInvalid('The webhook timestamp is outside the tolerance window.');
  const expected = Buffer.from(signPayload(secret, timestamp, payload), 'hex');
  const offered = (signature ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .map((part) => Buffer.from(part.slice(3), 'hex'));
  if (!offered.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))) {
    throw webhookSignatureInvalid('The webhook signature does not match.');
  }
}
