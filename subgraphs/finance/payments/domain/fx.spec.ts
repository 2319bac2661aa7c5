import Decimal from 'decimal.js';
import fc from 'fast-check';
import { MAX_AMOUNT_MINOR, exponentOf } from '../../kernel/currencies';
import { FX_FEE_BPS } from '../vocabulary';
import { FX_CURRENCIES, quoteAmounts } from './fx';
import { SANDBOX_EUR_RATES, SandboxRates } from './rates';

/**
 * The FX desk's arithmetic (quoteAmounts): the fee is FX_FEE_BPS of the source rounded up, the target is
 * the rest at the rate rounded down, so no conversion, and no conversion there and back, pays out more
 * than it took. The pairs are every pair of the desk's currencies the offline rates know.
 */
const Exact = Decimal.clone({ precision: 100 });
const currencies = FX_CURRENCIES.filter((c) => SANDBOX_EUR_RATES[c] !== undefined);
const pairs = currencies.flatMap((a) => currencies.filter((b) => b !== a).map((b) => [a, b] as const));
const rates = new Map<string, string>();

beforeAll(async () => {
  const sandbox = new SandboxRates();
  for (const [a, b] of pairs) rates.set(`${a}/${b}`, await sandbox.rate(a, b));
});

const pair = fc.constantFrom(...pairs);
const amount = fc.bigInt({ min: 1n, max: MAX_AMOUNT_MINOR });
/** A rate as a provider may answer one: up to 12 significant digits, from 10⁻⁶ to 10⁶. */
const anyRate = fc
  .tuple(fc.integer({ min: 1, max: 999_999_999_999 }), fc.integer({ min: -17, max: -6 }))
  .map(([digits, exp]) => new Decimal(digits).mul(new Decimal(10).pow(exp)).toFixed());

/** The exact value of `minor` of `from` in minor units of `to` at `rate`. */
const exactValue = (minor: bigint, from: string, to: string, rate: string) =>
  new Exact(minor.toString()).mul(rate).mul(new Exact(10).pow(exponentOf(to) - exponentOf(from)));

it('knows pairs to check', () => {
  expect(pairs.length).toBeGreaterThanOrEqual(6);
});

it('charges FX_FEE_BPS of the source, rounded up to the minor unit, never more than the source', () => {
  fc.assert(
    fc.property(amount, pair, (source, [from, to]) => {
      const { fee } = quoteAmounts(source, from, to, rates.get(`${from}/${to}`)!);
      expect(fee * 10_000n).toBeGreaterThanOrEqual(source * FX_FEE_BPS);
      expect((fee - 1n) * 10_000n).toBeLessThan(source * FX_FEE_BPS);
      expect(fee).toBeLessThanOrEqual(source);
    }),
  );
});

it('pays the rest at the rate rounded down: never above its exact value, less than one minor unit below it', () => {
  fc.assert(
    fc.property(amount, pair, anyRate, (source, [from, to], rate) => {
      const { fee, target } = quoteAmounts(source, from, to, rate);
      const exact = exactValue(source - fee, from, to, rate);
      expect(new Exact(target.toString()).lte(exact)).toBe(true);
      expect(exact.minus(target.toString()).lt(1)).toBe(true);
    }),
  );
});

it('rounds down however many digits the product has (20 significant digits would round this one up)', () => {
  // 100 000 001 548.87 EUR to UGX at 4709.30232558: the exact value is 468575588652809.9999978… UGX
  expect(quoteAmounts(10000000154887n, 'EUR', 'UGX', '4709.30232558').target).toBe(468575588652809n);
});

it('never creates value: converting there and back at the desk rates returns less than was sent', () => {
  fc.assert(
    fc.property(amount, pair, (source, [from, to]) => {
      const there = quoteAmounts(source, from, to, rates.get(`${from}/${to}`)!).target;
      const back = there > 0n ? quoteAmounts(there, to, from, rates.get(`${to}/${from}`)!).target : 0n;
      expect(back).toBeLessThan(source);
    }),
  );
});
