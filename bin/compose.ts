import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompositionError, composeSupergraph, subgraphSdl } from '../gateway/compose';
import { projectRoot } from '../lib/paths';
import { SUBGRAPHS, composeUrl } from './subgraphs';

/**
 * `npm run compose` writes schema/supergraph.graphql and one schema/<subgraph>.graphql each;
 * `npm run compose:check` fails when those files are stale.
 */
async function main() {
  const check = process.argv.includes('--check');
  const dir = join(projectRoot(), 'schema');
  const subgraphs = await Promise.all(SUBGRAPHS.map(async (def) => ({ name: def.name, url: composeUrl(def.name), schema: await def.buildSchema(undefined) })));
  const files = new Map<string, string>();
  for (const s of subgraphs) files.set(`${s.name}.graphql`, subgraphSdl(s.schema).trim() + '\n');
  files.set('supergraph.graphql', composeSupergraph(subgraphs).trim() + '\n');
  if (check) {
    const stale = [...files].filter(([name, content]) => !existsSync(join(dir, name)) || readFileSync(join(dir, name), 'utf8') !== content).map(([n]) => n);
    if (stale.length) {
      process.stderr.write(`Stale composed schema: ${stale.map((n) => `schema/${n}`).join(', ')}. Run \`npm run compose\` and commit the result.\n`);
      process.exit(1);
    }
    process.stdout.write(`schema/ is up to date (${files.size} files).\n`);
    return;
  }
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
  process.stdout.write(`Wrote ${[...files.keys()].map((n) => `schema/${n}`).join(', ')}.\n`);
}

main().catch((err) => {
  process.stderr.write(err instanceof CompositionError ? `${err.message}\n` : `${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
