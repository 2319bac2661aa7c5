import { randomBytes } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

/**
 * Every password of every product goes through here: one set of parameters and one bound on how
 * many hashes run at once in this process.
 *
 * Parameters: argon2id, 12 MiB, 3 passes, 1 lane: one of the configurations OWASP's Password Storage
 * Cheat Sheet gives as equal in defence (19 MiB and 2 passes, 12 MiB and 3, 9 MiB and 4, …: the same
 * work, traded between memory and CPU), the one that holds 7 MiB less while it runs at the same CPU
 * cost as @node-rs/argon2's default (19 MiB, 2). A stored hash names its own parameters, so hashes made
 * with others (those before this change) still verify.
 *
 * The bound: each hash holds its memory for its whole run, on libuv's thread pool (4 threads by
 * default). Unbounded, four sign-ins at once held 76 MiB, which the allocator then kept: the finance
 * node's peak under the login benchmark was 259 MB, against 200 MB one at a time. Hashes past the
 * bound wait their turn, first come first served (PASSWORD_HASHES_AT_ONCE, default 1; each more
 * buys throughput on a machine with more cores for 12 MiB of peak memory).
 *
 * ESLint (eslint.config.mjs) refuses @node-rs/argon2 anywhere else; test/platform/lint/password-hashing.test.ts
 * holds that rule to every file.
 */
export const PASSWORD_HASH_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id, a const enum */, memoryCost: 12_288, timeCost: 3, parallelism: 1 } as const;

/** A counting semaphore, first come first served; its size can change while it is in use. */
export class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private size: number) {}

  resize(size: number): void {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`slots: ${size} is not a positive integer`);
    this.size = size;
    this.wake();
  }

  /** Runs `work` in a slot (waits for one first). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size || this.waiting.length > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await work();
    } finally {
      this.busy--;
      this.wake();
    }
  }

  /** Work running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.busy, waiting: this.waiting.length };
  }

  private wake(): void {
    while (this.busy < this.size && this.waiting.length > 0) {
      this.busy++;
      this.waiting.shift()!();
    }
  }
}

/** One at a time until a config says otherwise (PASSWORD_HASHES_AT_ONCE, lib/config.ts). */
const slots = new Slots(1);

/** How many hashes may run at once in this process (PASSWORD_HASHES_AT_ONCE); the subgraphs that hold passwords set it from their config. */
export function allowPasswordHashesAtOnce(count: number): void {
  slots.resize(count);
}

/** Hashes running and waiting (tests and diagnostics). */
export const passwordHashLoad = () => slots.load;

/** A password's hash to store (argon2id, PASSWORD_HASH_OPTIONS). */
export function hashPassword(password: string): Promise<string> {
  return slots.run(() => argon2Hash(password, PASSWORD_HASH_OPTIONS));
}

let dummy: Promise<string> | undefined;

/**
 * Whether `password` matches the stored hash. Without a stored hash (no such account, or one without
 * a password) a dummy hash is checked instead and the answer is false: the same work either way, so
 * the time does not tell which accounts exist. A malformed hash is a mismatch. Only inside an attempt
 * throttle's guard (test/platform/lint/secret-sites.test.ts).
 */
export async function verifyPassword(stored: string | null | undefined, password: string | null | undefined): Promise<boolean> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  const against = stored || (await dummy);
  const matches = await slots.run(() => argon2Verify(against, password ?? '').catch(() => false));
  return matches && Boolean(stored);
}
