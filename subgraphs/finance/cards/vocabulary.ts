import type { Money } from '../kernel/currencies';

/**
 * The cards subgraph's published words and shapes: the domain and the REST surface's schemas and
 * admin pages share them (the REST layer reaches no domain/ module).
 */

/** The currencies a card spends from (the holder's wallet in that currency). Defined once; the REST schemas import it. */
export const CARD_CURRENCIES = ['EUR', 'GBP', 'USD'] as const;

/** Why an authorisation was declined (what the issuer is told, and what the holder sees). */
export const DECLINE_REASONS = [
  'card_frozen',
  'currency_mismatch',
  'kyc_required',
  'authorisation_limit',
  'daily_limit',
  'insufficient_funds',
  'limit_exceeded',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** The issuer's webhook event types the node handles (Stripe Issuing's names). */
export const ISSUER_EVENTS = ['issuing_authorization.request', 'issuing_authorization.captured', 'issuing_authorization.released'] as const;

export interface CardView {
  id: string;
  brand: string;
  last4: string;
  maskedNumber: string;
  expMonth: number;
  expYear: number;
  currency: string;
  status: string;
  perAuthorisationLimit: Money | null;
  dailyLimit: Money | null;
  createdAt: Date;
}

export interface AuthorisationView {
  id: string;
  cardId: string;
  providerAuthorisationId: string;
  amount: Money;
  merchantName: string;
  merchantCategory: string;
  status: string;
  declineReason: string | null;
  capturedAmount: Money | null;
  createdAt: Date;
}
