import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../lib/errors';
import { sendFile } from '../../lib/file-send';
import { isDatabaseUnavailable } from '../../lib/faults';
import { htmlSecurityHeaders, inlineScriptHashes } from '../../lib/security-headers';
import { setCookie } from './cookies';
import { CORE_STATUS, type CoreErrorKind } from './errors';
import type { Reply, StreamBody } from './route';
import type { Surface } from './types';

/**
 * The reply stage: a route's Reply (JSON, HTML, text, file, stream, redirect) written to the response
 * with its headers and cookies, and the surface's own core errors (its error body and status).
 */

/** One of the REST core's own errors (not found, invalid input, …) in the surface's error body. */
export function sendCoreError(res: Response, surface: Surface, kind: CoreErrorKind, message: string, details?: unknown, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(CORE_STATUS[kind]).json(surface.errorShape.body(CORE_STATUS[kind], surface.errorShape.coreCode(kind), message, details));
}

/**
 * The security headers of the HTML pages a route answers (helmet, lib/security-headers.ts). A page's
 * own inline scripts are admitted by their hashes (and only those), so each distinct set of inline
 * scripts gets its policy once.
 */
const htmlHeaderSets = new Map<string, ReturnType<typeof htmlSecurityHeaders>>();
function htmlHeaders(html: string): ReturnType<typeof htmlSecurityHeaders> {
  const hashes = inlineScriptHashes(html);
  const key = hashes.join(' ');
  let headers = htmlHeaderSets.get(key);
  if (!headers) {
    headers = htmlSecurityHeaders(hashes.length ? { 'script-src': hashes } : {});
    // pages are few; a page whose inline script changes per request would grow this without bound
    if (htmlHeaderSets.size > 200) htmlHeaderSets.clear();
    htmlHeaderSets.set(key, headers);
  }
  return headers;
}

export function sendReply(req: Request, res: Response, reply: Reply) {
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  for (const cookie of reply.cookies ?? []) setCookie(req, res, cookie);
  switch (reply.kind) {
    case 'json':
      res.status(reply.status ?? 200).json(reply.body);
      return;
    case 'text':
      res
        .status(reply.status ?? 200)
        .type(reply.contentType ?? 'text/plain')
        .send(reply.body);
      return;
    case 'redirect':
      res.redirect(reply.status ?? 302, reply.location);
      return;
    case 'file':
      // attachment() sets a type from the filename's extension: the reply's own type goes after it
      res.setHeader('x-content-type-options', 'nosniff');
      res.status(200).attachment(reply.filename).type(reply.contentType).send(reply.body);
      return;
    case 'stream':
      sendStream(req, res, reply.body);
      return;
    case 'html':
      htmlHeaders(reply.html)(req, res, () =>
        res
          .status(reply.status ?? 200)
          .type('html')
          .send(reply.html),
      );
      return;
  }
}

/** `Range: bytes=…` against a length: one range, `'unsatisfiable'` (416), or undefined (the whole body). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  // absent, another unit, several ranges, malformed: the whole body, as RFC 9110 allows
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const etagListMatches = (header: string, etag: string) => header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === `"${etag}"`);

function sendStream(req: Request, res: Response, body: StreamBody) {
  if (body.filename) res.attachment(body.filename);
  res.setHeader('accept-ranges', 'bytes');
  res.setHeader('content-type', body.contentType);
  if (body.etag) res.setHeader('etag', `"${body.etag}"`);
  if (body.lastModified) res.setHeader('last-modified', body.lastModified.toUTCString());
  for (const [k, v] of Object.entries(body.headers ?? {})) res.setHeader(k, v);
  const ifNoneMatch = req.headers['if-none-match'];
  if (body.etag && ifNoneMatch && etagListMatches(ifNoneMatch, body.etag)) return void res.status(304).end();
  let range = parseRange(req.headers.range, body.size);
  // If-Range: the range only if the representation is still the one the client has part of
  const ifRange = req.get('if-range');
  if (range && ifRange && !(body.etag && ifRange.trim() === `"${body.etag}"`)) range = undefined;
  if (range === 'unsatisfiable') {
    res.setHeader('content-range', `bytes */${body.size}`);
    return void res.status(416).end();
  }
  if (range) {
    res.status(206).setHeader('content-range', `bytes ${range.start}-${range.end}/${body.size}`);
    res.setHeader('content-length', String(range.end - range.start + 1));
  } else {
    res.status(200).setHeader('content-length', String(body.size));
  }
  if (req.method === 'HEAD') return void res.end();
  (body.file ? sendFile(body.file, res, range ?? { start: 0, end: body.size - 1 }) : pipeline(body.open(range), res)).catch((err: unknown) => {
    // the client went away, or the storage failed mid-body: the status is sent, so the connection is cut
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') req.log.warn({ err }, 'streaming a body failed');
    res.destroy();
  });
}

/** 503 with Retry-After: the gateway, or the database behind it, cannot be reached. */
export function sendUnavailable(res: Response, surface: Surface) {
  sendCoreError(res, surface, 'service_unavailable', 'The service is temporarily unavailable; please retry shortly.', undefined, {
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
}

/**
 * Runs a call to the gateway; when the gateway (or what stands behind it) cannot be reached, answers
 * 503 with Retry-After and returns null.
 */
export async function withUnavailable<T>(res: Response, surface: Surface, call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    sendUnavailable(res, surface);
    return null;
  }
}
