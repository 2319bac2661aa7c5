import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as parser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { configuredRule } from '../../support/platform/eslint-rules';
import { projectRoot } from '../../../lib/paths';

/**
 * Every password is hashed and verified by lib/passwords.ts: one set of argon2 parameters and one
 * bound on the hashes running at once in a process (each holds 12 MiB). The repository is searched
 * for every file that loads @node-rs/argon2 (so a new one fails here, whoever adds it), and the lint
 * rule that refuses it is read from eslint.config.mjs as ESLint computes it for files of each part.
 */
const ROOT = projectRoot();
const ALLOWED = ['bench/servers/finance-baseline.ts', 'lib/passwords.ts'];
/** The library's name, spelled so that this file is not one of its loaders. */
const ARGON2 = ['@node-rs', 'argon2'].join('/');

const sources = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', '*.ts', '*.tsx', '*.js', '*.mjs', '*.cjs'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.startsWith('node_modules/') && !f.startsWith('dist/'));

it('only lib/passwords.ts (and the bench baseline) loads @node-rs/argon2', () => {
  const loaders = sources.filter((f) => {
    try {
      return /(?:from\s+|require\(\s*|import\(\s*)['"]@node-rs\/argon2['"]/.test(readFileSync(`${ROOT}/${f}`, 'utf8'));
    } catch {
      return false; // listed by git, deleted in the work tree
    }
  });
  expect(loaders.sort()).toEqual(ALLOWED);
});

const PROBES = [
  'subgraphs/finance/identity/domain/probe.ts',
  'subgraphs/registry/licensing/domain/probe.ts',
  'lib/probe.ts',
  'bin/probe.ts',
  'rest-adapter/probe.ts',
];
const configured = configuredRule('no-restricted-imports', [...PROBES, 'lib/passwords.ts']);

it.each(PROBES)('the lint rule refuses @node-rs/argon2 in %s', (file) => {
  const rule = configured[file];
  expect(rule).not.toBeNull();
  const problems = (code: string) =>
    new Linter({ configType: 'flat' })
      .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser }, rules: { 'no-restricted-imports': rule! } }], file)
      .map((m) => m.message);
  expect(problems(`import { verify } from '${ARGON2}';`)).toEqual([expect.stringContaining('lib/passwords.ts')]);
  expect(problems(`import { hash as h } from '${ARGON2}';`)).toHaveLength(1);
  expect(problems("import { verifyPassword } from '../lib/passwords';")).toEqual([]);
});

it('lib/passwords.ts itself may load it', () => {
  expect(JSON.stringify(configured['lib/passwords.ts'] ?? null)).not.toContain(ARGON2);
});
