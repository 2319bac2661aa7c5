import { setTimeout as sleep } from 'node:timers/promises';

/** What a source answered to a conditional GET. */
export type FeedResponse =
  { status: 'not-modified' } | { status: 'ok'; body: Buffer; etag: string | null; lastModified: string | null; contentLength: number | null };

export interface FeedClientOptions {
  /** Per attempt. */
  timeoutMs: number;
  /** Attempts after the first, on a network error, a timeout, a 5xx or a 429. */
  retries: number;
  /** First back-off; doubled after each failed attempt (a 429's or 503's Retry-After wins when longer). */
  backoffMs?: number;
  /** A larger body is refused (no season file comes near it): counted while it streams, cut at the limit. */
  maxBytes?: number;
  /** Redirects followed, each to the source's own host only (default 5). */
  maxRedirects?: number;
}

export class FeedFetchError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
  }
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/** The URL as shown in logs and status: no user, password or query (a token may hide there). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * Reads a body chunk by chunk, counting: past `maxBytes` the transfer is cut (the stream cancelled)
 * and refused, so a chunked body without Content-Length is never buffered beyond the limit.
 */
async function readBounded(res: Response, maxBytes: number, url: string, attempt: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new FeedFetchError(`${displayUrl(url)}: more than the ${maxBytes} bytes a feed file may have (cut at ${total} bytes)`, attempt);
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(chunks, total);
}

/**
 * One GET, following redirects by hand: only to the source's own host (and scheme, or http → https),
 * at most `maxRedirects`; a redirect elsewhere is refused, never followed.
 */
async function getFollowingOwnHost(url: string, headers: Record<string, string>, opts: FeedClientOptions, attempt: number): Promise<Response> {
  const origin = new URL(url);
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { headers, signal: AbortSignal.timeout(opts.timeoutMs), redirect: 'manual' });
    if (res.status < 300 || res.status > 399 || res.status === 304) return res;
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (!location) throw new FeedFetchError(`${displayUrl(current)}: HTTP ${res.status} without a Location`, attempt);
    const next = new URL(location, current);
    const sameScheme = next.protocol === origin.protocol || (origin.protocol === 'http:' && next.protocol === 'https:');
    if (next.hostname !== origin.hostname || !sameScheme) {
      throw new FeedFetchError(`${displayUrl(url)}: redirected to ${displayUrl(next.href)}, another host than the configured one: refused`, attempt);
    }
    if (hop >= (opts.maxRedirects ?? 5)) throw new FeedFetchError(`${displayUrl(url)}: more than ${opts.maxRedirects ?? 5} redirects`, attempt);
    current = next.href;
  }
}

/**
 * GETs a feed source with its validators (If-None-Match / If-Modified-Since), so that an unchanged
 * file costs a 304; a timeout per attempt; retries with exponential back-off on what may pass
 * (network errors, timeouts, 5xx, 429), none on what will not (other 4xx, a redirect to another
 * host, a body over the limit). A body shorter than its Content-Length (a cut transfer) is an error,
 * never a file.
 */
export async function fetchFeed(url: string, validators: { etag: string | null; lastModified: string | null }, opts: FeedClientOptions): Promise<FeedResponse> {
  const maxBytes = opts.maxBytes ?? 32 * 1024 * 1024;
  let backoff = opts.backoffMs ?? 1_000;
  let lastError = '';
  for (let attempt = 1; attempt <= opts.retries + 1; attempt++) {
    let retryAfterMs = 0;
    try {
      const headers: Record<string, string> = { accept: 'application/json, text/csv;q=0.9, */*;q=0.5', 'user-agent': 'matchday-football-feed' };
      if (validators.etag) headers['if-none-match'] = validators.etag;
      if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
      const res = await getFollowingOwnHost(url, headers, opts, attempt);
      if (res.status === 304) {
        await res.body?.cancel();
        return { status: 'not-modified' };
      }
      if (res.ok) {
        const declared = res.headers.get('content-length');
        if (declared && Number(declared) > maxBytes) {
          await res.body?.cancel();
          throw new FeedFetchError(`${displayUrl(url)}: ${declared} bytes is more than the ${maxBytes} a feed file may have`, attempt);
        }
        const bytes = await readBounded(res, maxBytes, url, attempt);
        if (declared && Number(declared) !== bytes.length) throw new Error(`received ${bytes.length} of ${declared} bytes`);
        return {
          status: 'ok',
          body: bytes,
          etag: res.headers.get('etag'),
          lastModified: res.headers.get('last-modified'),
          contentLength: bytes.length,
        };
      }
      await res.body?.cancel();
      lastError = `HTTP ${res.status}`;
      if (!RETRYABLE.has(res.status)) throw new FeedFetchError(`${displayUrl(url)}: HTTP ${res.status}`, attempt);
      const retryAfter = Number(res.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = Math.min(retryAfter, 300) * 1000;
    } catch (err) {
      if (err instanceof FeedFetchError) throw err;
      const e = err as Error & { cause?: { code?: string; message?: string } };
      lastError = e.name === 'TimeoutError' ? `no answer in ${opts.timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    }
    if (attempt <= opts.retries) {
      await sleep(Math.max(backoff, retryAfterMs));
      backoff *= 2;
    }
  }
  throw new FeedFetchError(`${displayUrl(url)}: ${lastError} (after ${opts.retries + 1} attempts)`, opts.retries + 1);
}
