import { GraphQLError, Kind, type ASTVisitor, type DocumentNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

/**
 * The number of fields each operation of a document selects once its fragments are expanded
 * (`__typename` included), computed in time linear in the document: each fragment's count is
 * computed once and reused wherever it is spread. A fragment that spreads itself (a cycle, which
 * validation refuses anyway) counts as infinitely large.
 *
 * `query { ...F30 }` with `fragment Fi on Query { ...Fi-1 ...Fi-1 }` is 1.2 kB of text and 2^30
 * fields once expanded: this count is what every later measure (depth, cost, aliases, directives,
 * the query plan) may assume bounded.
 */
export function expandedFieldCounts(document: DocumentNode): Map<string, number> {
  const fragments = new Map<string, SelectionSetNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def.selectionSet);
  const memo = new Map<string, number>();
  const inProgress = new Set<string>();
  const fragmentCount = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const selectionSet = fragments.get(name);
    if (!selectionSet) return 0;
    if (inProgress.has(name)) return Infinity;
    inProgress.add(name);
    const n = count(selectionSet);
    inProgress.delete(name);
    memo.set(name, n);
    return n;
  };
  const count = (selectionSet: SelectionSetNode): number => {
    let n = 0;
    for (const sel of selectionSet.selections) {
      if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? count(sel.selectionSet) : 0);
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet);
      else n += fragmentCount(sel.name.value);
    }
    return n;
  };
  const counts = new Map<string, number>();
  for (const def of document.definitions) {
    if (def.kind === Kind.OPERATION_DEFINITION) counts.set(def.name?.value ?? '', count(def.selectionSet));
  }
  return counts;
}

/**
 * Refuses a document one of whose operations selects more than `max` fields with its fragments
 * expanded (400 GRAPHQL_VALIDATION_FAILED, `extensions.limit: "fields"`). A validation rule: it
 * runs before the operation is measured, authenticated, planned or executed, on anonymous and
 * credentialed requests alike, and once per document (Apollo keeps validated documents).
 */
export function maxExpandedFieldsRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document: {
      enter(document) {
        for (const [name, n] of expandedFieldCounts(document)) {
          if (n <= max) continue;
          const size = Number.isFinite(n) && n < 1e9 ? String(n) : 'more than a billion';
          const which = name ? `Operation "${name}"` : 'The operation';
          context.reportError(
            new GraphQLError(`${which} selects ${size} fields once its fragments are expanded; the limit is ${max}.`, { extensions: { limit: 'fields' } }),
          );
        }
      },
    },
  });
}
