import Decimal from 'decimal.js';
import { badInput } from '../../../lib/errors';

/**
 * Money, one vocabulary for every finance subgraph. Amounts are integers of the currency's minor unit (bigint) inside the ledger; decimal strings with
 * their currency on the wire (`{"amount": "10.50", "currency": "EUR"}`). decimal.js only at the edges.
 */
const EXPONENTS: Record<string, number> = {
  EUR: 2,
  GBP: 2,
  USD: 2,
  NGN: 2,
  GHS: 2,
  KES: 2,
  ZAR: 2,
  CHF: 2,
  UGX: 0,
  XOF: 0,
  JPY: 0,
  BTC: 8,
  ETH: 8,
  USDC: 8,
  USDT: 8,
  POINTS: 0,
};

export const SUPPORTED_CURRENCIES = Object.keys(EXPONENTS);

/** The fiat currencies (at most 2 decimals; crypto assets have 8, reward points are no money). */
export const FIAT_CURRENCIES = SUPPORTED_CURRENCIES.filter((c) => EXPONENTS[c] <= 2 && c !== 'POINTS');

export function exponentOf(currency: string): number {
  const e = EXPONENTS[currency];
  if (e === undefined) throw badInput(`Unsupported currency "${currency}".`, { currency: [`One of ${SUPPORTED_CURRENCIES.join(', ')}.`] });
  return e;
}

export interface Money {
  amount: string;
  currency: string;
}

/** Minor units → `{"amount": "10.50", "currency": "EUR"}`. */
export function toMoney(minor: bigint, currency: string): Money {
  return { amount: new Decimal(minor.toString()).div(new Decimal(10).pow(exponentOf(currency))).toFixed(exponentOf(currency)), currency };
}

/**
 * The largest amount of one movement, in minor units, in every currency: 10^14 (10^12 units of a
 * currency with 2 decimals, 10^14 of one with none, 10^6 of an 8-decimal asset). The ledger keeps
 * each account's four sums in a bigint (at most 9.2 × 10^18) and refuses a movement that would take
 * one beyond `LEDGER_TOTAL_MAX`: tens of thousands of maximal movements fit in any account.
 */
export const MAX_AMOUNT_MINOR = 10n ** 14n;

/** Each account sum (pending, posted; debits, credits) stays at most this: two of them still add up within a bigint. */
export const LEDGER_TOTAL_MAX = 4n * 10n ** 18n;

/** The largest amount of one movement in `currency`, as a decimal string (e.g. "1000000000000.00" for GHS). */
export const maxAmount = (currency: string): string => toMoney(MAX_AMOUNT_MINOR, currency).amount;

/**
 * A decimal string → minor units; more decimals than the currency has is an error, never a rounding,
 * and so is more than the currency's maximum (`maxAmount`). The one parser of money amounts: every
 * REST route and GraphQL mutation of the finance node reads its amounts with it (400 BAD_USER_INPUT).
 */
export function toMinor(amount: string, currency: string, field = 'amount'): bigint {
  const e = exponentOf(currency);
  if (typeof amount !== 'string' || amount.length > 64 || !/^-?\d+(\.\d+)?$/.test(amount))
    throw badInput(`${field} must be a decimal string such as "10.50".`, { [field]: ['A decimal string.'] });
  const scaled = new Decimal(amount).mul(new Decimal(10).pow(e));
  if (!scaled.isInteger()) throw badInput(`${currency} has ${e} decimals.`, { [field]: [`At most ${e} decimals.`] });
  if (scaled.abs().gt(MAX_AMOUNT_MINOR.toString())) {
    throw badInput(`${field} is at most ${maxAmount(currency)} ${currency}.`, {
      [field]: [`Ensure this value is less than or equal to ${maxAmount(currency)}.`],
    });
  }
  return BigInt(scaled.toFixed(0));
}
