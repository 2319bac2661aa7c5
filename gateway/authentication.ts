import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { ANONYMOUS, GATEWAY, PRINCIPAL_HEADER, verifyPrincipal, type Principal } from '../lib/principal';
import type { GatewayContext } from './context';
import { credentialFrom } from './credentials';
import type { SubgraphCaller } from './datasources';

export interface Quota {
  limit: number;
  remaining: number;
  resetAt: Date;
}

export interface Authentication {
  principal: Principal;
  quota: Quota | null;
}

const AUTHENTICATE = `mutation GatewayAuthenticate($apiKey: String!, $meter: Boolean!) {
  authenticateApiKey(apiKey: $apiKey, meter: $meter) { keyId prefix name role plan limit remaining resetAt }
}`;

export const WWW_AUTHENTICATE = 'Bearer realm="api"';

/** The X-RateLimit-* headers for a metered key. Reset is a Unix time in seconds (as GitHub's API). */
export function rateLimitHeaders(q: { limit: number; remaining: number; resetAt: Date }): [string, string][] {
  return [
    ['x-ratelimit-limit', String(q.limit)],
    ['x-ratelimit-remaining', String(q.remaining)],
    ['x-ratelimit-reset', String(Math.floor(q.resetAt.getTime() / 1000))],
  ];
}

function httpError(message: string, code: string, status: number, headers: [string, string][], details?: unknown): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, ...(details === undefined ? {} : { details }), http: { status, headers: new HeaderMap(headers) } },
  });
}

/**
 * Verifies the presented credential once per operation, through the access subgraph (which owns
 * the keys), and meters it there: one request counted per API operation, whatever the query plan.
 */
export class Authenticator {
  constructor(
    private readonly access: SubgraphCaller,
    /** Verifies service principals signed by other subgraphs (remote topology). */
    private readonly internalSecret?: string,
  ) {}

  async authenticate(ctx: GatewayContext, opts: { meter: boolean }): Promise<Authentication> {
    const signed = ctx.headers[PRINCIPAL_HEADER];
    if (signed !== undefined) {
      const principal = this.internalSecret && typeof signed === 'string' ? verifyPrincipal(signed, this.internalSecret) : undefined;
      if (principal?.kind !== 'service') throw httpError('Invalid service credential.', 'INVALID_CREDENTIALS', 401, []);
      return { principal, quota: null };
    }
    const credential = credentialFrom(ctx.headers);
    if (credential.kind === 'none') return { principal: ANONYMOUS, quota: null };
    if (credential.kind === 'malformed') {
      throw httpError('Malformed Authorization header; expected "Bearer <API_KEY>".', 'INVALID_CREDENTIALS', 401, [['www-authenticate', `${WWW_AUTHENTICATE}, error="invalid_request"`]]);
    }
    const result = await this.access.call(AUTHENTICATE, { apiKey: credential.key, meter: opts.meter }, GATEWAY, ctx.requestId);
    const error = result.errors?.[0];
    if (error) throw this.translate(error as { message: string; extensions?: Record<string, unknown> });
    const a = (result.data as { authenticateApiKey: Record<string, unknown> }).authenticateApiKey;
    const principal: Principal = {
      kind: 'api-key',
      keyId: a.keyId as string,
      prefix: a.prefix as string,
      name: a.name as string,
      role: a.role as 'client' | 'admin',
      plan: a.plan as string,
    };
    const quota = a.limit === null ? null : { limit: a.limit as number, remaining: a.remaining as number, resetAt: new Date(a.resetAt as string) };
    return { principal, quota };
  }

  private translate(error: { message: string; extensions?: Record<string, unknown> }): GraphQLError {
    const code = error.extensions?.code;
    if (code === 'INVALID_CREDENTIALS') {
      return httpError(error.message, 'INVALID_CREDENTIALS', 401, [['www-authenticate', `${WWW_AUTHENTICATE}, error="invalid_token"`]]);
    }
    if (code === 'RATE_LIMITED') {
      const d = error.extensions!.details as { limit: number; resetAt: string; retryAfterSeconds: number };
      return httpError(
        error.message,
        'RATE_LIMITED',
        429,
        [['retry-after', String(d.retryAfterSeconds)], ...rateLimitHeaders({ limit: d.limit, remaining: 0, resetAt: new Date(d.resetAt) })],
        d,
      );
    }
    // the access subgraph failed: a real fault, not the caller's
    return new GraphQLError('Credential verification is unavailable.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  }
}
