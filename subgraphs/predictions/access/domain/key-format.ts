import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `mpk_` + 8 id characters + 40 secret characters (base62).
 * The first 12 characters are the public prefix (stored, indexed, shown in listings);
 * only the SHA-256 of the whole key is stored. Keys are 238 random bits, so a fast hash is the
 * right tool (as GitHub and Stripe do); there is nothing to brute-force.
 */
export const KEY_PREFIX = 'mpk_';
const ID_LENGTH = 8;
const SECRET_LENGTH = 40;
export const PREFIX_LENGTH = KEY_PREFIX.length + ID_LENGTH;
/** Generated keys match KEY_PREFIX…; an operator-supplied ADMIN_API_KEY has this shape (and more: ../operator-keys.ts). */
const KEY_RE = /^[0-9A-Za-z_-]{32,128}$/;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting bytes above it keeps every character equally likely
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function generateKey(): string {
  return KEY_PREFIX + randomBase62(ID_LENGTH + SECRET_LENGTH);
}

export const isWellFormedKey = (key: string) => KEY_RE.test(key);
export const keyPrefix = (key: string) => key.slice(0, PREFIX_LENGTH);
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest();

export function hashMatches(key: string, storedHash: Buffer): boolean {
  const actual = hashKey(key);
  return actual.length === storedHash.length && timingSafeEqual(actual, storedHash);
}
