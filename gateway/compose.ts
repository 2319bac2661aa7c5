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

/** Composes the supergraph in-process; errors are listed one per line with their codes. */
export function composeSupergraph(subgraphs: SubgraphSdl[]): string {
  const result = composeServices(subgraphs.map((s) => ({ name: s.name, url: s.url, typeDefs: parse(subgraphSdl(s.schema)) })));
  if (result.errors?.length) {
    const lines = result.errors.map((e) => `  - [${(e.extensions?.code as string) ?? 'ERROR'}] ${e.message}`);
    throw new CompositionError(`Supergraph composition failed:\n${lines.join('\n')}`);
  }
  return result.supergraphSdl!;
}
