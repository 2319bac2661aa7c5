/**
 * A ustar writer for archives built in memory (image layers, the iOS project): fixed owner, times
 * and order, so that the same input gives the same bytes.
 */
/** Tar's block size: headers and padded contents are multiples of it. */
export const TAR_BLOCK = 512;
const BLOCK = TAR_BLOCK;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function tarHeader(name: string, size: number, type: '0' | '5', mode: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(mode, 8), 100, 8, 'ascii');
  header.write(octal(0, 8), 108, 8, 'ascii');
  header.write(octal(0, 8), 116, 8, 'ascii');
  header.write(octal(size, 12), 124, 12, 'ascii');
  header.write(octal(mtime, 12), 136, 12, 'ascii');
  header.write('        ', 148, 8, 'ascii');
  header.write(type, 156, 1, 'ascii');
  header.write('ustar\0', 257, 6, 'ascii');
  header.write('00', 263, 2, 'ascii');
  header.write('root', 265, 32, 'ascii');
  header.write('root', 297, 32, 'ascii');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + ' ', 148, 8, 'ascii');
  return header;
}

/** A ustar archive of `entries` (directories end in `/`), in the given order. */
export function tar(entries: { path: string; content?: string | Buffer; mode?: number }[], mtime: Date): Buffer {
  const seconds = Math.floor(mtime.getTime() / 1000);
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (entry.path.endsWith('/')) {
      parts.push(tarHeader(entry.path, 0, '5', entry.mode ?? 0o755, seconds));
      continue;
    }
    const body = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : (entry.content ?? Buffer.alloc(0));
    parts.push(tarHeader(entry.path, body.length, '0', entry.mode ?? 0o644, seconds), body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
