/**
 * One error catalogue per product: GraphQL `extensions.code` → HTTP status, the surface's own
 * code label and any headers the status needs. Unknown codes are real faults: 500.
 */
export interface CatalogueEntry {
  status: number;
  code: string;
  headers?: Record<string, string>;
}

export type ErrorCatalogue = Record<string, CatalogueEntry>;

/** Errors the REST core raises itself, before any operation runs. */
export type CoreErrorKind = 'not_found' | 'method_not_allowed' | 'parse_error' | 'payload_too_large' | 'invalid' | 'unsupported_media_type' | 'internal';

export const CORE_STATUS: Record<CoreErrorKind, number> = {
  not_found: 404,
  method_not_allowed: 405,
  parse_error: 400,
  payload_too_large: 413,
  invalid: 400,
  unsupported_media_type: 415,
  internal: 500,
};

export interface ErrorShape {
  /** The body of an error reply on this surface. */
  body(status: number, code: string, message: string, details?: unknown): unknown;
  /** The surface's label for the core's own errors. */
  coreCode(kind: CoreErrorKind): string;
}

/** Django REST framework style, as the prediction API and the finance node use: {"detail", "code"}. */
export const detailErrorShape: ErrorShape = {
  body: (_status, code, message, details) => (details === undefined ? { detail: message, code } : { detail: message, code, errors: details }),
  coreCode: (kind) => (kind === 'payload_too_large' ? 'request_too_large' : kind === 'internal' ? 'error' : kind),
};

export interface GraphQLErrorLike {
  message: string;
  extensions?: Record<string, unknown>;
}

/** The status, label and message a GraphQL error becomes on a surface. */
export function mapGraphQLError(error: GraphQLErrorLike, catalogue: ErrorCatalogue): { status: number; code: string; message: string; headers: Record<string, string>; details?: unknown } {
  const code = String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
  const entry = catalogue[code];
  if (!entry) return { status: 500, code: 'error', message: 'Internal server error.', headers: {} };
  const details = code === 'BAD_USER_INPUT' ? error.extensions?.details : undefined;
  return { status: entry.status, code: entry.code, message: error.message, headers: entry.headers ?? {}, details };
}

/** Django REST framework's labels for the shared codes (prediction API, finance node). */
export const DRF_CATALOGUE: ErrorCatalogue = {
  // a persisted operation the gateway rejects (GRAPHQL_VALIDATION_FAILED) is our fault: not listed, so 500
  BAD_USER_INPUT: { status: 400, code: 'invalid' },
  UNAUTHENTICATED: { status: 401, code: 'not_authenticated' },
  INVALID_CREDENTIALS: { status: 401, code: 'authentication_failed' },
  FORBIDDEN: { status: 403, code: 'permission_denied' },
  NOT_FOUND: { status: 404, code: 'not_found' },
  CONFLICT: { status: 409, code: 'conflict' },
  RATE_LIMITED: { status: 429, code: 'throttled' },
};

/** The licence registry's envelope: {"success": false, "error": {"code", "message"}}. */
export const envelopeErrorShape: ErrorShape = {
  body: (_status, code, message, details) => ({ success: false, error: details === undefined ? { code, message } : { code, message, details } }),
  coreCode: (kind) => kind.toUpperCase(),
};
