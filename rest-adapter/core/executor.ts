import type { ExecutedOperation, Gateway } from '../../gateway';
import type { RequestCredentials } from '../../gateway/context';

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

export function httpExecutor(gatewayUrl: string): OperationExecutor {
  return {
    async execute(query, variables, request, requestId) {
      const forwarded: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'x-request-id': requestId };
      for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') forwarded[k] = v;
      // the gateway takes it from here when it trusts this adapter (its TRUST_PROXY names the adapter's address)
      if (request.clientAddress) forwarded['x-forwarded-for'] = request.clientAddress;
      const url = new URL(gatewayUrl);
      for (const [k, v] of Object.entries(request.query ?? {})) if (typeof v === 'string') url.searchParams.set(k, v);
      const res = await fetch(url, { method: 'POST', headers: forwarded, body: JSON.stringify({ query, variables }) });
      const headerMap = new Map<string, string>();
      res.headers.forEach((value, name) => headerMap.set(name, value));
      return { status: res.status, headers: headerMap, body: (await res.json()) as ExecutedOperation['body'] };
    },
  };
}
