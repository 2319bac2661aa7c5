import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse, type GraphQLSchema } from 'graphql';

export interface SubgraphSdl {
  name: string;
  url: string;
  schema: GraphQLSchema;
}

export class CompositionError extends Error {}

/** The subgraph SDL as composition sees it (federation directives kept). */
export const subgraphSdl = (schema: GraphQLSchema) => printSubgraphSchema(schema);

/**
 * Composes the supergraph in-process; errors are listed one per line with their codes. With
 * COMPOSITION_CACHE_DIR set (the test suite sets it: it boots the same sets of subgraphs some 150 times,
 * and composition is about a fifth of a boot), a composed supergraph is kept there under the hash of
 * its inputs and the composer's version, and read back for the same inputs.
 */
export function composeSupergraph(subgraphs: SubgraphSdl[], cacheDir = process.env.COMPOSITION_CACHE_DIR): string {
  const inputs = subgraphs.map((s) => ({ name: s.name, url: s.url, sdl: subgraphSdl(s.schema) }));
  const cached = cacheDir
    ? join(
        cacheDir,
        `${createHash('sha256')
          .update(JSON.stringify([COMPOSER, inputs]))
          .digest('hex')}.graphql`,
      )
    : undefined;
  if (cached) {
    try {
      return readFileSync(cached, 'utf8');
    } catch {
      // not composed yet
    }
  }
  const result = composeServices(inputs.map((s) => ({ name: s.name, url: s.url, typeDefs: parse(s.sdl) })));
  if (result.errors?.length) {
    const lines = result.errors.map((e) => `  - [${(e.extensions?.code as string) ?? 'ERROR'}] ${e.message}`);
    throw new CompositionError(`Supergraph composition failed:\n${lines.join('\n')}`);
  }
  if (cached) {
    // written whole, then renamed: a concurrent reader sees the whole file or none
    mkdirSync(cacheDir!, { recursive: true });
    const partial = `${cached}.${process.pid}.${Date.now()}`;
    writeFileSync(partial, result.supergraphSdl!);
    renameSync(partial, cached);
  }
  return result.supergraphSdl!;
}

/** The composer's version: a cached supergraph is only read back by the composer that wrote it. */
const COMPOSER = (JSON.parse(readFileSync(require.resolve('@apollo/composition/package.json'), 'utf8')) as { version: string }).version;
