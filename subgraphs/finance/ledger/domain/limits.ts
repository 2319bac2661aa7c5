import Decimal from 'decimal.js';
import { DomainError } from '../../../../lib/errors';
import { SUPPORTED_CURRENCIES, exponentOf, toMoney } from '../../kernel/currencies';
import { KYC_LEVELS, type KycLevel } from '../../kernel/kyc';
import { LIMIT_TIERS } from '../vocabulary';

/**
 * Spending limits by KYC level: the one table every money-moving module is held to. The ledger
 * enforces them (createLedgerTransfers with `limits`), inside the transaction that moves the money and
 * under a per-user lock, so concurrent requests can never pass a daily limit together.
 *
 * What counts: the user's outflows — debits of the user's accounts to an account that is not the
 * user's own, posted or pending (a voided or expired pending counts nothing, a partly posted one its
 * posted amount). "Per transaction" is the total a batch takes out in a currency; "daily" the total
 * since 00:00 UTC, this batch included.
 *
 * The tiers are in EUR; every other currency scales them by a fixed reference factor (rounded down
 * to the currency's minor unit), so the table stays one table. The tiers (LIMIT_TIERS) and their
 * description are the ledger's published words (../vocabulary.ts).
 */

/** How many units of each currency one EUR of a tier is worth (reference factors, not market rates). */
export const LIMIT_SCALE: Record<string, string> = {
  EUR: '1',
  GBP: '1',
  USD: '1',
  CHF: '1',
  USDC: '1',
  USDT: '1',
  NGN: '1500',
  GHS: '15',
  KES: '150',
  ZAR: '20',
  UGX: '4000',
  XOF: '650',
  JPY: '150',
  BTC: '0.00002',
  ETH: '0.0004',
  POINTS: '100',
};

export interface Limit {
  /** minor units */
  perTransaction: bigint;
  daily: bigint;
}

function scaled(eur: string, currency: string): bigint {
  const factor = LIMIT_SCALE[currency];
  if (factor === undefined) throw new Error(`No limit scale for ${currency} (add it to LIMIT_SCALE).`);
  return BigInt(
    new Decimal(eur)
      .mul(factor)
      .mul(new Decimal(10).pow(exponentOf(currency)))
      .floor()
      .toFixed(0),
  );
}

/** The limits of a KYC level in a currency, in minor units. */
export function limitFor(level: KycLevel, currency: string): Limit {
  const tier = LIMIT_TIERS[level];
  return { perTransaction: scaled(tier.perTransaction, currency), daily: scaled(tier.daily, currency) };
}

export const isKycLevel = (level: string): level is KycLevel => (KYC_LEVELS as readonly string[]).includes(level);

/** The table as text, for the OpenAPI descriptions and the README. */
export function limitsTable(): string {
  const rows = SUPPORTED_CURRENCIES.map((currency) => {
    const cells = KYC_LEVELS.map((level) => {
      const l = limitFor(level, currency);
      return `${toMoney(l.perTransaction, currency).amount} / ${toMoney(l.daily, currency).amount}`;
    });
    return `| ${currency} | ${cells.join(' | ')} |`;
  });
  return [`| Currency | ${KYC_LEVELS.join(' | ')} |`, `|---|${KYC_LEVELS.map(() => '---').join('|')}|`, ...rows].join('\n');
}

/** 403 LIMIT_EXCEEDED, with the limit passed and what is left of it (decimal strings). */
export function limitExceeded(period: 'transaction' | 'daily', limit: bigint, remaining: bigint, currency: string, level: KycLevel): DomainError {
  const shown = toMoney(limit, currency).amount;
  return new DomainError(
    'LIMIT_EXCEEDED',
    403,
    period === 'daily'
      ? `This would pass your daily limit of ${shown} ${currency} (KYC level ${level}).`
      : `This passes your per-transaction limit of ${shown} ${currency} (KYC level ${level}).`,
    {
      period,
      limit: shown,
      currency,
      remaining: toMoney(remaining < 0n ? 0n : remaining, currency).amount,
      level,
    },
  );
}

export const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
