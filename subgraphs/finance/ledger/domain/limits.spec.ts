import { SUPPORTED_CURRENCIES, toMoney } from '../../kernel/currencies';
import { KYC_LEVELS } from '../../kernel/kyc';
import { LIMIT_TIERS } from '../vocabulary';
import { limitExceeded, limitFor, startOfUtcDay } from './limits';

/** The spending-limit table (limits.ts): one table in EUR, scaled to every currency the node moves. */
describe('spending limits', () => {
  it.each(SUPPORTED_CURRENCIES)('%s has limits at every KYC level, per transaction within the daily limit, rising with the level', (currency) => {
    const limits = KYC_LEVELS.map((level) => limitFor(level, currency));
    for (const l of limits) {
      expect(l.perTransaction).toBeGreaterThan(0n);
      expect(l.perTransaction).toBeLessThanOrEqual(l.daily);
    }
    for (let i = 1; i < limits.length; i++) {
      expect(limits[i].perTransaction).toBeGreaterThan(limits[i - 1].perTransaction);
      expect(limits[i].daily).toBeGreaterThan(limits[i - 1].daily);
    }
  });

  it('is the EUR tier in EUR, in minor units', () => {
    for (const level of KYC_LEVELS) {
      expect(toMoney(limitFor(level, 'EUR').perTransaction, 'EUR').amount).toBe(`${LIMIT_TIERS[level].perTransaction}.00`);
      expect(toMoney(limitFor(level, 'EUR').daily, 'EUR').amount).toBe(`${LIMIT_TIERS[level].daily}.00`);
    }
  });

  it('refuses with 403 LIMIT_EXCEEDED, the limit and what remains (never below zero)', () => {
    const err = limitExceeded('daily', 500_000n, -5n, 'EUR', 'basic');
    expect([err.status, err.code]).toEqual([403, 'LIMIT_EXCEEDED']);
    expect(err.extensions.details).toEqual({ period: 'daily', limit: '5000.00', currency: 'EUR', remaining: '0.00', level: 'basic' });
  });

  it('counts a day from 00:00 UTC', () => {
    expect(startOfUtcDay(new Date('2025-03-01T23:59:59.999-05:00')).toISOString()).toBe('2025-03-02T00:00:00.000Z');
  });
});
