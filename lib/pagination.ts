import { badInput } from './errors';

/** Opaque keyset cursors: base64url of "<ISO instant>|<id>". */
export function encodeCursor(at: Date, id: number): string {
  return Buffer.from(`${at.toISOString()}|${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { at: Date; id: number } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(iso);
  if (!iso || Number.isNaN(at.getTime()) || !/^\d+$/.test(id ?? '')) throw badInput('Invalid cursor.');
  return { at, id: Number(id) };
}

/** `first` bounded to 1..max, default `fallback`. */
export function pageSize(first: number | null | undefined, fallback: number, max: number): number {
  if (first === null || first === undefined) return fallback;
  if (!Number.isInteger(first) || first < 1 || first > max) throw badInput(`first must be between 1 and ${max}.`);
  return first;
}

/** A REST list's keyset page (`?cursor=&limit=`): rows after the cursor's (created_at, seq), newest first. */
export interface KeysetPage {
  limit: number;
  after?: { at: Date; seq: number };
}

export function keysetPage(cursor: string | null | undefined, limit: number | null | undefined, max = 100, fallback = 20): KeysetPage {
  const size = limit ?? fallback;
  if (!Number.isInteger(size) || size < 1 || size > max) throw badInput(`limit is 1 to ${max}.`, { limit: [`1 to ${max}.`] });
  const after = cursor ? decodeCursor(cursor) : undefined;
  return { limit: size, after: after ? { at: after.at, seq: after.id } : undefined };
}

/** `{results, nextCursor}` of a page of rows: a cursor when the page is full (there may be more). */
export function keysetResults<R extends { createdAt: Date; seq: number }, V>(rows: R[], page: KeysetPage, view: (r: R) => V) {
  const last = rows.length === page.limit ? rows[rows.length - 1] : undefined;
  return { results: rows.map(view), nextCursor: last ? encodeCursor(last.createdAt, last.seq) : null };
}
