import type { IncomingHttpHeaders } from 'node:http';
import type { ExecutedOperation, Gateway } from '../../gateway';

/** Runs a persisted operation against the supergraph: in-process (npm start) or over HTTP (compose). */
export interface OperationExecutor {
  execute(query: string, variables: Record<string, unknown>, headers: IncomingHttpHeaders, requestId: string): Promise<ExecutedOperation>;
}

/** Credentials and tracing headers the adapter passes on unchanged. */
const FORWARDED = ['authorization', 'x-license-key', 'cookie', 'x-forwarded-for', 'user-agent'] as const;

export function inProcessExecutor(gateway: Gateway): OperationExecutor {
  return {
    execute: (query, variables, headers, requestId) => gateway.execute({ query, variables }, pick(headers), requestId),
  };
}

export function httpExecutor(gatewayUrl: string): OperationExecutor {
  return {
    async execute(query, variables, headers, requestId) {
      const forwarded: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'x-request-id': requestId };
      for (const [k, v] of Object.entries(pick(headers))) if (typeof v === 'string') forwarded[k] = v;
      const res = await fetch(gatewayUrl, { method: 'POST', headers: forwarded, body: JSON.stringify({ query, variables }) });
      const headerMap = new Map<string, string>();
      res.headers.forEach((value, name) => headerMap.set(name, value));
      return { status: res.status, headers: headerMap, body: (await res.json()) as ExecutedOperation['body'] };
    },
  };
}

function pick(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const name of FORWARDED) if (headers[name] !== undefined) out[name] = headers[name] as string;
  return out;
}
