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
 *   ruru → react, react-dom: peers of the IDE's browser code; the server side (ruru/server, ruru/static)
 *     never loads them
 *   redoc → *: the docs pages serve redoc's standalone browser bundle as a file (rest-adapter/core/docs.ts),
 *     never its modules, so React, styled-components, mobx and core-js are not needed
 *   . → vite: the registry's white-label builds (clients/finance-web/vite-build.mjs) also need Vite's
 *     Preact preset, a devDependency, so they run where devDependencies are installed, never in an
 *     image; without Vite go Rolldown's and Lightning CSS's native binaries (~35 MB)
 *
 * With `--product finance` (the finance node's image) it also cuts, from the project itself, the
 * dependencies only the other products load (the prediction API's favicon renderer, mailbox server and charts,
 * the registry's client builders and manifests): FINANCE_UNUSED below, checked by
 * test/platform/images/prune-modules.test.ts against the finance node's require graph.
 *
 * Then, in what is kept, the files Node never loads at run time: source maps, TypeScript sources and
 * declarations, Markdown (READMEs, changelogs; licences are kept), the builds only bundlers read
 * (`--keep-files` keeps them).
 *
 * Usage: node scripts/prune-modules.js [--dry-run] [--product finance] [--keep-files] [dir]   (dir: where
 * package-lock.json and node_modules are; default .; --dry-run lists what would go)
 */
const { existsSync, readFileSync, readdirSync, rmSync, statSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const { join, posix } = require('node:path');

/** Dependencies of the project that the finance node never loads (its process and its web client's). */
const FINANCE_UNUSED = [
  '@resvg/resvg-js',
  'chart.js',
  'fastest-levenshtein',
  'html-to-text',
  'marked',
  'openapi-fetch',
  'preact',
  'preact-iso',
  'preact-render-to-string',
  'smtp-server',
  'vite',
  'yaml',
];

const argv = process.argv.slice(2);
const product = argv.includes('--product') ? argv[argv.indexOf('--product') + 1] : undefined;
if (product !== undefined && product !== 'finance') throw new Error(`--product: only finance has a cut list (got ${product})`);
/** Edges not followed; `.` is the project itself. */
const CUT = [
  ['ruru', 'ruru-types'],
  ['ruru', 'react'],
  ['ruru', 'react-dom'],
  ['redoc', '*'],
  ['.', 'vite'],
  ...(product === 'finance' ? FINANCE_UNUSED.map((dep) => ['.', dep]) : []),
];

const dryRun = argv.includes('--dry-run');
const keepFiles = argv.includes('--keep-files');
const dir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--product') ?? '.';
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
      if (cut.some(([from, to]) => from === (path ? nameOf(path) : '.') && (to === '*' || to === dep))) continue;
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
/**
 * Folders and files of kept packages that nothing reads at run time: ruru's static/ is its bundle for a
 * CDN (the gateway serves the copy compressed into ruru/dist/bundleCode.js), and its dist/bundleMeta.js
 * holds that bundle's source maps, loaded only when a browser's developer tools ask for a .map (10 MB);
 * typeorm's browser/ is its build for browsers and React Native (Node resolves typeorm to index.js);
 * swagger-ui-dist's other bundles than the ones rest-adapter/core/docs.ts serves.
 */
const UNREAD_FOLDERS = [
  'node_modules/ruru/static',
  'node_modules/ruru/dist/bundleMeta.js',
  'node_modules/typeorm/browser',
  'node_modules/swagger-ui-dist/swagger-ui.js',
  'node_modules/swagger-ui-dist/swagger-ui-es-bundle.js',
  'node_modules/swagger-ui-dist/swagger-ui-es-bundle-core.js',
];

/** Files of the kept packages that no `require` ever reads: source maps, TypeScript sources and declarations, Markdown but licences. */
function unloadedFiles() {
  const files = UNREAD_FOLDERS.map((f) => join(dir, f)).filter((f) => existsSync(f));
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(map|ts|mts|cts)$/.test(e.name) || (/\.(md|markdown)$/i.test(e.name) && !/^(licen[cs]e|copying|notice)/i.test(e.name))) files.push(p);
    }
  };
  for (const path of kept) if (existsSync(join(dir, path))) walk(join(dir, path));
  for (const path of kept) files.push(...bundlerOnlyFolders(join(dir, path)));
  return files;
}

/**
 * The folders of a package that only bundlers read: its `module` / `esnext` / `es2015` build (e.g.
 * OpenTelemetry's build/esm and build/esnext beside build/src, class-validator's esm5 and esm2015). Node
 * resolves a package without `exports` by `main` alone, so such a folder goes when `main` and `bin` are
 * outside it; a package with `exports` keeps everything (its `import` condition may point there).
 */
function bundlerOnlyFolders(pkg) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  } catch {
    return [];
  }
  if (manifest.exports !== undefined) return [];
  const norm = (p) => posix.normalize(p).replace(/^\.\//, '');
  const used = [manifest.main ?? 'index.js', ...Object.values(typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {}))].map(norm);
  const folders = new Set();
  for (const field of ['module', 'esnext', 'es2015', 'jsnext:main']) {
    if (typeof manifest[field] !== 'string') continue;
    const folder = posix.dirname(norm(manifest[field]));
    if (folder === '.' || used.some((u) => u === folder || u.startsWith(`${folder}/`))) continue;
    if (existsSync(join(pkg, folder))) folders.add(join(pkg, folder));
  }
  return [...folders];
}

if (!keepFiles) {
  const files = unloadedFiles();
  const size = (f) => (statSync(f).isDirectory() ? readdirSync(f).reduce((t, e) => t + size(join(f, e)), 0) : statSync(f).size);
  const bytes = files.reduce((t, f) => t + size(f), 0);
  if (!dryRun) for (const f of files) rmSync(f, { recursive: true, force: true });
  console.log(
    `prune-modules: ${dryRun ? 'would remove' : 'removed'} ${files.length} unread folders, bundler-only builds, source maps, TypeScript and Markdown files (${Math.round(bytes / 1048576)} MB)`,
  );
}
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
