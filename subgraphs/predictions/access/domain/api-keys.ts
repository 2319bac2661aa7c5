import type { EntityManager } from 'typeorm';
import { DomainError, badInput, invalidCredentials, notFound } from '../../../../lib/errors';
import type { PrincipalOf } from '../../../../lib/principal';
import { apiKeyCredential } from '../credential';
import { OPERATOR_KEY_RULE, operatorKeyProblem } from '../operator-keys';
import type { ApiKeyStore, KeyForAuth } from '../store/api-key-store';
import type { ApiKeyRow } from '../store/entities';
import { generateKey, hashKey, hashMatches, isWellFormedKey, keyPrefix } from './key-format';
import { PLANS, effectiveLimit, isPlanCode, quotaWindow, type PlanCode } from './plans';

export type ApiKeyPrincipal = PrincipalOf<'api-key'>;

export interface Quota {
  limit: number;
  used: number;
  remaining: number;
  resetAt: Date;
}

export interface Authentication {
  principal: ApiKeyPrincipal;
  /** null for unlimited keys. */
  quota: Quota | null;
}

export interface NewKeyInput {
  name: string;
  plan: string;
  role?: 'client' | 'admin';
  dailyLimit?: number | null;
  email?: string | null;
}

export const rateLimited = (limit: number, resetAt: Date, now: Date) =>
  new DomainError('RATE_LIMITED', 429, `Daily quota of ${limit} requests exceeded; it resets at ${resetAt.toISOString()} (00:00 UTC).`, {
    limit,
    remaining: 0,
    resetAt: resetAt.toISOString(),
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  });

/**
 * How long a verified key's row (hash, plan, limit) is reused without reading it again. Revocation
 * does not wait for it (every request's metering statement checks it); a plan change reaches every
 * process at once by NOTIFY, and within this bound should a notification be lost.
 */
const KEY_CACHE_TTL_MS = apiKeyCredential.cache!.ttlSeconds * 1000;
const KEY_CACHE_MAX = 10_000;
/** How long, and for how many prefixes, "no such key" is remembered (a new key evicts its prefix at once). */
const UNKNOWN_TTL_MS = 60_000;
const UNKNOWN_MAX = 10_000;

const revokedKey = () => invalidCredentials('This API key has been revoked.');

