import { createHash, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/**
 * The principal kinds, by name. The runtime's own three are here; each product adds the kinds of
 * its credentials from its own folder by augmenting this interface (see subgraphs/predictions/access/credential.ts):
 *
 *   declare module '../../lib/principal' { interface PrincipalKinds { 'api-key': { keyId: string; … } } }
 */
export interface PrincipalKinds {
  anonymous: object;
  /** The gateway itself, for internal operations (credential verification). */
  gateway: object;
  /** Another subgraph reading the supergraph for its own work (e.g. training data); never an administrator. */
  service: { name: string };
}

export type PrincipalKind = keyof PrincipalKinds;

/**
 * Who is calling, as verified once per operation by the gateway. Subgraphs authorise against this.
 * `administrator` marks a system administrator (administers every product); only a credential kind's
 * verifier sets it.
 */
export type Principal = { [K in PrincipalKind]: { kind: K; administrator?: boolean } & PrincipalKinds[K] }[PrincipalKind];

/** The principal of one kind. */
export type PrincipalOf<K extends PrincipalKind> = Extract<Principal, { kind: K }>;

export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });
export const GATEWAY: Principal = Object.freeze({ kind: 'gateway' });

export const isAdmin = (p: Principal): boolean => p.administrator === true;

/**
 * Header carrying a signed request token between the processes of the remote topology: from the
 * gateway to a subgraph (the principal it verified) and from a subgraph to the gateway's internal
 * endpoint (the subgraph's own service principal). Never accepted on the gateway's public endpoint.
 */
export const PRINCIPAL_HEADER = 'x-verified-principal';

/** A token is good for one request, and only briefly (clocks of two hosts may differ by the tolerance). */
export const REQUEST_TOKEN_TTL_SECONDS = 30;
const CLOCK_TOLERANCE_SECONDS = 5;
const ALGORITHM = 'EdDSA';

/** What a request token says, besides who signed it for whom. */
export interface RequestClaims {
  /** The principal the gateway verified (gateway → subgraph); a service token carries none: its issuer is its principal. */
  principal?: Principal;
  /** The client's address as the gateway saw it (per-address limits); absent for services' own requests. */
  clientAddress?: string;
}

export interface VerifiedRequest extends RequestClaims {
  /** Who signed: `gateway` or a subgraph's name. */
  issuer: string;
}

const bodyDigest = (body: string | Uint8Array) => createHash('sha256').update(body).digest('base64url');

/**
 * Signs one request: a JWT (EdDSA, Ed25519) naming its issuer (also the key id) and audience, valid
 * for REQUEST_TOKEN_TTL_SECONDS, with a random id and the SHA-256 of the exact request body — a
 * token taken from one request is worth nothing for another request, another receiver, or later.
 */
export async function signRequestToken(
  opts: { issuer: string; audience: string; privateKey: KeyObject; body: string | Uint8Array; now?: number } & RequestClaims,
): Promise<string> {
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  return new SignJWT({
    bh: bodyDigest(opts.body),
    ...(opts.principal ? { p: opts.principal } : {}),
    ...(opts.clientAddress ? { addr: opts.clientAddress } : {}),
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid: opts.issuer })
    .setIssuer(opts.issuer)
    .setAudience(opts.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + REQUEST_TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(opts.privateKey);
}

/**
 * The claims of a request token, or undefined when it is absent, forged (signed by a key that is not
 * the named issuer's), for another audience, expired, or for another body.
 */
export async function verifyRequestToken(
  token: string | undefined,
  opts: { audience: string; publicKeyOf: (issuer: string) => KeyObject | undefined; body: string | Uint8Array; now?: number },
): Promise<VerifiedRequest | undefined> {
  if (!token) return undefined;
  try {
    const { payload, protectedHeader } = await jwtVerify(
      token,
      (header) => {
        const key = header.kid ? opts.publicKeyOf(header.kid) : undefined;
        if (!key) throw new Error('unknown issuer');
        return key;
      },
      {
        algorithms: [ALGORITHM],
        audience: opts.audience,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: opts.now === undefined ? undefined : new Date(opts.now),
        requiredClaims: ['iss', 'exp', 'iat', 'jti'],
      },
    );
    if (payload.iss !== protectedHeader.kid || payload.bh !== bodyDigest(opts.body)) return undefined;
    // a token lives REQUEST_TOKEN_TTL_SECONDS, whatever exp its signer wrote
    if (payload.exp! - payload.iat! > REQUEST_TOKEN_TTL_SECONDS) return undefined;
    return {
      issuer: protectedHeader.kid!,
      principal: payload.p as Principal | undefined,
      clientAddress: typeof payload.addr === 'string' ? payload.addr : undefined,
    };
  } catch {
    return undefined;
  }
}
