import { createHash, randomUUID } from 'node:crypto';
import type { Store } from './database';
import { DomainError } from './errors';

/**
 * Idempotent requests, on Stripe's model, for every money-moving mutation of the finance node: the
 * client names a request with a key (REST: the `Idempotency-Key` header, X-Request-ID as a fallback;
 * GraphQL: the mutation's `idempotencyKey` argument), and
 *
 *   - the first request with the key runs; its outcome (result, or a client error such as insufficient
 *     funds) is kept for 24 hours and every later request with the key gets that outcome again;
 *   - while the first is still running, another request with the key gets 409 IDEMPOTENCY_IN_FLIGHT
 *     (Retry-After 1);
 *   - the same key with a different request (another operation or other input) is 422
 *     IDEMPOTENCY_KEY_REUSED, and changes nothing;
 *   - a fault (5xx, the database gone) keeps nothing: the client may retry with the same key.
 *
 * Crash safety: the running mark is a lease (`IDEMPOTENCY_LEASE_SECONDS`). When the process dies
 * mid-request, the next request with the key after the lease takes over and runs the work again, so
 * the work must be safe to run twice: every id it hands downstream (ledger transfer ids, provider
 * request ids) comes from `ids(leg)`, derived from the owner and the key, and the ledger applies a
 * known transfer id once (TigerBeetle's `exists`). Without a key the work runs once, with random ids.
 *
 * Keys are scoped per owner (the principal: two users' equal keys never meet). Each subgraph that
 * uses it keeps the records in its own schema; its migrations create the table with
 * `idempotencyTableSql(schema)`.
 */

export const IDEMPOTENCY_TTL_HOURS = 24;
export const IDEMPOTENCY_LEASE_SECONDS = 60;
/** What a key may look like: 1–255 visible ASCII characters (a UUID, a ULID, an X-Request-ID). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const idempotencyInFlight = () =>
  new DomainError('IDEMPOTENCY_IN_FLIGHT', 409, 'A request with this idempotency key is still being processed; retry shortly.', { retryAfterSeconds: 1 });

export const idempotencyKeyReused = () =>
  new DomainError('IDEMPOTENCY_KEY_REUSED', 422, 'This idempotency key was already used for a different request; send a new key with a new request.');

export const invalidIdempotencyKey = () =>
  new DomainError('BAD_USER_INPUT', 400, 'An idempotency key is 1 to 255 visible ASCII characters.', {
    idempotencyKey: ['An idempotency key is 1 to 255 visible ASCII characters.'],
  });

/** The table a subgraph's migration creates in its schema. */
export const idempotencyTableSql = (schema: string) => `
  CREATE TABLE ${schema}.idempotency_key (
    owner text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('running', 'done')),
    locked_until timestamptz NOT NULL,
    outcome jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner, key)
  );
  CREATE INDEX idempotency_key_created ON ${schema}.idempotency_key (created_at);`;

/** Ids of the downstream effects of one request: the same for every run of the same (owner, key). */
export type DerivedIds = (leg: string) => string;

export interface IdempotentRequest {
  /** Whose key it is, e.g. `user:<id>`. */
  owner: string;
  /** The client's key; none: the work runs once, unremembered. */
  key: string | null | undefined;
  /** The operation (a mutation's name): the same key on another operation is a different request. */
  operation: string;
  /** The request's input, compared across requests with the key (canonical JSON). */
  input: unknown;
}

type Outcome = { ok: unknown } | { error: { code: string; status: number; message: string; details?: unknown } };

interface KeyRow {
  fingerprint: string;
  state: 'running' | 'done';
  locked_until: Date;
  outcome: Outcome | null;
  created_at: Date;
}

export class IdempotentRequests {
  private readonly table: string;

  constructor(
    private readonly store: Pick<Store, 'pool' | 'schema'>,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.table = `${store.schema}.idempotency_key`;
  }

