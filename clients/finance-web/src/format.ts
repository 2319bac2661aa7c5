/** Amounts, dates and decimal arithmetic for display (the node sends amounts as decimal strings). */
export interface Money {
  amount: string;
  currency: string;
}

const formats = new Map<string, Intl.NumberFormat | null>();

function formatFor(currency: string): Intl.NumberFormat | null {
  if (!formats.has(currency)) {
    try {
      formats.set(currency, new Intl.NumberFormat(navigator.language || 'en', { style: 'currency', currency, maximumFractionDigits: 8 }));
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

export function amount(decimal: string, currency: string): string {
  const format = formatFor(currency);
  const number = Number(decimal);
  if (!format || !Number.isFinite(number)) return `${decimal} ${currency}`;
  const digits = Math.max(format.resolvedOptions().minimumFractionDigits ?? 2, (decimal.split('.')[1] ?? '').replace(/0+$/, '').length);
  return new Intl.NumberFormat(format.resolvedOptions().locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(number);
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
  return new Date(iso).toLocaleString(navigator.language || 'en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A positive decimal with at most `places` fraction digits, as a customer types it ("12", "12.5", "12,50"). */
export function parseAmount(input: string, places = 8): string | null {
  const text = input.trim().replace(',', '.');
  if (!new RegExp(`^\\d+(\\.\\d{1,${places}})?$`).test(text) || Number(text) <= 0) return null;
  return text;
}

/** Words for a status code ("partially_filled" → "partially filled"). */
export const words = (code: string): string => code.replace(/_/g, ' ');
