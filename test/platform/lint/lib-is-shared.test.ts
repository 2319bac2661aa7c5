/**
 * lib/ is the platform: code that more than one product uses, or that the platform itself (gateway,
 * REST core, console kit, entry points) uses. A module only one product imports belongs in that product
 * (subgraphs/<product>/kernel/, or its subgraph, or its REST surface). The repository's own import graph
 * (dependency-cruiser, the configuration `npm run lint` uses) decides: every lib/ module is listed with
 * the products and platform parts that import it, directly or through other lib/ modules, so a new
 * module is covered without editing this test. Tests and benchmarks do not count as users.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { ownerOf } from '../../support/platform/owners';

const root = projectRoot();
const TEST = /\.(spec|test)\.ts$/;

interface Graph {
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

/** Each lib/ module (not a spec) with the owners of its importers, lib/ importers looked through. */
export function libUsers(graph: Graph): Map<string, Set<string>> {
  const importers = new Map<string, string[]>();
  for (const m of graph.modules)
    for (const d of m.dependencies) if (d.resolved.startsWith('lib/')) importers.set(d.resolved, [...(importers.get(d.resolved) ?? []), m.source]);
  const users = (mod: string, seen: Set<string>): Set<string> => {
    const out = new Set<string>();
    for (const from of importers.get(mod) ?? []) {
      const owner = ownerOf(from);
      if (owner === 'lib' && !seen.has(from)) for (const o of users(from, new Set([...seen, from]))) out.add(o);
      else if (owner !== null && owner !== 'lib') out.add(owner);
    }
    return out;
  };
  const libModules = graph.modules.map((m) => m.source).filter((s) => s.startsWith('lib/') && s.endsWith('.ts') && !TEST.test(s));
  return new Map(libModules.map((m) => [m, users(m, new Set([m]))]));
}

const cruiseRepository = () =>
  new Promise<Graph>((resolve, reject) => {
    const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
    const folders = ['lib', 'subgraphs', 'gateway', 'rest-adapter', 'bot', 'bin', 'clients'];
    execFile(
      depcruise,
      ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...folders],
      { cwd: root, maxBuffer: 256 * 1024 * 1024 },
      (err, stdout) => {
        try {
          resolve(JSON.parse(stdout) as Graph);
        } catch {
          reject(err ?? new Error('depcruise printed no JSON'));
        }
      },
    );
  });

let users: Map<string, Set<string>>;
beforeAll(async () => {
  users = libUsers(await cruiseRepository());
}, 120_000);

it("classifies a module imported by one product as that product's (and one the platform imports as shared)", () => {
  const graph: Graph = {
    modules: [
      { source: 'lib/only-finance.ts', dependencies: [] },
      { source: 'lib/through-lib.ts', dependencies: [] },
      { source: 'lib/shared.ts', dependencies: [{ resolved: 'lib/through-lib.ts' }] },
      { source: 'subgraphs/finance/ledger/domain/ledger.ts', dependencies: [{ resolved: 'lib/only-finance.ts' }, { resolved: 'lib/shared.ts' }] },
      { source: 'rest-adapter/registry/routes.ts', dependencies: [{ resolved: 'lib/shared.ts' }] },
      { source: 'test/finance/contract/x.test.ts', dependencies: [{ resolved: 'lib/only-finance.ts' }] },
    ],
  };
  const found = libUsers(graph);
  expect([...found.get('lib/only-finance.ts')!]).toEqual(['finance']);
  expect([...found.get('lib/through-lib.ts')!].sort()).toEqual(['finance', 'registry']);
});

it('finds the lib/ modules', () => {
  expect(users.size).toBeGreaterThan(20);
  expect([...users.get('lib/config.ts')!].sort()).toEqual(['finance', 'platform', 'predictions', 'registry']);
});

it('has no lib/ module that one product alone uses (it belongs in that product)', () => {
  const single = [...users].filter(([, owners]) => owners.size === 1 && !owners.has('platform')).map(([m, owners]) => `${m}: ${[...owners].join()}`);
  expect(single).toEqual([]);
});
