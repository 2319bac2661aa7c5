import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getNamedType, type GraphQLSchema } from 'graphql';
import { CompositionError, composeSupergraph, subgraphSdl } from '../gateway/compose';
import { projectRoot } from '../lib/paths';
import { apiSchemaOf, OPERATION_TYPES_FILE, operationProducts, operationTypes } from './operation-types';
import { composeUrl, loadSubgraphs, PRODUCT_NAMES, SHIPPED_SETS, subgraphNamesOf, supergraphFile } from '../subgraphs/products';

/**
 * `npm run compose` writes one schema/<subgraph>.graphql each, the supergraph of each shipped product
 * set (schema/supergraph.graphql for all three, schema/supergraph.finance.graphql for the finance node
 * alone, …), the finance node's readiness operation (READINESS_OPERATION) and the result and variables
 * types of every REST surface's persisted operations (bin/operation-types.ts); `npm run compose:check`
 * fails when those files are stale.
 */
async function main() {
  const check = process.argv.includes('--check');
  const root = projectRoot();
  const subgraphs = await Promise.all(
    loadSubgraphs(PRODUCT_NAMES).map(async (def) => ({ name: def.name, url: composeUrl(def.name), schema: await def.buildSchema(undefined) })),
  );
  const files = new Map<string, string>();
  for (const s of subgraphs) files.set(`schema/${s.name}.graphql`, subgraphSdl(s.schema).trim() + '\n');
  for (const set of SHIPPED_SETS) {
    const names = subgraphNamesOf(set);
    files.set(supergraphFile(set), composeSupergraph(subgraphs.filter((s) => names.includes(s.name))).trim() + '\n');
  }
  files.set(READINESS_OPERATION, readinessOperation(subgraphs.map((s) => s.schema)));
  // the persisted operations' result types, from the supergraph of all products (the one their test validates them against)
  const apiSchema = apiSchemaOf(files.get(supergraphFile(PRODUCT_NAMES))!);
  for (const product of operationProducts(root)) {
    files.set(`rest-adapter/${product}/operations/${OPERATION_TYPES_FILE}`, await operationTypes(product, apiSchema, files, root));
  }
  if (check) {
    const stale = [...files].filter(([name, content]) => !existsSync(join(root, name)) || readFileSync(join(root, name), 'utf8') !== content).map(([n]) => n);
    if (stale.length) {
      process.stderr.write(`Stale generated files: ${stale.join(', ')}. Run \`npm run compose\` and commit the result.\n`);
      process.exit(1);
    }
    process.stdout.write(`schema/, ${READINESS_OPERATION} and the operations' types are up to date (${files.size} files).\n`);
    return;
  }
  mkdirSync(join(root, 'schema'), { recursive: true });
  for (const [name, content] of files) writeFileSync(join(root, name), content);
  process.stdout.write(`Wrote ${[...files.keys()].join(', ')}.\n`);
}

/** The finance node's GET /readyz runs this operation. */
const READINESS_OPERATION = 'rest-adapter/finance/operations/Readiness.graphql';

/**
 * Every store readiness field of the supergraph, in SUBGRAPHS order: each finance subgraph reports one
 * (subgraphs/finance/kernel/finance-schema.ts), so the finance node's readiness covers every database it depends on.
 */
function readinessOperation(schemas: GraphQLSchema[]): string {
  const fields = schemas.flatMap((schema) =>
    Object.values(schema.getQueryType()?.getFields() ?? {}).filter((f) => getNamedType(f.type).name === 'StoreReadiness'),
  );
  const selections = fields.map((f) => `  ${f.name} {\n    subgraph\n    ready\n    database\n    pendingMigrations\n  }\n`);
  return `# Written by \`npm run compose\` (bin/compose.ts) from the subgraphs' schemas: do not edit.\nquery Readiness {\n${selections.join('')}}\n`;
}

main().catch((err) => {
  process.stderr.write(err instanceof CompositionError ? `${err.message}\n` : `${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
