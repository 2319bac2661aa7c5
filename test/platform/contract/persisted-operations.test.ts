import { Supergraph } from '@apollo/federation-internals';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { getNamedType, Kind, parse, print, TypeInfo, validate, visit, visitWithTypeInfo, type SelectionSetNode } from 'graphql';
import { projectRoot } from '../../../lib/paths';
import { loadFragments, loadOperations, operationNames, operationsDir } from '../../../rest-adapter/core/operations';
import { surfaceEntries } from '../../../rest-adapter/surfaces';

/**
 * Every persisted operation of every REST surface parses and validates against the committed
 * supergraph's API schema: at run time the gateway never rejects a surface's own document (the
 * core would answer that with a 500, as a fault of ours). New surfaces join by being in SURFACES.
 */
const apiSchema = Supergraph.build(readFileSync(join(projectRoot(), 'schema', 'supergraph.graphql'), 'utf8'))
  .apiSchema()
  .toGraphQLJSSchema();

const cases = surfaceEntries().flatMap(([name, { surface }]) =>
  [
    ...loadOperations(
      surface.product,
      surface.routes.flatMap((r) => (r.operation && !r.reply ? [r.operation] : [])),
    ).entries(),
  ].map(([operation, document]) => ({ name, operation, document })),
);

it('has persisted operations to check', () => {
  expect(cases.length).toBeGreaterThan(0);
});

it.each(cases)('$name: $operation is valid against the supergraph', ({ document }) => {
  expect(validate(apiSchema, parse(document)).map((e) => e.message)).toEqual([]);
});

/** A selection this large is written once, as a fragment (smaller ones read better inline). */
const MIN_SHARED_FIELDS = 5;
const leafCount = (set: SelectionSetNode): number =>
  set.selections.reduce((n, s) => n + (s.kind === Kind.FIELD && s.selectionSet ? leafCount(s.selectionSet) : 1), 0);

/**
 * The documents are kept as the generated types expect them: one operation per file, named like the
 * file; the selections several operations share as fragments of operations/fragments/, each used.
 */
const products = [...new Set(surfaceEntries().map(([, { surface }]) => surface.product))];
const sources = (product: string) => [
  ...operationNames(product).map((name) => ({
    file: `${name}.graphql`,
    document: parse(readFileSync(join(operationsDir(product), `${name}.graphql`), 'utf8')),
  })),
  ...[...loadFragments(product)].map(([name, source]) => ({ file: `fragments/${name}.graphql`, document: parse(source) })),
];

describe.each(products)('%s operations', (product) => {
  it('each file holds one operation named like the file, or one fragment named like the file under fragments/', () => {
    const misplaced = sources(product).flatMap(({ file, document }) => {
      const [def, ...more] = document.definitions;
      const expected = file.startsWith('fragments/') ? Kind.FRAGMENT_DEFINITION : Kind.OPERATION_DEFINITION;
      const named = def.kind === expected && def.name?.value === basename(file, '.graphql');
      return named && !more.length ? [] : [file];
    });
    expect(misplaced).toEqual([]);
  });

  it('every shared fragment is spread by an operation', () => {
    const used = new Set<string>();
    for (const name of operationNames(product)) {
      const [document] = loadOperations(product, [name]).values();
      visit(parse(document), { FragmentDefinition: (node) => void used.add(node.name.value) });
    }
    expect([...loadFragments(product).keys()].filter((name) => !used.has(name))).toEqual([]);
  });

  it(`repeats no selection of ${MIN_SHARED_FIELDS} or more fields in two files: it is a fragment`, () => {
    const sites = new Map<string, Set<string>>();
    for (const { file, document } of sources(product)) {
      const types = new TypeInfo(apiSchema);
      const site = (node: SelectionSetNode, type: string, where: string) => {
        if (leafCount(node) < MIN_SHARED_FIELDS) return;
        const key = `${type} ${print(node)}`;
        sites.set(key, (sites.get(key) ?? new Set()).add(`${file} ${where}`));
      };
      visit(
        document,
        visitWithTypeInfo(types, {
          Field: (node) => void (node.selectionSet && site(node.selectionSet, String(getNamedType(types.getType())), node.name.value)),
          FragmentDefinition: (node) => void site(node.selectionSet, node.typeCondition.name.value, node.name.value),
        }),
      );
    }
    const repeated = [...sites.values()].filter((s) => new Set([...s].map((site) => site.split(' ')[0])).size > 1).map((s) => [...s].join(', '));
    expect(repeated).toEqual([]);
  });
});
