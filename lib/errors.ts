/**
 * Typed domain errors. Domain services throw them; GraphQL carries `extensions.code` and
 * `extensions.http.status`; each REST surface turns the code into its own status and body
 * through its error catalogue (rest-adapter/<product>/errors.ts).
 */
export class DomainError extends Error {
  readonly extensions: { code: string; http: { status: number }; details?: unknown };

  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    details?: unknown,
  ) {
    super(message);
    this.name = 'DomainError';
    this.extensions = details === undefined ? { code, http: { status } } : { code, http: { status }, details };
  }
}

export const badInput = (message: string, details?: unknown) => new DomainError('BAD_USER_INPUT', 400, message, details);
export const unauthenticated = (message = 'Authentication credentials were not provided.') => new DomainError('UNAUTHENTICATED', 401, message);
export const invalidCredentials = (message = 'Invalid API key.') => new DomainError('INVALID_CREDENTIALS', 401, message);
export const forbidden = (message = 'You do not have permission to perform this action.') => new DomainError('FORBIDDEN', 403, message);
export const notFound = (message = 'Not found.') => new DomainError('NOT_FOUND', 404, message);
export const conflict = (message: string, details?: unknown) => new DomainError('CONFLICT', 409, message, details);

/** Seconds a client is asked to wait (Retry-After) when a dependency such as the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * A dependency (the database) is unreachable: not the client's mistake, and temporary. 503 with
 * Retry-After (`details.retryAfterSeconds`), never the fault's own message.
 */
export const serviceUnavailable = (message = 'The service is temporarily unavailable; please retry shortly.') =>
  new DomainError('SERVICE_UNAVAILABLE', 503, message, { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });

/** The extension codes every product shares, with their HTTP status. */
export const COMMON_STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  GRAPHQL_PARSE_FAILED: 400,
  QUERY_TOO_COMPLEX: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
};

/** `details.retryAfterSeconds` of an error's extensions, when it asks the client to come back later. */
export function retryAfterOf(extensions: Record<string, unknown> | undefined): number | undefined {
  const seconds = (extensions?.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}
