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
import type { Principal } from './principal';
import type { SupergraphClient } from './supergraph-client';

/** What every resolver receives: the verified principal, the request id and per-request loaders. */
export interface SubgraphContext {
  principal: Principal;
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

/** Roles used with type-graphql's @Authorized(). No role: any verified API key. */
export type Role = 'admin' | 'gateway';

/** Authorisation happens here, in the subgraph, against the principal the gateway verified. */
export const authChecker: AuthChecker<SubgraphContext, Role> = ({ context }, roles) => {
  const p = context.principal;
  if (roles.includes('gateway')) {
    if (p.kind === 'gateway') return true;
    throw forbidden('This operation is internal to the gateway.');
  }
  if (p.kind === 'anonymous') throw unauthenticated();
  if (p.kind === 'gateway') throw forbidden('The gateway principal is for credential verification only.');
  if (roles.includes('admin') && !(p.kind === 'api-key' && p.role === 'admin')) {
    throw forbidden('This operation requires an administrator key.');
  }
  return true;
};

export interface SubgraphDeps {
  store: Store;
  /** Cross-process events (NOTIFY); closed by the runtime before `stop`. */
  notifications: Notifications;
  /** Reads from the rest of the supergraph, as this subgraph's service principal. */
  supergraph: SupergraphClient;
  config: Config;
  logger: Logger;
  jobs: JobQueue;
}

/**
 * A subgraph: its tables, its domain services and its federated schema. The same definition runs
 * in-process (`npm start`) and as its own HTTP service (docker compose).
 */
export interface SubgraphDefinition<S = unknown> {
  name: string;
  store: StoreDefinition;
  createServices(deps: SubgraphDeps): S | Promise<S>;
  /** `services` is undefined when the schema is only printed for composition (no database). */
  buildSchema(services: S | undefined): Promise<GraphQLSchema>;
  /** After every subgraph is up: seeding, background workers. May hand back credentials to show once. */
  start?(services: S, deps: SubgraphDeps): Promise<void | StartNotes>;
  stop?(services: S): Promise<void>;
}

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
  /** `__resolveReference` per entity type. */
  referenceResolvers?: Record<string, { __resolveReference: (ref: never, ctx: SubgraphContext) => unknown }>;
}

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag"])';

/** type-graphql → Federation 2 subgraph schema (recipe in design.md). */
export async function buildFederatedSchema(opts: FederatedSchemaOptions): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: opts.resolvers,
    orphanedTypes: opts.orphanedTypes,
    container: serviceContainer(opts.services),
    authChecker,
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
