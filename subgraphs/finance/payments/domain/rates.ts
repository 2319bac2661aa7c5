import Decimal from 'decimal.js';
import { DomainError } from '../../../../lib/errors';
import { readText } from '../../../../lib/bounded-body';

/**
 * Where FX rates come from. `sandbox` answers fixed reference rates offline (npm start, the demo);
 * `http` asks a rates service that speaks the Frankfurter / ECB reference-rate API
 * (`GET <base>/latest?base=EUR&symbols=GBP` → `{"base":"EUR","date":"2026-11-20","rates":{"GBP":0.8571}}`),
 * with a timeout and one retry on a fault. Rates are decimal strings from here on (never floats).
 */
export interface RateProvider {
  readonly name: string;
  /** Units of `target` for one unit of `source`, as a decimal string. */
  rate(source: string, target: string): Promise<string>;
}

export const ratesUnavailable = (detail: string) => new DomainError('RATES_UNAVAILABLE', 503, `FX rates are unavailable right now (${detail}).`);
export const pairUnsupported = (source: string, target: string) =>
  new DomainError('BAD_USER_INPUT', 400, `No rate for ${source} to ${target}.`, { target_currency: [`No rate from ${source}.`] });

/** Reference rates against EUR (units of the currency per euro), offline. */
export const SANDBOX_EUR_RATES: Record<string, string> = {
  EUR: '1',
  GBP: '0.86',
  USD: '1.08',
  CHF: '0.95',
  NGN: '1650',
  GHS: '16.5',
  KES: '140',
  ZAR: '20.1',
  UGX: '4050',
  XOF: '655.957',
  JPY: '162',
};

export class SandboxRates implements RateProvider {
  readonly name = 'sandbox';

  async rate(source: string, target: string): Promise<string> {
    const s = SANDBOX_EUR_RATES[source];
    const t = SANDBOX_EUR_RATES[target];
    if (!s || !t) throw pairUnsupported(source, target);
    return new Decimal(t).div(s).toSignificantDigits(12).toString();
  }
}

export class HttpRates implements RateProvider {
  readonly name = 'http';

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 5_000,
  ) {}

  async rate(source: string, target: string): Promise<string> {
    const url = new URL(`${this.baseUrl.replace(/\/$/, '')}/latest`);
    url.searchParams.set('base', source);
    url.searchParams.set('symbols', target);
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (err) {
        if (attempt < 2) continue;
        throw ratesUnavailable((err as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable');
      }
      if (res.status >= 500 && attempt < 2) continue;
      if (res.status === 404 || res.status === 422) throw pairUnsupported(source, target);
      if (!res.ok) throw ratesUnavailable(`HTTP ${res.status}`);
      const text = await readText(res).catch(() => {
        throw ratesUnavailable('reply too large');
      });
      // the rate is read from the JSON text itself, so that no binary float rounds it
      const match = new RegExp(`"${target}"\\s*:\\s*"?(\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)"?`).exec(text);
      if (!match) throw pairUnsupported(source, target);
      const rate = new Decimal(match[1]);
      if (!rate.isFinite() || rate.lte(0)) throw ratesUnavailable('invalid rate');
      return rate.toString();
    }
  }
}
