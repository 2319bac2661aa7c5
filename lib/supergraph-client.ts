import { randomUUID } from 'node:crypto';
import { PRINCIPAL_HEADER, signPrincipal, type Principal } from './principal';

/**
 * How a subgraph reads another domain's data: through the supergraph, like any client, as a
 * service principal (never by importing the other domain's store).
 */
export interface SupergraphClient {
  /** Runs an operation; throws SupergraphError when the result carries errors. */
  request<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

export class SupergraphError extends Error {
  constructor(readonly errors: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }>) {
    super(`supergraph request failed: ${errors.map((e) => `${e.message} (${e.extensions?.code ?? 'no code'})`).join('; ')}`);
  }
}

export type Execute = (
  query: string,
  variables: Record<string, unknown>,
  principal: Principal,
) => Promise<{ data?: Record<string, unknown> | null; errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> }>;

function client(execute: Execute, principal: Principal): SupergraphClient {
  return {
    async request<T>(query: string, variables: Record<string, unknown> = {}) {
      const result = await execute(query, variables, principal);
      if (result.errors?.length) throw new SupergraphError(result.errors);
      return result.data as T;
    },
  };
}

/** In-process: the gateway is bound once it exists (subgraphs are built before it). */
export class DeferredSupergraphClient implements SupergraphClient {
  private execute: Execute | undefined;

  constructor(private readonly service: string) {}

  bind(execute: Execute): void {
    this.execute = execute;
  }

  request<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
    if (!this.execute) throw new Error('the supergraph is not ready yet');
    return client(this.execute, { kind: 'service', name: this.service }).request<T>(query, variables);
  }
}

/**
 * Over HTTP (docker compose): the service principal travels signed, like the gateway's own. While
 * the gateway is not reachable yet (containers start in any order) requests are retried for up to
 * `retryForMs`, with back-off.
 */
export function httpSupergraphClient(gatewayUrl: string, secret: string, service: string, retryForMs = 120_000): SupergraphClient {
  return client(async (query, variables, principal) => {
    const started = Date.now();
    for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
      try {
        const res = await fetch(gatewayUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: signPrincipal(principal, secret), 'x-request-id': randomUUID() },
          body: JSON.stringify({ query, variables }),
        });
        if (res.status !== 502 && res.status !== 503) return (await res.json()) as Awaited<ReturnType<Execute>>;
      } catch (err) {
        // connection refused or reset: the gateway is not up (yet)
        if (Date.now() - started > retryForMs) throw err;
      }
      if (Date.now() - started > retryForMs) throw new Error(`the gateway at ${gatewayUrl} did not answer within ${retryForMs / 1000} s`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }, { kind: 'service', name: service });
}
