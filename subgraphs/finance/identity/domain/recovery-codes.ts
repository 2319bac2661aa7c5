import { createHash, randomInt } from 'node:crypto';
import type { OnboardingStore } from '../store/onboarding-store';

/** How many one-time recovery codes a user gets when 2FA is switched on (or the set renewed). */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** "abcde-fghij": 10 characters of a 31-letter alphabet (about 50 bits), easy to type from paper. */
function newCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** A typed code as stored: lower case, without spaces or hyphens. */
export const normaliseRecoveryCode = (code: string) => (code ?? '').toLowerCase().replace(/[\s-]/g, '');

/** Random codes need no slow hash; the user id salts the hash (one code means nothing for another user). */
const codeHash = (userId: string, code: string) =>
  createHash('sha256')
    .update(`${userId}:${normaliseRecoveryCode(code)}`)
    .digest();

/** 2FA recovery codes: shown once, kept hashed, each usable once instead of a one-time code at sign-in. */
export class RecoveryCodes {
  constructor(private readonly store: OnboardingStore) {}

  /** A new set replaces the old one (its unused codes stop working). */
  async renew(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
    await this.store.replaceRecoveryCodes(
      userId,
      codes.map((c) => codeHash(userId, c)),
    );
    return codes;
  }

  /** Uses a code (once); false when it is malformed, unknown or used. */
  async spendRecoveryCode(userId: string, code: string): Promise<boolean> {
    if (!/^[a-z0-9]{10}$/.test(normaliseRecoveryCode(code))) return false;
    return this.store.useRecoveryCode(userId, codeHash(userId, code));
  }

  remaining(userId: string): Promise<number> {
    return this.store.unusedRecoveryCodes(userId);
  }
}
