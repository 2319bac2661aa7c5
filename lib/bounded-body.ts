import { Transform } from 'node:stream';

/**
 * Bodies that come from outside (a provider's reply, a peer's answer, an upload) are counted while
 * they stream and cut at their limit: nothing is read whole before its size is known, so a chunked
 * reply without Content-Length cannot take the process's memory (a fetch Response's text(), json()
 * and arrayBuffer() read everything first). `test/platform/lint/bounded-bodies.test.ts` finds every
 * site that reads a fetch Response and holds it to this module.
 */

/** What a provider's or peer's JSON reply may weigh: they are a few kilobytes. */
export const REPLY_MAX_BYTES = 1024 * 1024;

/** A body past its limit: the stream was cancelled there. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/** A fetch Response's body, counted while it streams and cancelled past `maxBytes` (a Content-Length over it: at once). */
export async function readBytes(res: Response, maxBytes = REPLY_MAX_BYTES): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(maxBytes);
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** The body as UTF-8 text, within `maxBytes`. */
export async function readText(res: Response, maxBytes = REPLY_MAX_BYTES): Promise<string> {
  return (await readBytes(res, maxBytes)).toString('utf8');
}

/** The body parsed as JSON, within `maxBytes` (a SyntaxError for what is not JSON, as Response.json()). */
export async function readJson<T = unknown>(res: Response, maxBytes = REPLY_MAX_BYTES): Promise<T> {
  return JSON.parse(await readText(res, maxBytes)) as T;
}

/**
 * A pass-through that counts the bytes of a stream (an upload piped to the object store) and fails
 * with `tooLarge()` once they pass `maxBytes`.
 */
export function byteLimit(maxBytes: number, tooLarge: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? tooLarge() : null, chunk);
    },
  });
}
