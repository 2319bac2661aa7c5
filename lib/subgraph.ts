import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, type AuthChecker, type NonEmptyArray } from 'type-graphql';
import type { Config } from './config';
import type { Notifications, Store, StoreDefinition } from './database';
import { forbidden, unauthenticated } from './errors';
import type { JobQueue } from './jobs';
import type { Logger } from './logger';
import { isAdmin, type Principal, type PrincipalKind } from './principal';
import type { CliCommand } from './cli';
import type { SupergraphClient } from './supergraph-client';

/** What every resolver receives: the verified principal, the request id and per-request loaders. */
export interface SubgraphContext {
  principal: Principal;
  /** The client's address as the gateway saw it (per-address limits); absent for a subgraph's own reads through the supergraph. */
  clientAddress?: string;
  requestId: string;
  logger: Logger;
  /** Per-request DataLoaders, created on first use (see `requestLoader`). */
  loaders: Map<string, unknown>;
}

export function requestLoader<T>(ctx: SubgraphContext, name: string, create: () => T): T {
  let loader = ctx.loaders.get(name) as T | undefined;
  if (!loader) {
    loader = create();
    ctx.loaders.set(name, loader);
  }
  return loader;
}

/**
 * Roles of type-graphql's @Authorized(), any of which admits the caller: `admin` (a system
 * administrator), `gateway` (credential verification, internal), `service` (another subgraph), or a
 * principal kind. No role: a principal of a kind the subgraph serves (`principals` of its schema).
 */
export type Role = 'admin' | 'gateway' | 'service' | PrincipalKind;

/**
 * Authorisation happens here, in the subgraph, against the principal the gateway verified: by its
 * kind, so that no product's credential reaches another product's data.
 */
export function authorise(principal: Principal, roles: readonly Role[], serves: readonly PrincipalKind[]): true {
  if (roles.includes('gateway')) {
    if (principal.kind === 'gateway') return true;
    throw forbidden('This operation is internal to the gateway.');
  }
  if (principal.kind === 'anonymous') throw unauthenticated();
  if (principal.kind === 'gateway') throw forbidden('The gateway principal is for credential verification only.');
  if (roles.length === 0) {
    if (serves.includes(principal.kind)) return true;
    throw forbidden('This credential does not give access to this operation.');
  }
  const admitted = roles.some((role) => (role === 'admin' ? isAdmin(principal) : principal.kind === role));
  if (admitted) return true;
  throw forbidden(roles.includes('admin') ? 'This operation requires an administrator key.' : 'This credential does not give access to this operation.');
}

const authCheckerFor =
  (serves: readonly PrincipalKind[]): AuthChecker<SubgraphContext, Role> =>
  ({ context }, roles) =>
    authorise(context.principal, roles, serves);

export interface SubgraphDeps {
  store: Store;
  /** Cross-process events (NOTIFY); closed by the runtime before `stop`. */
  notifications: Notifications;
  /** Reads from the rest of the supergraph, as this subgraph's service principal. */
  supergraph: SupergraphClient;
  config: Config;
  logger: Logger;
  jobs: JobQueue;
  /** The time: now unless a test sets it (default `() => new Date()`). */
  clock?: () => Date;
}

/**
 * A subgraph: its tables, its domain services and its federated schema. The same definition runs
 * in-process (`npm start`) and as its own HTTP service (docker compose).
 */
export interface SubgraphDefinition<S = unknown, N extends string = string> {
  name: N;
  store: StoreDefinition;
  /** Its `npm run cli -- …` commands (they run on this subgraph's services). */
  commands?: readonly CliCommand<S>[];
  createServices(deps: SubgraphDeps): S | Promise<S>;
  /** `services` is undefined when the schema is only printed for composition (no database). */
  buildSchema(services: S | undefined): Promise<GraphQLSchema>;
  /** After every subgraph is up: seeding, background workers. May hand back credentials to show once. */
  start?(services: S, deps: SubgraphDeps): Promise<void | StartNotes>;
  stop?(services: S): Promise<void>;
}

/** Declares a subgraph, keeping its name as a literal type (so `startApp` can key services by it). */
export const defineSubgraph = <S, const N extends string>(def: SubgraphDefinition<S, N>): SubgraphDefinition<S, N> => def;

/** The services type of a subgraph definition. */
export type ServicesOf<D> = D extends SubgraphDefinition<infer S, string> ? S : never;

export interface StartNotes {
  /** Credentials generated at this start, shown to the operator once. */
  generatedCredentials?: Record<string, string>;
}

export interface FederatedSchemaOptions {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: NonEmptyArray<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  orphanedTypes?: Function[];
  services: unknown;
  /** The principal kinds a plain @Authorized() admits (e.g. ['api-key', 'service']). */
  principals: readonly PrincipalKind[];
  /** Global middlewares (classes built by the schema's container with `services`, or functions), run on every field. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  middlewares?: Function[];
  /** `__resolveReference` per entity type. */
  referenceResolvers?: Record<string, { __resolveReference: (ref: never, ctx: SubgraphContext) => unknown }>;
}

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag"])';

/** type-graphql → Federation 2 subgraph schema (docs/architecture.md, "Inside a subgraph"). */
export async function buildFederatedSchema(opts: FederatedSchemaOptions): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: opts.resolvers,
    orphanedTypes: opts.orphanedTypes,
    container: serviceContainer(opts.services),
    globalMiddlewares: opts.middlewares as never,
    authChecker: authCheckerFor(opts.principals),
    authMode: 'error',
    validate: false,
    skipCheck: true,
  });
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
  const resolvers = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  for (const [type, ref] of Object.entries(opts.referenceResolvers ?? {})) {
    resolvers[type] = { ...(resolvers[type] ?? {}), ...ref } as never;
  }
  return buildSubgraphSchema({ typeDefs, resolvers });
}

/** Resolvers are constructed once per schema with the subgraph's services bundle. */
function serviceContainer(services: unknown) {
  const instances = new Map<unknown, unknown>();
  return {
    get(cls: new (services: unknown) => unknown) {
      let instance = instances.get(cls);
      if (!instance) {
        instance = new cls(services);
        instances.set(cls, instance);
      }
      return instance;
    },
  };
}
