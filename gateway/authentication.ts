import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../lib/errors';
import { acceptedKinds, presentedCredential, type CredentialKind, type Quota, type Verified } from '../lib/credentials';
import { ANONYMOUS, GATEWAY } from '../lib/principal';
import type { GatewayContext } from './context';
import type { SubgraphCaller } from './datasources';

/** The X-RateLimit-* headers for a metered credential. Reset is a Unix time in seconds (as GitHub's API). */
export function rateLimitHeaders(q: Quota): [string, string][] {
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

/** What a verifier's refusal may say about an allowance (429): when to retry, the limit and its reset. */
interface RefusalDetails {
  retryAfterSeconds?: number;
  limit?: number;
  resetAt?: string;
}

/**
 * Verifies the presented credential once per operation, through the subgraph that owns its kind,
 * which also meters it: one request counted per API operation, whatever the query plan. The kinds
 * come from the subgraphs' definitions; nothing here names a product.
 */
export class Authenticator {
  constructor(
    private readonly kinds: readonly CredentialKind[],
    private readonly subgraphs: Record<string, SubgraphCaller>,
  ) {
    for (const kind of kinds) {
      if (!subgraphs[kind.verifier.subgraph]) throw new Error(`credential "${kind.name}": no subgraph "${kind.verifier.subgraph}" to verify it`);
    }
  }

  /** The challenges of the kinds a request may present: the WWW-Authenticate of a 401 for a missing credential. */
  challenges(ctx: GatewayContext): string[] {
    return [...new Set(acceptedKinds(this.kinds, ctx.headers).flatMap((k) => (k.challenge ? [k.challenge] : [])))];
  }

  /**
   * The refusal of a credential no kind recognises (401), found from the request's headers alone:
   * the gateway answers it before reading and parsing the operation. Undefined otherwise.
   */
  refuseMalformed(request: Pick<GatewayContext, 'headers' | 'query'>): GraphQLError | undefined {
    const presented = presentedCredential(acceptedKinds(this.kinds, request.headers), { headers: request.headers, query: request.query });
    return presented.kind === 'malformed' ? malformed(presented.candidate) : undefined;
  }

  async authenticate(ctx: GatewayContext, opts: { meter: boolean }): Promise<Verified> {
    const presented = presentedCredential(acceptedKinds(this.kinds, ctx.headers), { headers: ctx.headers, query: ctx.query });
    if (presented.kind === 'none') return { principal: ANONYMOUS, quota: null };
    if (presented.kind === 'malformed') throw malformed(presented.candidate);
    const kind = presented.credential;
    const result = await this.subgraphs[kind.verifier.subgraph].call(
      kind.verifier.operation,
      { credential: presented.value, meter: opts.meter },
      GATEWAY,
      // the verifier may throttle failures per address (a secret guessed by one client)
      { requestId: ctx.requestId, clientAddress: ctx.clientAddress },
    );
    const error = result.errors?.[0];
    if (error) throw refusal(kind, error as { message: string; extensions?: Record<string, unknown> });
    return kind.verifier.read(result.data as Record<string, unknown>);
  }

  /**
   * Gives back the unit a metered operation took (`ticket`: drawn when it was metered; `quota`: what
   * the metering said), when its answer was the server's fault. The quota after it; the same quota
   * when the kind gives nothing back or nothing was given back. Never throws: a give-back that fails
   * leaves the answer as it is (and is logged).
   */
  async giveBack(ctx: GatewayContext, quota: Quota, ticket: string): Promise<Quota> {
    const presented = presentedCredential(acceptedKinds(this.kinds, ctx.headers), { headers: ctx.headers, query: ctx.query });
    if (presented.kind !== 'credential' || !presented.credential.verifier.giveBack) return quota;
    const { verifier } = presented.credential;
    try {
      const result = await this.subgraphs[verifier.subgraph].call(
        verifier.giveBack!.operation,
        { credential: presented.value, ticket, resetAt: quota.resetAt.toISOString() },
        GATEWAY,
        { requestId: ctx.requestId, clientAddress: ctx.clientAddress },
      );
      if (result.errors?.length) throw new Error(result.errors[0].message);
      const remaining = verifier.giveBack!.remaining(result.data as Record<string, unknown>);
      return remaining === null ? quota : { ...quota, remaining };
    } catch (err) {
      ctx.logger.error({ err }, 'giving back the unit of a failed operation failed');
      return quota;
    }
  }
}

/**
 * Whether an operation's answer is the server's fault, as the REST surfaces map it (rest-adapter/core/errors.ts):
 * a 5xx status, or errors without a client status (an error with no status of its own is a 500).
 */
export function isServerFault(status: number | undefined, errors: readonly unknown[] | undefined): boolean {
  const s = status ?? 200;
  return s >= 500 || (!!errors?.length && s < 400);
}

const malformed = (kind: CredentialKind) =>
  httpError(`Malformed credential; expected ${kind.description}.`, 'INVALID_CREDENTIALS', 401, challenge(kind, 'invalid_request'));

function challenge(kind: CredentialKind, error: string): [string, string][] {
  return kind.challenge ? [['www-authenticate', `${kind.challenge}, error="${error}"`]] : [];
}

/**
 * A verifier's refusal, as the caller sees it: its code, message and status (from the domain error's
 * `extensions.http.status`), with the headers the status calls for. A verifier that failed is a fault.
 */
function refusal(kind: CredentialKind, error: { message: string; extensions?: Record<string, unknown> }): GraphQLError {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : 'INTERNAL_SERVER_ERROR';
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  const details = error.extensions?.details as RefusalDetails | undefined;
  // the verifier's database is unreachable: the caller may retry (503 with Retry-After), it is no refusal
  if (status === 503 && code === 'SERVICE_UNAVAILABLE') {
    return httpError(error.message, code, 503, [['retry-after', String(details?.retryAfterSeconds ?? UNAVAILABLE_RETRY_AFTER_SECONDS)]], details);
  }
  if (typeof status !== 'number' || status >= 500) {
    return new GraphQLError('Credential verification is unavailable.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  }
  const headers: [string, string][] = status === 401 ? challenge(kind, 'invalid_token') : [];
  if (details?.retryAfterSeconds !== undefined) headers.push(['retry-after', String(details.retryAfterSeconds)]);
  if (status === 429 && details?.limit !== undefined && details.resetAt) {
    headers.push(...rateLimitHeaders({ limit: details.limit, remaining: 0, resetAt: new Date(details.resetAt) }));
  }
  return httpError(error.message, code, status, headers, details);
}
