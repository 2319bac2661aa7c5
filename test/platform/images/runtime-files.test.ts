import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../../lib/paths';

/**
 * The images' runtime stage copies from the checkout only what the services read at run time (not the
 * whole checkout): every path of the checkout the sources name must be under one of the Dockerfile's
 * runtime COPYs. The paths are taken from the code that runs, so a new file read at run time fails this
 * test until the Dockerfile copies it: each `join(projectRoot(), …)` (a segment that is not a literal
 * matches any name), and each string literal that names a path of the checkout (config defaults such as
 * data/dex-registry.json, the committed supergraphs).
 */
const root = projectRoot();
const SOURCE_DIRS = ['lib', 'subgraphs', 'gateway', 'rest-adapter', 'bot', 'bin', 'clients'];
/** Read by developer and vendor commands, never by a service in an image. */
const NOT_AT_RUN_TIME: Record<string, string> = {
  'deploy/kubernetes': 'npm run k8s:generate (bin/kubernetes.ts)',
  'scripts/images.sh': 'registry releases ship --build, on a machine with a container engine',
  // the registry's white-label builds run Vite with its Preact preset, a devDependency (scripts/prune-modules.js)
  'clients/finance-web': 'white-label builds, where devDependencies are installed',
  // subgraphFolder(): the sources' layout, which dist/ mirrors
  subgraphs: 'the services run dist/',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.spec\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

const topLevel = new Set(readdirSync(root));

/** Checkout paths (with `*` for a segment computed at run time) that a source file names. */
function namedPaths(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const literal = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => `*${s.literal.text}`).join('');
    return undefined;
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.getText(source) === 'join' && node.arguments[0]?.getText(source) === 'projectRoot()') {
      const segments = node.arguments.slice(1).map((a) => literal(a) ?? '*');
      if (segments.length && segments[0] !== '*') found.push(segments.join('/'));
    } else {
      const text = literal(node);
      if (text !== undefined && /^[\w.+*-]+(\/[\w.+*-]+)+\/?$/.test(text) && topLevel.has(text.split('/')[0])) found.push(text.replace(/\/$/, ''));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The checkout's paths a pattern matches (`*`: one name; test fixtures left out). */
function expand(pattern: string): string[] {
  let paths = [''];
  for (const segment of pattern.split('/')) {
    const re = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    paths = paths.flatMap((p) => {
      const dir = join(root, p);
      if (!segment.includes('*')) return existsSync(join(dir, segment)) ? [p ? `${p}/${segment}` : segment] : [];
      try {
        return readdirSync(dir)
          .filter((n) => re.test(n) && n !== 'testdata')
          .map((n) => (p ? `${p}/${n}` : n));
      } catch {
        return [];
      }
    });
  }
  return paths;
}

/** A stage of the Dockerfile, up to the next FROM. */
function stageText(name: string): string {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const stage = dockerfile.slice(dockerfile.indexOf(`AS ${name}\n`));
  return stage.slice(0, stage.search(/^FROM /m) === -1 ? undefined : stage.search(/^FROM /m));
}

/** The destinations (relative to WORKDIR /app) of the runtime stage's COPY instructions. */
function runtimeCopies(): string[] {
  const runtime = stageText('runtime');
  const copies: string[] = [];
  for (const m of runtime.matchAll(/^COPY (--from=[\w-]+ )?(.+)$/gm)) {
    const args = m[2].trim().split(/\s+/);
    const dest = args.pop()!.replace(/^\.\//, '').replace(/\/$/, '');
    // the flattened base, and the vendor key (vendor-keys.pem, written at build time: no file of the checkout)
    if (m[1] === '--from=os ' || m[1] === '--from=keys ') continue;
    // several sources into a folder: each source under it; one source: the destination itself
    if (args.length > 1) for (const a of args) copies.push(dest === '.' || dest === '' ? a : `${dest}/${a.split('/').pop()}`);
    else copies.push(dest === '' ? '.' : dest);
  }
  return copies;
}

/** Every checkout path (pattern expanded) the source files name, with the first file naming it. */
function readPaths(files: string[]): Map<string, string> {
  const read = new Map<string, string>();
  for (const file of files)
    for (const pattern of namedPaths(file)) for (const path of expand(pattern)) if (!read.has(path)) read.set(path, relative(root, file));
  return read;
}

const covered = (path: string, copies: string[]) => copies.some((c) => c === '.' || path === c || path.startsWith(`${c}/`));

it('the runtime stage copies every path of the checkout that the services read', () => {
  const copies = runtimeCopies();
  expect(copies).toEqual(expect.arrayContaining(['dist', 'node_modules', 'package.json']));
  const read = new Map<string, string>();
  for (const dir of SOURCE_DIRS)
    for (const file of sourceFiles(dir)) for (const pattern of namedPaths(file)) for (const path of expand(pattern)) read.set(path, relative(root, file));
  // the scan finds what it must (a broken scan passes nothing)
  expect([...read.keys()]).toEqual(
    expect.arrayContaining(['data/football', 'data/dex-registry.json', 'schema/supergraph.graphql', 'rest-adapter/finance/operations']),
  );
  const missing = [...read]
    .filter(([path]) => !Object.keys(NOT_AT_RUN_TIME).some((p) => path === p || path.startsWith(`${p}/`)))
    .filter(([path]) => !covered(path, copies))
    .map(([path, by]) => `${path} (read by ${by})`);
  expect(missing).toEqual([]);
});

it("the finance node's images hold every path of the checkout that the finance node's code reads", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { financeGraph, FINANCE_READS } = require(join(root, 'scripts/finance-files.js')) as {
    financeGraph: (root: string) => { files: string[] };
    FINANCE_READS: string[];
  };
  const stage = stageText('finance-runtime');
  expect(stage).toMatch(/^COPY --from=deps-finance \/app\/node_modules \.\/node_modules$/m);
  expect(stage).toMatch(/^COPY --from=finance-files \/finance\/ \.\/$/m);
  // the sources of the built files the finance node loads
  const sources = financeGraph(root)
    .files.map((f) => f.replace(/^dist\//, '').replace(/\.js$/, ''))
    .flatMap((f) => [`${f}.ts`, `${f}.tsx`].filter((s) => existsSync(join(root, s))))
    .map((f) => join(root, f));
  expect(sources.length).toBeGreaterThan(200);
  const read = readPaths(sources);
  expect([...read.keys()]).toEqual(expect.arrayContaining(['data/dex-registry.json', 'rest-adapter/finance/operations']));
  // paths computed per product (operationsDir(product), supergraphFile(products)): the finance node asks for its own
  const othersOnly = (path: string) => /(predictions|registry)/.test(path) || path === 'schema/supergraph.graphql';
  const missing = [...read]
    .filter(([path]) => !Object.keys(NOT_AT_RUN_TIME).some((p) => path === p || path.startsWith(`${p}/`)))
    .filter(([path]) => !othersOnly(path))
    .filter(([path]) => !covered(path, [...FINANCE_READS, 'dist', 'node_modules']))
    .map(([path, by]) => `${path} (read by ${by})`);
  expect(missing).toEqual([]);
});
