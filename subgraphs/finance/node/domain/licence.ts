import { createHash } from 'node:crypto';
import { LicenceTokenError, parsePublicKey, verifyLicenceToken, type LicenceClaims } from '../../../../lib/licence-token';
import type { CheckMessage } from './checks';

/** The audience of licence tokens for this product (lib/licence-token.ts). */
export const LICENCE_AUDIENCE = 'finance-node';

/** The public key `.env.example` ships (an all-zero Ed25519 key, base64 SPKI): "the default" of app.E002. */
export const DEFAULT_PUBLIC_KEY = 'MCowBQYDK2VwAyEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
/** The token `.env.example` ships. */
export const EXAMPLE_TOKEN = 'your-licence-token';

const PLACEHOLDER = /^(changeme|change-me|change_me|placeholder|todo|none|null|undefined|x+|your[-_ ]?licen[cs]e[-_ ]?token|<.*>|\$\{.*\})$/i;
const DEFAULT_KEY_HASHES = new Set([DEFAULT_PUBLIC_KEY].map((k) => createHash('sha256').update(k).digest('hex')));

/** Warn this long before a licence token expires (app.W001). */
export const EXPIRY_WARNING_DAYS = 14;

export type LicenceStatus = 'valid' | 'missing' | 'invalid' | 'expired';

export interface LicenceEvaluation {
  status: LicenceStatus;
  /** The licence checks' findings (app.E001–E004, app.W001). */
  checks: CheckMessage[];
  claims?: LicenceClaims;
  issuer?: string;
  keyId?: string;
  issuedAt?: Date;
  expiresAt?: Date;
}

export const isPlaceholderToken = (token: string | undefined | null) => !token?.trim() || PLACEHOLDER.test(token.trim()) || token.trim() === EXAMPLE_TOKEN;

export function isDefaultPublicKey(key: string | undefined | null): boolean {
  const value = key?.trim() ?? '';
  if (!value || PLACEHOLDER.test(value)) return true;
  if (DEFAULT_KEY_HASHES.has(createHash('sha256').update(value).digest('hex'))) return true;
  try {
    // the same key in another notation (PEM, JWK, raw) is still the default
    const der = parsePublicKey(value).export({ type: 'spki', format: 'der' }).toString('base64');
    return DEFAULT_KEY_HASHES.has(createHash('sha256').update(der).digest('hex'));
  } catch {
    return false;
  }
}

/** Offline verification of a licence token against a public key (no network, ever). */
export async function evaluateLicence(token: string | undefined | null, publicKey: string | undefined | null, now = new Date()): Promise<LicenceEvaluation> {
  const checks: CheckMessage[] = [];
  if (isPlaceholderToken(token)) {
    checks.push({
      id: 'app.E001',
      level: 'ERROR',
      msg: 'The licence token (VENDOR_LICENSE_TOKEN) is missing or a placeholder.',
      hint: 'Install the licence token issued for this node: VENDOR_LICENSE_TOKEN, the admin console (/admin/node/licence/), `npm run cli -- finance:install-licence` or `finance:activate`. Until then the node is read-only.',
    });
  }
  if (isDefaultPublicKey(publicKey)) {
    checks.push({
      id: 'app.E002',
      level: 'ERROR',
      msg: 'The licence public key (VENDOR_PUBLIC_KEY) is missing or the default.',
      hint: "Set VENDOR_PUBLIC_KEY to the licence registry's Ed25519 public key (PEM, one-line base64 SPKI, raw base64url or JWK).",
    });
  }
  if (checks.length) return { status: 'missing', checks };
  try {
    const verified = await verifyLicenceToken(token!, parsePublicKey(publicKey!), { audience: LICENCE_AUDIENCE, now });
    if (verified.expiresAt && verified.expiresAt.getTime() - now.getTime() < EXPIRY_WARNING_DAYS * 86_400_000) {
      checks.push({
        id: 'app.W001',
        level: 'WARNING',
        msg: `The licence token expires soon (${verified.expiresAt.toISOString()}).`,
        hint: 'Renew it: a node activated with the registry renews it itself; otherwise install a new token.',
      });
    }
    return {
      status: 'valid',
      checks,
      claims: verified.claims,
      issuer: verified.issuer,
      keyId: verified.keyId,
      issuedAt: verified.issuedAt,
      expiresAt: verified.expiresAt,
    };
  } catch (err) {
    const reason = err instanceof LicenceTokenError ? err.reason : 'malformed';
    if (reason === 'expired' || reason === 'not_yet_valid') {
      checks.push({
        id: 'app.E004',
        level: 'ERROR',
        msg: reason === 'expired' ? 'The licence token has expired.' : 'The licence token is not valid yet.',
        hint: 'Install a current licence token (finance:activate fetches one from the registry).',
      });
      return { status: 'expired', checks };
    }
    checks.push({
      id: 'app.E003',
      level: 'ERROR',
      msg: `The licence token does not verify against the public key: ${(err as Error).message}`,
      hint: `The token must be an EdDSA (Ed25519) JWT for the audience "${LICENCE_AUDIENCE}", signed by the key whose public half is VENDOR_PUBLIC_KEY.`,
    });
    return { status: 'invalid', checks };
  }
}

