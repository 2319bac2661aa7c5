import type { ExecutedOperation } from '../gateway';
import type { RequestCredentials } from '../gateway/context';

/**
 * The bot is a client of the gateway like any other: one GraphQL operation at a time, sent with
 * its own API key. Two transports, one per topology: in-process (`npm start`) and HTTP (docker compose).
 */

export interface GraphQLResult {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }>;
}

export interface Operation {
  query: string;
  variables: Record<string, unknown>;
}

/** Sends one operation; `requestId` ties the gateway's log lines to the Telegram update. */
export type GraphQLTransport = (operation: Operation, requestId: string) => Promise<GraphQLResult>;

/** Why an operation failed, in the terms the bot answers a user in. */
export type GatewayFailure =
  /** The bot's key used up its daily quota. */
  | 'quota'
  /** The gateway did not answer (down, unreachable, timed out, not JSON). */
  | 'unavailable'
  /** The bot's key was refused: a configuration fault, not the user's. */
  | 'credentials'
  /** The gateway rejected what the user asked for; the message is for the user. */
  | 'bad_input'
  /** No model version is active yet (first training still running). */
  | 'model_not_ready'
  | 'internal';

export class GatewayError extends Error {
  constructor(
    readonly failure: GatewayFailure,
    message: string,
    /** The gateway's `extensions.code`, when it answered with an error. */
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GatewayError';
  }
}

const FAILURE_BY_CODE: Record<string, GatewayFailure> = {
  RATE_LIMITED: 'quota',
  INVALID_CREDENTIALS: 'credentials',
  UNAUTHENTICATED: 'credentials',
  FORBIDDEN: 'credentials',
  BAD_USER_INPUT: 'bad_input',
  MODEL_NOT_READY: 'model_not_ready',
};

/** The gateway's error as a GatewayError (its `extensions.code` decides the kind). */
export function gatewayError(error: { message: string; extensions?: Record<string, unknown> }): GatewayError {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : undefined;
  return new GatewayError((code === undefined ? undefined : FAILURE_BY_CODE[code]) ?? 'internal', error.message, code);
}

/** Runs operations and returns their data; any error in the result is thrown as a GatewayError. */
export class GatewayClient {
  constructor(private readonly transport: GraphQLTransport) {}

  async request<T>(query: string, variables: Record<string, unknown>, requestId: string): Promise<T> {
    const result = await this.transport({ query, variables }, requestId);
    if (result.errors?.length) throw gatewayError(result.errors[0]);
    if (!result.data) throw new GatewayError('internal', 'The gateway answered without data.');
    return result.data as T;
  }
}

/** `npm start`: the gateway in this process, called as if over HTTP (it verifies and meters the key). */
export function inProcessTransport(
  gateway: { execute(request: Operation, credentials: RequestCredentials, requestId: string): Promise<ExecutedOperation> },
  apiKey: string,
): GraphQLTransport {
  const headers = { authorization: `Bearer ${apiKey}` };
  return async (operation, requestId) => {
    try {
      return (await gateway.execute(operation, { headers }, requestId)).body;
    } catch (err) {
      throw new GatewayError('unavailable', 'The gateway did not run the operation.', undefined, { cause: err });
    }
  };
}

/** docker compose: the gateway's /graphql over HTTP. */
export function httpTransport(url: string, apiKey: string, timeoutMs = 15_000): GraphQLTransport {
  return async (operation, requestId) => {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${apiKey}`, 'x-request-id': requestId },
        body: JSON.stringify(operation),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new GatewayError('unavailable', `The gateway at ${url} is not reachable.`, undefined, { cause: err });
    }
    // GraphQL errors come as JSON whatever the status (401, 429 …); anything else is a proxy or a crash
    if (!(res.headers.get('content-type') ?? '').includes('json')) {
      throw new GatewayError('unavailable', `The gateway at ${url} answered ${res.status} without a GraphQL result.`);
    }
    try {
      return (await res.json()) as GraphQLResult;
    } catch (err) {
      throw new GatewayError('unavailable', `The gateway at ${url} sent a broken result.`, undefined, { cause: err });
    }
  };
}
