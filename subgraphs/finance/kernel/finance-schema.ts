import type { GraphQLSchema } from 'graphql';
import { Query, Resolver } from 'type-graphql';
import type { Store } from '../../../lib/database';
import { storeReadiness, StoreReadiness } from './readiness';
import { buildFederatedSchema, type FederatedSchemaOptions } from '../../../lib/subgraph';
import { assertDeclared } from './capabilities';
import { NodeGateMiddleware, NodePolicy, registerMoneyWrites } from './gate';

export interface FinanceSchemaOptions<S> extends Omit<FederatedSchemaOptions, 'principals' | 'middlewares' | 'services'> {
  /** The subgraph's name: its readiness field is `<subgraph>Readiness`. */
  subgraph: string;
  services: S | undefined;
  /** The subgraph's own store, whose database and migrations its readiness reports. */
  store: (services: S) => Store;
}

/**
 * A finance subgraph's schema, built ONE way for every finance subgraph: its users are the node's
 * (`node-user`, `node-admin`), the node's gate runs on every root field, and it reports its store's
 * readiness as `<subgraph>Readiness`. The finance node's GET /readyz asks every such field of the
 * supergraph (rest-adapter/finance/operations/Readiness.graphql, written by `npm run compose`), so a
 * new finance subgraph is covered by being built here.
 */
export async function buildFinanceSchema<S>(opts: FinanceSchemaOptions<S>): Promise<GraphQLSchema> {
  const { subgraph, store, services, resolvers, ...rest } = opts;
  const schema = await buildFederatedSchema({
    ...rest,
    principals: ['node-user', 'node-admin'],
    resolvers: [...resolvers, readinessResolver(subgraph, store as (services: unknown) => Store)],
    middlewares: [NodeGateMiddleware],
    services,
  });
  // who may call each root field is declared in ONE table: a field missing from it is not served
  assertDeclared(subgraph, [...Object.keys(schema.getQueryType()?.getFields() ?? {}), ...Object.keys(schema.getMutationType()?.getFields() ?? {})]);
  // the gate's rule for unverified e-mail addresses knows the money-moving subgraphs' writes by their schema
  registerMoneyWrites(subgraph, Object.keys(schema.getMutationType()?.getFields() ?? {}));
  return schema;
}

// type-graphql keeps resolver classes in global metadata: one class per subgraph, however often its schema is built
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const readinessResolvers = new Map<string, Function>();

function readinessResolver(subgraph: string, storeOf: (services: unknown) => Store) {
  const field = `${subgraph}Readiness`;
  let resolver = readinessResolvers.get(subgraph);
  if (resolver) return resolver;

  @Resolver()
  class ReadinessResolver {
    constructor(private readonly services: unknown) {}

    @Query(() => StoreReadiness, { name: field, description: `Readiness of the ${subgraph} subgraph's database (GET /readyz).` })
    readiness(): Promise<StoreReadiness> {
      return storeReadiness(subgraph, storeOf(this.services));
    }
  }
  // a probe: answers during maintenance (the gate looks policies up by field name; a query is never read-only's business)
  NodePolicy({ maintenance: 'exempt' })(ReadinessResolver.prototype, field, {});
  resolver = ReadinessResolver;
  readinessResolvers.set(subgraph, resolver);
  return resolver;
}
