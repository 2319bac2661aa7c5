import { KYC_LEVELS, type KycLevel } from '../kernel/kyc';

/**
 * The ledger's published words: the domain, the schema and the REST surface's documentation share
 * them (the REST layer reaches no domain/ module).
 */

/** A spending-limit tier of a KYC level (domain/limits.ts applies them). */
export interface LimitTier {
  /** EUR, decimal string */
  perTransaction: string;
  /** EUR, decimal string */
  daily: string;
}

export const LIMIT_TIERS: Record<KycLevel, LimitTier> = {
  none: { perTransaction: '150', daily: '300' },
  basic: { perTransaction: '2000', daily: '5000' },
  enhanced: { perTransaction: '25000', daily: '100000' },
};

export const LIMITS_DESCRIPTION =
  'Limits by KYC level (per transaction / per day since 00:00 UTC; outflows to other accounts, pending included): ' +
  KYC_LEVELS.map((level) => `${level} ${LIMIT_TIERS[level].perTransaction} / ${LIMIT_TIERS[level].daily} EUR`).join(', ') +
  '; other currencies scale these by a fixed reference factor. Over a limit: 403 `limit_exceeded` with limit, currency and remaining.';

/** debit: money out of the account; credit: money in. */
export const STATEMENT_DIRECTIONS = ['debit', 'credit'] as const;
/** A line's state: posted, pending (held), voided (released) or expired. */
export const STATEMENT_STATUSES = ['posted', 'pending', 'voided', 'expired'] as const;
