import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

let root: string | undefined;

/** The checkout's root (where package.json is), from source (ts-jest) or from dist/. */
export function projectRoot(): string {
  if (root) return root;
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith('dist')) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  root = dir;
  return dir;
}
