/**
 * The tests speak HTTP, GraphQL and the browser, sign in, read mail and wait through one set of helpers
 * (test/support/platform/, and a product's own in test/support/<product>/): a test file that defines its
 * own `post`, `gql`, `signIn`, `tap`, `mailedLink`, `waitFor`… grows a second argument order and a
 * second idea of what a request carries, and the next file copies the copy. Every test file is parsed
 * and every function it defines (declaration, or a const bound to an arrow or function expression, at
 * any depth) whose name is a shared helper's is listed; the names are every function exported by every
 * module of test/support and what the factories among them return (`surface()`: get, post…;
 * `webClient()`: tap, linkIn…), so a helper added anywhere there is covered without editing this test.
 * A function that only shares a helper's name is renamed to say what it does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../../lib/paths';

const root = projectRoot();
const SUPPORT = join(root, 'test', 'support');

/** Verbs a copy is named after although no shared helper exports them (surface().send covers them). */
const VERBS = ['put', 'patch', 'del', 'signIn', 'cookie'];

function files(dir: string, match: (path: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(path, match);
    return match(path) ? [path] : [];
  });
}

const parse = (path: string) => ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);

const isFunction = (n: ts.Node | undefined) => !!n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n));
const exported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** A function a module defines at its top: a declaration, or a const bound to an arrow or function expression. */
function topFunctions(source: ts.SourceFile): Map<string, { node: ts.Node; body: ts.Node | undefined; exported: boolean }> {
  const found = new Map<string, { node: ts.Node; body: ts.Node | undefined; exported: boolean }>();
  for (const s of source.statements) {
    if (ts.isFunctionDeclaration(s) && s.name) found.set(s.name.text, { node: s, body: s.body, exported: exported(s) });
    if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.initializer && isFunction(d.initializer))
          found.set(d.name.text, { node: d, body: (d.initializer as ts.ArrowFunction).body, exported: exported(s) });
  }
  // `export { until }`: a local function exported by name (a re-export from another module is that module's)
  for (const s of source.statements)
    if (ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause))
      for (const e of s.exportClause.elements) {
        const local = found.get((e.propertyName ?? e.name).text);
        if (local) found.set(e.name.text, { ...local, exported: true });
      }
  return found;
}

/**
 * The names of the functions a helper module exports, and of the functions the objects they return
 * carry (a factory's: surface() gives url, get, post, send; webClient() gives go, tap, signIn). The
 * fields of a value a function returns (http(): status, body, text) are not functions, and are not named.
 */
export function helperNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const [name, f] of topFunctions(source)) {
    if (!f.exported) continue;
    names.push(name);
    const local = new Set<string>();
    const returned: ts.ObjectLiteralElementLike[] = [];
    const consider = (e: ts.Expression | undefined) => {
      while (e && ts.isParenthesizedExpression(e)) e = e.expression;
      if (e && ts.isObjectLiteralExpression(e)) returned.push(...e.properties);
    };
    // an arrow's expression body is what it returns
    if (f.body && !ts.isBlock(f.body)) consider(f.body as ts.Expression);
    f.body?.forEachChild(function visit(n): void {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && isFunction(n.initializer)) local.add(n.name.text);
      if (ts.isFunctionDeclaration(n) && n.name) local.add(n.name.text);
      if (ts.isReturnStatement(n)) consider(n.expression);
      if (!ts.isFunctionLike(n)) n.forEachChild(visit);
    });
    for (const p of returned) {
      if (ts.isShorthandPropertyAssignment(p) && local.has(p.name.text)) names.push(p.name.text);
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && isFunction(p.initializer)) names.push(p.name.text);
      if (ts.isMethodDeclaration(p) && ts.isIdentifier(p.name)) names.push(p.name.text);
    }
  }
  return names;
}

