import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../../lib/paths';

/**
 * The finance node's image holds only what the finance node loads: scripts/prune-modules.js --product
 * finance cuts FINANCE_UNUSED from the project's dependencies. Here the finance node's import graph is
 * walked from its entry points in the sources (not following the catalogue's on-demand loaders of the
 * other products), and every package it reaches must survive the prune, while no package of the cut list
 * may be reached: a new import of a cut package by the finance node fails this test.
 */
const root = projectRoot();
const ENTRIES = ['bin/start.ts', 'rest-adapter/finance/web-main.ts'];
/**
 * The catalogue's loaders of other products' code (subgraphs/products.ts, rest-adapter/surfaces.ts, the
 * manifests' `start`): a
 * `require` inside a function (indented in the emitted code), not a module's import (a top-level require).
 */
const onDemand = (from: string, spec: string, line: string) =>
  /^\s/.test(line) &&
  ((/(subgraphs\/products|rest-adapter\/surfaces)\.ts$/.test(from) && /^\.\/(predictions|registry)$/.test(spec)) ||
    // a product's part of `npm start` (its manifest's `start`): loaded only when that product runs
    (/subgraphs\/(predictions|registry)\/product\.ts$/.test(from) && spec === './start'));

let graph: { files: Set<string>; packages: Map<string, string> } | undefined;
const financeGraph = () => (graph ??= walkFinanceGraph());

function walkFinanceGraph(): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const stack = ENTRIES.map((e) => join(root, e));
  while (stack.length) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    // as the compiler emits it: imports of types only are gone
    const source = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    for (const m of source.matchAll(/(?:import\s*\(\s*|require(?:\.resolve)?\(\s*)(['"])([^'"]+)\1/gm)) {
      const spec = m[2];
      const line = source.slice(source.lastIndexOf('\n', m.index) + 1, m.index + 1);
      if (onDemand(file, spec, line)) continue;
      if (spec.startsWith('.')) {
        const base = resolve(dirname(file), spec);
        const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((c) => existsSync(c) && /\.tsx?$/.test(c));
        if (found) stack.push(found);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!packages.has(name)) packages.set(name, file.slice(root.length + 1));
      }
    }
  }
  return { files, packages };
}

const cutList = (): string[] => {
  const script = readFileSync(join(root, 'scripts/prune-modules.js'), 'utf8');
  const list = /const FINANCE_UNUSED = \[([^\]]*)\]/.exec(script)![1];
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
};

it('the finance node reaches none of the packages its image goes without, and none of the other products but their manifests', () => {
  const { files, packages } = financeGraph();
  expect(files.size).toBeGreaterThan(100);
  const reached = cutList().filter((p) => packages.has(p));
  expect(reached.map((p) => `${p} (imported by ${packages.get(p)})`)).toEqual([]);
  const foreign = [...files].map((f) => f.slice(root.length + 1)).filter((f) => /^(subgraphs|rest-adapter)\/(predictions|registry)\//.test(f));
  // the light declarations the catalogue and the gateway read (names, credential kinds, cache policies, settings)
  for (const f of foreign) expect(f).toMatch(/\/(product|settings|credential|cache|domain\/keys|domain\/key-format|access\/operator-keys)\.ts$/);
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
