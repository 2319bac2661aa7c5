import type { SupergraphClient } from '../../../lib/supergraph-client';

/** NOTIFY channel: a provider credential was saved or deleted in the admin console (payload: the provider). */
export const PROVIDER_CREDENTIAL_CHANGED = 'finance_provider_credential_changed';

/** One credential a provider client reads: its environment variable, else the console's record `provider`/`name`. */
export interface ProviderSecretRef {
  provider: string;
  name: string;
  env: string;
}

/** Reads the console's record (undefined when there is none). */
export type ProviderSecretLookup = (provider: string, name: string) => Promise<string | undefined>;

const TTL_MS = 60_000;

/**
 * A module's provider credentials, asked at call time so that a credential saved in the admin
 * console works without a restart. Precedence: an environment variable that is set wins (what the
 * operator set explicitly for this process); otherwise the console's encrypted record. Records are
 * kept for a minute at most and dropped at once when the console changes one (NOTIFY
 * PROVIDER_CREDENTIAL_CHANGED; the TTL is the backstop should a notification be lost). Values are
 * never logged and never part of an error message.
 */
export class ProviderSecrets {
  private readonly cached = new Map<string, { value: Promise<string | undefined>; at: number }>();
  private generation = 0;
  private readonly waiters: { after: number; resolve: () => void }[] = [];

  constructor(
    private readonly env: Readonly<Record<string, unknown>>,
    private readonly lookup: ProviderSecretLookup,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The secret, or undefined when neither the environment nor the console holds it. */
  get(ref: ProviderSecretRef): Promise<string | undefined> {
    const fromEnv = this.env[ref.env];
    if (typeof fromEnv === 'string' && fromEnv.trim() !== '') return Promise.resolve(fromEnv);
    const key = `${ref.provider}\n${ref.name}`;
    const hit = this.cached.get(key);
    if (hit && this.clock() - hit.at < TTL_MS) return hit.value;
    const value = this.lookup(ref.provider, ref.name);
    const entry = { value, at: this.clock() };
    this.cached.set(key, entry);
    // a failed read is not kept: the next call asks again
    value.catch(() => {
      if (this.cached.get(key) === entry) this.cached.delete(key);
    });
    return value;
  }

  /** Every one of `refs`, or undefined when any is missing. */
  async all<K extends string>(refs: Record<K, ProviderSecretRef>): Promise<Record<K, string> | undefined> {
    const entries = await Promise.all(Object.entries<ProviderSecretRef>(refs).map(async ([k, ref]) => [k, await this.get(ref)] as const));
    return entries.every(([, v]) => v) ? (Object.fromEntries(entries) as Record<K, string>) : undefined;
  }

  /** A credential changed in the console (`provider`, or any when not given). */
  evict(provider?: string): void {
    for (const key of [...this.cached.keys()]) if (!provider || key.startsWith(`${provider}\n`)) this.cached.delete(key);
    this.generation++;
    for (const w of this.waiters.splice(0)) if (this.generation > w.after) w.resolve();
  }

  /** How many evictions so far (with `evictedAfter`: a deterministic wait in tests). */
  get evictions(): number {
    return this.generation;
  }

  /** Resolves once an eviction has happened after the `evictions` count given. */
  evictedAfter(count: number): Promise<void> {
    if (this.generation > count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ after: count, resolve }));
  }
}

const PROVIDER_SECRET = `query ProviderSecret($provider: String!, $name: String!) { providerSecret(provider: $provider, name: $name) }`;

/** How a finance module reads the console's records: the node subgraph's `providerSecret`, as its service principal. */
export function providerSecretsFromSupergraph(supergraph: SupergraphClient): ProviderSecretLookup {
  return async (provider, name) => {
    const data = await supergraph.request<{ providerSecret: string | null }>(PROVIDER_SECRET, { provider, name });
    return data.providerSecret ?? undefined;
  };
}
