import { randomUUID, type KeyObject } from 'node:crypto';
import { PRINCIPAL_HEADER, signRequestToken, type Principal } from './principal';
import { GATEWAY_SERVICE } from './service-keys';

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
    super(
      `supergraph request failed: ${errors.map((e) => `${e.message} (${typeof e.extensions?.code === 'string' ? e.extensions.code : 'no code'})`).join('; ')}`,
    );
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
 * Over HTTP (docker compose), to the gateway's internal endpoint: each request carries a token signed
 * with this subgraph's own key (the gateway knows its public key), for the gateway, bound to the
 * request's body; the subgraph's name is its principal. An attempt the gateway does not answer within
 * `timeoutMs` (GATEWAY_TIMEOUT_MS) fails, and is not repeated. While
 * the gateway is not reachable yet (containers start in any order) requests are retried for up to
 * `retryForMs`, with back-off; `shutdown` ends the waiting at once when the process stops.
 */
export function httpSupergraphClient(
  gatewayUrl: string,
  privateKey: KeyObject,
  service: string,
  opts: { retryForMs?: number; shutdown?: AbortSignal; timeoutMs?: number } = {},
): SupergraphClient {
  const retryForMs = opts.retryForMs ?? 120_000;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return client(
    async (query, variables) => {
      const started = Date.now();
      const body = JSON.stringify({ query, variables });
      for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
        opts.shutdown?.throwIfAborted();
        // a gateway that accepts and never answers ends the attempt (not retried: it may have acted on it)
        const timeout = AbortSignal.timeout(timeoutMs);
        try {
          // signed at each attempt: a token is short-lived
          const token = await signRequestToken({ issuer: service, audience: GATEWAY_SERVICE, privateKey, body });
          const res = await fetch(gatewayUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: token, 'x-request-id': randomUUID() },
            body,
            signal: opts.shutdown ? AbortSignal.any([opts.shutdown, timeout]) : timeout,
          });
          if (res.status !== 502 && res.status !== 503) return (await res.json()) as Awaited<ReturnType<Execute>>;
        } catch (err) {
          if (timeout.aborted && !opts.shutdown?.aborted)
            throw new Error(`the gateway at ${gatewayUrl} did not answer within ${timeoutMs / 1000} s`, { cause: err });
          // connection refused or reset: the gateway is not up (yet)
          if (opts.shutdown?.aborted || Date.now() - started > retryForMs) throw err;
        }
        if (Date.now() - started > retryForMs) throw new Error(`the gateway at ${gatewayUrl} did not answer within ${retryForMs / 1000} s`);
        await new Promise((r) => setTimeout(r, delay));
      }
    },
    { kind: 'service', name: service },
  );
}