/** The functions a file defines (at any depth) whose names are in `names`, as "name:line". */
export function definitionsOf(source: ts.SourceFile, names: Set<string>): string[] {
  const found: string[] = [];
  const at = (n: ts.Node, name: string) => found.push(`${name}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
  source.forEachChild(function visit(n): void {
    if (ts.isFunctionDeclaration(n) && n.name && names.has(n.name.text)) at(n, n.name.text);
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && names.has(n.name.text) && isFunction(n.initializer)) at(n, n.name.text);
    n.forEachChild(visit);
  });
  return found;
}

/** Every module of test/support (the platform's and each product's): a helper added to any of them is looked for. */
const helperModules = files(SUPPORT, (p) => p.endsWith('.ts') && !p.endsWith('.d.ts') && !/\.(test|spec)\.ts$/.test(p));
const names = new Set([...helperModules.flatMap((m) => helperNames(parse(m))), ...VERBS]);
const testFiles = files(join(root, 'test'), (p) => p.endsWith('.test.ts'));

it('knows the shared helpers it looks for (read from every module of test/support)', () => {
  expect([...names]).toEqual(expect.arrayContaining(['http', 'graphqlAt', 'gql', 'surface', 'url', 'get', 'post', 'send', 'launchChromium']));
  // each product's helpers, and what their factories hand out (webClient(): tap, linkIn; moneyMoves(): customer)
  expect([...names]).toEqual(
    expect.arrayContaining([
      'login',
      'loginAt',
      'adminSignIn',
      'adminPost',
      'tapMenu',
      'mailedLink',
      'webClient',
      'tap',
      'linkIn',
      'customer',
      'createLicence',
      'waitFor',
    ]),
  );
  // every folder of test/support is read (a product's own folder included)
  expect(new Set(helperModules.map((m) => relative(SUPPORT, m).split('/')[0]))).toEqual(
    new Set(
      readdirSync(SUPPORT, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name),
    ),
  );
  expect(testFiles.length).toBeGreaterThan(100);
});

it('no test file defines its own copy of a shared helper (test/support)', () => {
  // file → "name:line" of each copy; a copy is replaced by the shared helper (extended if it lacks something)
  const copies: Record<string, string[]> = {};
  for (const f of testFiles) {
    const found = definitionsOf(parse(f), names);
    if (found.length) copies[relative(root, f)] = found;
  }
  expect(copies).toEqual({});
});

it('sees a copy where one is written (the scan is not blind)', () => {
  const copy = ts.createSourceFile(
    'x.test.ts',
    `const post = (path: string, body: unknown) => http(path, { method: 'POST', body: JSON.stringify(body) });
     it('x', async () => { async function signIn() { return 1; } const url = await fetch('/'); });`,
    ts.ScriptTarget.Latest,
    true,
  );
  expect(definitionsOf(copy, names)).toEqual(['post:1', 'signIn:2']);
});

it("sees a copy of a product's helper where one is written", () => {
  const copy = ts.createSourceFile(
    'y.test.ts',
    `async function tap(label: string) { await page.getByRole('link', { name: label }).click(); }
     const mailedLink = (to: string) => readFileSync(to, 'utf8');
     describe('x', () => { const adminSignIn = async () => 'cookie'; });`,
    ts.ScriptTarget.Latest,
    true,
  );
  expect(definitionsOf(copy, names)).toEqual(['tap:1', 'mailedLink:2', 'adminSignIn:3']);
});

it('reads the names a helper module hands out, however it exports them', () => {
  const module = ts.createSourceFile(
    'helper.ts',
    `export function client() { const go = () => 1; return { go, tap: (l: string) => l, signIn() { return 2; }, status: 200 }; }
     export const arrowFactory = () => ({ linkIn: () => 3 });
     function until() { return 4; }
     export { until };
     function notExported() { return 5; }
     export class Server { stop() {} }`,
    ts.ScriptTarget.Latest,
    true,
  );
  expect(helperNames(module).sort()).toEqual(['arrowFactory', 'client', 'go', 'linkIn', 'signIn', 'tap', 'until']);
});
