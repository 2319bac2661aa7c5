import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/**
 * Signed licence tokens: a compact JWS (JWT) signed with Ed25519 (`alg: EdDSA`, pinned), issued by
 * the licence registry and verified offline by the finance node against the registry's public key.
 *
 *   header  {"alg":"EdDSA","typ":"JWT","kid":"<key id>"}
 *   claims  {"iss":"<registry>","aud":"<product code>","sub":"<organisation id>","jti":"<licence id>",
 *            "iat","nbf","exp", "lic":{…LicenceClaims}}
 *
 * `exp` bounds the token's own life (renewed by a new checkout); the licence's maintenance end and
 * node cap travel in `lic`.
 */
export const LICENCE_TOKEN_ALGORITHM = 'EdDSA';
export const LICENCE_TOKEN_TYPE = 'JWT';
/** Clock skew tolerated when checking nbf/exp (seconds). */
export const LICENCE_CLOCK_TOLERANCE_SECONDS = 300;

/**
 * What a registry offers a finance node started beside it in one process (`npm start`; lib/product.ts,
 * ProductStartContext.offers): its public key, which the node carries as the release images do, and in
 * development the demo licence key the node activates with over HTTP.
 */
export const REGISTRY_OFFERS = { signingKey: 'registry:signing-key', demoLicenceKey: 'registry:demo-licence-key' } as const;

export interface LicenceClaims {
  licenceId: string;
  organisationId: string;
  organisationName: string;
  product: string;
  plan: string;
  /** Maximum concurrently registered deployment nodes. */
  maxNodes: number;
  /** ISO date (YYYY-MM-DD): releases published after it are not covered. */
  maintenanceUntil: string;
  entitlements: string[];
  /** Licence status when the token was issued (only Active licences get tokens). */
  status: string;
}

export interface SignedLicence {
  token: string;
  expiresAt: Date;
}

export interface VerifiedLicence {
  claims: LicenceClaims;
  issuer: string;
  audience: string;
  keyId?: string;
  issuedAt: Date;
  expiresAt?: Date;
}

/** Why a token was refused (the finance node's checks map these to app.E003 / app.E004). */
export class LicenceTokenError extends Error {
  constructor(
    readonly reason: 'malformed' | 'signature' | 'expired' | 'not_yet_valid' | 'claims',
    message: string,
  ) {
    super(message);
    this.name = 'LicenceTokenError';
  }
}

/** A new Ed25519 key pair (PEM: PKCS#8 private, SPKI public). */
export function generateLicenceKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * A public key as configured: PEM (SPKI), a single-line base64/base64url of the SPKI DER or of the raw
 * 32-byte key, or a JWK `{"kty":"OKP","crv":"Ed25519","x":…}`. Throws LicenceTokenError('malformed').
 */
export function parsePublicKey(text: string): KeyObject {
  const value = text.trim().replace(/\\n/g, '\n');
  try {
    let key: KeyObject;
    if (value.startsWith('-----BEGIN')) key = createPublicKey(value);
    else if (value.startsWith('{')) key = createPublicKey({ key: JSON.parse(value) as import('node:crypto').JsonWebKey, format: 'jwk' });
    else {
      const der = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      key =
        der.length === 32
          ? createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: der.toString('base64url') }, format: 'jwk' })
          : createPublicKey({ key: der, format: 'der', type: 'spki' });
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${key.asymmetricKeyType})`);
    return key;
  } catch (err) {
    throw new LicenceTokenError('malformed', `The licence public key cannot be read: ${(err as Error).message}`);
  }
}

/** The public key as one line (base64 of the SPKI DER), handy for environment files. */
export function publicKeyLine(key: KeyObject | string): string {
  const k = typeof key === 'string' ? parsePublicKey(key) : key;
  return k.export({ type: 'spki', format: 'der' }).toString('base64');
}

export async function signLicenceToken(
  claims: LicenceClaims,
  opts: { privateKey: KeyObject; keyId: string; issuer: string; ttlSeconds: number; now?: Date },
): Promise<SignedLicence> {
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const exp = now + opts.ttlSeconds;
  const token = await new SignJWT({ lic: claims })
    .setProtectedHeader({ alg: LICENCE_TOKEN_ALGORITHM, typ: LICENCE_TOKEN_TYPE, kid: opts.keyId })
    .setIssuer(opts.issuer)
    .setAudience(claims.product)
    .setSubject(claims.organisationId)
    .setJti(claims.licenceId)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(exp)
    .sign(opts.privateKey);
  return { token, expiresAt: new Date(exp * 1000) };
}

/** Verifies a licence token offline: signature (EdDSA only), nbf/exp with tolerance, audience. Never touches the network. */
export async function verifyLicenceToken(token: string, publicKey: KeyObject, opts: { audience: string; now?: Date }): Promise<VerifiedLicence> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token.trim()))
    throw new LicenceTokenError('malformed', 'The licence token is not a compact JWS.');
  try {
    const { payload, protectedHeader } = await jwtVerify(token.trim(), publicKey, {
      algorithms: [LICENCE_TOKEN_ALGORITHM],
      audience: opts.audience,
      clockTolerance: LICENCE_CLOCK_TOLERANCE_SECONDS,
      currentDate: opts.now,
    });
    const lic = payload.lic as Partial<LicenceClaims> | undefined;
    if (!lic || typeof lic.licenceId !== 'string' || typeof lic.maxNodes !== 'number' || typeof lic.maintenanceUntil !== 'string') {
      throw new LicenceTokenError('claims', 'The licence token lacks its licence claims.');
    }
    return {
      claims: { ...lic, entitlements: Array.isArray(lic.entitlements) ? lic.entitlements : [] } as LicenceClaims,
      issuer: payload.iss ?? '',
      audience: opts.audience,
      keyId: protectedHeader.kid,
      issuedAt: new Date((payload.iat ?? 0) * 1000),
      expiresAt: payload.exp ? new Date(payload.exp * 1000) : undefined,
    };
  } catch (err) {
    if (err instanceof LicenceTokenError) throw err;
    // jose's error codes (stable across its builds, unlike class identity)
    const { code, claim } = err as { code?: string; claim?: string };
    if (code === 'ERR_JWT_EXPIRED') throw new LicenceTokenError('expired', 'The licence token has expired.');
    if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'nbf') throw new LicenceTokenError('not_yet_valid', 'The licence token is not valid yet.');
    if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') throw new LicenceTokenError('claims', `The licence token's ${claim} claim is not accepted.`);
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') throw new LicenceTokenError('signature', 'The licence token signature does not verify.');
    throw new LicenceTokenError('malformed', 'The licence token cannot be read.');
  }
}
