import { createHash, randomBytes, randomInt } from 'node:crypto';

/**
 * Licence keys: `LIC-XXXX-XXXX-XXXX`, 12 characters drawn with a CSPRNG from an alphabet without the
 * look-alikes 0/O and 1/I (32 symbols: 5 bits each, 60 bits in all; guessing one online is hopeless,
 * and every request is rate-limited per licence). Keys are read case-insensitively; only the SHA-256
 * of the canonical (upper-case) key is used for look-ups, and the key itself is kept sealed
 * (lib/secret-box.ts) so that the vendor and the customer's workspace can show it again.
 */
export const KEY_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const GROUP = `[${KEY_ALPHABET}]{4}`;
const KEY_RE = new RegExp(`^LIC-${GROUP}-${GROUP}-${GROUP}$`);

export function generateLicenceKey(): string {
  const groups = Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join(''));
  return `LIC-${groups.join('-')}`;
}

/** The canonical form of a presented key (trimmed, upper-case), or undefined when it is not one. */
export function canonicalLicenceKey(value: string): string | undefined {
  const key = value.trim().toUpperCase();
  return KEY_RE.test(key) ? key : undefined;
}

export const hashLicenceKey = (canonical: string): Buffer => createHash('sha256').update(canonical, 'utf8').digest();

/** `LIC-ABCD-****-****`: the first group identifies a licence in listings and logs. */
export const keyPrefix = (canonical: string) => canonical.slice(0, 8);
export const maskedKey = (prefix: string) => `${prefix}-****-****`;

/** Download tokens: `dlt_` + 32 base62 characters (190 bits). Only their SHA-256 is stored. */
const TOKEN_RE = /^dlt_[0-9A-Za-z]{32}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    // 248 = 4 × 62: bytes above it are dropped so that every character is equally likely
    for (const byte of randomBytes(length * 2)) if (byte < 248 && out.length < length) out += BASE62[byte % 62];
  }
  return out;
}

export const generateDownloadToken = () => `dlt_${base62(32)}`;
export const isDownloadToken = (value: string) => TOKEN_RE.test(value);
export const hashToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** Deployment keys identify a node in its heartbeats (always sent together with the licence key). */
export const generateDeploymentKey = () => `dep_${base62(32)}`;
