import { retryAfterOf } from '../../lib/errors';

/**
 * Errors on a REST surface. The status always comes from the error itself — a domain error's
 * `extensions.http.status`, which the gateway turns into its response status — never from a table
 * of the surface; each surface's catalogue only names its labels (and headers) for the codes.
 */
export interface CatalogueEntry {
  /** The surface's label for the GraphQL code. */
  code: string;
  headers?: Record<string, string>;
  /** Show the error's `details` in the body (always shown for 400: the per-field messages). */
  details?: boolean;
  /** Fields of the error's `details` put at the top level of the body (e.g. `maintenance`, `checks`). */
  fields?: string[];
  /** The surface's own message for the code (e.g. what credential it requires), instead of the error's. */
  message?: string;
}

export type ErrorCatalogue = Record<string, CatalogueEntry>;

/** Errors the REST core raises itself, before any operation runs. */
export type CoreErrorKind =
  | 'not_found'
  | 'method_not_allowed'
  | 'parse_error'
  | 'payload_too_large'
  | 'invalid'
  | 'unsupported_media_type'
  | 'disallowed_host'
  | 'csrf_failed'
  | 'service_unavailable'
  | 'internal';

export const CORE_STATUS: Record<CoreErrorKind, number> = {
  not_found: 404,
  method_not_allowed: 405,
  parse_error: 400,
  payload_too_large: 413,
  invalid: 400,
  unsupported_media_type: 415,
  disallowed_host: 400,
  csrf_failed: 403,
  service_unavailable: 503,
  internal: 500,
};

export interface ErrorShape {
  /** The body of an error reply on this surface. */
  body(status: number, code: string, message: string, details?: unknown): unknown;
  /** The surface's label for the core's own errors. */
  coreCode(kind: CoreErrorKind): string;
  /** The label of a GraphQL code the catalogue does not name. */
  defaultCode(graphqlCode: string, status: number): string;
}

/** Django REST framework's default labels by status (prediction API, finance node). */
const DRF_LABELS: Record<number, string> = {
  400: 'invalid',
  401: 'not_authenticated',
  403: 'permission_denied',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'request_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'throttled',
  503: 'service_unavailable',
};

/** Django REST framework style, as the prediction API and the finance node use: {"detail", "code"}. */
export const detailErrorShape: ErrorShape = {
  body: (_status, code, message, details) => (details === undefined ? { detail: message, code } : { detail: message, code, errors: details }),
  coreCode: (kind) => (kind === 'payload_too_large' ? 'request_too_large' : kind === 'internal' ? 'error' : kind),
  defaultCode: (_code, status) => DRF_LABELS[status] ?? (status >= 500 ? 'error' : 'invalid'),
};

/** The licence registry's envelope: {"success": false, "error": {"code", "message"}}; labels are the GraphQL codes. */
export const envelopeErrorShape: ErrorShape = {
  body: (_status, code, message, details) => ({ success: false, error: details === undefined ? { code, message } : { code, message, details } }),
  coreCode: (kind) => kind.toUpperCase(),
  defaultCode: (code, status) => (status >= 500 && code === 'INTERNAL_SERVER_ERROR' ? 'INTERNAL' : code),
};

/** Django REST framework's labels for codes whose label is not the status's default. */
export const DRF_CATALOGUE: ErrorCatalogue = {
  INVALID_CREDENTIALS: { code: 'authentication_failed' },
};

export interface GraphQLErrorLike {
  message: string;
  extensions?: Record<string, unknown>;
}

export interface MappedError {
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
  details?: unknown;
  /** The catalogue's `fields` taken from the details, for the top level of the body. */
  fields?: Record<string, unknown>;
  /** `details.retryAfterSeconds` of the error (throttling, maintenance): the Retry-After header. */
  retryAfterSeconds?: number;
}

/** The HTTP status an error carries (`extensions.http.status`), when it carries one. */
export function statusOf(error: GraphQLErrorLike): number | undefined {
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

/**
 * What a failed operation becomes on a surface. The status: the error's own, else the status the
 * gateway answered with (it applies the errors' statuses), else 500. A 500 never shows its message.
 */
export function mapGraphQLError(error: GraphQLErrorLike, responseStatus: number, catalogue: ErrorCatalogue, shape: ErrorShape): MappedError {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : 'INTERNAL_SERVER_ERROR';
  // the document is the surface's own persisted operation, not the client's: failing to parse or
  // validate it is a fault of ours (a test validates every persisted operation against the supergraph)
  const ownDocument = code === 'GRAPHQL_PARSE_FAILED' || code === 'GRAPHQL_VALIDATION_FAILED';
  const status = ownDocument ? 500 : (statusOf(error) ?? (responseStatus >= 400 && responseStatus <= 599 ? responseStatus : 500));
  if (status === 500) return { status, code: shape.defaultCode('INTERNAL_SERVER_ERROR', 500), message: 'Internal server error.', headers: {} };
  const entry = catalogue[code];
  const raw = error.extensions?.details as Record<string, unknown> | undefined;
  const details = status === 400 || entry?.details ? raw : undefined;
  const fields = entry?.fields && raw && typeof raw === 'object' ? Object.fromEntries(entry.fields.filter((f) => f in raw).map((f) => [f, raw[f]])) : undefined;
  const headers = { ...entry?.headers };
  // a limit's error says when to come back (lib/rate-limits.ts), as the gateway's verifier refusals do
  const retryAfterSeconds = retryAfterOf(error.extensions);
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
  return {
    status,
    code: entry?.code ?? shape.defaultCode(code, status),
    message: entry?.message ?? error.message,
    headers,
    details,
    fields,
    retryAfterSeconds,
  };
}
