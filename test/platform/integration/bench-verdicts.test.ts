/**
 * The benchmark holds its own line (bench/harness.ts): a row under its target reads BELOW TARGET with
 * a figure that shows it (never "1.00" for 0.996 of 1), and `--check` ends with a non-zero exit code.
 */
import { limit, ratioText, report } from '../../../bench/harness';

it('prints a ratio under its target with the digits that show it is under', () => {
  expect(ratioText(0.9955, 1)).toBe('0.996');
  expect(ratioText(0.99995, 1)).toBe('0.99995');
  expect(ratioText(0.8499, 0.85)).toBe('0.8499');
  expect(ratioText(1.004, 1)).toBe('1.00');
  expect(ratioText(0.82, 1)).toBe('0.82');
  expect(ratioText(2.456, null)).toBe('2.46');
});

it('--check exits non-zero when a row does not hold its line, and not when every row does', () => {
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const before = process.exitCode;
  try {
    limit('a footprint within its limit', 120, 180, 'MB');
    report(true);
    expect(process.exitCode).toBe(before);
    limit('a footprint over its limit', 181, 180, 'MB');
    report(true);
    expect(process.exitCode).toBe(1);
    expect(log.mock.calls.flat().join('\n')).toMatch(/BELOW TARGET\s+181\.00\s+target 180\s+a footprint over its limit/);
  } finally {
    process.exitCode = before;
    log.mockRestore();
  }
});
