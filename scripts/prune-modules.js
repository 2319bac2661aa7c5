#!/usr/bin/env node
'use strict';
/**
 * Removes from an installed node_modules (npm ci --omit=dev) the packages the running services never
 * load: the image's runtime stage runs it. What is cut is declared below as dependency edges nobody
 * follows at run time; a package goes only if nothing else still reaches it (package-lock.json's
 * tree, resolved as Node resolves). Prints what it removed and how much.
 *
 *   ruru → ruru-types: TypeScript types of the IDE's client (GraphiQL, Monaco, React: ~200 MB); the
 *     server serves ruru's prebuilt static bundle and loads only Node built-ins and graphile-config
 *     (gateway/ide.ts)
 *   redoc → *: the docs pages serve redoc's standalone browser bundle as a file (rest-adapter/core/docs.ts),
 *     never its modules, so React, styled-components, mobx and core-js are not needed
 *
 * Usage: node scripts/prune-modules.js [--dry-run] [dir]   (dir: where package-lock.json and node_modules
 * are; default .; --dry-run lists what would go)
 */
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const CUT = [
  ['ruru', 'ruru-types'],
  ['redoc', '*'],
];

const dryRun = process.argv.includes('--dry-run');
const dir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '.';
const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
const packages = lock.packages;
const nameOf = (path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Where `name` resolves from the package at `from` (its own node_modules, then each parent's). */
function resolve(from, name) {
  for (let base = from; ;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const i = base.lastIndexOf('/node_modules/');
    base = i < 0 ? '' : base.slice(0, i);
  }
}

/** The installed (non-dev) packages reachable from the project, not following the cut edges. */
function reachable(cut) {
  const seen = new Set();
  const stack = [''];
  while (stack.length) {
    const path = stack.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const meta = packages[path] ?? {};
    const deps = { ...meta.dependencies, ...meta.optionalDependencies, ...(path ? meta.peerDependencies : {}) };
    for (const dep of Object.keys(deps)) {
      if (path && cut.some(([from, to]) => from === nameOf(path) && (to === '*' || to === dep))) continue;
      const target = resolve(path, dep);
      if (target && !packages[target].dev) stack.push(target);
    }
  }
  seen.delete('');
  return seen;
}

const kept = reachable(CUT);
const removable = [...reachable([])].filter((path) => !kept.has(path) && existsSync(join(dir, path)));
// the outermost folders only (a nested node_modules goes with its package)
const outermost = removable.filter((path) => !removable.some((other) => other !== path && path.startsWith(`${other}/`)));
if (outermost.length === 0) {
  console.log('prune-modules: nothing to remove');
  process.exit(0);
}
const kb = Number(
  execFileSync('du', ['-sk', '-c', ...outermost.map((p) => join(dir, p))], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()
    .split('\t')[0],
);
if (dryRun) {
  console.log(outermost.join('\n'));
  console.log(`prune-modules: would remove ${removable.length} packages (${Math.round(kb / 1024)} MB)`);
  process.exit(0);
}
for (const path of outermost) rmSync(join(dir, path), { recursive: true, force: true });
console.log(`prune-modules: removed ${removable.length} packages never loaded at run time (${Math.round(kb / 1024)} MB)`);
