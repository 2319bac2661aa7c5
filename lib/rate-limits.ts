import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Store } from './database';
import { DomainError } from './errors';

/**
 * Per-key limits (per client address, per recipient) that hold across processes and replicas:
 * rate-limiter-flexible with its PostgreSQL store, in the subgraph's own schema. The subgraph's
 * migrations create the table:
 *
 *   CREATE TABLE <schema>.rate_limit (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)
 */
export interface Allowance {
  /** Counted events allowed per window. */
  points: number;
  /** The window, from the first counted event. */
  durationSeconds: number;
}

/** A 429 with the seconds until the window frees up (Retry-After). */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new DomainError('RATE_LIMITED', 429, message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** Clients that reach us without an address (none should) share one allowance rather than escape it. */
const UNKNOWN = 'unknown';

export class KeyedLimiter {
  private readonly limiter: RateLimiterPostgres;

  constructor(
    store: Store,
    /** Names the limit; keys are stored as `<name>:<key>`. */
    readonly name: string,
    readonly allowance: Allowance,
  ) {
    this.limiter = new RateLimiterPostgres({
      storeClient: store.pool,
      storeType: 'pool',
      schemaName: store.schema,
      tableName: 'rate_limit',
      tableCreated: true,
      keyPrefix: name,
      points: allowance.points,
      duration: allowance.durationSeconds,
    });
  }

  /** Counts one event for `key`; past the allowance, a 429 (`message`) with Retry-After. */
  async consume(key: string | undefined, message: string): Promise<void> {
    try {
      await this.limiter.consume(key || UNKNOWN);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooManyRequests(message, err.msBeforeNext / 1000);
      throw err;
    }
  }

  /** Counts one event for `key`; whether it was still within the allowance (nothing thrown). */
  async tryConsume(key: string | undefined): Promise<boolean> {
    try {
      await this.limiter.consume(key || UNKNOWN);
      return true;
    } catch (err) {
      if (err instanceof RateLimiterRes) return false;
      throw err;
    }
  }

  /** Counts one event for `key` atomically: allowed (within the allowance) or not, and the seconds until the window frees up. */
  async take(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    try {
      const res = await this.limiter.consume(key || UNKNOWN);
      return { allowed: true, retryAfterSeconds: res.msBeforeNext / 1000 };
    } catch (err) {
      if (err instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: err.msBeforeNext / 1000 };
      throw err;
    }
  }

  /** Gives one counted event back (an attempt that turned out fine, or was never evaluated). */
  async giveBack(key: string): Promise<void> {
    await this.limiter.reward(key || UNKNOWN, 1);
  }

  /** Forgets `key`'s count. */
  async clear(key: string): Promise<void> {
    await this.limiter.delete(key || UNKNOWN);
  }

  /** For failure throttles: a 429 once `key` has used its allowance (counted with `consume`/`tryConsume` on each failure). */
  async assertOpen(key: string | undefined, message: string): Promise<void> {
    const state = await this.limiter.get(key || UNKNOWN);
    if (state && state.consumedPoints >= this.allowance.points) throw tooManyRequests(message, state.msBeforeNext / 1000);
  }
}
