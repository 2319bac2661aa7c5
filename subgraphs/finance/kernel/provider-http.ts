import { createHmac, timingSafeEqual } from 'node:crypto';
import { badInput, DomainError } from '../../../lib/errors';
import { canonicalJson } from '../../../lib/idempotency';
import { readText } from '../../../lib/bounded-body';

/**
 * The two halves of talking to an external finance provider (card issuer, crypto exchange):
 *
 *   - `ProviderClient`: JSON over HTTP with a bearer API key, an Idempotency-Key on every write (so a
 *     retry never creates twice at the provider), a timeout per attempt and retries with back-off on
 *     network errors, 429 and 5xx;
 *   - signed webhooks on Stripe's scheme: `<header>: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 *     `<t>.<canonical JSON of the body>`, refused outside a 5-minute window (replay protection; the
 *     event id is also recorded once by the receiving module). The body is signed in canonical JSON
 *     (sorted keys) so the signature survives the surface's JSON parsing.
 */

export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A provider secret read at each use (the environment, else the admin console's record: subgraphs/finance/kernel/provider-secrets). */
export type SecretSource = () => Promise<string | undefined>;

/** A fixed secret (the sandboxes, tests). */
export const fixedSecret =
  (secret: string): SecretSource =>
  () =>
    Promise.resolve(secret);

const notConfigured = (what: string) =>
  new DomainError('IMPROPERLY_CONFIGURED', 503, `${what} is not configured: set its environment variable or save it in the admin console.`);

/** The secret of `source`, or 503 IMPROPERLY_CONFIGURED naming `what` (never the value). */
export async function requireSecret(source: SecretSource, what: string): Promise<string> {
  const secret = await source();
  if (!secret) throw notConfigured(what);
  return secret;
}

/** 401 WEBHOOK_SIGNATURE_INVALID: every webhook of the finance node refuses a missing, wrong or stale signature with it. */
export const webhookSignatureInvalid = (message = 'The webhook signature is missing or does not match.') =>
  new DomainError('WEBHOOK_SIGNATURE_INVALID', 401, message);

export const providerUnavailable = (provider: string) =>
  new DomainError('PROVIDER_UNAVAILABLE', 503, `The ${provider} provider did not answer; retry shortly.`, { retryAfterSeconds: 5 });

/** The signature header's value for `body` at `at` (the sandboxes and tests sign with it). */
export function signWebhook(secret: string, body: unknown, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${hmac(secret, `${t}.${canonicalJson(body)}`)}`;
}

/** Throws 401 WEBHOOK_SIGNATURE_INVALID unless `header` signs `body` with `secret` within the tolerance. */
export function verifyWebhook(secret: string, body: unknown, header: string | null | undefined, now: Date = new Date()): void {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  if (!/^\d+$/.test(parts.t ?? '') || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) throw webhookSignatureInvalid();
  if (Math.abs(now.getTime() / 1000 - t) > WEBHOOK_TOLERANCE_SECONDS) throw webhookSignatureInvalid('The webhook signature is too old (or from the future).');
  const expected = Buffer.from(hmac(secret, `${t}.${canonicalJson(body)}`), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'))) throw webhookSignatureInvalid();
}

/** A webhook's JSON text → the event object (400 for anything but a JSON object). */
export function parseEvent<T>(payload: string): T {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badInput('The event is a JSON object.');
  return value as T;
}

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

export interface ProviderClientOptions {
  /** For messages: "card issuer", "crypto exchange". */
  provider: string;
  baseUrl: string;
  apiKey: SecretSource;
  timeoutMs?: number;
  /** Attempts in all (1 = no retry). */
  attempts?: number;
  backoffMs?: number;
}

/** 4xx from the provider other than 429: the request is wrong, a retry would not help. */
export class ProviderRejected extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`provider refused the request (${status})`);
  }
}

export class ProviderClient {
  constructor(private readonly opts: ProviderClientOptions) {}

  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const attempts = this.opts.attempts ?? 3;
    const apiKey = await requireSecret(this.opts.apiKey, `The ${this.opts.provider}'s API key`);
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(new URL(path, this.opts.baseUrl), {
          method,
          headers: {
            authorization: `Bearer ${apiKey}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 5000),
        });
        const text = await readText(res);
        const parsed: unknown = text ? JSON.parse(text) : null;
        if (res.ok) return parsed as T;
        if (res.status !== 429 && res.status < 500) throw new ProviderRejected(res.status, parsed);
      } catch (err) {
        if (err instanceof ProviderRejected) throw err;
        // network error, timeout or unparsable answer: retried like a 5xx
      }
      if (attempt >= attempts) throw providerUnavailable(this.opts.provider);
      await new Promise((resolve) => setTimeout(resolve, (this.opts.backoffMs ?? 200) * 2 ** (attempt - 1)));
    }
  }
}
