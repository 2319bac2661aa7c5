import type { Express } from 'express';
import type { Config } from '../../lib/config';
import type { CredentialKind } from '../../lib/credentials';
import type { CorsPolicy } from '../../lib/http';
import type { Logger } from '../../lib/logger';
import type { ReadinessCheck } from '../../lib/probes';
import type { CsrfPolicy } from './csrf';
import type { ErrorCatalogue, ErrorShape, GraphQLErrorLike } from './errors';
import type { OperationExecutor } from './executor';
import type { Route } from './route';

/** A product's REST surface: its route table, error catalogue and conventions. */
export interface Surface {
  /** Folder name under rest-adapter/ (operations are read from there). */
  product: string;
  title: string;
  version: string;
  description: string;
  /** Security names are the surface's own (see `buildOpenApi`'s `security`). */
  routes: Route<string>[];
  /**
   * The credential kinds this surface accepts, in order (their declarations live with the subgraph
   * that verifies them). The surface forwards exactly what they read, and the gateway looks for no other.
   */
  credentials: readonly CredentialKind[];
  /** Labels (and headers) of the GraphQL error codes on this surface; statuses come from the errors. */
  catalogue: ErrorCatalogue;
  errorShape: ErrorShape;
  /** A fixed policy, or one read from the configuration (e.g. CORS_ALLOWED_ORIGINS). */
  cors: CorsPolicy | ((config: Config) => CorsPolicy);
  /** Headers on every response of the surface, errors and probes included (e.g. X-App-Name, X-App-Version). */
  responseHeaders?: (config: Config) => Record<string, string>;
  /**
   * Host names the surface answers to, as Django's ALLOWED_HOSTS: exact names, `.example.com` for a
   * domain and its subdomains, `*` for any. Another Host header is 400 `disallowed_host`.
   */
  allowedHosts?: (config: Config) => string[];
  /** CSRF protection (Origin check of state-changing requests; tokens for `csrf: true` routes). */
  csrf?: (config: Config) => CsrfPolicy;
  /**
   * The surface's OpenAPI document, generated from its route table (rest-adapter/core/openapi.ts) and
   * served by its pages; the conformance test replays every operation it documents.
   */
  openapi?: () => Record<string, unknown>;
  /** Extra pages (API docs, forms) mounted before the route table. */
  pages?: (app: Express, config: Config) => void;
  /** Response headers copied from the operation's result (quota state, Retry-After, WWW-Authenticate). */
  passHeaders?: string[];
  /** The gate its subgraphs enforce (the finance node's read-only mode), answered before an input problem (stages/gate.ts). */
  gate?: SurfaceGate;
}

export interface SurfaceOptions {
  config: Config;
  executor: OperationExecutor;
  logger: Logger;
  bodyLimit: string;
  /** The proxies whose X-Forwarded-For gives the client's address (Express `trust proxy`; TRUST_PROXY). */
  trustProxy?: string;
  /**
   * What the readiness probe (GET /readyz, lib/probes.ts) checks: the database in `npm start`, the
   * gateway behind the REST adapter in its own container. None: ready while it serves.
   */
  readiness?: Record<string, ReadinessCheck>;
}

/**
 * A surface's gate, as its subgraphs enforce it on every operation (the finance node's licence
 * read-only mode and maintenance): the REST core asks it only for a request whose input is refused,
 * so that the gate's answer comes first whatever the body (the finance contract: "every write returns
 * 403" on a read-only node). A request with good input meets the same gate in the subgraphs.
 */
export interface SurfaceGate {
  /** A query on the gate's state, run with the caller's credentials (e.g. `{ nodeStatus { readOnly … } }`). */
  operation: string;
  /** The routes it stands in front of (e.g. writes that the gate does not exempt), with the operation each runs. */
  applies(route: Route<string>, document: string | undefined): boolean;
  /** The refusal the state means for the route, as a GraphQL error; undefined: the gate is open. */
  refusal(data: Record<string, unknown>, route: Route<string>): GraphQLErrorLike | undefined;
}
