import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../lib/logger';
import { ANONYMOUS, type Principal } from '../lib/principal';

/** The gateway's per-operation context. `principal` is set once, by useAuthentication. */
export interface GatewayContext {
  requestId: string;
  headers: IncomingHttpHeaders;
  /** The request URL's query parameters (credentials such as `?licenseKey=` may come there). */
  query: Record<string, unknown>;
  /** The client's address (per-address limits in the subgraphs); absent for a subgraph's own reads. */
  clientAddress?: string;
  logger: Logger;
  principal: Principal;
  /** Set for in-process callers that bring their own verified principal (a subgraph's service principal). */
  preverified: boolean;
  /** Set when a guard refused the operation before authentication (so it is not metered). */
  rejected?: boolean;
}

/** What an HTTP request presents to the gateway: its headers and its query parameters. */
export interface RequestCredentials {
  headers: IncomingHttpHeaders;
  query?: Record<string, unknown>;
  /** The client's address, as the HTTP server that received the request determined it (its TRUST_PROXY). */
  clientAddress?: string;
}

export function createGatewayContext(request: RequestCredentials, requestId: string, logger: Logger, principal?: Principal): GatewayContext {
  return {
    requestId,
    headers: request.headers,
    query: request.query ?? {},
    clientAddress: request.clientAddress,
    logger,
    principal: principal ?? ANONYMOUS,
    preverified: principal !== undefined,
  };
}
