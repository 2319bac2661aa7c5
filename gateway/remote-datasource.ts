import type { KeyObject } from 'node:crypto';
import { RemoteGraphQLDataSource } from '@apollo/gateway/dist/datasources/RemoteGraphQLDataSource';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { ANONYMOUS, PRINCIPAL_HEADER, signRequestToken, type Principal, type RequestClaims } from '../lib/principal';
import { GATEWAY_SERVICE } from '../lib/service-keys';
import type { GatewayContext } from './context';
import type { CallOrigin, SubgraphDataSource } from './datasources';

/*
 * The remote topology's data source, apart from the in-process one: @apollo/gateway's
 * RemoteGraphQLDataSource loads an HTTP client with its own cache (make-fetch-happen, cacache), which
 * only a gateway with remote subgraphs (gateway/main.ts) needs.
 */

/** Carries a query plan's claims from willSendRequest to the fetcher, which signs them with the exact body; never sent. */
const CLAIMS_HEADER = 'x-matchday-unsigned-claims';

/** How long the gateway waits for a subgraph's answer before the operation fails as unavailable (503). */
const SUBGRAPH_TIMEOUT_MS = 20_000;

/**
 * The gateway's fetch to a remote subgraph: Node's own fetch, which looks a service's name up again for
 * every new connection (the default fetcher, make-fetch-happen, caches DNS for five minutes: a restarted
 * container on a new address was called at its old one meanwhile), bounded in time; a timeout is an
 * ETIMEDOUT, which the gateway answers with 503 and Retry-After like any unreachable service.
 */
async function subgraphFetch(target: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(target, { ...init, signal: AbortSignal.timeout(SUBGRAPH_TIMEOUT_MS) });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError')
      throw Object.assign(new Error(`${target} did not answer within ${SUBGRAPH_TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' });
    throw err;
  }
}

/**
 * Remote subgraph (docker compose): every request carries the verified principal and the client's
 * address in a token the gateway signs with its own key, for this subgraph only, bound to the
 * request's body (lib/principal.ts). The token is made in the fetcher, where the body is final.
 */
export class SignedRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> implements SubgraphDataSource {
  constructor(
    url: string,
    /** The subgraph's name: the token's audience. */
    private readonly subgraph: string,
    private readonly privateKey: KeyObject,
  ) {
    super({ url, fetcher: subgraphFetch as unknown as RemoteGraphQLDataSource['fetcher'] });
    const send = this.fetcher;
    this.fetcher = async (target, init) => {
      const headers = { ...(init?.headers as Record<string, string>) };
      const claims = JSON.parse(headers[CLAIMS_HEADER] ?? '{}') as RequestClaims;
      delete headers[CLAIMS_HEADER];
      headers[PRINCIPAL_HEADER] = await this.sign(claims, String(init?.body ?? ''));
      return send(target, { ...init, headers });
    };
  }

  override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]) {
    const ctx = context as Partial<GatewayContext>;
    const claims: RequestClaims = { principal: ctx.principal ?? ANONYMOUS, clientAddress: ctx.clientAddress };
    request.http?.headers.set(CLAIMS_HEADER, JSON.stringify(claims));
    if (ctx.requestId) request.http?.headers.set('x-request-id', ctx.requestId);
  }

  async call(query: string, variables: Record<string, unknown>, principal: Principal, origin: CallOrigin): Promise<GatewayGraphQLResponse> {
    const body = JSON.stringify({ query, variables });
    const res = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [PRINCIPAL_HEADER]: await this.sign({ principal, clientAddress: origin.clientAddress }, body),
        'x-request-id': origin.requestId,
      },
      body,
    });
    return (await res.json()) as GatewayGraphQLResponse;
  }

  private sign(claims: RequestClaims, body: string): Promise<string> {
    return signRequestToken({ issuer: GATEWAY_SERVICE, audience: this.subgraph, privateKey: this.privateKey, body, ...claims });
  }
}
