import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes a file that holds secrets: created with mode 600 (never readable by others, not even for the
 * moment before a chmod), under a fresh name, then renamed over the old one (which also replaces a
 * file that an older version left with wider permissions).
 */
export function writePrivateFile(file: string, content: string): void {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, content, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}
