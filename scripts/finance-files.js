#!/usr/bin/env node
'use strict';
/**
 * The finance node's files: what its images (Dockerfile, stage finance-runtime) hold besides
 * node_modules, which is scripts/prune-modules.js --product finance's.
 *
 *  - the built code it loads: dist/ walked from its entry points (the node, its CLI, its web client's
 *    server) along every require, but not into the catalogue's on-demand loaders of the other
 *    products (subgraphs/products, rest-adapter/surfaces, a manifest's `start`): of the prediction API
 *    and the registry only their light manifests come along;
 *  - the files of the checkout it reads at run time (FINANCE_READS): test/platform/images/runtime-files.test.ts
 *    holds this list to every checkout path the walked code names.
 *
 * Usage: node scripts/finance-files.js [--list] [dest]   (run where dist/ is built; --list prints the
 * files; dest: copies them there, keeping their paths)
 */
const { cpSync, existsSync, mkdirSync, readFileSync, statSync } = require('node:fs');
const { builtinModules } = require('node:module');
const { dirname, join, relative, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const ENTRIES = ['dist/bin/start.js', 'dist/bin/cli.js', 'dist/rest-adapter/finance/web-main.js'];

/** What the finance node reads from the checkout at run time, beside its code. */
const FINANCE_READS = [
  'package.json',
  // the web client's build key hashes the dependencies' versions (clients/finance-web/build.ts)
  'package-lock.json',
  'schema/supergraph.finance.graphql',
  'rest-adapter/finance/operations',
  'data/dex-registry.json',
  // the web client, built by `node dist/clients/finance-web/cli.js` (served by the node and the frontend image)
  'dist/finance-web',
  'dist/finance-web.build.json',
];

/** A require of another product's code that only runs when that product runs (a `require` inside a function: indented). */
const onDemand = (from, spec, line) =>
  /^\s/.test(line) &&
  ((/(subgraphs\/products|rest-adapter\/surfaces)\.js$/.test(from) && /^\.\/(predictions|registry)$/.test(spec)) ||
    (/subgraphs\/(predictions|registry)\/product\.js$/.test(from) && spec === './start'));

/** The built files the finance node loads, and the packages they require (name → the first file that does). */
function financeGraph(root = ROOT) {
  const files = new Set();
  const packages = new Map();
  const stack = ENTRIES.map((e) => join(root, e));
  while (stack.length) {
    const file = stack.pop();
    if (files.has(file)) continue;
    files.add(file);
    if (!file.endsWith('.js')) continue;
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/(?:import\s*\(\s*|require(?:\.resolve)?\(\s*)(['"])([^'"]+)\1/gm)) {
      const spec = m[2];
      const line = source.slice(source.lastIndexOf('\n', m.index) + 1, m.index + 1);
      if (onDemand(relative(root, file), spec, line)) continue;
      if (spec.startsWith('.')) {
        const base = resolve(dirname(file), spec);
        const found = [`${base}.js`, join(base, 'index.js'), base].find((c) => existsSync(c) && statSync(c).isFile());
        if (!found) throw new Error(`${relative(root, file)}: ${spec} is not built`);
        // the checkout's own files a module reads by require (package.json) are FINANCE_READS' to copy
        if (found.startsWith(join(root, 'dist') + '/')) stack.push(found);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!packages.has(name)) packages.set(name, relative(root, file));
      }
    }
  }
  return { files: [...files].map((f) => relative(root, f)).sort(), packages };
}

module.exports = { financeGraph, FINANCE_READS, ENTRIES };

if (require.main === module) {
  const args = process.argv.slice(2);
  const dest = args.find((a) => !a.startsWith('--'));
  const { files } = financeGraph();
  const all = [...files, ...FINANCE_READS];
  for (const path of FINANCE_READS) if (!existsSync(join(ROOT, path))) throw new Error(`finance-files: ${path} is missing (built?)`);
  if (args.includes('--list')) console.log(all.join('\n'));
  if (dest) {
    for (const path of all) {
      mkdirSync(dirname(join(dest, path)), { recursive: true });
      cpSync(join(ROOT, path), join(dest, path), { recursive: true });
    }
    console.log(`finance-files: ${files.length} built files and ${FINANCE_READS.length} read at run time, into ${dest}`);
  }
}
