import { join } from 'node:path';
import { Piscina } from 'piscina';
import { badInput, DomainError } from '../../../../lib/errors';
import { projectRoot } from '../../../../lib/paths';
import { readMail, type MailRead } from './application-mail';

/** The compiled worker (mail-reader.worker.ts): like the model worker, it runs from dist/. */
export const MAIL_WORKER = join(projectRoot(), 'dist', 'subgraphs', 'predictions', 'access', 'domain', 'mail-reader.worker.js');

/** Reads a delivered message (its subject, and the application in it or why there is none). */
export interface MailReader {
  read(raw: Uint8Array): Promise<MailRead>;
  close(): Promise<void>;
}

export interface MailBudget {
  /** Threads that parse mail at once (the rest waits in the queue). */
  threads: number;
  /** Messages waiting for a thread; past it a message is refused at once (busy). */
  queue: number;
  /** Milliseconds a message may take, waiting included; past it its thread is ended and the message refused. */
  timeMs: number;
  /** Heap of a mail thread, MB. */
  heapMb: number;
}

export const MAIL_BUDGET: MailBudget = { threads: 1, queue: 16, timeMs: 5000, heapMb: 128 };

/** The mail system is busy (queue full): the sender tries again later (SMTP 451, HTTP 503). */
export const mailBusy = () =>
  new DomainError('SERVICE_UNAVAILABLE', 503, 'Too many messages are being read; please send again later.', { retryAfterSeconds: 30 });

const isAbort = (err: unknown) => (err as Error)?.name === 'AbortError';
const isQueueFull = (err: unknown) => /queue is at limit/i.test((err as Error)?.message ?? '');

/**
 * MIME parsing of anonymous mail off the event loop: a piscina pool (MAIL_BUDGET threads, a bounded
 * queue), each message within a time budget (its thread is ended when it runs over) and a heap
 * budget. The message itself is bounded before it gets here (the mailbox's SIZE, the webhook's body
 * limit) and its parts are counted before they are parsed (MAX_MIME_PARTS), so the work per message
 * is linear in a bounded size.
 */
export function createMailReader(budget: MailBudget = MAIL_BUDGET): MailReader {
  const pool = new Piscina<Uint8Array, MailRead>({
    filename: MAIL_WORKER,
    minThreads: 0,
    maxThreads: budget.threads,
    maxQueue: budget.queue,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: budget.heapMb },
  });
  // messages being read or waiting: counted here, so that the bound holds from the first message (a cold
  // pool hands its first tasks to threads still starting, outside piscina's own queue limit)
  let inFlight = 0;
  return {
    async read(raw) {
      if (inFlight >= budget.threads + budget.queue) throw mailBusy();
      inFlight++;
      try {
        return await pool.run(raw, { signal: AbortSignal.timeout(budget.timeMs) });
      } catch (err) {
        if (isQueueFull(err)) throw mailBusy();
        if (isAbort(err)) return { problem: problemOf(badInput(`The message took longer than ${budget.timeMs} ms to read.`)), overBudget: true };
        if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
          return { problem: problemOf(badInput('The message needs too much memory to read.')), overBudget: true };
        throw err;
      } finally {
        inFlight--;
      }
    },
    close: () => pool.close({ force: true }),
  };
}

const problemOf = (err: DomainError) => ({ message: err.message, details: err.extensions.details });

/** The same reading on the calling thread: for specs and tools that read trusted mail. */
export const inProcessMailReader: MailReader = { read: readMail, close: () => Promise.resolve() };