/** API keys: issue (shown once), verify, meter, revoke, change plan. */
export class ApiKeyService {
  /**
   * Rows of keys that verified recently, by prefix: the verification of each request then costs one
   * SQL statement (the metering), not two. Revocations and plan changes evict a key in every
   * process (NOTIFY, see `forget`); the TTL bounds staleness should a notification be lost.
   */
  private readonly verified = new Map<string, { row: KeyForAuth; at: number }>();
  /**
   * Prefixes that matched no key, recently (a client still sending a deleted key, someone guessing):
   * each costs one database round trip per minute, not one per request. Bounded: the oldest go first.
   * A key created here or in another process (NOTIFY, see `forget`) evicts its prefix.
   */
  private readonly unknown = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly clock: () => Date = () => new Date(),
    /** How many unknown prefixes are remembered at most. */
    private readonly unknownMax = UNKNOWN_MAX,
  ) {}

  /** Verifies a presented key and, when `meter` is set, counts one request against its daily quota. */
  async authenticate(rawKey: string, opts: { meter: boolean }): Promise<Authentication> {
    if (!isWellFormedKey(rawKey)) throw invalidCredentials('Invalid API key.');
    const row = await this.keyRow(keyPrefix(rawKey));
    if (!row || !hashMatches(rawKey, row.hash)) throw invalidCredentials('Invalid API key.');
    if (row.revokedAt) throw revokedKey();
    const principal: ApiKeyPrincipal = {
      kind: 'api-key',
      keyId: row.id,
      prefix: row.prefix,
      name: row.name,
      role: row.role,
      plan: row.planCode,
      administrator: row.role === 'admin',
    };
    const now = this.clock();
    const limit = effectiveLimit(row.planCode, row.dailyLimit);
    if (limit === null || !opts.meter) {
      if (!(await this.keys.touch(row.id, now))) throw this.revokedMeanwhile(row.prefix);
      return { principal, quota: null };
    }
    const { day, resetAt } = quotaWindow(now);
    const metered = await this.keys.meter(row.id, day, limit, now);
    if (metered.revoked) throw this.revokedMeanwhile(row.prefix);
    const used = metered.count;
    if (used === undefined) throw rateLimited(limit, resetAt, now);
    return { principal, quota: { limit, used, remaining: limit - used, resetAt } };
  }

  /**
   * Gives back the unit a metered request took when its answer was the server's fault (a 5xx, a
   * subgraph failure): the gateway asks once per metered operation, with the ticket it drew then and
   * the reset time of the window it was counted in (its day, whatever the day is now). A ticket given
   * back before gives back nothing. The quota after it, or null when nothing was given back (an
   * unlimited key, a repeated ticket).
   */
  async giveBack(rawKey: string, ticket: string, resetAt: Date): Promise<Quota | null> {
    if (!isWellFormedKey(rawKey)) throw invalidCredentials('Invalid API key.');
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ticket)) throw badInput('ticket must be a UUID.');
    if (Number.isNaN(resetAt.getTime())) throw badInput('resetAt must be a date.');
    const row = await this.keyRow(keyPrefix(rawKey));
    if (!row || !hashMatches(rawKey, row.hash)) throw invalidCredentials('Invalid API key.');
    const limit = effectiveLimit(row.planCode, row.dailyLimit);
    if (limit === null) return null;
    // the window that ends at resetAt (00:00 UTC): its day is the one before
    const { day } = quotaWindow(new Date(resetAt.getTime() - 1));
    const used = await this.keys.giveBack(row.id, day, ticket);
    return used === undefined ? null : { limit, used, remaining: Math.max(0, limit - used), resetAt };
  }

  /** A key was revoked or changed (here or in another process): its cached row goes. */
  forget(prefix: string): void {
    this.verified.delete(prefix);
    this.unknown.delete(prefix);
  }

  /** The cached row said active, the database says revoked (its NOTIFY did not arrive): the row goes. */
  private revokedMeanwhile(prefix: string) {
    this.forget(prefix);
    return revokedKey();
  }

  private async keyRow(prefix: string): Promise<KeyForAuth | undefined> {
    const now = this.clock().getTime();
    const hit = this.verified.get(prefix);
    if (hit && now - hit.at < KEY_CACHE_TTL_MS) return hit.row;
    const missed = this.unknown.get(prefix);
    if (missed !== undefined && now - missed < UNKNOWN_TTL_MS) return undefined;
    const row = await this.keys.findForAuth(prefix);
    if (row) {
      if (this.verified.size >= KEY_CACHE_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(prefix, { row, at: now });
      this.unknown.delete(prefix);
    } else {
      this.verified.delete(prefix);
      this.unknown.delete(prefix);
      if (this.unknown.size >= this.unknownMax) this.unknown.delete(this.unknown.keys().next().value!);
      this.unknown.set(prefix, now);
    }
    return row;
  }

  /** `tx`: issue the key inside that transaction (see ApplicationService.approve). */
  async create(input: NewKeyInput, tx?: EntityManager): Promise<{ key: string; record: ApiKeyRow }> {
    const name = input.name?.trim();
    if (!name || name.length > 200) throw badInput('name must be 1 to 200 characters.');
    const { plan, dailyLimit } = this.validatePlan(input.plan, input.dailyLimit ?? null);
    const key = generateKey();
    const record = await this.keys.insert(
      {
        prefix: keyPrefix(key),
        hash: hashKey(key),
        name,
        email: input.email?.trim() || null,
        role: input.role ?? 'client',
        planCode: plan,
        dailyLimit,
      },
      tx,
    );
    this.forget(record.prefix);
    return { key, record };
  }

  // the cache is cleared after the change commits: cleared before, a request in between would cache the old row again
  async revoke(ref: string): Promise<ApiKeyRow> {
    const row = await this.find(ref);
    const revoked = (await this.keys.revoke(row.id, this.clock()))!;
    this.forget(row.prefix);
    return revoked;
  }

  async changePlan(ref: string, planInput: string, dailyLimitInput?: number | null): Promise<ApiKeyRow> {
    const row = await this.find(ref);
    const { plan, dailyLimit } = this.validatePlan(planInput, dailyLimitInput ?? null);
    const changed = (await this.keys.setPlan(row.id, plan, dailyLimit))!;
    this.forget(row.prefix);
    return changed;
  }

  list(opts: { includeRevoked?: boolean } = {}): Promise<ApiKeyRow[]> {
    return this.keys.list({ includeRevoked: opts.includeRevoked ?? false });
  }

  /** Today's request count per key. */
  usageToday(keyIds: readonly string[]): Promise<Map<string, number>> {
    return this.keys.usage(keyIds, quotaWindow(this.clock()).day);
  }

  /** A key by id or by its public prefix. */
  async find(ref: string): Promise<ApiKeyRow> {
    const trimmed = ref?.trim() ?? '';
    const row = /^[0-9a-f-]{36}$/i.test(trimmed) ? await this.keys.findById(trimmed) : await this.keys.findByPrefix(keyPrefix(trimmed));
    if (!row) throw notFound(`No API key matches "${trimmed.slice(0, 12)}".`);
    return row;
  }

  /**
   * ADMIN_API_KEY from the environment is the administrator key (stored hashed). Setting or changing
   * it replaces the seeded administrator key: the previous ADMIN_API_KEY, or the key generated at the
   * first start, is revoked (in every process at once), so rotating after a leak locks the leaked
   * key out. Administrator keys created by hand (`keys create --admin`) are not touched. Without
   * ADMIN_API_KEY and with no administrator yet, one is generated; its plaintext is returned once.
   */
  async bootstrapAdmin(envKey: string | undefined): Promise<{ generatedKey?: string; revokedPrefixes?: string[] }> {
    if (envKey) {
      const problem = operatorKeyProblem(envKey);
      if (problem) throw badInput(`ADMIN_API_KEY ${problem}.`);
      const existing = await this.keys.findByPrefix(keyPrefix(envKey));
      if (existing && !hashMatches(envKey, existing.hash)) throw badInput('ADMIN_API_KEY shares its 12-character prefix with another key; choose another key.');
      if (existing && (existing.revokedAt || existing.role !== 'admin')) {
        throw badInput(`ADMIN_API_KEY is a key that was ${existing.revokedAt ? 'revoked' : 'issued to a client'}; choose a new one: ${OPERATOR_KEY_RULE}.`);
      }
      const revokedPrefixes = await this.keys.replaceBootstrapAdmin(
        { prefix: keyPrefix(envKey), hash: hashKey(envKey), name: 'Administrator (ADMIN_API_KEY)' },
        this.clock(),
      );
      revokedPrefixes.forEach((prefix) => this.forget(prefix));
      // the new key's prefix may be remembered as unknown
      this.forget(keyPrefix(envKey));
      return revokedPrefixes.length ? { revokedPrefixes } : {};
    }
    if (await this.keys.hasActiveAdmin()) return {};
    const { key, record } = await this.create({ name: 'Administrator', plan: 'enterprise', role: 'admin', dailyLimit: null });
    await this.keys.markBootstrap(record.id);
    return { generatedKey: key };
  }

  private validatePlan(planInput: string, dailyLimit: number | null): { plan: PlanCode; dailyLimit: number | null } {
    const plan = planInput?.trim().toLowerCase();
    if (!isPlanCode(plan)) throw badInput(`plan must be one of ${PLANS.map((p) => p.code).join(', ')}.`);
    if (dailyLimit !== null && (!Number.isInteger(dailyLimit) || dailyLimit < 1 || dailyLimit > 10_000_000)) {
      throw badInput('dailyLimit must be a whole number between 1 and 10,000,000.');
    }
    if (dailyLimit !== null && plan !== 'enterprise') throw badInput('Only Enterprise keys have a custom daily limit.');
    return { plan, dailyLimit };
  }
}
