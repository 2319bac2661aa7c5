import type { CountryCode } from 'libphonenumber-js';

/**
 * The static catalogues of the utilities and gift-card modules: what a request is validated
 * against until a provider is wired (the provider's own catalogue then replaces these lists).
 * Amounts are decimal strings in the listed currency.
 */

export interface Operator {
  code: string;
  name: string;
  country: CountryCode;
  currency: string;
  /** Airtime amounts accepted, inclusive. */
  minAmount: string;
  maxAmount: string;
  plans: { id: string; name: string; price: string; validityDays: number }[];
}

export const OPERATORS: readonly Operator[] = [
  {
    code: 'mtn-ng',
    name: 'MTN Nigeria',
    country: 'NG',
    currency: 'NGN',
    minAmount: '50.00',
    maxAmount: '50000.00',
    plans: [
      { id: 'mtn-ng-1gb-30d', name: '1 GB, 30 days', price: '1000.00', validityDays: 30 },
      { id: 'mtn-ng-10gb-30d', name: '10 GB, 30 days', price: '5000.00', validityDays: 30 },
    ],
  },
  {
    code: 'airtel-ng',
    name: 'Airtel Nigeria',
    country: 'NG',
    currency: 'NGN',
    minAmount: '50.00',
    maxAmount: '50000.00',
    plans: [{ id: 'airtel-ng-2gb-30d', name: '2 GB, 30 days', price: '1500.00', validityDays: 30 }],
  },
  {
    code: 'safaricom-ke',
    name: 'Safaricom',
    country: 'KE',
    currency: 'KES',
    minAmount: '10.00',
    maxAmount: '10000.00',
    plans: [{ id: 'safaricom-ke-1gb-7d', name: '1 GB, 7 days', price: '250.00', validityDays: 7 }],
  },
  {
    code: 'mtn-gh',
    name: 'MTN Ghana',
    country: 'GH',
    currency: 'GHS',
    minAmount: '1.00',
    maxAmount: '1000.00',
    plans: [{ id: 'mtn-gh-5gb-30d', name: '5 GB, 30 days', price: '50.00', validityDays: 30 }],
  },
];

export interface Biller {
  code: string;
  name: string;
  country: CountryCode;
  category: 'electricity' | 'water' | 'tv' | 'internet';
  currency: string;
  /** The format of the customer's account (meter, smart-card…) number at this biller. */
  accountFormat: RegExp;
  accountFormatHint: string;
  minAmount: string;
  maxAmount: string;
}

export const BILLERS: readonly Biller[] = [
  {
    code: 'ikedc-prepaid',
    name: 'Ikeja Electric (prepaid)',
    country: 'NG',
    category: 'electricity',
    currency: 'NGN',
    accountFormat: /^\d{11}$/,
    accountFormatHint: 'an 11-digit meter number',
    minAmount: '500.00',
    maxAmount: '200000.00',
  },
  {
    code: 'dstv-ng',
    name: 'DStv Nigeria',
    country: 'NG',
    category: 'tv',
    currency: 'NGN',
    accountFormat: /^\d{10}$/,
    accountFormatHint: 'a 10-digit smart-card number',
    minAmount: '1000.00',
    maxAmount: '100000.00',
  },
  {
    code: 'kplc-prepaid',
    name: 'Kenya Power (prepaid)',
    country: 'KE',
    category: 'electricity',
    currency: 'KES',
    accountFormat: /^\d{11}$/,
    accountFormatHint: 'an 11-digit meter number',
    minAmount: '100.00',
    maxAmount: '35000.00',
  },
];

export interface GiftCardBrand {
  id: string;
  name: string;
  category: 'shopping' | 'gaming' | 'entertainment' | 'food';
  /** Per country: its currency and the denominations offered. */
  countries: { country: string; currency: string; denominations: string[] }[];
}

export const GIFT_CARD_BRANDS: readonly GiftCardBrand[] = [
  {
    id: 'amazon',
    name: 'Amazon',
    category: 'shopping',
    countries: [
      { country: 'US', currency: 'USD', denominations: ['10.00', '25.00', '50.00', '100.00'] },
      { country: 'GB', currency: 'GBP', denominations: ['10.00', '25.00', '50.00'] },
    ],
  },
  {
    id: 'steam',
    name: 'Steam',
    category: 'gaming',
    countries: [
      { country: 'US', currency: 'USD', denominations: ['20.00', '50.00', '100.00'] },
      { country: 'DE', currency: 'EUR', denominations: ['20.00', '50.00'] },
    ],
  },
  {
    id: 'netflix',
    name: 'Netflix',
    category: 'entertainment',
    countries: [
      { country: 'US', currency: 'USD', denominations: ['25.00', '50.00'] },
      { country: 'NG', currency: 'NGN', denominations: ['5000.00', '10000.00'] },
    ],
  },
  {
    id: 'jumia-food',
    name: 'Jumia Food',
    category: 'food',
    countries: [{ country: 'NG', currency: 'NGN', denominations: ['2000.00', '5000.00'] }],
  },
];

/** The states a utility request moves through once a provider is wired; today every request stays `pending_integration`. */
export const UTILITY_STATES = ['pending_integration', 'pending', 'successful', 'failed', 'reversed'] as const;
export type UtilityState = (typeof UTILITY_STATES)[number];

/** What a utility provider will be asked to do (none is wired: see UtilityProvider). */
export interface UtilityDispatch {
  requestId: string;
  kind: 'airtime' | 'data' | 'bill';
  providerCode: string;
  phoneNumber: string | null;
  accountNumber: string | null;
  planId: string | null;
  amount: string;
  currency: string;
}

/**
 * The interface a utility provider (Reloadly, VTpass…) implements the day one is wired: dispatch a
 * request, and report its state later (webhook or poll). No implementation exists on purpose: the
 * contract says top-ups return `pending_integration` and nothing is dispatched.
 */
export interface UtilityProvider {
  name: string;
  dispatch(request: UtilityDispatch): Promise<{ providerReference: string; state: Exclude<UtilityState, 'pending_integration'> }>;
  status(providerReference: string): Promise<Exclude<UtilityState, 'pending_integration'>>;
}

/** Points: the documented earning rules (README and OpenAPI show the same numbers). */
export const REWARD_RULES = {
  /** Per whole unit of a paid shop order's value in the reference currency (converted at the node's rate). */
  pointsPerUnitSpent: 1n,
  /** The referrer, when the referred user's first qualifying transaction (a paid shop order) completes. */
  referrerBonus: 500n,
  /** The referred user, at the same moment. */
  referredBonus: 250n,
  /** What one point is worth in the node's reference currency (REFERENCE_CURRENCY), a decimal string. */
  pointValue: '0.01',
  /** Redemption: in multiples of this many points (their value: one whole unit of the reference currency). */
  pointsPerUnitRedeemed: 100n,
  /** The smallest redemption. */
  minimumRedemption: 100n,
} as const;

export const ORDER_STATES = ['pending', 'paid', 'fulfilled', 'cancelled', 'refunded'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const DISPUTE_STATES = ['open', 'under_review', 'resolved', 'rejected', 'cancelled'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];

export const DISPUTE_REASONS = ['unauthorised', 'duplicate', 'not_received', 'not_as_described', 'incorrect_amount', 'other'] as const;

/** Attachments (dispute evidence) and product images: what is accepted. */
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENTS = 5;
