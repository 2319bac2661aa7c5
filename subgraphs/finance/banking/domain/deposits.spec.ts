import { LEDGER_TOTAL_MAX } from '../../kernel/currencies';
import { CLEARING_ALERT_LEVEL, checkDepositLimit, clearingNearsMaximum, depositLimitFor } from './deposits';

describe('deposit limits', () => {
  it("are the KYC level's tiers in the currency: per deposit and per 24 hours", () => {
    expect(depositLimitFor('basic', 'GHS')).toEqual({ perDeposit: 3_000_000n, perWindow: 7_500_000n });
    expect(depositLimitFor('none', 'EUR')).toEqual({ perDeposit: 15_000n, perWindow: 30_000n });
    // an unknown level is held to the lowest
    expect(depositLimitFor('whatever' as never, 'EUR')).toEqual(depositLimitFor('none', 'EUR'));
  });

  it('refuses one deposit over the per-deposit limit, and one that passes the window with what is pending or posted', () => {
    expect(() => checkDepositLimit('basic', 'GHS', 3_000_000n, 0n)).not.toThrow();
    expect(() => checkDepositLimit('basic', 'GHS', 3_000_001n, 0n)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', status: 403 }));
    expect(() => checkDepositLimit('basic', 'GHS', 1_500_000n, 6_000_000n)).not.toThrow();
    try {
      checkDepositLimit('basic', 'GHS', 1n, 7_500_000n);
      throw new Error('not refused');
    } catch (err) {
      expect(err).toMatchObject({
        code: 'LIMIT_EXCEEDED',
        extensions: expect.objectContaining({
          details: expect.objectContaining({ period: 'deposits_24h', limit: '75000.00', remaining: '0.00', currency: 'GHS' }),
        }),
      });
    }
  });

  it("alerts once a clearing account's sum passes 80 % of what the ledger holds", () => {
    expect(CLEARING_ALERT_LEVEL).toBe((LEDGER_TOTAL_MAX * 8n) / 10n);
    expect(clearingNearsMaximum(CLEARING_ALERT_LEVEL - 1n)).toBe(false);
    expect(clearingNearsMaximum(CLEARING_ALERT_LEVEL)).toBe(true);
  });
});
