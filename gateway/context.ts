import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../lib/logger';
import { ANONYMOUS, type Principal } from '../lib/principal';

/** The gateway's per-operation context. `principal` is set once, by useAuthentication. */
export interface GatewayContext {
  requestId: string;
  headers: IncomingHttpHeaders;
  logger: Logger;
  principal: Principal;
  /** Set for in-process callers that bring their own verified principal (a subgraph's service principal). */
  preverified: boolean;
  /** Set when a guard refused the operation before authentication (so it is not metered). */
  rejected?: boolean;
}

export function createGatewayContext(headers: IncomingHttpHeaders, requestId: string, logger: Logger, principal?: Principal): GatewayContext {
  return { requestId, headers, logger, principal: principal ?? ANONYMOUS, preverified: principal !== undefined };
}
