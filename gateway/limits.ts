import {
  Kind,
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
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** Assumed size of a list whose size is not bounded by a `first`/`limit` argument. */
const DEFAULT_LIST_SIZE = 20;
/** Fields of a connection object that hold its items: a `first` on the connection sizes them. */
const CONNECTION_ITEMS = new Set(['nodes', 'edges']);

export interface Measure {
  depth: number;
  cost: number;
}

/** `first`/`limit` of a field, from a literal or a variable; undefined when it has none. */
function sizeArgument(field: FieldNode, variables: Record<string, unknown>): number | undefined {
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== 'first' && arg.name.value !== 'limit') continue;
    if (arg.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
    if (arg.value.kind === Kind.VARIABLE) {
      const v = variables[arg.value.name.value];
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
}

/**
 * Depth (nesting of fields) and cost (one per field, multiplied through lists by their size:
 * `first`/`limit`, on the list field or on the connection above its `nodes`/`edges`, else 20).
 * Fragments are expanded; introspection fields and __typename are free.
 */
function measure(selectionSet: SelectionSetNode, parent: GraphQLCompositeType, w: Walk, connectionSize?: number): Measure {
  let depth = 0;
  let cost = 0;
  for (const sel of selectionSet.selections) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      if (name.startsWith('__')) continue;
      const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
      if (!def) continue;
      const named = getNamedType(def.type);
      const size = sizeArgument(sel, w.variables);
      const isList = isListType(getNullableType(def.type));
      let child: Measure = { depth: 0, cost: 0 };
      if (sel.selectionSet && isCompositeType(named)) child = measure(sel.selectionSet, named, w, isList ? undefined : size);
      const multiplier = isList ? (size ?? (CONNECTION_ITEMS.has(name) ? connectionSize : undefined) ?? DEFAULT_LIST_SIZE) : 1;
      depth = Math.max(depth, 1 + child.depth);
      cost += 1 + multiplier * child.cost;
    } else {
      const spread = sel.kind === Kind.FRAGMENT_SPREAD ? sel.name.value : undefined;
      const frag = spread ? w.fragments.get(spread) : sel.kind === Kind.INLINE_FRAGMENT ? sel : undefined;
      if (!frag || (spread && w.visiting.has(spread))) continue;
      if (spread) w.visiting.add(spread);
      const typeName = frag.typeCondition?.name.value;
      const condition = typeName ? (w.schema.getType(typeName) as GraphQLCompositeType | undefined) : parent;
      if (condition) {
        const m = measure(frag.selectionSet, condition, w, connectionSize);
        depth = Math.max(depth, m.depth);
        cost += m.cost;
      }
      if (spread) w.visiting.delete(spread);
    }
  }
  return { depth, cost };
}

/** Measures one operation of a validated document, with its variables. */
export function measureOperation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> = {}): Measure {
  const root = schema.getRootType(operation.operation);
  if (!root) return { depth: 0, cost: 0 };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return measure(operation.selectionSet, root, { schema, fragments, variables, visiting: new Set() });
}