/** A vendor key's identity whatever its notation (PEM, one-line SPKI, raw, JWK): SHA-256 of its SPKI DER, hex; undefined when it is no key. */
export function vendorKeyFingerprint(key: string): string | undefined {
  try {
    return createHash('sha256')
      .update(parsePublicKey(key.trim()).export({ type: 'spki', format: 'der' }))
      .digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * The vendor keys a node was built with: `vendor-keys.pem` at the application's root (copied into the
 * image with the code), PEM blocks or one key per line in any notation parsePublicKey reads; `#` comments.
 * None (no file): the node trusts the key of the first licence it installs and no other (NodeService).
 */
export function builtInVendorKeys(text: string | undefined): Set<string> {
  const keys = new Set<string>();
  if (!text) return keys;
  const pem = text.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g) ?? [];
  const lines = text
    .replace(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const key of [...pem, ...lines]) {
    const fingerprint = vendorKeyFingerprint(key);
    if (!fingerprint) throw new Error(`vendor-keys.pem: not a public key: ${key.slice(0, 40)}…`);
    keys.add(fingerprint);
  }
  return keys;
}

/**
 * Whether a licence's key is one the node trusts: one of the keys it carries (`trusted`: built in, or
 * in production the host's VENDOR_PUBLIC_KEY) when it has any; else, only when pinning on first use is
 * allowed (development), the pinned one (none pinned yet: any). Production never learns a key.
 */
export function trustsVendorKey(fingerprint: string, trusted: ReadonlySet<string>, pinned: string | undefined, pinning = true): boolean {
  if (trusted.size > 0) return trusted.has(fingerprint);
  return pinning && (pinned === undefined || pinned === fingerprint);
}

/** Production without a vendor key to trust: every licence is refused (read-only). */
export const NO_VENDOR_KEY_CHECK: CheckMessage = {
  id: 'app.E011',
  level: 'ERROR',
  msg: 'This node carries no vendor key: in production it learns none from a licence, so it installs no licence.',
  hint: "Run the release images (they carry the registry's key), put the vendor's key in vendor-keys.pem, or set VENDOR_PUBLIC_KEY to it.",
};

export const UNTRUSTED_KEY_CHECK: CheckMessage = {
  id: 'app.E010',
  level: 'ERROR',
  msg: 'The licence is signed by a key this node does not trust: not a vendor key it carries (nor, in development, the one its first licence was installed with).',
  hint: 'Install a licence issued by your vendor (finance:activate fetches one from the registry). A vendor that rotates its key ships it in vendor-keys.pem.',
};

/** Development without a vendor key carried: the first licence's key was pinned (a warning: production never learns one). */
export const PINNED_KEY_CHECK: CheckMessage = {
  id: 'app.W013',
  level: 'WARNING',
  msg: 'This node carries no vendor key: it trusts the key of the first licence it installed (pinned on first use, development only).',
  hint: "Production trusts only a key the node carries: the release images' (built from the registry that ships them), vendor-keys.pem, or VENDOR_PUBLIC_KEY.",
};

/** A licence that verifies against a key the node does not trust: read-only, as one that does not verify. */
export const untrusted = (e: LicenceEvaluation, noKey = false): LicenceEvaluation => ({
  status: 'invalid',
  checks: [...e.checks.filter((c) => c.level === 'ERROR'), noKey ? NO_VENDOR_KEY_CHECK : UNTRUSTED_KEY_CHECK],
});
