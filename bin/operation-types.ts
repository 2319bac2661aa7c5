import { codegen } from '@graphql-codegen/core';
import * as typescriptOperations from '@graphql-codegen/typescript-operations';
import { Supergraph } from '@apollo/federation-internals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Kind, parse, type DocumentNode, type GraphQLSchema, type OperationTypeNode } from 'graphql';
import { projectRoot } from '../lib/paths';

/**
 * The result and variables types of every persisted operation of a REST surface, generated from the
 * committed supergraph by GraphQL Code Generator's typescript-operations plugin (the same `.graphql`
 * files the surface sends, and their shared fragments), with an `Operations` map from each operation's
 * name to its types: a route definition infers its data's type from its `operation` (rest-adapter/core/typed.ts).
 * `npm run compose` writes rest-adapter/<product>/operations/types.generated.ts, `npm run compose:check`
 * fails when one is stale.
 */
export const OPERATION_TYPES_FILE = 'types.generated.ts';

/** The products with persisted operations (rest-adapter/<product>/operations/). */
export function operationProducts(root = projectRoot()): string[] {
  const dir = join(root, 'rest-adapter');
  return readdirSync(dir)
    .filter((p) => existsSync(join(dir, p, 'operations')))
    .sort();
}

/** The API schema (what clients see, without federation's join types) of a composed supergraph. */
export const apiSchemaOf = (supergraphSdl: string): GraphQLSchema => Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();

/** How the gateway's JSON answers the custom scalars (lib/scalars.ts). */
const SCALARS = { DateTimeISO: 'string', JSON: 'unknown', JSONObject: 'Record<string, unknown>' };

/**
 * One product's generated file. `override`: documents not yet on disk (compose writes the finance
 * readiness operation in the same run), by path from the repository root.
 */
export async function operationTypes(product: string, schema: GraphQLSchema, override: ReadonlyMap<string, string>, root = projectRoot()): Promise<string> {
  const dir = join(root, 'rest-adapter', product, 'operations');
  const read = (file: string) => override.get(relative(root, file)) ?? readFileSync(file, 'utf8');
  const files = graphqlFiles(dir);
  if (existsSync(join(dir, 'fragments'))) files.push(...graphqlFiles(join(dir, 'fragments')));
  const documents = files.map((file) => ({ location: relative(root, file), document: parse(read(file)) }));
  const types = await codegen({
    schema: parse('scalar Unused'), // what the plugins read is schemaAst
    schemaAst: schema,
    documents,
    filename: OPERATION_TYPES_FILE,
    plugins: [{ 'typescript-operations': {} }],
    pluginMap: { 'typescript-operations': typescriptOperations },
    config: {
      scalars: SCALARS,
      strictScalars: true,
      skipTypename: true,
      enumType: 'string-literal',
      namingConvention: 'keep',
      useTypeImports: true,
      printFieldsOnNewLines: true,
    },
    // the persisted-operations test validates every document against the supergraph
    skipDocumentsValidation: true,
  });
  return [
    `// Written by \`npm run compose\` (bin/operation-types.ts) from schema/supergraph.graphql and rest-adapter/${product}/operations/: do not edit.`,
    types.trim(),
    '',
    operationsMap(documents.map((d) => d.document)),
  ].join('\n');
}

const graphqlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => join(dir, f));

const SUFFIX: Record<OperationTypeNode, string> = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' };

/** `Operations`: each operation's name → its result and variables types (the plugin's names: name + Query/Mutation). */
function operationsMap(documents: DocumentNode[]): string {
  const entries = documents
    .flatMap((doc) => doc.definitions)
    .flatMap((def) => (def.kind === Kind.OPERATION_DEFINITION && def.name ? [{ name: def.name.value, suffix: SUFFIX[def.operation] }] : []))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, suffix }) => `  ${name}: { result: ${name}${suffix}; variables: ${name}${suffix}Variables };\n`);
  return `/** Each persisted operation's result and variables, by operation name. */\nexport interface Operations {\n${entries.join('')}}\n`;
}
