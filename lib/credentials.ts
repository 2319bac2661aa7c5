import type { IncomingHttpHeaders } from 'node:http';
import type { Principal, PrincipalKind } from './principal';

/**
 * Where a credential is read from: a header (with an authorisation scheme such as `Bearer`, or the
 * whole value), a query parameter, or a cookie. `Basic` takes the password of `user:password`.
 */
export type CredentialSource = { header: string; scheme?: 'Bearer' | 'Basic' } | { query: string } | { cookie: string };

/** A metered credential's allowance (sent as X-RateLimit-* headers). */
export interface Quota {
  limit: number;
  remaining: number;
  resetAt: Date;
}

export interface Verified {
  principal: Principal;
  /** Set when the operation was metered against an allowance; null or absent when unlimited. */
  quota?: Quota | null;
}

/**
 * One kind of credential, declared once in its product's folder: where it is read from, which
 * subgraph verifies it (and meters it), how its principal looks, and how the verifier caches it.
 * The gateway and the REST adapter know only the list (subgraphs/products.ts: credentialsOf, each surface's own list).
 */
export interface CredentialKind {
  /** The principal kind a verified credential of this kind becomes. */
  name: PrincipalKind;
  description: string;
  sources: CredentialSource[];
  /**
   * A cheap check of the value's format. Sources can be shared (`Authorization: Bearer` carries API
   * keys and node access tokens): the value goes to the first kind of the list that recognises it.
   */
  recognises(value: string): boolean;
  verifier: {
    subgraph: string;
    /** A mutation with the variables `$credential: String!` and `$meter: Boolean!`, run as the gateway's principal. */
    operation: string;
    /** The operation's data → the principal (and the allowance, for metered kinds). */
    read(data: Record<string, unknown>): Verified;
    /**
     * Metered kinds: the mutation (`$credential: String!`, `$ticket: String!`, `$resetAt: String!`)
     * that gives back the unit an operation took when its answer was the server's fault (5xx), with
     * the requests left after it (null: nothing given back). The gateway asks once per metered
     * operation (`ticket`), before it answers.
     */
    giveBack?: { operation: string; remaining(data: Record<string, unknown>): number | null };
  };
  /** The `WWW-Authenticate` challenge of a 401 answer, when the kind has one. */
  challenge?: string;
  /** How the verifying subgraph keeps verified credentials, and the NOTIFY channel that evicts one. */
  cache?: { ttlSeconds: number; evictedBy: string };
}

/** What a request presents, as the gateway sees it. */
export interface CredentialInput {
  headers: IncomingHttpHeaders;
  query?: Record<string, unknown>;
}

export type Presented =
  | { kind: 'none' }
  /** Something sits in a credential's place but no kind recognises it (bad scheme, wrong format). */
  | { kind: 'malformed'; candidate: CredentialKind }
  | { kind: 'credential'; credential: CredentialKind; value: string };

/** Header listing the credential kinds a REST surface accepts; the gateway then looks for those only. */
export const CREDENTIAL_KINDS_HEADER = 'x-credential-kinds';

function readSource(source: CredentialSource, input: CredentialInput): { present: boolean; value?: string } {
  if ('header' in source) {
    const raw = input.headers[source.header];
    const header = Array.isArray(raw) ? raw[0] : raw;
    if (header === undefined || header === '') return { present: false };
    if (!source.scheme) return { present: true, value: header.trim() };
    const match = /^([A-Za-z]+) +([^\s]+) *$/.exec(header);
    if (!match || match[1].toLowerCase() !== source.scheme.toLowerCase()) return { present: true };
    if (source.scheme === 'Bearer') return { present: true, value: match[2] };
    if (!/^[A-Za-z0-9+/=]+$/.test(match[2])) return { present: true };
    const decoded = Buffer.from(match[2], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 && decoded.length > colon + 1 ? { present: true, value: decoded.slice(colon + 1) } : { present: true };
  }
  if ('query' in source) {
    const raw = input.query?.[source.query];
    const value: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
    return typeof value === 'string' && value !== '' ? { present: true, value } : { present: false };
  }
  const value = cookieValue(input.headers.cookie, source.cookie);
  return value ? { present: true, value } : { present: false };
}

/**
 * The credential a request presents, looked for in the kinds' order: the first source that holds a
 * value of a kind's format wins. A value no kind recognises is `malformed` (a 401, never anonymous).
 */
export function presentedCredential(kinds: readonly CredentialKind[], input: CredentialInput): Presented {
  let malformed: CredentialKind | undefined;
  for (const kind of kinds) {
    for (const source of kind.sources) {
      const { present, value } = readSource(source, input);
      if (!present) continue;
      if (value !== undefined && kind.recognises(value)) return { kind: 'credential', credential: kind, value };
      malformed ??= kind;
    }
  }
  return malformed ? { kind: 'malformed', candidate: malformed } : { kind: 'none' };
}

/** The kinds a caller restricted itself to (a REST route's list, in its order of precedence), or every kind. */
export function acceptedKinds(all: readonly CredentialKind[], headers: IncomingHttpHeaders): readonly CredentialKind[] {
  const raw = headers[CREDENTIAL_KINDS_HEADER];
  if (typeof raw !== 'string') return all;
  const byName = new Map(all.map((k) => [k.name as string, k]));
  return raw.split(',').flatMap((name) => byName.get(name.trim()) ?? []);
}

/** The headers and query parameters a list of kinds reads: what a REST surface forwards to the gateway. */
export function credentialCarriers(kinds: readonly CredentialKind[]): { headers: string[]; query: string[] } {
  const headers = new Set<string>();
  const query = new Set<string>();
  for (const kind of kinds) {
    for (const s of kind.sources) {
      if ('header' in s) headers.add(s.header);
      else if ('query' in s) query.add(s.query);
      else headers.add('cookie');
    }
  }
  return { headers: [...headers], query: [...query] };
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
