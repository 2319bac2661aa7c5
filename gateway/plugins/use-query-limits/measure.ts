import {
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { withDefaults } from '../use-executable-operation';

/** Assumed size of a list whose size is not bounded by a `first`/`limit` argument. */
const DEFAULT_LIST_SIZE = 20;
/** Fields of a connection object that hold its items: a `first` on the connection sizes them. */
const CONNECTION_ITEMS = new Set(['nodes', 'edges']);

export interface Measure {
  /** Nesting of fields (a type reference's `ofType` chain in introspection adds none: it ends within a few links). */
  depth: number;
  /** Data fields, multiplied through lists by their size. */
  cost: number;
  /** `__schema` and `__type` selections (aliases and fragments counted). */
  introspectionSelections: { schema: number; type: number };
  /** Fields selected at the root, fragments expanded and aliases counted (`__typename` is free). */
  rootFields: number;
}

/** `first`/`limit` of a field, from a literal or a variable; undefined when it has none. */
function sizeArgument(field: FieldNode, w: Walk): number | undefined {
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== 'first' && arg.name.value !== 'limit') continue;
    if (arg.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
    if (arg.value.kind === Kind.VARIABLE) {
      w.readVariables = true;
      const v = w.variables[arg.value.name.value];
      if (typeof v === 'number') return Math.max(1, v);
    }
  }
  return undefined;
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  visiting: Set<string>;
  /** A named fragment's measure, by name, connection size and introspection: each is walked once. */
  measured: Map<string, Tally>;
  /** Whether a size came from a variable (the measure then holds for these variables only). */
  readVariables: boolean;
}

interface Tally {
  depth: number;
  cost: number;
  fields: number;
  schemaSelections: number;
  typeSelections: number;
}

const empty = (): Tally => ({ depth: 0, cost: 0, fields: 0, schemaSelections: 0, typeSelections: 0 });

/** The definition of a selected field, the introspection entry points (`__schema`, `__type`) included. */
function fieldDefinition(parent: GraphQLCompositeType, name: string, w: Walk): GraphQLField<unknown, unknown> | undefined {
  if (parent === w.schema.getQueryType()) {
    if (name === '__schema') return SchemaMetaFieldDef;
    if (name === '__type') return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/**
 * Depth, cost (one per field, multiplied through lists by their size: `first`/`limit`, on the list
 * field or on the connection above its `nodes`/`edges`, else 20) and the number of fields at this
 * level. Fragments are expanded, each named fragment measured once (memoised: a document that spreads
 * a fragment twice in each of 30 nested fragments costs 30 walks, not 2^30). Introspection counts in depth (a type reference's `ofType` chain
 * excepted) and its entry points (`__schema`, `__type`) are counted, which bounds repetition.
 */
function measure(selectionSet: SelectionSetNode, parent: GraphQLCompositeType, w: Walk, connectionSize: number | undefined, introspection: boolean): Tally {
  const m = empty();
  for (const sel of selectionSet.selections) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      if (name === '__typename') continue;
      const def = fieldDefinition(parent, name, w);
      if (!def) continue;
      const inIntrospection = introspection || def === SchemaMetaFieldDef || def === TypeMetaFieldDef;
      const named = getNamedType(def.type);
      const size = sizeArgument(sel, w);
      const isList = isListType(getNullableType(def.type));
      let child = empty();
      if (sel.selectionSet && isCompositeType(named)) child = measure(sel.selectionSet, named, w, isList ? undefined : size, inIntrospection);
      m.fields += 1;
      if (def === SchemaMetaFieldDef) m.schemaSelections += 1;
      if (def === TypeMetaFieldDef) m.typeSelections += 1;
      if (inIntrospection) {
        // free of cost: an answer can be no larger than the schema, and graphql-js's own
        // MaxIntrospectionDepthRule stops `fields { type { fields … } }` cycles; repetition is counted
        m.depth = Math.max(m.depth, (name === 'ofType' ? 0 : 1) + child.depth);
      } else {
        const multiplier = isList ? (size ?? (CONNECTION_ITEMS.has(name) ? connectionSize : undefined) ?? DEFAULT_LIST_SIZE) : 1;
        m.cost += 1 + multiplier * child.cost;
        m.depth = Math.max(m.depth, 1 + child.depth);
      }
    } else {
      const spread = sel.kind === Kind.FRAGMENT_SPREAD ? sel.name.value : undefined;
      const frag = spread ? w.fragments.get(spread) : sel.kind === Kind.INLINE_FRAGMENT ? sel : undefined;
      if (!frag || (spread && w.visiting.has(spread))) continue;
      const key = spread && `${spread}\u0000${connectionSize ?? ''}\u0000${introspection}`;
      let inner = key ? w.measured.get(key) : undefined;
      if (!inner) {
        if (spread) w.visiting.add(spread);
        const typeName = frag.typeCondition?.name.value;
        const condition = typeName ? (w.schema.getType(typeName) as GraphQLCompositeType | undefined) : parent;
        inner = condition ? measure(frag.selectionSet, condition, w, connectionSize, introspection) : empty();
        if (spread) w.visiting.delete(spread);
        if (key) w.measured.set(key, inner);
      }
      m.depth = Math.max(m.depth, inner.depth);
      m.cost += inner.cost;
      m.fields += inner.fields;
      m.schemaSelections += inner.schemaSelections;
      m.typeSelections += inner.typeSelections;
    }
  }
  return m;
}

/**
 * Measures one operation of a validated document with the variables it will execute with: those
 * sent, and the defaults of those left out.
 */
export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): Measure {
  const known = fixedMeasures.get(document)?.get(schema)?.get(operation);
  if (known) return known;
  const root = schema.getRootType(operation.operation);
  if (!root) return { depth: 0, cost: 0, rootFields: 0, introspectionSelections: { schema: 0, type: 0 } };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const w: Walk = { schema, fragments, variables: withDefaults(operation, variables), visiting: new Set(), measured: new Map(), readVariables: false };
  const m = measure(operation.selectionSet, root, w, undefined, false);
  const result: Measure = {
    depth: m.depth,
    cost: m.cost,
    rootFields: m.fields,
    introspectionSelections: { schema: m.schemaSelections, type: m.typeSelections },
  };
  if (!w.readVariables) {
    let bySchema = fixedMeasures.get(document);
    if (!bySchema) fixedMeasures.set(document, (bySchema = new WeakMap()));
    let byOperation = bySchema.get(schema);
    if (!byOperation) bySchema.set(schema, (byOperation = new Map<OperationDefinitionNode, Measure>()));
    byOperation.set(operation, result);
  }
  return result;
}

/**
 * The measures that no variable sizes, by document, schema and operation: Apollo Server keeps one parsed
 * document per query text, so the REST routes' operations (and any client's repeated query) are walked
 * once per schema instead of on every request. A measure a variable sized is taken afresh each time.
 */
const fixedMeasures = new WeakMap<DocumentNode, WeakMap<GraphQLSchema, Map<OperationDefinitionNode, Measure>>>();
