/**
 * Composition with and without the cache of composed supergraphs (gateway/compose.ts,
 * COMPOSITION_CACHE_DIR), in the same run: every shipped set's subgraphs (from schema/<subgraph>.graphql)
 * composed `ROUNDS` times uncached, then read back from a fresh cache folder `ROUNDS` times. Reported as
 * medians and their ratio.
 *
 *   npm run bench:compose-cache        (ROUNDS=20 by default)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { composeSupergraph } from '../gateway/compose';
import { projectRoot } from '../lib/paths';
import { composeUrl, PRODUCT_NAMES, subgraphNamesOf } from '../subgraphs/products';

const ROUNDS = Number(process.env.ROUNDS ?? 20);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(work: () => void): number {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function main(): void {
  const sets: Record<string, string[]> = { all: subgraphNamesOf(PRODUCT_NAMES), finance: subgraphNamesOf(['finance']) };
  const dir = mkdtempSync(join(tmpdir(), 'bench-composition-'));
  try {
    for (const [set, names] of Object.entries(sets)) {
      const subgraphs = names.map((name) => ({
        name,
        url: composeUrl(name),
        schema: buildSubgraphSchema(parse(readFileSync(join(projectRoot(), 'schema', `${name}.graphql`), 'utf8'))),
      }));
      const uncached = Array.from({ length: ROUNDS }, () => timed(() => composeSupergraph(subgraphs, '')));
      composeSupergraph(subgraphs, dir); // the first boot composes and keeps it
      const cached = Array.from({ length: ROUNDS }, () => timed(() => composeSupergraph(subgraphs, dir)));
      const [u, c] = [median(uncached), median(cached)];
      console.log(
        `${set} (${names.length} subgraphs): composed ${u.toFixed(1)} ms, from the cache ${c.toFixed(1)} ms (median of ${ROUNDS}); ${(u / c).toFixed(1)}× faster`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
