import { createHmac, timingSafeEqual } from 'node:crypto';

/** Who is calling, as verified once per operation by the gateway. Subgraphs authorise against this. */
export type Principal =
  | { kind: 'anonymous' }
  /** The gateway itself, for internal operations (credential verification). */
  | { kind: 'gateway' }
  /** Another subgraph reading the supergraph for its own work (e.g. training data); never an administrator. */
  | { kind: 'service'; name: string }
  | { kind: 'api-key'; keyId: string; prefix: string; name: string; role: 'client' | 'admin'; plan: string };

export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });
export const GATEWAY: Principal = Object.freeze({ kind: 'gateway' });

export const isAdmin = (p: Principal) => p.kind === 'api-key' && p.role === 'admin';

/** Header carrying the signed principal from the gateway to remote subgraphs. */
export const PRINCIPAL_HEADER = 'x-verified-principal';

const TTL_SECONDS = 60;

/** HMAC-signed, short-lived principal token: `<base64url payload>.<base64url signature>`. */
export function signPrincipal(principal: Principal, secret: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ p: principal, exp: Math.floor(now / 1000) + TTL_SECONDS })).toString('base64url');
  const sig = createHmac('sha256', secret).update(payload).digest('base64url');
  return `${payload}.${sig}`;
}

/** The principal in a token signed by `signPrincipal`, or undefined when the token is absent, forged or expired. */
export function verifyPrincipal(token: string | undefined, secret: string, now = Date.now()): Principal | undefined {
  if (!token) return undefined;
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(payload).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const { p, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p: Principal; exp: number };
    if (typeof exp !== 'number' || exp < Math.floor(now / 1000)) return undefined;
    return p;
  } catch {
    return undefined;
  }
}
