import Decimal from 'decimal.js';
import { badInput } from './errors';

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

/** A decimal string → minor units; more decimals than the currency has is an error, never a rounding. */
export function toMinor(amount: string, currency: string): bigint {
  const e = exponentOf(currency);
  if (!/^-?\d+(\.\d+)?$/.test(amount)) throw badInput('amount must be a decimal string such as "10.50".', { amount: ['A decimal string.'] });
  const scaled = new Decimal(amount).mul(new Decimal(10).pow(e));
  if (!scaled.isInteger()) throw badInput(`${currency} has ${e} decimals.`, { amount: [`At most ${e} decimals.`] });
  return BigInt(scaled.toFixed(0));
}
