import Decimal from 'decimal.js';
import fc from 'fast-check';
import { DomainError } from '../../../../lib/errors';
import { maxAmount } from '../../kernel/currencies';
import { QUANTITY_DECIMALS, validateOrder, type OrderInput } from './investing';

/**
 * What an order may ask of the broker (validateOrder), before any money is reserved: its shape (every
 * combination of type, qty, notional and limit price is enumerated) and its amounts (generated decimal
 * strings: positive, within the bound of their field, at most QUANTITY_DECIMALS decimals).
 */
const outcome = (input: OrderInput) => {
  try {
    return validateOrder(input);
  } catch (err) {
    return err as DomainError;
  }
};
const refused = (got: unknown) => got instanceof DomainError && got.status === 400;

const shapes = (['market', 'limit'] as const).flatMap((type) =>
  [false, true].flatMap((qty) => [false, true].flatMap((notional) => [false, true].map((limitPrice) => ({ type, qty, notional, limitPrice })))),
);

it.each(shapes)('a %o order is accepted exactly when it has one of qty and notional, a limit price iff a limit order, and no limit notional', (s) => {
  const got = outcome({
    symbol: 'AAPL',
    side: 'buy',
    type: s.type,
    qty: s.qty ? '2' : null,
    notional: s.notional ? '100.00' : undefined,
    limitPrice: s.limitPrice ? '150.5' : null,
  });
  const valid = s.qty !== s.notional && s.limitPrice === (s.type === 'limit') && !(s.type === 'limit' && s.notional);
  expect(refused(got)).toBe(!valid);
  if (valid) expect(got).toMatchObject({ type: s.type, qty: s.qty ? '2' : null, notional: s.notional ? '100' : null });
});

/** Decimal strings of any size and precision, zero and trailing zeros included. */
const decimalString = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 13n }), fc.stringMatching(/^[0-9]{0,12}$/))
  .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : `${whole}`));

const FIELDS = [
  { field: 'qty', max: new Decimal(10).pow(9), input: (v: string): OrderInput => ({ symbol: 'X', side: 'buy', type: 'market', qty: v }) },
  { field: 'notional', max: new Decimal(maxAmount('USD')), input: (v: string): OrderInput => ({ symbol: 'X', side: 'buy', type: 'market', notional: v }) },
  {
    field: 'limitPrice',
    max: new Decimal(maxAmount('USD')),
    input: (v: string): OrderInput => ({ symbol: 'X', side: 'sell', type: 'limit', qty: '1', limitPrice: v }),
  },
] as const;

it.each(FIELDS)('$field: a positive decimal within its bound and QUANTITY_DECIMALS is taken as its value; any other is a 400', ({ field, max, input }) => {
  fc.assert(
    fc.property(decimalString, (v) => {
      const d = new Decimal(v);
      const valid = d.gt(0) && d.lte(max) && d.decimalPlaces() <= QUANTITY_DECIMALS;
      const got = outcome(input(v));
      expect(refused(got)).toBe(!valid);
      if (valid) expect(new Decimal((got as Record<string, string>)[field]).eq(d)).toBe(true);
    }),
  );
});

it.each(FIELDS)('$field: the bound and the smallest step are taken, one step past the bound and zero are not', ({ field, max, input }) => {
  const step = new Decimal(10).pow(-QUANTITY_DECIMALS);
  expect(refused(outcome(input(max.toFixed())))).toBe(false);
  expect(refused(outcome(input(step.toFixed())))).toBe(false);
  // written out: decimal.js arithmetic would round max + step to 20 significant digits, i.e. to max
  const past = max.toFixed(QUANTITY_DECIMALS).replace(/0$/, '1');
  expect([field, refused(outcome(input(past))), refused(outcome(input('0')))]).toEqual([field, true, true]);
});

it.each(['-1', '1e3', ' 1', '0x10', '', '1.', '.5', 'NaN', 'Infinity'])('refuses %p as an amount', (v) => {
  expect(refused(outcome({ symbol: 'X', side: 'buy', type: 'market', qty: v }))).toBe(true);
});
