/**
 * A feed file read off the main thread (feed-parse.ts's pool runs it): checksum, UTF-8 decoding, format
 * recognition and parsing of a body that may be tens of megabytes, so that the process keeps
 * answering while it runs. One task, one answer: the parsed file or the reason it is refused.
 */
import { createHash } from 'node:crypto';
import { competitionByCode, DatasetError } from './dataset';
import { detectFormat, parseFeed, type ParsedFeed } from './feed-formats';
import { fetchFeed, type FeedClientOptions } from '../store/feed-client';

export interface ParseTask {
  bytes: Uint8Array;
  competition: string;
  /** More matches than this (a season has a few hundred) and the file is refused. */
  maxMatches: number;
}

export type ParseMessage = { ok: true; parsed: ParsedFeed; checksum: string } | { ok: false; message: string; format: string | null };

export interface ReadTask {
  url: string;
  validators: { etag: string | null; lastModified: string | null };
  client: FeedClientOptions;
  competition: string;
  maxMatches: number;
}

export type ReadMessage =
  | { ok: true; status: 'not-modified' }
  | { ok: true; status: 'ok'; parsed: ParsedFeed; checksum: string; etag: string | null; lastModified: string | null }
  | { ok: false; message: string; format: string | null };

/**
 * The pool's other task: the GET (its body counted while it streams) and the parsing, both in the
 * worker, so that not even the body's bytes pass through the main thread (tens of megabytes there
 * would cost it a full garbage collection).
 */
export async function readFeedTask(task: ReadTask): Promise<ReadMessage> {
  let res;
  try {
    res = await fetchFeed(task.url, task.validators, task.client);
  } catch (e) {
    return { ok: false, message: (e as Error).message, format: null };
  }
  if (res.status === 'not-modified') return { ok: true, status: 'not-modified' };
  const m = parseFeedTask({ bytes: res.body, competition: task.competition, maxMatches: task.maxMatches });
  return m.ok ? { ...m, status: 'ok', etag: res.etag, lastModified: res.lastModified } : m;
}

/** The pool's task (piscina calls it by name). */
export function parseFeedTask(task: ParseTask): ParseMessage {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const checksum = createHash('sha256').update(bytes).digest('hex');
  const text = bytes.toString('utf8');
  let format: string | null = null;
  try {
    format = detectFormat(text);
    const parsed = parseFeed(text, competitionByCode(task.competition)!);
    if (parsed.file.matches.length > task.maxMatches) {
      throw new DatasetError(`${parsed.file.matches.length} matches: more than the ${task.maxMatches} a season file may hold`);
    }
    return { ok: true, parsed, checksum };
  } catch (e) {
    return { ok: false, message: (e as Error).message, format };
  }
}
