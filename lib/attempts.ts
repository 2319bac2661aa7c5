import { createHash } from 'node:crypto';
import type { Store } from './database';
import { KeyedLimiter, tooManyRequests, type Allowance } from './rate-limits';

/**
 * Throttles of guesses (passwords, one-time codes) that hold under concurrency: each attempt is
 * reserved atomically BEFORE it is verified (rate-limiter-flexible's PostgreSQL store: one
 * INSERT … ON CONFLICT DO UPDATE … RETURNING per limit), and given back when it succeeds. Forty
 * concurrent guesses are forty reservations: only the allowance's worth are ever verified.
 *
 * Three limits, so that a few bad attempts from one address cannot lock an account out for everyone:
 * - one client address on one account: strict (`pair`, e.g. 5 per 15 minutes);
 * - one client address on any account (password spraying): `address`;
 * - one account from anywhere (a distributed guesser): `account`, higher, in steps that back off
 *   (e.g. 20 per 15 minutes, then 60 per day).
 * A refused attempt gives back what it took from the other limits, so that only evaluated attempts
 * count. The subgraph's migrations create `<schema>.rate_limit` (lib/rate-limits.ts).
 */
export interface AttemptPolicy {
  pair: Allowance;
  address: Allowance;
  account: Allowance[];
}

/** Sign-in passwords (finance users, the admin console, the registry workspace). */
export const SIGN_IN_ATTEMPTS: AttemptPolicy = {
  pair: { points: 5, durationSeconds: 15 * 60 },
  address: { points: 50, durationSeconds: 15 * 60 },
  account: [
    { points: 20, durationSeconds: 15 * 60 },
    { points: 60, durationSeconds: 24 * 3600 },
  ],
};

/** One-time codes (2FA sign-in, 2FA enrolment, phone verification): six digits, so fewer guesses. */
export const CODE_ATTEMPTS: AttemptPolicy = {
  pair: { points: 5, durationSeconds: 15 * 60 },
  address: { points: 50, durationSeconds: 15 * 60 },
  account: [
    { points: 10, durationSeconds: 15 * 60 },
    { points: 30, durationSeconds: 24 * 3600 },
  ],
};

/**
 * Single-use links and codes sent by mail (e-mail verification, password reset, workspace password
 * links): the link names the account, so the limits are per client address (and per address and
 * purpose); no account-wide limit, which a stranger could spend to lock the owner out of their link.
 */
export const TOKEN_ATTEMPTS: AttemptPolicy = {
  pair: { points: 10, durationSeconds: 15 * 60 },
  address: { points: 30, durationSeconds: 15 * 60 },
  account: [],
};

/**
 * Licence keys (60 random bits) presented to the registry: not aimed at one account, so per client
 * address only; a known key gives its attempt back (a node behind the same address is never held up).
 */
export const LICENCE_KEY_ATTEMPTS: AttemptPolicy = {
  pair: { points: 20, durationSeconds: 15 * 60 },
  address: { points: 20, durationSeconds: 15 * 60 },
  account: [],
};

/**
 * A phone verification code: the "account" is the code itself (its user and hash), so that its five
 * guesses are five wherever they come from; the fifth wrong one also ends the code
 * (identity/domain/phone-verification.ts). Per address: as one-time codes.
 */
export const PHONE_CODE_ATTEMPTS: AttemptPolicy = {
  pair: { points: 5, durationSeconds: 15 * 60 },
  address: { points: 50, durationSeconds: 15 * 60 },
  account: [{ points: 5, durationSeconds: 15 * 60 }],
};

/** A reserved attempt: `succeeded()` gives it back (and clears the address's count on that account). */
export interface Attempt {
  succeeded(): Promise<void>;
}

/** Account names are stored hashed (the table holds no user names or e-mail addresses, and keys stay short). */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 32);

export class AttemptThrottle {
  private readonly pair: KeyedLimiter;
  private readonly address: KeyedLimiter;
  private readonly account: KeyedLimiter[];

  constructor(
    store: Store,
    /** Names the throttle (`sign-in`, `totp`, …): each has its own counts. */
    name: string,
    policy: AttemptPolicy,
    /** The 429's message, given the seconds until an attempt is allowed again. */
    private readonly message: (retryAfterSeconds: number) => string,
  ) {
    this.pair = new KeyedLimiter(store, `${name}-pair`, policy.pair);
    this.address = new KeyedLimiter(store, `${name}-addr`, policy.address);
    this.account = policy.account.map((a, i) => new KeyedLimiter(store, `${name}-acct${i}`, a));
  }

  /** Reserves one attempt of `account` from `clientAddress`, or throws 429 (Retry-After) without verifying anything. */
  async reserve(account: string, clientAddress: string | undefined): Promise<Attempt> {
    const acct = digest(account || '-');
    const addr = clientAddress || 'unknown';
    const steps: [KeyedLimiter, string][] = [
      [this.pair, `${addr}|${acct}`],
      [this.address, addr],
      ...this.account.map((l): [KeyedLimiter, string] => [l, acct]),
    ];
    const taken: [KeyedLimiter, string][] = [];
    for (const [limiter, key] of steps) {
      const { allowed, retryAfterSeconds } = await limiter.take(key);
      if (!allowed) {
        // not evaluated: what it took from the other limits goes back
        await Promise.all(taken.map(([l, k]) => l.giveBack(k)));
        throw tooManyRequests(this.message(Math.max(1, Math.ceil(retryAfterSeconds))), retryAfterSeconds);
      }
      taken.push([limiter, key]);
    }
    return {
      succeeded: async () => {
        await Promise.all(taken.map(([l, k]) => (l === this.pair ? l.clear(k) : l.giveBack(k))));
      },
    };
  }

  /**
   * THE way a secret is checked (a password, a one-time or recovery code, a phone code, a mailed
   * token): the attempt is reserved first (429 without evaluating anything once spent), `check`
   * verifies the secret, and a success gives the attempt back. `check` answers whether the secret
   * held; it may also throw (a refusal that is not a wrong guess: the attempt stays counted).
   * test/platform/contract/secret-sites.test.ts finds every verification of a secret in the code
   * and requires it inside a `guard` callback (or in a helper only such callbacks call).
   */
  async guard(account: string, clientAddress: string | undefined, check: () => Promise<boolean>): Promise<boolean> {
    const attempt = await this.reserve(account, clientAddress);
    const held = await check();
    if (held) await attempt.succeeded();
    return held;
  }
}
