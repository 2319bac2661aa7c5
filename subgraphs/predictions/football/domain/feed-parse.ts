import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../../../../lib/paths';
import { DatasetError } from './dataset';
import type { ParsedFeed } from './feed-formats';
import type { ParseMessage, ParseTask } from './feed-parse.worker';

/** The worker thread that reads feed files (feed-parse.worker.ts, compiled). */
export const FEED_PARSE_WORKER = join(projectRoot(), 'dist', 'subgraphs', 'predictions', 'football', 'domain', 'feed-parse.worker.js');

export interface ParseBudget {
  /** The worker is ended past this, and the file refused. */
  timeMs: number;
  /** A season file holds a few hundred matches; more is refused. */
  maxMatches: number;
  /** The worker's heap, in MB (a file is at most FOOTBALL_FEED_MAX_BYTES). */
  heapMb?: number;
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

/**
 * Parses a feed body in a worker thread with a time and size budget: the main thread only hands the
 * bytes over (transferred, not copied) and receives the season file, so a large file never holds up
 * the event loop. Past the time budget the worker is ended and the file refused.
 */
export function parseFeedOffThread(
  body: Buffer,
  competition: string,
  budget: ParseBudget = DEFAULT_PARSE_BUDGET,
): Promise<{ parsed: ParsedFeed; checksum: string }> {
  return new Promise((resolve, reject) => {
    // a copy the worker owns, transferred: the caller's buffer may be a slice of a pooled one
    const bytes = new Uint8Array(body.byteLength);
    bytes.set(body);
    const task: ParseTask = { bytes, competition, maxMatches: budget.maxMatches };
    const worker = new Worker(FEED_PARSE_WORKER, {
      workerData: task,
      transferList: [bytes.buffer],
      resourceLimits: { maxOldGenerationSizeMb: budget.heapMb ?? 512 },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(new FeedParseError(`reading the file took more than ${budget.timeMs} ms: refused`, null))),
      budget.timeMs,
    );
    worker.on('message', (m: ParseMessage) =>
      settle(() => (m.ok ? resolve({ parsed: m.parsed, checksum: m.checksum }) : reject(new FeedParseError(m.message, m.format)))),
    );
    worker.on('error', (err) => settle(() => reject(new FeedParseError(`the file could not be read: ${err.message}`, null))));
    worker.on('exit', (code) => settle(() => reject(new FeedParseError(`the reader stopped (exit ${code})`, null))));
  });
}
