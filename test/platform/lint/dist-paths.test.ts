/**
 * Scripts that a test, a benchmark, a deployment file or the CI starts name built modules by path
 * (`require('./dist/subgraphs/products.js')` in a child's inline script, `node dist/bin/cli.js` in a
 * compose file): a module that moves breaks them only when they run, often minutes into a slow e2e test.
 * Every tracked text file is read, so a new site is covered without naming it; each `dist/<our folder>/…js`
 * it names must have its TypeScript source in the tree.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';

/** The folders the build emits from (tsconfig.build.json); other `dist/` paths are packages' own. */
const BUILT = /\bdist\/((?:bin|lib|subgraphs|gateway|rest-adapter|bot|clients|bench)\/[A-Za-z0-9_./-]+?)\.js\b/g;

it('every built module a script names by path exists as a source file', () => {
  const root = projectRoot();
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  const missing: string[] = [];
  let named = 0;
  for (const file of tracked) {
    if (file === 'package-lock.json') continue;
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    if (text.includes('\0')) continue;
    for (const m of text.matchAll(BUILT)) {
      named++;
      const source = m[1];
      if (!['.ts', '.tsx', '.js', '.mjs'].some((ext) => existsSync(join(root, source + ext)))) missing.push(`${file}: dist/${source}.js`);
    }
  }
  expect(named).toBeGreaterThan(20);
  expect(missing).toEqual([]);
});
