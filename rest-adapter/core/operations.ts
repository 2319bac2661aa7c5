import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths';

/** Loads the persisted GraphQL documents of a product (rest-adapter/<product>/operations/*.graphql). */
export function loadOperations(product: string, names: Iterable<string>): Map<string, string> {
  const dir = join(projectRoot(), 'rest-adapter', product, 'operations');
  const docs = new Map<string, string>();
  for (const name of names) {
    if (!docs.has(name)) docs.set(name, readFileSync(join(dir, `${name}.graphql`), 'utf8'));
  }
  return docs;
}
