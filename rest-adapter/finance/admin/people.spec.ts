import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, isObjectType, Kind, parse, visit, type FieldNode, type SelectionSetNode } from 'graphql';

/**
 * The console shows people by name, never by UUID. Enumerated from the sources, so
 * a new site is covered without editing this test: every type of the finance supergraph that holds a
 * `userId` also offers the person (`username`, or `user`: identity's NodeUser by reference), and every
 * admin console operation that selects a `userId` selects the user name beside it.
 */
const ROOT = join(__dirname, '../../..');
const OPERATIONS = join(ROOT, 'rest-adapter/finance/operations');
const schema = buildSchema(readFileSync(join(ROOT, 'schema/supergraph.finance.graphql'), 'utf8'), { assumeValidSDL: true });

const names = (set: SelectionSetNode): FieldNode[] => set.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
const selectsPerson = (set: SelectionSetNode) =>
  names(set).some(
    (f) =>
      f.name.value === 'username' ||
      (f.name.value === 'user' && f.selectionSet !== undefined && names(f.selectionSet).some((g) => g.name.value === 'username')),
  );

it('every finance type with a userId offers the person (username or user)', () => {
  const bare = Object.values(schema.getTypeMap())
    .filter(isObjectType)
    .filter((t) => !t.name.startsWith('__') && 'userId' in t.getFields())
    .filter((t) => !('username' in t.getFields()) && !('user' in t.getFields()))
    .map((t) => t.name);
  // the principals the gateway verifies are not records a person reads
  expect(bare.filter((n) => !['AdminSessionAuthentication', 'NodeTokenAuthentication', 'LedgerCounts'].includes(n))).toEqual([]);
});

it('every admin console operation that selects a userId selects the user name beside it', () => {
  const files = readdirSync(OPERATIONS).filter((f) => f.startsWith('Admin') && f.endsWith('.graphql'));
  expect(files.length).toBeGreaterThan(20);
  const bare: string[] = [];
  for (const file of files) {
    visit(parse(readFileSync(join(OPERATIONS, file), 'utf8')), {
      SelectionSet(set) {
        if (names(set).some((f) => f.name.value === 'userId') && !selectsPerson(set)) bare.push(file);
      },
    });
  }
  expect(bare).toEqual([]);
});
