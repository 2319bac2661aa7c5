import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../../lib/paths';

/**
 * The finance node's image holds only what the finance node loads: scripts/prune-modules.js --product
 * finance cuts FINANCE_UNUSED from the project's dependencies. Here the finance node's require graph
 * (the one its image is made of) is walked, and every package it reaches must survive the prune, while
 * no package of the cut list may be reached: a new import of a cut package by the finance node fails this test.
 */
const root = projectRoot();

/**
 * The finance node's graph as its image is made of it (scripts/finance-files.js: dist/ walked from the
 * node, its CLI and its web client's server, not into the catalogue's on-demand loaders of the other products).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { financeGraph: walkFinanceGraph } = require(join(root, 'scripts/finance-files.js')) as {
  financeGraph: (root: string) => { files: string[]; packages: Map<string, string> };
};
let graph: { files: string[]; packages: Map<string, string> } | undefined;
const financeGraph = () => (graph ??= walkFinanceGraph(root));

const cutList = (): string[] => {
  const script = readFileSync(join(root, 'scripts/prune-modules.js'), 'utf8');
  const list = /const FINANCE_UNUSED = \[([^\]]*)\]/.exec(script)![1];
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
};

it('the finance node reaches none of the packages its image goes without, and none of the other products but their manifests', () => {
  const { files, packages } = financeGraph();
  expect(files.length).toBeGreaterThan(100);
  const reached = cutList().filter((p) => packages.has(p));
  expect(reached.map((p) => `${p} (imported by ${packages.get(p)})`)).toEqual([]);
  const foreign = files.filter((f) => /^dist\/(subgraphs|rest-adapter)\/(predictions|registry)\//.test(f));
  // the light declarations the catalogue and the gateway read (names, credential kinds, cache policies, settings)
  for (const f of foreign) expect(f).toMatch(/\/(product|settings|credential|cache|domain\/keys|domain\/key-format|access\/operator-keys)\.js$/);
});

it('the prune keeps every package the finance node imports', () => {
  const { packages } = financeGraph();
  const out = execFileSync(process.execPath, [join(root, 'scripts/prune-modules.js'), '--dry-run', '--keep-files', '--product', 'finance', root], {
    encoding: 'utf8',
  });
  const removed = new Set(
    out
      .split('\n')
      .filter((l) => l.startsWith('node_modules/'))
      .map((l) => l.slice('node_modules/'.length)),
  );
  expect(removed.size).toBeGreaterThan(0);
  expect([...packages.keys()].filter((p) => removed.has(p))).toEqual([]);
  for (const p of cutList()) if (existsSync(join(root, 'node_modules', p))) expect([p, removed.has(p)]).toEqual([p, true]);
});

/** Server-side sources of every product (not tests, not the finance client's browser code, which Vite bundles). */
function serverSources(): string[] {
  return ['lib', 'subgraphs', 'gateway', 'rest-adapter', 'bot', 'bin', 'clients'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.(spec|d)\.tsx?$/.test(e.name))
      .map((e) => join(e.parentPath, e.name))
      .filter((f) => !f.startsWith(join(root, 'clients', 'finance-web', 'src'))),
  );
}

it('the prune of every image keeps every package a service imports', () => {
  const imported = new Map<string, string>();
  for (const file of serverSources()) {
    const source = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    for (const m of source.matchAll(/(?:import\s*\(\s*|require(?:\.resolve)?\(\s*)(['"])([^'"]+)\1/gm)) {
      const spec = m[2];
      if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (!imported.has(name)) imported.set(name, file.slice(root.length + 1));
    }
  }
  expect(imported.size).toBeGreaterThan(30);
  const out = execFileSync(process.execPath, [join(root, 'scripts/prune-modules.js'), '--dry-run', '--keep-files', root], { encoding: 'utf8' });
  const removed = new Set(
    out
      .split('\n')
      .filter((l) => l.startsWith('node_modules/'))
      .map((l) => l.slice('node_modules/'.length)),
  );
  expect(removed.has('ruru-types')).toBe(true);
  expect([...imported].filter(([p]) => removed.has(p)).map(([p, by]) => `${p} (imported by ${by})`)).toEqual([]);
});
