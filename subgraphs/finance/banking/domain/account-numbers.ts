import { isValidIBAN } from 'ibantools';

/**
 * Account numbers in each rail's own format, with its check digits: IBANs (ISO 13616, mod-97) for the
 * EUR and GBP rails, NUBANs (the Central Bank of Nigeria's 10-digit number, weighted check digit over
 * the bank code) for the Nigerian rail.
 */

/** ISO 7064 MOD 97-10 over a string of digits and letters (A = 10 … Z = 35), digit by digit: no bigint needed. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = parseInt(char, 36);
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

/** The IBAN of a country's BBAN: check digits are 98 − mod97(BBAN + country + "00"). */
export function composeIban(countryCode: string, bban: string): string {
  const check = 98 - mod97(`${bban}${countryCode}00`);
  const iban = `${countryCode}${String(check).padStart(2, '0')}${bban}`;
  // the registry's country format (length, character classes) is ibantools' to check, not ours
  if (!isValidIBAN(iban)) throw new Error(`not a valid IBAN for ${countryCode}: ${bban}`);
  return iban;
}

/** An IBAN as printed (spaces, lower case) → its electronic form, or undefined when it is not a valid IBAN. */
export function normaliseIban(text: string): string | undefined {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  return isValidIBAN(iban) ? iban : undefined;
}

/** CBN's NUBAN weights over the 6-digit bank code (3-digit codes padded with "000") and the 9-digit serial. */
const NUBAN_WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

function nubanBankCode(bankCode: string): string {
  if (!/^\d{3}$|^\d{5,6}$/.test(bankCode)) throw new Error(`not a NUBAN bank code: ${bankCode}`);
  return bankCode.padStart(6, '0');
}

/** The NUBAN check digit of a 9-digit serial at a bank. */
export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = `${nubanBankCode(bankCode)}${serial}`;
  const sum = [...digits].reduce((total, d, i) => total + Number(d) * NUBAN_WEIGHTS[i], 0);
  return (10 - (sum % 10)) % 10;
}

export function composeNuban(bankCode: string, serial: string): string {
  if (!/^\d{9}$/.test(serial)) throw new Error('a NUBAN serial is 9 digits');
  return `${serial}${nubanCheckDigit(bankCode, serial)}`;
}

/** Whether a 10-digit account number is a valid NUBAN at the bank (the check digit over the bank code). */
export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber) || !/^\d{3}$|^\d{5,6}$/.test(bankCode)) return false;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}
