/** The node's error answers, in words a customer understands (never the raw body). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
  /** Per-field messages of a 400 (`errors` or `fields`). */
  get fields(): Record<string, string> {
    const raw = (this.body.errors ?? this.body.fields ?? {}) as Record<string, unknown>;
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) out[name] = Array.isArray(value) ? value.join(' ') : String(value as string);
    return out;
  }
}

const BY_CODE: Record<string, string> = {
  network: 'We cannot reach the service. Check your connection and try again.',
  not_authenticated: 'Please sign in again.',
  token_not_valid: 'Your session has ended. Please sign in again.',
  no_active_account: 'That user name and password do not match an account.',
  throttled: 'Too many attempts. Wait a few minutes and try again.',
  otp_required: 'Enter the 6-digit code from your authenticator app.',
  otp_invalid: 'That code is not right. Enter the current code from your authenticator app.',
  reauthentication_failed: 'That password or code is not right.',
  twofa_enforced: 'This service requires two-factor authentication: it cannot be switched off.',
  twofa_not_enabled: 'Two-factor authentication is not switched on for your account.',
  insufficient_funds: 'You do not have enough money in that currency for this.',
  recipient_not_found: 'We could not find anyone with that user name, e-mail or phone number.',
  quote_expired: 'The quote has expired. Get a new quote and confirm again.',
  quote_used: 'This quote has already been used.',
  kyc_required: 'Verify your identity first (Identity page) to do this.',
  limit_exceeded: 'This is over your limit for your verification level.',
  module_disabled: 'This service is switched off on this node.',
  maintenance: 'The service is under maintenance. Please try again shortly.',
  licence_read_only: 'The service is read-only at the moment: you can look but not change anything.',
  fractional_not_allowed: 'This instrument can only be traded in whole shares.',
  order_not_cancelable: 'This order can no longer be cancelled.',
  currency_mismatch: 'Your cart holds products in another currency: check out or empty it first.',
};

/** The message to show for an error answer: a known code's sentence, else the node's own `detail`. */
export function plainMessage(status: number, body: Record<string, unknown>): string {
  const code = typeof body.code === 'string' ? body.code : '';
  if (BY_CODE[code]) return BY_CODE[code];
  if (typeof body.detail === 'string' && body.detail && !body.detail.trim().startsWith('{')) return body.detail;
  if (status === 404) return 'Not found. This service may not be available on this node yet.';
  if (status === 403) return 'You are not allowed to do this.';
  if (status === 400) return 'Some of the details are not valid. Check them and try again.';
  if (status >= 500) return 'Something went wrong on our side. Please try again in a moment.';
  return 'That did not work. Please try again.';
}
