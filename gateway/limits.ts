import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type SelectionSetNode,
  type ValidationContext,
  isObjectType,
  isInterfaceType,
} from 'graphql';

/** Assumed size of a list whose size is not bounded by a `first`/`limit` argument. */
const DEFAULT_LIST_SIZE = 20;

function listSize(field: FieldNode, variables: Record<string, unknown> | undefined): number {
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== 'first' && arg.name.value !== 'limit') continue;
    if (arg.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
    if (arg.value.kind === Kind.VARIABLE) {
      const v = variables?.[arg.value.name.value];
      if (typeof v === 'number') return Math.max(1, v);
    }
  }
  return DEFAULT_LIST_SIZE;
}

function fieldDef(parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

interface Measure {
  depth: number;
  cost: number;
}

/**
 * Depth (nesting of fields) and cost (fields, multiplied through lists by their `first`/`limit`)
 * of an operation. Fragments are expanded; introspection and __typename are free.
 */
function measure(
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  fragments: Map<string, FragmentDefinitionNode>,
  ctx: ValidationContext,
  visiting: Set<string>,
): Measure {
  let depth = 0;
  let cost = 0;
  for (const sel of selectionSet.selections) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      if (name.startsWith('__')) continue;
      const def = fieldDef(parent, name);
      if (!def) continue;
      const type = getNullableType(def.type);
      const named = getNamedType(def.type);
      let childDepth = 0;
      let childCost = 0;
      if (sel.selectionSet && isCompositeType(named)) {
        const child = measure(sel.selectionSet, named, fragments, ctx, visiting);
        childDepth = child.depth;
        childCost = child.cost;
      }
      depth = Math.max(depth, 1 + childDepth);
      cost += 1 + (isListType(type) ? listSize(sel, undefined) : 1) * childCost;
    } else {
      const frag = sel.kind === Kind.INLINE_FRAGMENT ? sel : fragments.get(sel.name.value);
      if (!frag || (sel.kind === Kind.FRAGMENT_SPREAD && visiting.has(sel.name.value))) continue;
      if (sel.kind === Kind.FRAGMENT_SPREAD) visiting.add(sel.name.value);
      const typeName = frag.typeCondition?.name.value;
      const condition = typeName ? (ctx.getSchema().getType(typeName) as GraphQLCompositeType | undefined) : parent;
      if (condition) {
        const m = measure(frag.selectionSet, condition, fragments, ctx, visiting);
        depth = Math.max(depth, m.depth);
        cost += m.cost;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) visiting.delete(sel.name.value);
    }
  }
  return { depth, cost };
}

/** A validation rule rejecting operations deeper or costlier than the limits, with a clear message. */
export function queryLimitsRule(limits: { maxDepth: number; maxCost: number }) {
  return (ctx: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of ctx.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(node) {
        const root = ctx.getSchema().getRootType(node.operation);
        if (!root) return;
        const { depth, cost } = measure(node.selectionSet, root, fragments, ctx, new Set());
        if (depth > limits.maxDepth) {
          ctx.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}.`, { nodes: [node], extensions: { limit: 'depth' } }));
        }
        if (cost > limits.maxCost) {
          ctx.reportError(new GraphQLError(`Query cost ${cost} exceeds the limit of ${limits.maxCost}; ask for fewer items (first/limit) or fewer nested lists.`, { nodes: [node], extensions: { limit: 'cost' } }));
        }
      },
    };
  };
}
