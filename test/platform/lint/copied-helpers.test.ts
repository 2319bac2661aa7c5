/**
 * The tests speak HTTP, GraphQL and the browser through one set of helpers (test/support/platform/http.ts
 * and browser.ts, a product's sign-ins in test/support/<product>/): a test file that defines its own
 * `post`, `get`, `gql`, `signIn`… grows a second argument order and a second idea of what a request
 * carries, and the next file copies the copy. Every test file is parsed and every function it defines
 * (declaration, or a const bound to an arrow or function expression, at any depth) whose name is a shared
 * helper's is listed; the names come from the helper modules' exports and from what `surface()` returns,
 * so a helper added there is covered without editing this test.
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

/** The names of the functions a helper module exports, and the members of the objects they return. */
export function helperNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const s of source.statements) {
    if (ts.isFunctionDeclaration(s) && s.name && exported(s)) {
      names.push(s.name.text);
      // a factory's functions (surface(): url, get, post, send) are helpers too; the fields of a value
      // it returns (http(): status, body, text) are not
      const local = new Set<string>();
      const returned: ts.ObjectLiteralElementLike[] = [];
      s.body?.forEachChild(function visit(n): void {
        if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && isFunction(n.initializer)) local.add(n.name.text);
        if (ts.isReturnStatement(n) && n.expression && ts.isObjectLiteralExpression(n.expression)) returned.push(...n.expression.properties);
        if (!ts.isFunctionLike(n)) n.forEachChild(visit);
      });
      for (const p of returned) {
        if (ts.isShorthandPropertyAssignment(p) && local.has(p.name.text)) names.push(p.name.text);
        if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && isFunction(p.initializer)) names.push(p.name.text);
      }
    }
    if (ts.isVariableStatement(s) && exported(s))
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name) && isFunction(d.initializer)) names.push(d.name.text);
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

const helperModules = [join(SUPPORT, 'platform', 'http.ts'), join(SUPPORT, 'platform', 'browser.ts')];
const names = new Set([...helperModules.flatMap((m) => helperNames(parse(m))), ...VERBS]);
const testFiles = files(join(root, 'test'), (p) => p.endsWith('.test.ts'));

it('knows the shared helpers it looks for (read from the helper modules)', () => {
  expect([...names]).toEqual(expect.arrayContaining(['http', 'graphqlAt', 'gql', 'surface', 'url', 'get', 'post', 'send', 'launchChromium']));
  expect(testFiles.length).toBeGreaterThan(100);
});

it('no test file defines its own copy of a shared HTTP/GraphQL/browser/sign-in helper', () => {
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
