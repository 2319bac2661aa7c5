/**
 * Keys an operator chooses (ADMIN_API_KEY) are stored like generated ones, as an unsalted SHA-256:
 * safe only for a key with as much randomness as a generated one. So such a key must be 32 to 128
 * characters of A-Z, a-z, 0-9, "_" or "-", and must not look made by hand: at least 10 different
 * characters, at least 64 bits by the frequency of its characters (32 random characters score 120 or
 * more), not one run repeated, not mostly a sequence (abcd…, 0123…). Generate one with
 * `openssl rand -hex 32`.
 */
export const OPERATOR_KEY_RULE = '32 to 128 random characters of A-Z, a-z, 0-9, "_" or "-" (not a repeated pattern), e.g. from `openssl rand -hex 32`';

const SHAPE = /^[A-Za-z0-9_-]{32,128}$/;
const MIN_BITS = 64;
const MIN_DISTINCT = 10;

/** Bits of a string by the empirical frequency of its characters (length × Shannon entropy per character). */
export function frequencyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= n * Math.log2(n / value.length);
  return bits;
}

/** Whether the string is one shorter run repeated ("ab12ab12ab12…"). */
const isRepetition = (value: string) => /^(.+?)\1+$/.test(value);

/** Whether most neighbouring characters are consecutive ("abcdef…", "9876…"). */
function isMostlySequence(value: string): boolean {
  let steps = 0;
  for (let i = 1; i < value.length; i++) if (Math.abs(value.charCodeAt(i) - value.charCodeAt(i - 1)) === 1) steps++;
  return steps * 2 > value.length;
}

/** Why an operator-chosen key is refused, or undefined when it is acceptable. */
export function operatorKeyProblem(value: string): string | undefined {
  if (!SHAPE.test(value)) return `must be ${OPERATOR_KEY_RULE}`;
  if (new Set(value).size < MIN_DISTINCT || frequencyBits(value) < MIN_BITS || isRepetition(value) || isMostlySequence(value)) {
    return `is too regular (repeated characters, a repeated run or a sequence); use ${OPERATOR_KEY_RULE}`;
  }
  return undefined;
}
