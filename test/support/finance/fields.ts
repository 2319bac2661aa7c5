import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildASTSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  parse,
  type DirectiveNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { projectRoot } from '../../../lib/paths';
import { financeProduct } from '../../../subgraphs/finance/product';

/**
 * The finance node's root fields as the committed supergraph (schema/supergraph.graphql) has them,
 * and operations that call each one with minimal valid arguments built from the types: tests that
 * ENUMERATE every query and mutation (a new field is covered without editing them).
 */
const document = parse(readFileSync(join(projectRoot(), 'schema', 'supergraph.graphql'), 'utf8'));
export const supergraphSchema: GraphQLSchema = buildASTSchema(document, { assumeValidSDL: true });

/** The join__Graph enum value of each finance subgraph (IDENTITY → identity). */
export const FINANCE_GRAPHS = new Set(
  document.definitions.flatMap((d) =>
    d.kind === Kind.ENUM_TYPE_DEFINITION && d.name.value === 'join__Graph'
      ? (d.values ?? [])
          .filter((v) => {
            const name = v.directives?.find((x) => x.name.value === 'join__graph')?.arguments?.find((a) => a.name.value === 'name')?.value;
            return name?.kind === Kind.STRING && (financeProduct.subgraphs as readonly string[]).includes(name.value);
          })
          .map((v) => v.name.value)
      : [],
  ),
);

const graphOf = (directives: readonly DirectiveNode[] | undefined) =>
  directives
    ?.filter((d) => d.name.value === 'join__field')
    .map((d) => d.arguments?.find((a) => a.name.value === 'graph')?.value)
    .flatMap((v) => (v?.kind === Kind.ENUM ? [v.value] : [])) ?? [];

/** The root fields finance owns, callable through the gateway (not @inaccessible). */
export function financeFields(root: 'Query' | 'Mutation'): string[] {
  return document.definitions.flatMap((d) =>
    (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && d.name.value === root
      ? (d.fields ?? [])
          .filter((f) => !f.directives?.some((x) => x.name.value === 'inaccessible'))
          .filter((f) => graphOf(f.directives).some((g) => FINANCE_GRAPHS.has(g)))
          .map((f) => f.name.value)
      : [],
  );
}

/** A literal of the type: required fields only, the first enum value, one list element; strings are `text`. */
function literal(type: GraphQLInputType, text: string, depth = 0): string {
  if (isNonNullType(type)) return literal(type.ofType, text, depth);
  if (isListType(type)) return `[${literal(type.ofType, text, depth)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined && depth < 5);
    return `{ ${fields.map((f) => `${f.name}: ${literal(f.type, text, depth + 1)}`).join(', ')} }`;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return '1';
      case 'Float':
        return '1.5';
      case 'Boolean':
        return 'false';
      case 'ID':
        return '"00000000-0000-4000-8000-000000000000"';
      case 'DateTimeISO':
        return '"2030-01-01T00:00:00.000Z"';
      case 'JSON':
      case 'JSONObject':
        return '{}';
      default:
        return JSON.stringify(text);
    }
  }
  throw new Error(`no literal for ${String(type)}`);
}

const fieldOf = (root: 'Query' | 'Mutation', name: string) =>
  (root === 'Query' ? supergraphSchema.getQueryType() : supergraphSchema.getMutationType())!.getFields()[name] as GraphQLField<unknown, unknown>;

const selectionOf = (field: GraphQLField<unknown, unknown>) => {
  const named = getNamedType(field.type);
  return isScalarType(named) || isEnumType(named) ? '' : ' { __typename }';
};

/** An operation calling the field with placeholder arguments (every required one). */
export function placeholderOperation(root: 'Query' | 'Mutation', name: string): string {
  const field = fieldOf(root, name);
  const args = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const argList = args.length ? `(${args.map((a) => `${a.name}: ${literal(a.type, `x-${name}`)}`).join(', ')})` : '';
  return `${root === 'Query' ? 'query' : 'mutation'} { ${name}${argList}${selectionOf(field)} }`;
}

/** A mutation calling the field with variables for the arguments `variables` names (their types from the schema). */
export function mutationWith(name: string, variables: Record<string, unknown>): string {
  const field = fieldOf('Mutation', name);
  const args = field.args.filter((a) => a.name in variables);
  const missing = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined && !(a.name in variables)).map((a) => a.name);
  if (missing.length) throw new Error(`${name}: no value for ${missing.join(', ')}`);
  const decl = args.length ? `(${args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')})` : '';
  const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  return `mutation${decl} { ${name}${call}${selectionOf(field)} }`;
}