  /** Runs `work` once per (owner, key) and gives every request with the key the first outcome (see above). */
  async run<T>(request: IdempotentRequest, work: (ids: DerivedIds) => Promise<T>): Promise<T> {
    const { owner, key } = request;
    if (key === null || key === undefined || key === '') {
      const once = randomUUID();
      return work((leg) => derivedUuid(once, leg));
    }
    if (!IDEMPOTENCY_KEY.test(key)) throw invalidIdempotencyKey();
    const fingerprint = fingerprintOf(request.operation, request.input);
    const remembered = await this.claim(owner, key, fingerprint);
    if (remembered) return replay(remembered) as T;
    let outcome: Outcome;
    let result: T | undefined;
    try {
      result = await work((leg) => derivedUuid(owner, key, leg));
      outcome = { ok: encode(result) };
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500) {
        // a fault: nothing to remember, the client retries with the same key
        await this.store.pool.query(`DELETE FROM ${this.table} WHERE owner = $1 AND key = $2 AND state = 'running'`, [owner, key]).catch(() => undefined);
        throw err;
      }
      outcome = { error: { code: err.code, status: err.status, message: err.message, details: err.extensions.details } };
    }
    await this.store.pool.query(`UPDATE ${this.table} SET state = 'done', outcome = $3 WHERE owner = $1 AND key = $2`, [owner, key, JSON.stringify(outcome)]);
    return replay(outcome) as T;
  }

  /** Removes the records past their 24 hours (a scheduled job calls it; expired records are also replaced on use). */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock().getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000);
    const res = await this.store.pool.query(`DELETE FROM ${this.table} WHERE created_at < $1`, [cutoff]);
    return res.rowCount ?? 0;
  }

  /** Makes this request the key's running one (undefined), or gives the key's remembered outcome, or refuses (409, 422). */
  private async claim(owner: string, key: string, fingerprint: string): Promise<Outcome | undefined> {
    for (;;) {
      const now = this.clock();
      const lease = new Date(now.getTime() + IDEMPOTENCY_LEASE_SECONDS * 1000);
      const inserted = await this.store.pool.query(
        `INSERT INTO ${this.table} (owner, key, fingerprint, state, locked_until, created_at) VALUES ($1, $2, $3, 'running', $4, $5)
         ON CONFLICT (owner, key) DO NOTHING`,
        [owner, key, fingerprint, lease, now],
      );
      if (inserted.rowCount) return undefined;
      const { rows } = await this.store.pool.query<KeyRow>(
        `SELECT fingerprint, state, locked_until, outcome, created_at FROM ${this.table} WHERE owner = $1 AND key = $2`,
        [owner, key],
      );
      const row = rows[0];
      if (!row) continue; // swept meanwhile
      if (row.created_at.getTime() <= now.getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000) {
        // remembered long enough: the key is new again
        await this.store.pool.query(`DELETE FROM ${this.table} WHERE owner = $1 AND key = $2 AND created_at = $3`, [owner, key, row.created_at]);
        continue;
      }
      if (row.fingerprint !== fingerprint) throw idempotencyKeyReused();
      if (row.state === 'done') return row.outcome!;
      if (row.locked_until.getTime() > now.getTime()) throw idempotencyInFlight();
      // the request that held it is gone (its process died): take over, once
      const taken = await this.store.pool.query(
        `UPDATE ${this.table} SET locked_until = $3 WHERE owner = $1 AND key = $2 AND state = 'running' AND locked_until <= $4`,
        [owner, key, lease, now],
      );
      if (taken.rowCount) return undefined;
    }
  }
}

function replay(outcome: Outcome): unknown {
  if ('error' in outcome) throw new DomainError(outcome.error.code, outcome.error.status, outcome.error.message, outcome.error.details);
  return decode(outcome.ok);
}

/** A UUID (version 8, name-based with SHA-256) derived from its parts. */
export function derivedUuid(...parts: string[]): string {
  const h = createHash('sha256')
    .update(parts.map((p) => `${p.length}:${p}`).join('|'))
    .digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** JSON with sorted keys: the same input gives the same text, whatever the order of its fields. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    const raw = (this as Record<string, unknown>)[key];
    if (typeof raw === 'bigint') return raw.toString();
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    }
    return v;
  });
}

const fingerprintOf = (operation: string, input: unknown) =>
  createHash('sha256')
    .update(operation)
    .update('\0')
    .update(canonicalJson(input ?? null))
    .digest('hex');

/** A result as JSON that keeps Dates and bigints (minor units) through a replay. */
function encode(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && typeof o.$date === 'string') return new Date(o.$date);
    if (keys.length === 1 && typeof o.$bigint === 'string') return BigInt(o.$bigint);
    return Object.fromEntries(keys.map((k) => [k, decode(o[k])]));
  }
  return value;
}
