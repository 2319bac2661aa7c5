/** Amounts, dates and decimal arithmetic for display (the node sends amounts as decimal strings). */
import Decimal from 'decimal.js';

export interface Money {
  amount: string;
  currency: string;
}

const formats = new Map<string, Intl.NumberFormat | null>();

let iso: Set<string> | null = null;
const isoCurrencies = (): Set<string> => (iso ??= new Set(Intl.supportedValuesOf('currency')));

/** The browser's language (globalThis: the spec runs this module in Node, without the DOM's types). */
const locale = (): string => (globalThis as { navigator?: { language?: string } }).navigator?.language || 'en';

/** The one money formatter of the client: the currency's own decimals (2 for USD and EUR, 0 for JPY). */
function formatFor(currency: string): Intl.NumberFormat | null {
  if (!formats.has(currency)) {
    // Intl formats any three letters ("BTC" as "BTC 0.12"): only ISO 4217 codes it knows are money with fixed decimals
    if (!isoCurrencies().has(currency)) return null;
    try {
      formats.set(currency, new Intl.NumberFormat(locale(), { style: 'currency', currency }));
    } catch {
      formats.set(currency, null); // a crypto asset (USDC, BTC…) is no ISO currency: shown with its code
    }
  }
  return formats.get(currency)!;
}

/** "€42.00", "$1,234.56", or "0.5 BTC" for assets Intl does not know. */
export function money(value: Money | null | undefined): string {
  if (!value) return '—';
  return amount(value.amount, value.currency);
}

/**
 * A decimal string as money: rounded half-up (decimal.js, exactly) to the currency's decimals, so an average
 * cost of 230.099999999 USD shows "$230.10" and a price of 187.125 shows "$187.13". Assets without an ISO code
 * keep their own digits ("0.5 BTC").
 */
export function amount(decimal: string, currency: string): string {
  const format = formatFor(currency);
  let value: Decimal;
  try {
    value = new Decimal(decimal);
  } catch {
    return `${decimal} ${currency}`;
  }
  if (!format || !value.isFinite()) return `${decimal} ${currency}`;
  const places = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(Number(value.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places)));
}

/** a − b for decimal strings, exactly (BigInt on a common scale). */
export function subtract(a: string, b: string): string {
  const scale = Math.max((a.split('.')[1] ?? '').length, (b.split('.')[1] ?? '').length);
  const toUnits = (s: string) => {
    const negative = s.startsWith('-');
    const [whole, fraction = ''] = s.replace('-', '').split('.');
    const units = BigInt(whole + fraction.padEnd(scale, '0'));
    return negative ? -units : units;
  };
  const diff = toUnits(a) - toUnits(b);
  const negative = diff < 0n;
  const digits = (negative ? -diff : diff).toString().padStart(scale + 1, '0');
  const out = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${out}` : out;
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A positive decimal with at most `places` fraction digits, as a customer types it ("12", "12.5", "12,50"). */
export function parseAmount(input: string, places = 8): string | null {
  const text = input.trim().replace(',', '.');
  if (!new RegExp(`^\\d+(\\.\\d{1,${places}})?$`).test(text) || Number(text) <= 0) return null;
  return text;
}

/** Words for a status code ("partially_filled" → "partially filled"). */
export const words = (code: string): string => code.replace(/_/g, ' ');

/** A statement line as the ledger sends it: what moved, whom with (a user, a bank, a merchant). */
export interface LineText {
  direction: 'debit' | 'credit';
  code: string;
  description?: string | null;
  counterparty?: string | null;
}

/**
 * A line in words, naming the other party: "Transfer to tom_b", "Deposit from Sandbox Bank"; without a description
 * the ledger code in words, without its module prefix ("investing:order_reserve" → "Order reserve").
 */
export function describeLine(t: LineText): string {
  const code = t.code
    .replace(/^[a-z_]+:/, '')
    .replace(/[_.-]+/g, ' ')
    .trim();
  const what = t.description?.trim() || (code ? code[0].toUpperCase() + code.slice(1) : 'Movement');
  if (!t.counterparty || what.includes(t.counterparty)) return what;
  return `${what} ${t.direction === 'debit' ? 'to' : 'from'} ${t.counterparty}`;
}
