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
