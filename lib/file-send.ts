import { read as readCallback } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * A local file (or one byte range of it) written to a response from a small pool of reused buffers.
 *
 * Why not `pipeline(createReadStream(path), res)`: a ReadStream allocates a fresh 64 KiB ArrayBuffer for
 * every chunk it reads. V8 counts those as external memory, and hundreds of MB/s of them make it start
 * GCs for "external memory pressure": scavenges, and, in a process that holds a large heap (the whole
 * stack holds 100-150 MB live), incremental marking and Mark-Compacts of that whole heap, several per
 * second of download, each tens of ms of the event loop. A buffer handed to the socket is taken back
 * once its write callback says the kernel has the bytes, so a steady download allocates nothing.
 */
const CHUNK = 256 * 1024;
/** Buffers kept between downloads (4 MiB at most): enough for a few concurrent downloads' read-ahead. */
const POOL_MAX = 16;
const pool: Buffer[] = [];

const take = () => pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
const give = (buf: Buffer) => {
  if (pool.length < POOL_MAX) pool.push(buf);
};

function readInto(fd: number, buf: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => readCallback(fd, buf, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))));
}

class StreamClosed extends Error {
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';
  constructor() {
    super('The response was closed before the file was sent.');
  }
}

/**
 * Writes bytes `start`…`end` (inclusive: the bytes the response announced) of `path` to `out` and ends
 * it. Rejects with code ERR_STREAM_PREMATURE_CLOSE when `out` closes first (the client went away), or
 * with the file's error (it cannot be read, or it ends before `end`).
 */
export async function sendFile(path: string, out: Writable, range: { start: number; end: number }): Promise<void> {
  const handle = await open(path, 'r');
  // one chunk is read while the one before is in the socket: the disk and the network both stay busy
  let waiting: (() => void) | undefined;
  const wake = () => {
    const w = waiting;
    waiting = undefined;
    w?.();
  };
  out.on('drain', wake).on('close', wake);
  let next: Promise<{ buf: Buffer; n: number }> | undefined;
  try {
    let position = range.start;
    const end = range.end + 1;
    const readChunk = async (at: number) => {
      const buf = take();
      const n = await readInto(handle.fd, buf, Math.min(CHUNK, end - at), at);
      if (n === 0) throw new Error(`${path}: the file ended at byte ${at} of ${end}`);
      return { buf, n };
    };
    const readAhead = (at: number) => {
      const reading = readChunk(at);
      // awaited on the next turn of the loop, or in `finally`: not an unhandled rejection meanwhile
      reading.catch(() => undefined);
      return reading;
    };
    next = position < end ? readAhead(position) : undefined;
    while (next) {
      const { buf, n } = await next;
      if (out.destroyed) throw new StreamClosed();
      position += n;
      // the callback, once the socket has written the bytes, returns the buffer; without it (an error,
      // or a stream that never calls back) the buffer is left to the GC, never reused while still queued
      const more = out.write(n === buf.length ? buf : buf.subarray(0, n), (err) => {
        if (!err) give(buf);
      });
      next = position < end ? readAhead(position) : undefined;
      if (!more && !out.destroyed) await new Promise<void>((resolve) => (waiting = resolve));
    }
    if (out.destroyed) throw new StreamClosed();
    out.end();
    await finished(out);
  } finally {
    out.off('drain', wake).off('close', wake);
    // a read still under way when the response closed: the descriptor is closed after it, its buffer kept
    const pending = await next?.catch(() => undefined);
    if (pending) give(pending.buf);
    await handle.close();
  }
}
