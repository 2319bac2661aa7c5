import type { Request } from 'express';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Config } from '../../lib/config';
import type { CredentialKind } from '../../lib/credentials';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A cookie a reply sets (or clears, with `maxAgeSeconds: 0`). HttpOnly and SameSite=Lax unless said otherwise. */
export interface Cookie {
  name: string;
  value: string;
  maxAgeSeconds?: number;
  path?: string;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Default: when the request came over HTTPS (or X-Forwarded-Proto says so). */
  secure?: boolean;
}

interface ReplyExtras {
  headers?: Record<string, string>;
  cookies?: Cookie[];
}

/** What a handler may answer besides plain JSON: the shapes the contracts need. */
export type Reply = ReplyExtras &
  (
    | { kind: 'json'; status?: number; body: unknown }
    | { kind: 'redirect'; location: string; status?: 301 | 302 | 303 | 307 }
    | { kind: 'file'; body: Buffer | string; contentType: string; filename: string }
    | { kind: 'html'; status?: number; html: string }
    | { kind: 'text'; status?: number; body: string; contentType?: string }
    | { kind: 'stream'; body: StreamBody }
  );

/**
 * A body streamed from storage, never held in memory. The core answers HEAD (headers only), one
 * `Range` (206 with Content-Range; 416 when unsatisfiable; If-Range honoured), If-None-Match (304),
 * always with Content-Length, Accept-Ranges, ETag and Last-Modified when known, and the filename
 * as Content-Disposition.
 */
export interface StreamBody {
  size: number;
  contentType: string;
  filename?: string;
  /** A strong validator, e.g. the hex SHA-256 of the bytes (sent quoted as the ETag). */
  etag?: string;
  lastModified?: Date;
  /** More response headers (e.g. Repr-Digest). */
  headers?: Record<string, string>;
  /** The bytes, or one range of them (`end` inclusive). Not called for HEAD, 304 or 416. */
  open(range?: { start: number; end: number }): Readable;
  /**
   * The local file that holds exactly these bytes, when there is one: sent from reused buffers
   * (lib/file-send.ts) instead of through `open`, which then is not called.
   */
  file?: string;
}

export interface RouteInput<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  /** The request's CSRF token (surfaces with CSRF protection): put it in forms as the surface's field. */
  csrfToken?: string;
  /** The process's configuration (routes answered without an operation read settings from it). */
  config: Config;
  /** An `idempotent` route's key: the client's Idempotency-Key (or X-Request-ID) header; none when it sent neither. */
  idempotencyKey?: string;
}

/**
 * The input as a route's own functions see it. Each route types its params, query and body through
 * its zod schemas; the table holds routes of every shape, hence `any` here (and only here).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteInput = RouteInput<any, any, any>;

/**
 * Names a credential as the OpenAPI document shows it (each surface maps its names to security
 * schemes; `none`: no credential); enforcement is the subgraphs' job.
 */
export type Security = 'none' | 'apiKey' | 'adminKey' | 'bearer' | 'session';

/**
 * One documented REST path: how the request becomes a persisted GraphQL operation and how its
 * result becomes the response. Thin on purpose: the rules live in the subgraphs' domain services.
 */
