import { DomainError } from '../../../../lib/errors';
import { LEDGER_TOTAL_MAX, toMoney } from '../../kernel/currencies';
import type { KycLevel } from '../../kernel/kyc';
import { isKycLevel, limitFor } from '../../ledger/domain/limits';

/**
 * The limits of money coming in by a user's own action (a mobile-money deposit, a sandbox's simulated
 * incoming transfer): what one user may bring in per deposit and per rolling 24 hours in a currency,
 * pending deposits included (a deposit counts from its request until it is voided or expires), and
 * the ceiling of the shared clearing account the deposits are drawn on, which no user can reach.
 *
 * The amounts are the spending tiers of the user's KYC level (ledger/vocabulary.ts LIMIT_TIERS, scaled
 * per currency): per transaction for one deposit, the daily figure for 24 hours.
 */

/** The window of the cumulative deposit limit. */
export const DEPOSIT_WINDOW_HOURS = 24;

export interface DepositLimit {
  /** minor units */
  perDeposit: bigint;
  /** minor units, per DEPOSIT_WINDOW_HOURS, pending included */
  perWindow: bigint;
}

export function depositLimitFor(level: KycLevel, currency: string): DepositLimit {
  const { perTransaction, daily } = limitFor(isKycLevel(level) ? level : 'none', currency);
  return { perDeposit: perTransaction, perWindow: daily };
}

/**
 * 403 LIMIT_EXCEEDED when `amount` passes the per-deposit limit, or the 24-hour one with what the user
 * deposited (pending or posted) in the window so far.
 */
export function checkDepositLimit(level: string, currency: string, amount: bigint, depositedInWindow: bigint): void {
  const limit = depositLimitFor(isKycLevel(level) ? level : 'none', currency);
  const shown = (minor: bigint) => toMoney(minor < 0n ? 0n : minor, currency).amount;
  if (amount > limit.perDeposit) {
    throw new DomainError('LIMIT_EXCEEDED', 403, `One deposit is at most ${shown(limit.perDeposit)} ${currency} at your verification level (${level}).`, {
      period: 'deposit',
      limit: shown(limit.perDeposit),
      currency,
      remaining: shown(limit.perWindow - depositedInWindow),
      level,
    });
  }
  if (depositedInWindow + amount > limit.perWindow) {
    throw new DomainError(
      'LIMIT_EXCEEDED',
      403,
      `This would pass your deposit limit of ${shown(limit.perWindow)} ${currency} per ${DEPOSIT_WINDOW_HOURS} hours (pending deposits included; verification level ${level}).`,
      { period: 'deposits_24h', limit: shown(limit.perWindow), currency, remaining: shown(limit.perWindow - depositedInWindow), level },
    );
  }
}

/**
 * The shared clearing account a currency's deposits are drawn on (e.g. `banking:momo`) grows by every
 * deposit; the ledger refuses any movement that would take one of its sums past LEDGER_TOTAL_MAX. The
 * deposit limits keep users far from it (at the largest tier, filling one sum takes over 10^10
 * user-days of deposits), and an alert is raised once a sum passes 80 % of it, so that an operator
 * settles the account long before it is full.
 */
export const CLEARING_ALERT_LEVEL = (LEDGER_TOTAL_MAX * 8n) / 10n;

/** Whether a clearing account whose larger sum will be `after` needs an operator's attention. */
export const clearingNearsMaximum = (after: bigint): boolean => after >= CLEARING_ALERT_LEVEL;
