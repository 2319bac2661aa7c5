/**
 * Answers of operations that are the same whoever asks (lib/cache-policy.ts), kept per process and
 * keyed by operation, variables and the caller's class of principal (its kind, and whether it is an
 * administrator: authorisation gives every principal of one class the same answer to these fields).
 * The caller is still authenticated and metered before an answer is looked up.
 *
 * Each answer is tagged with the subgraphs it was read from. A change to a subgraph's cached tables
 * (NOTIFY DATA_CHANGED, from their triggers, in every process) evicts its tag at once, and an answer
 * whose execution overlapped the change is never stored (`begin` takes the tags' generations before
 * the execution, `set` checks them after). While the notifications may be missed (the LISTEN
 * connection is down or not yet up) nothing is served or stored: the cache is empty until they
 * arrive again. Entries live at most `ttlMs` (a backstop); the answers held weigh `maxBytes` at most
 * (as JSON), the least recently used going first, and an answer over a tenth of that is not kept.
 */
export interface ResponseCacheOptions {
  maxBytes: number;
  ttlMs: number;
  now?: () => number;
}

interface Entry {
  value: unknown;
  tags: readonly string[];
  expires: number;
  bytes: number;
}

/** What an execution saw of its tags when it started; `set` stores nothing when they moved since. */
export interface Ticket {
  epoch: number;
  generations: number[];
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly generations = new Map<string, number>();
  /** Bumped by `clear`: every ticket before it is void. */
  private epoch = 0;
  private listening = false;
  private readonly now: () => number;

  constructor(private readonly opts: ResponseCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Whether answers are served and stored (the change notifications arrive). */
  get active(): boolean {
    return this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the answers held weigh, as JSON (UTF-16 code units, about bytes). */
  get weight(): number {
    return this.bytes;
  }

  begin(tags: readonly string[]): Ticket {
    return { epoch: this.epoch, generations: tags.map((t) => this.generations.get(t) ?? 0) };
  }

  get(key: string): unknown {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= this.now()) {
      this.bytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, tags: readonly string[], ticket: Ticket, value: unknown): void {
    if (!this.listening || ticket.epoch !== this.epoch) return;
    if (tags.some((t, i) => (this.generations.get(t) ?? 0) !== ticket.generations[i])) return;
    const bytes = key.length + (JSON.stringify(value)?.length ?? 0);
    if (bytes > this.opts.maxBytes / 10) return;
    this.remove(key);
    this.entries.set(key, { value, tags, expires: this.now() + this.opts.ttlMs, bytes });
    this.bytes += bytes;
    while (this.bytes > this.opts.maxBytes) this.remove(this.entries.keys().next().value!);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /** The data of `tag` changed: its answers go, and the executions under way will not store theirs. */
  invalidate(tag: string): void {
    this.generations.set(tag, (this.generations.get(tag) ?? 0) + 1);
    for (const [key, entry] of this.entries) if (entry.tags.includes(tag)) this.remove(key);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.bytes = 0;
  }

  /** The change notifications arrive (true) or may be missed (false): either way, what is held may be stale. */
  setListening(listening: boolean): void {
    this.clear();
    this.listening = listening;
  }
}

/** JSON with object keys sorted: the same variables give the same key whatever order they came in. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}
