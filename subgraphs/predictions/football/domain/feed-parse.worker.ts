/**
 * A feed file read off the main thread (feed-parse.ts starts it): checksum, UTF-8 decoding, format
 * recognition and parsing of a body that may be tens of megabytes, so that the process keeps
 * answering while it runs. One task, one message: the parsed file or the reason it is refused.
 */
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { competitionByCode, DatasetError } from './dataset';
import { detectFormat, parseFeed, type ParsedFeed } from './feed-formats';

export interface ParseTask {
  bytes: Uint8Array;
  competition: string;
  /** More matches than this (a season has a few hundred) and the file is refused. */
  maxMatches: number;
}

export type ParseMessage = { ok: true; parsed: ParsedFeed; checksum: string } | { ok: false; message: string; format: string | null };

function run(task: ParseTask): ParseMessage {
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

parentPort!.postMessage(run(workerData as ParseTask));
