import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, visit } from 'graphql';
import { projectRoot } from '../../lib/paths';

/**
 * A product's persisted GraphQL documents live in rest-adapter/<product>/operations/: one operation per
 * `<Name>.graphql` (the operation is named like its file), and the selections several operations share
 * as fragments, one per `fragments/<Fragment>.graphql`.
 */
export const operationsDir = (product: string) => join(projectRoot(), 'rest-adapter', product, 'operations');
export const fragmentsDir = (product: string) => join(operationsDir(product), 'fragments');

/** The names of a product's persisted operations (its `operations/*.graphql`), sorted. */
export function operationNames(product: string): string[] {
  return readdirSync(operationsDir(product))
    .filter((f) => f.endsWith('.graphql'))
    .map((f) => f.slice(0, -'.graphql'.length))
    .sort();
}

/** The shared fragments of a product by name (`operations/fragments/<Name>.graphql`). */
export function loadFragments(product: string): Map<string, string> {
  const dir = fragmentsDir(product);
  const fragments = new Map<string, string>();
  if (!existsSync(dir)) return fragments;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()) {
    fragments.set(file.slice(0, -'.graphql'.length), readFileSync(join(dir, file), 'utf8'));
  }
  return fragments;
}

/**
 * Loads the persisted documents of a product, each self-contained: the operation's file followed by
 * every shared fragment it spreads, transitively (the gateway receives one document per request, so
 * a fragment travels with each operation that uses it).
 */
export function loadOperations(product: string, names: Iterable<string>): Map<string, string> {
  const dir = operationsDir(product);
  const fragments = new Map<string, string>();
  const fragment = (name: string) => {
    if (!fragments.has(name)) {
      const file = join(fragmentsDir(product), `${name}.graphql`);
      fragments.set(name, existsSync(file) ? readFileSync(file, 'utf8') : '');
    }
    return fragments.get(name)!;
  };
  const docs = new Map<string, string>();
  for (const name of names) {
    if (!docs.has(name)) docs.set(name, withFragments(readFileSync(join(dir, `${name}.graphql`), 'utf8'), fragment));
  }
  return docs;
}

/**
 * The document followed by the fragments it spreads but does not define, transitively, in name order.
 * A spread of an unknown fragment is left to the document's validation (persisted-operations.test.ts).
 */
export function withFragments(document: string, fragment: (name: string) => string): string {
  const defined = new Set<string>();
  const wanted = new Set<string>();
  const scan = (source: string) =>
    visit(parse(source), {
      FragmentDefinition: (node) => void defined.add(node.name.value),
      FragmentSpread: (node) => void wanted.add(node.name.value),
    });
  try {
    scan(document);
  } catch {
    return document; // unparsable: the gateway's syntax error reaches the route as a fault of ours, as it should
  }
  const added = new Map<string, string>();
  for (;;) {
    const missing = [...wanted].filter((n) => !defined.has(n) && fragment(n) !== '');
    if (!missing.length) break;
    for (const name of missing) {
      defined.add(name);
      added.set(name, fragment(name).trim());
      scan(fragment(name));
    }
  }
  if (!added.size) return document;
  const names = [...added.keys()].sort();
  return [document.trim(), ...names.map((n) => added.get(n)!)].join('\n\n') + '\n';
}
