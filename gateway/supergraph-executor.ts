import { GraphQLDataSourceRequestKind } from '@apollo/gateway/dist/datasources/types';
import { ERRORS, errorCodeDef, operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner, type FetchNode, type PlanNode, type QueryPlan } from '@apollo/query-planner';
import type { GatewayExecutionResult, GatewayGraphQLRequestContext, GatewayInterface, GatewayLoadResult } from '@apollo/server-gateway-interface';
import {
  getNamedType,
  GraphQLError,
  Kind,
  OperationTypeNode,
  parse,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import type { SubgraphCachePolicy } from '../lib/cache-policy';
import { isAdmin } from '../lib/principal';
import type { GatewayContext } from './context';
import type { SubgraphDataSource } from './datasources';
import { stableJson, type ResponseCache } from './response-cache';
import { buildOperationContext, executeQueryPlan } from './apollo-execution';

/** What is settled about one operation once, before its first execution: its plan, and how it may run. */
interface OperationPlan {
  /** The query plan; undefined when the planner refused the operation (`refusal`). */
  queryPlan?: QueryPlan;
  /** Why the planner could not plan it: thrown to Apollo Server for each request, as @apollo/gateway's executor did. */
  refusal?: unknown;
  /**
   * The plan is one fetch, or fetches in parallel from the root (one per subgraph), whose operations
   * together select exactly what the client's does, each a part of its root fields as the client wrote
   * them: the answers, put side by side in the client's order, are the client's answer, with nothing
   * to shape.
   */
  direct?: FetchNode[];
  /** Its answer is the same whoever asks (every field is public): the schemas it reads, as cache tags. */
  cacheTags?: string[];
  /** A mutation: once it has run, the answers read from the schemas of the subgraphs it wrote to go. */
  writes?: string[];
}

export interface SupergraphExecutorOptions {
  supergraphSdl: string;
  dataSources: Record<string, SubgraphDataSource>;
  /** Whether single fetches are sent directly (default: yes). */
  direct?: boolean;
  /** The response cache and what each subgraph lets it keep (subgraphs/products.ts: cachePoliciesOf); none: nothing is cached. */
  cache?: { store: ResponseCache; policies: Record<string, SubgraphCachePolicy> };
}

const MAX_PLANS = 2000;

/**
 * The gateway's executor, around @apollo/gateway's: each operation is planned once (per document and
 * operation name, with our own query planner over the same supergraph), then
 *
 * - an operation whose plan is a single fetch that selects exactly what the client asked for is sent
 *   to that subgraph as planned and its answer returned as it is: the gateway's per-request work
 *   (operation context, plan lookup, result shaping that copies every field) has nothing to do for it;
 *   so is one whose plan fetches its root fields from several subgraphs in parallel, each fetch a part
 *   of the client's root fields as written (the answers are then put side by side);
 * - an operation every field of which is public (lib/cache-policy.ts) is answered from the response
 *   cache when it holds the answer, and its answer stored there otherwise;
 * - everything else runs through @apollo/gateway's query plan executor (executeQueryPlan, without
 *   the rest of @apollo/gateway: gateway/apollo-execution.ts) on the plan made here.
 *
 * Apollo Server runs it after its plugins (limits, authentication, metering), and formats what it
 * returns like any gateway result (error statuses, formatError).
 */
export class SupergraphExecutor implements GatewayInterface {
  private readonly supergraph: Supergraph;
  private readonly planner: QueryPlanner;
  private readonly apiSchema: GraphQLSchema;
  private readonly plans = new Map<string, OperationPlan>();
  /** `Type.field` → whether every subgraph resolving it declares it public. */
  private readonly publicFields = new Map<string, boolean>();
  /** Enums with values the API schema hides (@inaccessible): the gateway checks those values in its answers. */
  private readonly filteredEnums = new Set<string>();
  /** The supergraph's whole schema (graphql-js), which the executor shapes results with. */
  private readonly supergraphSchema: GraphQLSchema;
  private readonly listeners = new Set<Parameters<GatewayInterface['onSchemaLoadOrUpdate']>[0]>();

  constructor(private readonly opts: SupergraphExecutorOptions) {
    // parsed without locations: the AST is kept, and its tokens would be too (2 MB for the finance node's supergraph)
    this.supergraph = Supergraph.build(parse(opts.supergraphSdl, { noLocation: true }));
    this.planner = new QueryPlanner(this.supergraph);
    this.apiSchema = this.supergraph.apiSchema().toGraphQLJSSchema();
    const full = (this.supergraphSchema = this.supergraph.schema.toGraphQLJSSchema());
    for (const type of Object.values(this.apiSchema.getTypeMap())) {
      const inFull = full.getType(type.name);
      if ('getValues' in type && inFull && 'getValues' in inFull && type.getValues().length !== inFull.getValues().length) this.filteredEnums.add(type.name);
    }
    if (opts.cache) this.collectPublicFields(opts.cache.policies);
  }

  /** Apollo Server's listener: told the schema once, at load (the supergraph is static). */
  onSchemaLoadOrUpdate(callback: Parameters<GatewayInterface['onSchemaLoadOrUpdate']>[0]) {
    this.listeners.add(callback);
    return () => void this.listeners.delete(callback);
  }

  async load(_options: Parameters<GatewayInterface['load']>[0]): Promise<GatewayLoadResult> {
    for (const listener of this.listeners) listener({ apiSchema: this.apiSchema, coreSupergraphSdl: this.opts.supergraphSdl });
    return { executor: (ctx) => this.execute(ctx as GatewayGraphQLRequestContext<GatewayContext>) };
  }

  async stop(): Promise<void> {}

  /** How an operation runs (for diagnosis and tests): sent directly or not, and the tags of its cached answer if it is cached. */
  describe(query: string, operationName?: string): { direct: boolean; cacheTags?: string[] } {
    const document = parse(query);
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
    );
    if (!operation) throw new Error('no such operation in the document');
    const plan = this.prepare(document, operation, operationName);
    return { direct: plan.direct !== undefined, cacheTags: plan.cacheTags };
  }

  private async execute(ctx: GatewayGraphQLRequestContext<GatewayContext>): Promise<GatewayExecutionResult> {
    const plan = this.planOf(ctx);
    const cache = this.opts.cache?.store;
    // a subgraph's own read through the supergraph is not cached: it may be large, and it is no client's
    const cacheable = cache?.active && plan.cacheTags && !ctx.context.preverified;
    let key: string | undefined;
    if (cacheable) {
      const principal = ctx.context.principal;
      key = `${ctx.queryHash}\n${ctx.operationName ?? ''}\n${principal.kind}${isAdmin(principal) ? ':admin' : ''}\n${stableJson(ctx.request.variables ?? {})}`;
      const hit = cache.get(key) as GatewayExecutionResult | undefined;
      if (hit) return hit;
    }
    const ticket = cacheable ? cache.begin(plan.cacheTags!) : undefined;
    const result = plan.direct ? await this.fetchDirect(ctx, plan.direct).catch(() => this.executePlan(ctx, plan)) : await this.executePlan(ctx, plan);
    if (ticket && key && !result.errors?.length && !result.extensions) cache!.set(key, plan.cacheTags!, ticket, { data: result.data });
    // read-your-writes in this process; every process (this one too) also hears it from the tables' triggers
    if (cache && plan.writes) for (const tag of plan.writes) cache.invalidate(tag);
    return result;
  }

  /**
   * The plan run by @apollo/gateway's executor, as ApolloGateway ran it: the variables checked
   * against the operation first (their errors are the answer), then the fetches and the shaping of
   * their answers into the client's.
   */
  private async executePlan(ctx: GatewayGraphQLRequestContext<GatewayContext>, plan: OperationPlan): Promise<GatewayExecutionResult> {
    if (!plan.queryPlan) throw plan.refusal;
    const operationContext = buildOperationContext({ schema: this.apiSchema, operationDocument: ctx.document, operationName: ctx.request.operationName });
    const definitions = operationContext.operation.variableDefinitions;
    if (definitions?.length) {
      const { errors } = getVariableValues(operationContext.schema, definitions, ctx.request.variables ?? {});
      if (errors?.length) return { errors };
    }
    return executeQueryPlan(plan.queryPlan, this.opts.dataSources, ctx, operationContext, this.supergraphSchema, this.supergraph.apiSchema());
  }

  private planOf(ctx: GatewayGraphQLRequestContext<GatewayContext>): OperationPlan {
    const key = `${ctx.queryHash}\n${ctx.operationName ?? ''}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = this.prepare(ctx.document, ctx.operation, ctx.operationName ?? undefined);
      if (this.plans.size >= MAX_PLANS) this.plans.delete(this.plans.keys().next().value!);
      this.plans.set(key, plan);
    }
    return plan;
  }

  private prepare(document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined): OperationPlan {
    let queryPlan: QueryPlan;
    try {
      queryPlan = this.planner.buildQueryPlan(operationFromDocument(this.supergraph.apiSchema(), document, { operationName }));
    } catch (refusal) {
      return { refusal };
    }
    const services = new Set<string>();
    if (queryPlan.node?.kind === 'Subscription' || !collectServices(queryPlan.node, services)) return { queryPlan };
    const plan: OperationPlan = { queryPlan };
    const root = queryPlan.node;
    // queries only: a mutation is rare, and one whose fetch fails must not be tried again (see execute)
    if (this.opts.direct !== false && operation.operation === OperationTypeNode.QUERY) plan.direct = this.directFetches(document, operation, root);
    const policies = this.opts.cache?.policies;
    if (!policies) return plan;
    if (operation.operation === OperationTypeNode.MUTATION) plan.writes = [...services].flatMap((name) => policies[name]?.schema ?? []);
    // what an answer is read from: the subgraphs fetched, and those they read through the supergraph
    const read = new Set([...services].flatMap((name) => [name, ...(policies[name]?.reads ?? [])]));
    const tags = [...read].map((name) => policies[name]?.schema);
    if (operation.operation === OperationTypeNode.QUERY && services.size > 0 && tags.every((t) => t !== undefined) && this.allPublic(document))
      plan.cacheTags = tags as string[];
    return plan;
  }

  /**
   * The fetches to send as planned, when the plan is one fetch or fetches in parallel from the root
   * that select, together, exactly the client's operation (see OperationPlan.direct); else undefined.
   */
  private directFetches(document: DocumentNode, operation: OperationDefinitionNode, root: PlanNode | undefined): FetchNode[] | undefined {
    const fetches =
      root?.kind === 'Fetch' ? [root] : root?.kind === 'Parallel' && root.nodes.every((n) => n.kind === 'Fetch') ? (root.nodes as FetchNode[]) : [];
    if (!fetches.length || document.definitions.some((d) => d.kind === Kind.FRAGMENT_DEFINITION)) return undefined;
    if (fetches.some((f) => f.requires || f.inputRewrites?.length || f.outputRewrites?.length || f.contextRewrites?.length || f.hasDefers)) return undefined;
    const operations = fetches.map((f) => parse(f.operation).definitions);
    if (operations.some((defs) => defs.length !== 1 || defs[0].kind !== Kind.OPERATION_DEFINITION)) return undefined;
    const fetched = operations.map((defs) => defs[0] as OperationDefinitionNode);
    if (fetches.length === 1) {
      if (unnamed(fetched[0]) !== unnamed(operation)) return undefined;
    } else if (!this.splitsRootFields(operation, fetched)) return undefined;
    return this.hidesNoEnumValue(document) ? fetches : undefined;
  }

  /**
   * Whether each fetched operation is the client's restricted to some of its root fields (as written:
   * arguments, aliases, directives, selections) and the variables those use, and every root field of
   * the client's is in exactly one of them.
   */
  private splitsRootFields(operation: OperationDefinitionNode, fetched: OperationDefinitionNode[]): boolean {
    const selections = operation.selectionSet.selections;
    if (!selections.every((s): s is FieldNode => s.kind === Kind.FIELD)) return false;
    const byKey = new Map(selections.map((f) => [(f.alias ?? f.name).value, f]));
    if (byKey.size !== selections.length) return false;
    const covered = new Set<string>();
    for (const part of fetched) {
      const keys: string[] = [];
      for (const s of part.selectionSet.selections) {
        if (s.kind !== Kind.FIELD) return false;
        const key = (s.alias ?? s.name).value;
        if (!byKey.has(key) || covered.has(key)) return false;
        covered.add(key);
        keys.push(key);
      }
      const declared = new Set((part.variableDefinitions ?? []).map((v) => v.variable.name.value));
      const restricted: OperationDefinitionNode = {
        ...operation,
        variableDefinitions: operation.variableDefinitions?.filter((v) => declared.has(v.variable.name.value)),
        selectionSet: { ...operation.selectionSet, selections: selections.filter((f) => keys.includes((f.alias ?? f.name).value)) },
      };
      if (unnamed(part) !== unnamed(restricted)) return false;
    }
    return covered.size === byKey.size;
  }

  /** Whether no field of the operation is of an enum with values the API schema hides (the gateway answers null and an error for those: left to it). */
  private hidesNoEnumValue(document: DocumentNode): boolean {
    let filtered = false;
    const typeInfo = new TypeInfo(this.apiSchema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field: () => {
          const type = typeInfo.getType();
          if (type && this.filteredEnums.has(getNamedType(type).name)) filtered = true;
        },
      }),
    );
    return !filtered;
  }

  private allPublic(document: DocumentNode): boolean {
    let all = true;
    const typeInfo = new TypeInfo(this.apiSchema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field: (node) => {
          if (node.name.value === '__typename') return;
          const parent = typeInfo.getParentType();
          if (!parent || !this.publicFields.get(`${parent.name}.${node.name.value}`)) all = false;
        },
      }),
    );
    return all;
  }

  private collectPublicFields(policies: Record<string, SubgraphCachePolicy>): void {
    const declared = new Map<string, { resolvers: number; public: number }>();
    for (const subgraph of this.supergraph.subgraphs()) {
      const policy = policies[subgraph.name];
      const metadata = subgraph.metadata();
      for (const type of subgraph.schema.types()) {
        if (!('fields' in type) || type.kind === 'InputObjectType') continue;
        const root = type === subgraph.schema.schemaDefinition.root('query')?.type;
        for (const field of type.fields()) {
          if (metadata.isFieldExternal(field)) continue;
          const coordinate = `${root ? 'Query' : type.name}.${field.name}`;
          const counts = declared.get(coordinate) ?? { resolvers: 0, public: 0 };
          counts.resolvers++;
          if (policy && (root ? policy.queries.includes(field.name) : policy.types.includes(type.name))) counts.public++;
          declared.set(coordinate, counts);
        }
      }
    }
    for (const [coordinate, counts] of declared) this.publicFields.set(coordinate, counts.resolvers === counts.public);
  }

  /**
   * The fetches, sent as @apollo/gateway's executor sends them, their errors reported as it reports
   * them; several (in parallel) are put side by side in the order of the client's root fields, and a
   * fetch answered without data (a non-null root field failed) leaves the whole answer without data, as
   * one execution of the client's operation would. A fetch that throws (a subgraph that cannot be
   * reached) is the gateway's to answer: `execute` hands the query to its executor, which reports it
   * with the data it shapes around the failure.
   */
  private async fetchDirect(ctx: GatewayGraphQLRequestContext<GatewayContext>, fetches: FetchNode[]): Promise<GatewayExecutionResult> {
    const supplied = ctx.request.variables ?? {};
    // the variables' coercion, as the gateway validates an incoming request
    if (ctx.operation.variableDefinitions?.length) {
      const { errors } = getVariableValues(ctx.schema, ctx.operation.variableDefinitions, supplied);
      if (errors?.length) return { errors };
    }
    const send = (fetch: FetchNode) => {
      const variables = Object.create(null) as Record<string, unknown>;
      for (const name of fetch.variableUsages ?? []) if (Object.hasOwn(supplied, name) && supplied[name] !== undefined) variables[name] = supplied[name];
      return this.opts.dataSources[fetch.serviceName].process({
        kind: GraphQLDataSourceRequestKind.INCOMING_OPERATION,
        request: { query: fetch.operation, variables, operationName: fetch.operationName },
        incomingRequestContext: ctx,
        context: ctx.context,
        pathInIncomingRequest: [],
      });
    };
    const responses = fetches.length === 1 ? [await send(fetches[0])] : await Promise.all(fetches.map(send));
    const errors = responses.flatMap((r, i) => (r.errors ?? []).map((e) => downstreamError(e, fetches[i].serviceName)));
    let data: Record<string, unknown> | null;
    if (responses.length === 1) data = responses[0].data ?? null;
    else if (responses.some((r) => !r.data)) data = null;
    else {
      data = {};
      for (const selection of ctx.operation.selectionSet.selections) {
        const key = (selection as FieldNode).alias?.value ?? (selection as FieldNode).name.value;
        const from = responses.find((r) => Object.hasOwn(r.data!, key));
        if (from) data[key] = from.data![key];
      }
    }
    return errors.length ? { data, errors } : { data };
  }
}

const unnamed = (op: OperationDefinitionNode) => print({ ...op, name: undefined });

/** The subgraphs a plan fetches from; false for a node it does not know (nothing is then settled about it). */
function collectServices(node: PlanNode | undefined, into: Set<string>): boolean {
  if (!node) return true;
  switch (node.kind) {
    case 'Fetch':
      into.add(node.serviceName);
      return true;
    case 'Sequence':
    case 'Parallel':
      return node.nodes.every((n) => collectServices(n, into));
    case 'Flatten':
      return collectServices(node.node, into);
    case 'Defer':
      return collectServices(node.primary.node, into) && node.deferred.every((d) => collectServices(d.node, into));
    case 'Condition':
      return collectServices(node.ifClause, into) && collectServices(node.elseClause, into);
    default:
      return false;
  }
}

/** A subgraph's error as @apollo/gateway reports it: its extensions kept, the subgraph named, a code when it had none. */
function downstreamError(error: GraphQLFormattedError, serviceName: string): GraphQLError {
  const message = error.message || `Error while fetching subquery from service "${serviceName}"`;
  const options = { originalError: error as Error, path: error.path, extensions: { ...error.extensions, serviceName } };
  const codeDef = errorCodeDef(error);
  if (!codeDef && error.extensions?.code) return new GraphQLError(message, options);
  return (codeDef ?? ERRORS.DOWNSTREAM_SERVICE_ERROR).err(message, options);
}
