import { GraphQLError } from 'graphql';
import { serviceUnavailable } from './errors';

/** Socket errors of a database (or another service) that cannot be reached. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that is down, restarting or out of resources: class 08 (connection
 * exception), class 53 (insufficient resources: disk full, too many connections), 57P01–57P03
 * (administrator or crash shutdown, "the database system is starting up"), 57014 (a statement
 * cancelled by its statement_timeout: the server is too slow right now).
 */
const UNAVAILABLE_STATE = /^(08...|53...|57P0[123]|57014)$/;

/** What node-postgres says when a connection dies under it (it attaches no code). */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable|Cannot use a pool after calling end|Query read timeout)/;

/**
 * Whether an error means the database is unreachable or unable to serve right now (rather than a
 * bug or a client's mistake): requests then answer 503 with Retry-After, background work waits, and
 * the process keeps running. Looks through wrappers (TypeORM's QueryFailedError copies the driver's
 * code; AggregateError and `cause` chains are followed).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
    cause?: unknown;
    driverError?: unknown;
    originalError?: unknown;
    extensions?: { code?: unknown };
  };
  if (typeof e.code === 'string' && (UNREACHABLE_CODES.has(e.code) || UNAVAILABLE_STATE.test(e.code))) return true;
  // a service behind this one said so (a GraphQL error of a subgraph or of the supergraph)
  if (e.extensions?.code === 'SERVICE_UNAVAILABLE') return true;
  if (typeof e.message === 'string' && LOST_CONNECTION.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return [e.cause, e.driverError, e.originalError].some((inner) => inner !== err && isDatabaseUnavailable(inner, depth + 1));
}

/**
 * A resolver error caused by an unreachable database becomes SERVICE_UNAVAILABLE (503, Retry-After),
 * at the subgraph, where the original error is still at hand (in-process data source and standalone
 * subgraph server alike). Any other error is returned as it is.
 */
export function asServiceUnavailable(error: GraphQLError): GraphQLError {
  // the error itself too: the gateway's query plan passes a subgraph's fetch failure (EHOSTUNREACH …) on unwrapped
  const unwrapped = !(error instanceof GraphQLError);
  if (!isDatabaseUnavailable(error.originalError) && !(unwrapped && isDatabaseUnavailable(error))) return error;
  const unavailable = serviceUnavailable();
  return new GraphQLError(unavailable.message, { nodes: error.nodes, path: error.path, originalError: unavailable, extensions: unavailable.extensions });
}

/**
 * Runs `work`; while it fails because the database is unreachable, waits (1 s, doubling to 15 s) and
 * runs it again: background work pauses through an outage and resumes when the database returns.
 * Other errors, an abort (`signal`) and an outage longer than `maxWaitMs` end it with the last error.
 */
export async function untilAvailable<T>(
  work: () => Promise<T>,
  opts: { signal?: AbortSignal; maxWaitMs?: number; onWait?: (err: unknown, delayMs: number) => void } = {},
): Promise<T> {
  const started = Date.now();
  for (let delay = 1_000; ; delay = Math.min(delay * 2, 15_000)) {
    try {
      return await work();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || opts.signal?.aborted || Date.now() - started + delay > (opts.maxWaitMs ?? 15 * 60_000)) throw err;
      opts.onWait?.(err, delay);
      await sleep(delay, opts.signal);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
