import type { ExecutedOperation, Gateway } from '../../gateway';
import type { RequestCredentials } from '../../gateway/context';
import { serviceUnavailable } from '../../lib/errors';

/** Runs a persisted operation against the supergraph: in-process (npm start) or over HTTP (compose). */
export interface OperationExecutor {
  /** `request`: the credentials the surface forwards (its kinds' headers and query parameters, see createSurfaceApp). */
  execute(query: string, variables: Record<string, unknown>, request: RequestCredentials, requestId: string): Promise<ExecutedOperation>;
}

export function inProcessExecutor(gateway: Gateway): OperationExecutor {
  return {
    execute: (query, variables, request, requestId) => gateway.execute({ query, variables }, request, requestId),
  };
}

/**
 * Over HTTP (docker compose). A hung gateway must not hold the REST request: each call gets
 * `timeoutMs` (GATEWAY_TIMEOUT_MS), its answer's body included, and is then unavailable like a
 * gateway that cannot be reached (the surface answers 503 with Retry-After in its error body).
 */
export function httpExecutor(gatewayUrl: string, { timeoutMs }: { timeoutMs: number }): OperationExecutor {
  return {
    async execute(query, variables, request, requestId) {
      const forwarded: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'x-request-id': requestId };
      for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') forwarded[k] = v;
      // the gateway takes it from here when it trusts this adapter (its TRUST_PROXY names the adapter's address)
      if (request.clientAddress) forwarded['x-forwarded-for'] = request.clientAddress;
      const url = new URL(gatewayUrl);
      for (const [k, v] of Object.entries(request.query ?? {})) if (typeof v === 'string') url.searchParams.set(k, v);
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: forwarded,
          body: JSON.stringify({ query, variables }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const headerMap = new Map<string, string>();
        res.headers.forEach((value, name) => headerMap.set(name, value));
        return { status: res.status, headers: headerMap, body: (await res.json()) as ExecutedOperation['body'] };
      } catch (err) {
        // AbortSignal.timeout's DOMException (not an `instanceof Error` in every realm)
        if ((err as { name?: unknown } | null)?.name === 'TimeoutError') throw serviceUnavailable();
        throw err;
      }
    },
  };
}
