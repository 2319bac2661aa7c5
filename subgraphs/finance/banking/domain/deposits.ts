import { DomainError } from '../../../../lib/errors';
import { LEDGER_TOTAL_MAX, toMoney } from '../../../../lib/money';
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
    throw new DomainError(
      'LIMIT_EXCEEDED',
      403,
      `One deposit is at most ${shown(limit.perDeposit)} ${currency} at your verification level (${level}).`,
      { period: 'deposit', limit: shown(limit.perDeposit), currency, remaining: shown(limit.perWindow - depositedInWindow), level },
    );
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
 * The clearing account's ceiling for deposits made by users: half of what a ledger sum holds, so that
 * user actions can never fill the account (the other half stays for settlements and an operator), and
 * the alert level at 80 % of that ceiling.
 */
export const CLEARING_DEPOSIT_CEILING = LEDGER_TOTAL_MAX / 2n;
export const CLEARING_ALERT_LEVEL = (CLEARING_DEPOSIT_CEILING * 8n) / 10n;

/**
 * Whether a deposit of `amount` may draw on a clearing account whose debits (pending and posted) are
 * `used`: `ok`, `alert` (allowed, but the account nears its ceiling: an operator must settle it), or
 * `full` (refused: 503, the deposit waits for the operator).
 */
export function clearingHeadroom(used: bigint, amount: bigint): 'ok' | 'alert' | 'full' {
  const after = used + amount;
  if (after > CLEARING_DEPOSIT_CEILING) return 'full';
  return after >= CLEARING_ALERT_LEVEL ? 'alert' : 'ok';
}

export const depositsPaused = (currency: string) =>
  new DomainError('DEPOSITS_PAUSED', 503, `Deposits in ${currency} are paused while the node's clearing account is settled; try again later.`, {
    retryAfterSeconds: 300,
  });
