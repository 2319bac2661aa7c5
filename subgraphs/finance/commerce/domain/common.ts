import { DomainError, badInput, forbidden, notFound } from '../../../../lib/errors';
import type { Position } from '../store/commerce-store';
import { adminActor, type AuditDb, type AuditOutbox } from '../../kernel/audit';

/** Who acted, as the histories record it: `user:<id>` or `admin:<username>`. */
/**
 * An administrator is an operator: a node user (`userId`, a person) signed in to the console, with their
 * operator role (superuser decides money; support staff handle cases and read).
 */
export type Actor = { role: 'user'; userId: string } | { role: 'admin'; username: string; userId?: string; operatorRole?: 'superuser' | 'support' };
/** How a state change names a user who made it (an operator is `admin:<username>`). */
export const USER_ACTOR = 'user:';
export const actorLabel = (a: Actor) => (a.role === 'user' ? `${USER_ACTOR}${a.userId}` : `admin:${a.username}`);

/** An administrator's decision is audited in its own transaction (`c`: the kernel's audit outbox); a user's own moves are not. */
export async function auditDecision(audit: AuditOutbox, c: AuditDb, actor: Actor, action: string, detail: Record<string, unknown>): Promise<void> {
  if (actor.role === 'admin') await audit.record(c, adminActor(actor.username), action, detail);
}

/** A refused state move: 409 with the record's current state (the REST body carries `status`). */
export const invalidState = (what: string, status: string, move: string) =>
  new DomainError('INVALID_STATE', 409, `The ${what} is ${status}; it cannot be ${move}.`, { status });

export const missing = (what: string) => notFound(`No such ${what}.`);

/** A payment refunded already (an order cancelled with its refund, or a dispute resolved): it is not refunded twice. */
export const alreadyRefunded = (how: string) => new DomainError('ALREADY_REFUNDED', 409, `This payment was refunded already (${how}).`);

/**
 * Money decisions (a refund, a cancellation with refund) are a superuser's, never support staff's, and
 * never on a transfer the operator is a party of (`parties`: node user ids). 403 otherwise.
 */
export function assertMoneyDecider(actor: Actor, parties: (string | undefined)[]): string {
  if (actor.role !== 'admin' || actor.operatorRole !== 'superuser' || !actor.userId)
    throw forbidden('Support staff handle cases but do not decide money: a superuser decides refunds.');
  if (parties.includes(actor.userId)) throw forbidden('An operator never decides on a transfer of their own: another operator must.');
  return actor.userId;
}

/**
 * Serialises the decisions about one ledger transfer (a dispute raised, resolved; an order cancelled)
 * in commerce's transaction `c`: each checks what was decided before it under this lock.
 */
export async function lockTransfer(c: { query: (sql: string, values: unknown[]) => Promise<unknown> }, transferId: string): Promise<void> {
  await c.query("SELECT pg_advisory_xact_lock(hashtextextended('commerce:transfer:' || $1, 0))", [transferId]);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id from a path: a malformed one names nothing (404, never a database error). */
export function assertId(id: string, what: string): void {
  if (!UUID.test(id)) throw missing(what);
}

export interface Page<T> {
  results: T[];
  nextCursor: string | null;
}

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

/** `limit` bounded to 1..100 (default 20); `cursor` the opaque position of the previous page's last row. */
export function pageRequest(limit: number | null | undefined, cursor: string | null | undefined): { limit: number; position?: Position } {
  const size = limit ?? DEFAULT_PAGE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) throw badInput(`limit is between 1 and ${MAX_PAGE}.`, { limit: [`Between 1 and ${MAX_PAGE}.`] });
  if (!cursor) return { limit: size };
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(iso ?? '');
  if (Number.isNaN(at.getTime()) || !UUID.test(id ?? '')) throw badInput('Invalid cursor.', { cursor: ['Invalid cursor.'] });
  return { limit: size, position: { at, id } };
}

/** One more row than the page is fetched to know whether a next page exists. */
export function pageOf<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): Page<T> {
  const results = rows.slice(0, limit);
  const last = results[results.length - 1];
  const nextCursor = rows.length > limit && last ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`, 'utf8').toString('base64url') : null;
  return { results, nextCursor };
}

/** Trimmed text of bounded length, or a 400 naming the field. */
export function text(value: string | null | undefined, field: string, opts: { min?: number; max: number }): string {
  const v = (value ?? '').trim();
  if (v.length < (opts.min ?? 1) || v.length > opts.max)
    throw badInput(`${field} is ${opts.min ?? 1} to ${opts.max} characters.`, { [field]: [`${opts.min ?? 1} to ${opts.max} characters.`] });
  return v;
}
