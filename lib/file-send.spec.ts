import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sendFile } from './file-send';

/**
 * lib/file-send.ts over real HTTP: the bytes of a file, or of one range, whatever the chunking; many
 * downloads at once sharing the buffer pool, each with its own bytes (a buffer reused while still queued
 * in a socket would show another download's bytes); a steady download reusing its buffers; a client that
 * goes away and a file that ends early.
 */
const dir = mkdtempSync(join(tmpdir(), 'file-send-'));
// sizes that are not a multiple of any chunk size; distinct contents per file
const files = Object.fromEntries(
  [
    ['small', 1000],
    ['large', 3 * 1024 * 1024 + 12345],
    ['other', 2 * 1024 * 1024 + 7],
  ].map(([name, size]) => {
    const bytes = randomBytes(size as number);
    writeFileSync(join(dir, name as string), bytes);
    return [name, bytes];
  }),
) as Record<string, Buffer>;
const outcomes: { name: string; error?: string }[] = [];

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    const name = u.pathname.slice(1);
    const start = u.searchParams.get('start');
    const range = start === null ? { start: 0, end: (files[name]?.length ?? 0) - 1 } : { start: Number(start), end: Number(u.searchParams.get('end')) };
    res.setHeader('content-length', range.end - range.start + 1);
    if (u.searchParams.has('truncate')) truncateSync(join(dir, name), Number(u.searchParams.get('truncate')));
    sendFile(join(dir, name), res, range).then(
      () => outcomes.push({ name }),
      (err: NodeJS.ErrnoException) => {
        outcomes.push({ name, error: err.code ?? err.message });
        res.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** The body, read slowly when `pauseMs` is set (the server's writes then wait on the socket). */
function download(path: string, pauseMs = 0): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${url}${path}`, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (pauseMs && chunks.length % 8 === 0) {
          res.pause();
          setTimeout(() => res.resume(), pauseMs);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** This process's descriptors open on the test's files. */
const openFiles = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false;
    }
  }).length;

describe('sendFile', () => {
  it('sends the whole file, and exactly the range asked for, across chunk boundaries', async () => {
    for (const name of ['small', 'large']) expect(sha((await download(`/${name}`)).body)).toBe(sha(files[name]));
    const large = files.large;
    for (const [start, end] of [
      [0, 0],
      [large.length - 1, large.length - 1],
      [262_100, 262_200],
      [65_530, 1_048_600],
      [1, large.length - 2],
    ]) {
      const { body } = await download(`/large?start=${start}&end=${end}`);
      expect([start, end, body.length, sha(body)]).toEqual([start, end, end - start + 1, sha(large.subarray(start, end + 1))]);
    }
  });

  it('many downloads at once, some slow: each gets its own bytes', async () => {
    const names = ['large', 'other', 'large', 'other', 'large', 'other', 'large', 'other'];
    const bodies = await Promise.all(names.map((name, i) => download(`/${name}`, i % 2 ? 5 : 0)));
    expect(bodies.map((b) => sha(b.body))).toEqual(names.map((name) => sha(files[name])));
  });

  it('a steady download reuses its buffers: a few distinct ones for all the chunks', async () => {
    // a sink that holds each chunk until the next turn of the event loop, as a socket does until the kernel has it
    const seen = new Set<ArrayBufferLike>();
    let chunks = 0;
    const hash = createHash('sha256');
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks++;
        seen.add(chunk.buffer);
        hash.update(chunk);
        setImmediate(done);
      },
    });
    await sendFile(join(dir, 'large'), sink, { start: 0, end: files.large.length - 1 });
    expect(hash.digest('hex')).toBe(sha(files.large));
    expect(chunks).toBeGreaterThan(12);
    expect(seen.size).toBeLessThanOrEqual(4);
  });

  it('a client that goes away: the send stops with ERR_STREAM_PREMATURE_CLOSE and the file is closed', async () => {
    outcomes.length = 0;
    await new Promise<void>((resolve) => {
      const req = get(`${url}/large`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
    });
    for (let i = 0; i < 100 && outcomes.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(outcomes).toEqual([{ name: 'large', error: 'ERR_STREAM_PREMATURE_CLOSE' }]);
    expect(openFiles()).toBe(0);
  });

  it('a file shorter than the bytes announced: the send fails and the connection is cut, not left hanging', async () => {
    writeFileSync(join(dir, 'shrinking'), randomBytes(600_000));
    files.shrinking = Buffer.alloc(600_000);
    outcomes.length = 0;
    const result = await download('/shrinking?truncate=300000').catch((err: Error) => err);
    // the client sees the connection cut before the announced length, not a short body taken as whole
    expect(result).toMatchObject({ message: expect.stringMatching(/aborted|hang up|ECONNRESET/) });
    expect(outcomes).toEqual([{ name: 'shrinking', error: expect.stringContaining('the file ended at byte 300000 of 600000') }]);
  });
});
