import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemObjectStore, sweepPartials } from '../../../lib/object-store';

/**
 * Issue 27 #5: an object store that cannot be written (its folder immutable, read-only or not a
 * folder at all). As root, chmod does not stop writes: the store's folder is made impossible by
 * putting a FILE where a folder must be (ENOTDIR), which no privilege gets past.
 */
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'object-store-unwritable-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const KEY = Buffer.alloc(32, 7);

it('answers 503 STORAGE_UNAVAILABLE (with Retry-After) when the store cannot be written, and leaves no .part file', async () => {
  writeFileSync(join(dir, 'objects'), 'a file where the store folder should be');
  const store = new FilesystemObjectStore(join(dir, 'objects'), KEY);
  await expect(store.put('kyc/doc.pdf', Buffer.from('%PDF-1.7'), { contentType: 'application/pdf' })).rejects.toMatchObject({
    extensions: { code: 'STORAGE_UNAVAILABLE', http: { status: 503 }, details: { retryAfterSeconds: expect.any(Number) } },
  });
  // a key whose folder is a file, inside a writable store
  const ok = new FilesystemObjectStore(join(dir, 'ok'), KEY);
  await ok.put('a', Buffer.from('x'), { contentType: 'text/plain' });
  await expect(ok.put('a/b', Buffer.from('y'), { contentType: 'text/plain' })).rejects.toMatchObject({ extensions: { code: 'STORAGE_UNAVAILABLE' } });
  expect(await sweepPartials(join(dir, 'ok', 'data'))).toBe(0);
});

it('sweeps the .part files an interrupted write left, at start; a missing folder or a file instead of one is nothing to sweep', async () => {
  mkdirSync(join(dir, 'objects', 'data', 'artifacts'), { recursive: true });
  const partial = join(dir, 'objects', 'data', 'artifacts', 'app.tar.3f2a1b.part');
  writeFileSync(partial, 'half an upload');
  writeFileSync(join(dir, 'objects', 'data', 'artifacts', 'kept.tar'), 'a whole file');
  new FilesystemObjectStore(join(dir, 'objects'), KEY);
  for (let i = 0; i < 50 && existsSync(partial); i++) await new Promise((r) => setTimeout(r, 20));
  expect(existsSync(partial)).toBe(false);
  expect(existsSync(join(dir, 'objects', 'data', 'artifacts', 'kept.tar'))).toBe(true);
  writeFileSync(join(dir, 'file'), 'x');
  await expect(sweepPartials(join(dir, 'file'))).resolves.toBe(0);
  await expect(sweepPartials(join(dir, 'missing'))).resolves.toBe(0);
});
