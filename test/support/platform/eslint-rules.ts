import { execFileSync } from 'node:child_process';
import type { Linter } from 'eslint';
import { projectRoot } from '../../../lib/paths';

/**
 * A rule's configuration for each file, as ESLint computes it from the project's eslint.config.mjs
 * (an ES module: read in a child process), so that a lint test tests the rule as it is configured.
 */
export function configuredRule(rule: string, files: readonly string[]): Record<string, Linter.RuleEntry | null> {
  return JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { ESLint } from 'eslint'; const eslint = new ESLint(); const out = {};
         for (const file of ${JSON.stringify(files)}) out[file] = (await eslint.calculateConfigForFile(file)).rules[${JSON.stringify(rule)}] ?? null;
         process.stdout.write(JSON.stringify(out));`,
      ],
      { cwd: projectRoot(), encoding: 'utf8' },
    ),
  ) as Record<string, Linter.RuleEntry | null>;
}
