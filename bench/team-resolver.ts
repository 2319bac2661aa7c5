/**
 * The team resolver's cost per query on the shipped clubs (what the removed "under 1 ms" test asserted),
 * against a baseline measured in the same run: the straightforward resolver, the Levenshtein distance
 * from the query to every name and alias (fastest-levenshtein), closest wins.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/team-resolver.js [--rounds 7] [--repeat 50]
 *
 * Figures: microseconds per query (median and best of the rounds after one warm-up round) for typo-heavy
 * queries (the slow path), exact names (the fast path), and the baseline on the typo queries.
 */
import { distance } from 'fastest-levenshtein';
import { parseArgs } from 'node:util';
import { TeamResolver } from '../subgraphs/predictions/football/domain/team-resolver';
import { teamsFromShippedData } from '../test/support/predictions/shipped-teams';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, repeat: { type: 'string', default: '50' } } });
const ROUNDS = Number(args.rounds);
const REPEAT = Number(args.repeat);

// most of these reach the typo search: misspellings, unknown names, partial words
const TYPO_QUERIES = ['Man Utd', 'Manchester', 'Arsenl', 'Liverpol', 'Hogwarts FC', 'Cologne', 'chester', 'Wolverhamton Wanderes'];

/** Microseconds per query: median and best over the rounds, the first (JIT warm-up) dropped. */
function measure(queries: readonly string[], run: (q: string) => unknown): { median: number; best: number } {
  const perQuery: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < REPEAT; i++) for (const q of queries) run(q);
    if (round > 0) perQuery.push(Number(process.hrtime.bigint() - start) / 1e3 / (REPEAT * queries.length));
  }
  perQuery.sort((a, b) => a - b);
  return { median: perQuery[Math.floor(perQuery.length / 2)], best: perQuery[0] };
}

function main() {
  const teams = teamsFromShippedData();
  const resolver = new TeamResolver(teams);
  const spellings = teams.flatMap((t) => [t.name, ...t.aliases].map((s) => ({ team: t, spelling: s.toLowerCase() })));
  const naive = (q: string) => {
    const query = q.toLowerCase();
    let best = spellings[0];
    let bestDistance = Infinity;
    for (const s of spellings) {
      const d = distance(query, s.spelling);
      if (d < bestDistance) [best, bestDistance] = [s, d];
    }
    return best.team;
  };
  const exactQueries = teams.slice(0, 50).map((t) => t.name);
  const rows = [
    ['resolver, typo-heavy queries', measure(TYPO_QUERIES, (q) => resolver.resolve(q))],
    ['resolver, exact names', measure(exactQueries, (q) => resolver.resolve(q))],
    ['baseline: Levenshtein to every spelling, typo-heavy queries', measure(TYPO_QUERIES, naive)],
  ] as const;
  console.log(`Team resolver on ${teams.length} clubs, ${spellings.length} spellings (${ROUNDS} rounds × ${REPEAT} repeats, after a warm-up round)`);
  for (const [label, m] of rows)
    console.log(`  ${label.padEnd(62)} median ${m.median.toFixed(1).padStart(7)} µs/query   best ${m.best.toFixed(1).padStart(7)} µs/query`);
  console.log(`  ratio resolver / baseline on the typo-heavy queries (median): ${(rows[0][1].median / rows[2][1].median).toFixed(2)}`);
}

main();