export interface Route<S extends string = Security> {
  method: HttpMethod;
  /** Exact path; `:name` segments are path parameters. */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  security: S;
  /** Persisted document: operations/<operation>.graphql of the product. Without one, `reply` answers. */
  operation?: string;
  /** A route answered by the surface itself, without an operation (probes, API documentation). */
  reply?: (input: AnyRouteInput) => Reply | Promise<Reply>;
  /**
   * The credential kinds this route accepts, in order of precedence (default: the surface's). The
   * route forwards only what these read, so that e.g. a download token means nothing elsewhere.
   */
  credentials?: readonly CredentialKind[];
  /** OpenAPI operationId, unique on the surface (default: `operation`); needed when one operation serves two routes or there is none. */
  operationId?: string;
  /** A state-changing form of a session: the request must carry the CSRF token (see Surface.csrf). */
  csrf?: boolean;
  /**
   * A money-moving write, idempotent on Stripe's model (lib/idempotency.ts): the core reads the client's
   * `Idempotency-Key` header (X-Request-ID as a fallback), refuses a malformed key with 400, and hands
   * the key on — to the operation as its `$idempotencyKey` variable, to a reply as `idempotencyKey`.
   * The OpenAPI document shows the header and the 409 (in flight) and 422 (key reused) answers.
   */
  idempotent?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /**
   * Body format: JSON (default), an HTML form (application/x-www-form-urlencoded), or raw text
   * such as an RFC 822 message (the body arrives as a string).
   */
  consumes?: 'json' | 'form' | 'text' | 'binary';
  /** The operation's variables; may be async (a binary body streamed to storage first, its reference passed on). */
  variables?: (input: AnyRouteInput) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * Answers before the request is validated or any operation runs, when it returns a reply: for what
   * must never reach the domain (a form's honeypot field filled in by a bot gets the usual answer).
   */
  intercept?: (req: Request) => Reply | undefined;
  /** Turns the operation's data into the reply (default: the data as JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  respond?: (data: any, input: AnyRouteInput) => Reply;
  /**
   * Replies to a failed operation or invalid input in the route's own format (e.g. an HTML form
   * shown again with its messages). Default: the surface's JSON error body.
   */
  respondError?: (error: RouteError, input: AnyRouteInput) => Reply;
  response: {
    status?: number;
    description: string;
    schema?: z.ZodType;
    contentType?: string;
    headers?: Record<string, string>;
    /** Further success statuses answered with the same body, and what each means (e.g. 404: an unknown link's page). */
    otherStatuses?: Record<number, string>;
  };
  /** Error statuses this route documents (the surface adds the common ones). */
  errors?: number[];
  /** What a fault behind the route's operation answers (default: 500, and 503 when the gateway or database is unreachable). */
  faults?: number[];
  /**
   * false: a page of a browser application served on the surface (e.g. the registry's customer
   * workspace), left out of the surface's API document and its conformance replay.
   */
  documented?: boolean;
}

/** An error as a route sees it: HTTP status, the surface's code label, message and per-field messages. */
export interface RouteError {
  status: number;
  code: string;
  message: string;
  fields?: Record<string, string[]>;
}

/**
 * Whether a route is a page of a browser application (HTML, or left out of the API document) rather
 * than an API operation: an API route refuses query parameters its schema does not name (400), a page
 * tolerates what links and browsers add.
 */
export function isPage(route: Pick<Route<string>, 'response' | 'documented'>): boolean {
  return route.documented === false || (route.response.contentType !== undefined && !/json/i.test(route.response.contentType));
}

/**
 * A product's persisted operations as generated from the supergraph (the `Operations` interface of
 * rest-adapter/<product>/operations/types.generated.ts, written by `npm run compose`): each
 * operation's name → its result and variables types.
 */
export type OperationTypes<Ops> = { [N in keyof Ops]: { result: unknown; variables: unknown } };

/**
 * A route that runs the persisted operation `N`: `respond` receives that operation's result, and
 * `variables` builds its variables (the core adds an idempotent route's `idempotencyKey` itself).
 */
export type OperationRoute<Ops extends OperationTypes<Ops>, N extends keyof Ops, S extends string = Security> = Omit<
  Route<S>,
  'operation' | 'reply' | 'variables' | 'respond'
> & {
  operation: N;
  variables?: (input: AnyRouteInput) => VariablesOf<Ops, N> | Promise<VariablesOf<Ops, N>>;
  respond?: (data: Ops[N]['result'], input: AnyRouteInput) => Reply;
};

type VariablesOf<Ops extends OperationTypes<Ops>, N extends keyof Ops> = Omit<Ops[N]['variables'], 'idempotencyKey'>;

/**
 * The route definition helper of a product's operations: `const route = operationRoute<Operations>()`,
 * then `route({ operation: 'Cards', …, respond: (data) => … })` types `data` as the generated result
 * of `Cards`, so no route restates a result's shape (and a field the schema lets be null is null there too).
 */
export const operationRoute =
  <Ops extends OperationTypes<Ops>>() =>
  <N extends keyof Ops & string, S extends string = Security>(route: OperationRoute<Ops, N, S>): Route<S> =>
    route as Route<S>;
