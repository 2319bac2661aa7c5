import { join } from 'node:path';
import { Piscina } from 'piscina';
import { projectRoot } from '../../../../lib/paths';
import { DatasetError } from './dataset';
import type { ParsedFeed } from './feed-formats';
import type { FeedClientOptions } from '../store/feed-client';
import type { ParseMessage, ParseTask, ReadMessage, ReadTask } from './feed-parse.worker';

/** A source read: not modified, or its season file with the response's validators. */
export type FeedRead = { status: 'not-modified' } | { status: 'ok'; parsed: ParsedFeed; checksum: string; etag: string | null; lastModified: string | null };

/** The worker that reads feed files (feed-parse.worker.ts, compiled). */
export const FEED_PARSE_WORKER = join(projectRoot(), 'dist', 'subgraphs', 'predictions', 'football', 'domain', 'feed-parse.worker.js');

export interface ParseBudget {
  /** The read is abandoned (its worker ended) past this, and the file refused. */
  timeMs: number;
  /** A season file holds a few hundred matches; more is refused. */
  maxMatches: number;
  /** The worker's heap, in MB (a file is at most 32 MiB). */
  heapMb: number;
}

export const DEFAULT_PARSE_BUDGET: ParseBudget = { timeMs: 20_000, maxMatches: 5_000, heapMb: 512 };

export class FeedParseError extends DatasetError {
  constructor(
    message: string,
    readonly format: string | null,
  ) {
    super(message);
  }
}

/** The body's bytes as a view on an ArrayBuffer of its own, to transfer (a pooled small Buffer is copied). */
function ownedBytes(body: Buffer): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) {
    return new Uint8Array(body.buffer, 0, body.byteLength);
  }
  const copy = new Uint8Array(body.byteLength);
  copy.set(body);
  return copy;
}

/**
 * Reads feed bodies in a worker thread (a piscina pool of one, kept warm), with a time and size budget:
 * the main thread only hands the bytes over (transferred, not copied) and receives the season file, so
 * a large file never holds up the event loop. Past the time budget the worker is ended and the file
 * refused; a worker out of its heap is replaced.
 */
export class FeedReader {
  private readonly pool: Piscina;

  constructor(private readonly budget: ParseBudget = DEFAULT_PARSE_BUDGET) {
    this.pool = new Piscina({
      filename: FEED_PARSE_WORKER,
      name: 'parseFeedTask',
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: 60 * 60_000,
      resourceLimits: { maxOldGenerationSizeMb: budget.heapMb },
    });
  }

  async parse(body: Buffer, competition: string): Promise<{ parsed: ParsedFeed; checksum: string }> {
    const bytes = ownedBytes(body);
    const task: ParseTask = { bytes, competition, maxMatches: this.budget.maxMatches };
    let m: ParseMessage;
    try {
      m = (await this.pool.run(task, { transferList: [bytes.buffer as ArrayBuffer], signal: AbortSignal.timeout(this.budget.timeMs) })) as ParseMessage;
    } catch (err) {
      const e = err as Error;
      if (e.name === 'AbortError' || e.name === 'TimeoutError')
        throw new FeedParseError(`reading the file took more than ${this.budget.timeMs} ms: refused`, null);
      throw new FeedParseError(`the file could not be read: ${e.message}`, null);
    }
    if (!m.ok) throw new FeedParseError(m.message, m.format);
    return { parsed: m.parsed, checksum: m.checksum };
  }

  /**
   * GETs and parses a source in the worker: the body's bytes never reach the main thread. The time
   * budget covers the fetch's attempts and back-offs too.
   */
  async read(url: string, validators: { etag: string | null; lastModified: string | null }, competition: string, client: FeedClientOptions): Promise<FeedRead> {
    const task: ReadTask = { url, validators, client, competition, maxMatches: this.budget.maxMatches };
    const fetchMs = client.timeoutMs * (client.retries + 1) + (client.backoffMs ?? 1_000) * 2 ** (client.retries + 1) + 300_000 * Math.min(client.retries, 1);
    let m: ReadMessage;
    try {
      m = (await this.pool.run(task, { name: 'readFeedTask', signal: AbortSignal.timeout(this.budget.timeMs + fetchMs) })) as ReadMessage;
    } catch (err) {
      const e = err as Error;
      if (e.name === 'AbortError' || e.name === 'TimeoutError')
        throw new FeedParseError(`reading the source took more than ${this.budget.timeMs + fetchMs} ms: refused`, null);
      throw new FeedParseError(`the file could not be read: ${e.message}`, null);
    }
    if (!m.ok) throw new FeedParseError(m.message, m.format);
    return m.status === 'not-modified' ? m : { status: 'ok', parsed: m.parsed, checksum: m.checksum, etag: m.etag, lastModified: m.lastModified };
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
