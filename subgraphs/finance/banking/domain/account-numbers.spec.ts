import fc from 'fast-check';
import { composeIban, composeNuban, isValidNuban, normaliseIban } from './account-numbers';

/**
 * The account numbers the node hands out carry their rail's check digits, so a payer's typo lands in a
 * refusal, not in another account: every generated number validates, and every single-digit change of
 * one (the commonest typo) does not.
 */
const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
const bankCode = fc.oneof(digits(3), digits(5), digits(6));
/** One digit of `text` at `at` replaced by another. */
const typo = (text: string, at: number, by: number) => {
  const i = at % text.length;
  const d = (Number(text[i]) + 1 + (by % 9)) % 10;
  return `${text.slice(0, i)}${d}${text.slice(i + 1)}`;
};

it('a composed NUBAN validates at its bank; any one digit changed does not', () => {
  fc.assert(
    fc.property(bankCode, digits(9), fc.nat(), fc.nat(), (bank, serial, at, by) => {
      const nuban = composeNuban(bank, serial);
      expect(nuban).toMatch(/^\d{10}$/);
      expect(isValidNuban(bank, nuban)).toBe(true);
      expect(isValidNuban(bank, typo(nuban, at, by))).toBe(false);
    }),
  );
});

it('a GB IBAN composed from any account validates (printed or electronic); any one digit changed does not', () => {
  const bban = fc.tuple(fc.constantFrom('NWBK', 'BARC', 'MONZ'), digits(14)).map(([bank, n]) => `${bank}${n}`);
  fc.assert(
    fc.property(bban, fc.nat(), fc.nat(), (b, at, by) => {
      const iban = composeIban('GB', b);
      const printed = iban.toLowerCase().replace(/(.{4})/g, '$1 ');
      expect(normaliseIban(printed)).toBe(iban);
      // a digit of the BBAN's account number (after GBkk and the 4-letter bank)
      const changed = `${iban.slice(0, 8)}${typo(iban.slice(8), at, by)}`;
      expect(normaliseIban(changed)).toBeUndefined();
    }),
  );
});

it('agrees with the CBN algorithm on a worked number (bank 011, serial 000001457: weighted sum 81, check digit 9)', () => {
  expect(composeNuban('011', '000001457')).toBe('0000014579');
  expect(isValidNuban('011', '0000014578')).toBe(false);
});
