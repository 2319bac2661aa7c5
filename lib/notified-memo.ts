/**
 * A value computed from a subgraph's own tables (a summary, an extent, a status), kept in memory and
 * computed again only when those tables announce a change (NOTIFY, `invalidate`) or when the value
 * itself says it goes out of date by time alone (`validUntil`, e.g. the next kick-off).
 *
 * - It holds a value only while the announcements arrive (`listening(true)`): before the first LISTEN,
 *   and from a lost connection until the next LISTEN, every read computes afresh.
 * - A computation that overlapped an announcement is handed to its readers but not kept.
 * - Readers arriving while a computation runs share it (one computation, not one per request).
 * - `maxAgeMs` is only a backstop (a missed announcement cannot keep a value forever).
 */
export interface NotifiedMemoOptions<T> {
  /** When the value goes out of date with no write to any table (epoch ms); undefined: never. */
  validUntil?: (value: T) => number | undefined;
  /** The time (epoch ms): Date.now unless a test sets it. */
  now?: () => number;
  /** Backstop age (default 5 minutes). */
  maxAgeMs?: number;
}

const DEFAULT_MAX_AGE_MS = 5 * 60_000;

export class NotifiedMemo<T> {
  private held: { value: T; from: number; until: number } | undefined;
  private pending: Promise<T> | undefined;
  private generation = 0;
  private heard = false;

  constructor(
    private readonly compute: () => Promise<T>,
    private readonly options: NotifiedMemoOptions<T> = {},
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Whether the announcements that invalidate it arrive (the LISTEN connection's state). */
  listening(on: boolean): void {
    this.heard = on;
    this.invalidate();
  }

  /** The tables changed: the next read computes afresh. */
  invalidate(): void {
    this.generation++;
    this.held = undefined;
    this.pending = undefined;
  }

  get(): Promise<T> {
    if (!this.heard) return this.compute();
    const now = this.now();
    // a clock set back before the value was made (a test's clock) does not see it either
    if (this.held && now >= this.held.from && now < this.held.until) return Promise.resolve(this.held.value);
    if (this.pending) return this.pending;
    const generation = this.generation;
    const started = now;
    const pending = this.compute().then(
      (value) => {
        if (this.pending === pending) this.pending = undefined;
        if (generation === this.generation && this.heard) {
          const until = Math.min(this.options.validUntil?.(value) ?? Infinity, started + (this.options.maxAgeMs ?? DEFAULT_MAX_AGE_MS));
          this.held = { value, from: started, until };
        }
        return value;
      },
      (err: unknown) => {
        if (this.pending === pending) this.pending = undefined;
        throw err;
      },
    );
    this.pending = pending;
    return pending;
  }
}
