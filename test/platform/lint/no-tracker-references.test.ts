/**
 * The issue tracker the project was once planned in is not part of the repository, so an issue number
 * beside a piece of code tells a reader nothing: the comment, test name or document has to say the reason
 * itself. Every file git tracks is read (text files only), so a new file is covered without naming it, and
 * each line that cites an issue or pull request by number is listed as `file:line`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';

/**
 * What a citation of a tracker looks like. Kept narrow so that what merely contains `#` and digits is
 * not one: an HTML entity (`&#39;`), a colour (`#fff`, `color: #333`, `'#123456'`), `PKCS#12`, a
 * markdown heading (`## 3.`) or anchor (`(#section-2)`). A bare `#N` counts only in prose: after a word
 * and a space ("see #N", "fixed in #N"), or alone in brackets ("(#N)").
 */
const CITATIONS: RegExp[] = [
  /\bissues?\s+#?\d+\b/i, // "issue N", "Issues N", "issue #N", "item 9 of issue N"
  /\bpull\s+requests?\s+#?\d+\b/i,
  /\bPRs?\s+#?\d+\b/,
  /\bGH-\d+\b/,
  /\(#\d+\)/,
  /(?<=[A-Za-z0-9]\s)#\d+\b/,
];

/** The lines of `text` that cite a tracker, 1-based. */
export function citingLines(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (CITATIONS.some((re) => re.test(line)) ? [i + 1] : []));
}

function trackedTextFiles(root: string): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
  return paths.flatMap((path) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, path));
    } catch {
      return []; // deleted in the work tree but not yet in the index
    }
    if (bytes.includes(0)) return []; // binary: images, archives
    return [{ path, text: bytes.toString('utf8') }];
  });
}

it('no tracked file cites an issue or pull request of a tracker that is not in the repository', () => {
  const files = trackedTextFiles(projectRoot());
  expect(files.length).toBeGreaterThan(100);
  const found = files.flatMap(({ path, text }) => citingLines(text).map((line) => `${path}:${line}`));
  expect(found).toEqual([]);
});

it('the pattern catches the citations and nothing that only contains # and digits', () => {
  // built from N, so this file's own source cites nothing
  const N = 33;
  const citations = [
    `the logo (issue ${N}, item 9): uploaded`,
    `Issue ${N}: an answer`,
    `before issues ${N} and 34`,
    `item 9 of issue #${N}`,
    `fixed in pull request ${N}`,
    `see PR #${N}`,
    `as in GH-${N}`,
    `batch the writes (#${N})`,
    `see #${N} for the numbers`,
    `Issue ${N} #9 in Chromium`,
  ];
  expect(citations.filter((c) => citingLines(c).length === 0)).toEqual([]);
  const innocent = [
    `it&#39;s the node&#${N};s logo`,
    `a{color:#fff}`,
    `color: #333; border: 1px solid #ddd`,
    `primaryColor: '#123456', accentColor: "#000000"`,
    `a PKCS#12 bundle`,
    `## 3. Branding`,
    `# ${N} ways`,
    `[stale balances](#balances-stale), [part 2](#section-2)`,
    `const/4 v2, #1`,
    `the issues below`,
    `tissue ${N}`,
  ];
  expect(innocent.filter((c) => citingLines(c).length > 0)).toEqual([]);
});
