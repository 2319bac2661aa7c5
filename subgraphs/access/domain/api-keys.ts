import type { EntityManager } from 'typeorm';
import { DomainError, badInput, invalidCredentials, notFound } from '../../../lib/errors';
import type { Principal } from '../../../lib/principal';
import type { ApiKeyStore, KeyForAuth } from '../store/api-key-store';
import type { ApiKeyRow } from '../store/entities';
import { generateKey, hashKey, hashMatches, isWellFormedKey, keyPrefix } from './key-format';
import { PLANS, effectiveLimit, isPlanCode, quotaWindow, type PlanCode } from './plans';

export type ApiKeyPrincipal = Extract<Principal, { kind: 'api-key' }>;

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

/** How long a verified key's row is reused without asking the database (revocation also evicts it at once). */
const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_MAX = 10_000;

/** API keys: issue (shown once), verify, meter, revoke, change plan. */
export class ApiKeyService {
  /**
   * Rows of keys that verified recently, by prefix: the verification of each request then costs one
   * SQL statement (the metering), not two. Revocations and plan changes evict a key in every
   * process (NOTIFY, see `forget`); the TTL bounds staleness should a notification be lost.
   */
  private readonly verified = new Map<string, { row: KeyForAuth; at: number }>();

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Verifies a presented key and, when `meter` is set, counts one request against its daily quota. */
  async authenticate(rawKey: string, opts: { meter: boolean }): Promise<Authentication> {
    if (!isWellFormedKey(rawKey)) throw invalidCredentials('Invalid API key.');
    const row = await this.keyRow(keyPrefix(rawKey));
    if (!row || !hashMatches(rawKey, row.hash)) throw invalidCredentials('Invalid API key.');
    if (row.revokedAt) throw invalidCredentials('This API key has been revoked.');
    const principal: ApiKeyPrincipal = { kind: 'api-key', keyId: row.id, prefix: row.prefix, name: row.name, role: row.role, plan: row.planCode };
    const now = this.clock();
    const limit = effectiveLimit(row.planCode, row.dailyLimit);
    if (limit === null || !opts.meter) {
      await this.keys.touch(row.id, now);
      return { principal, quota: null };
    }
    const { day, resetAt } = quotaWindow(now);
    const used = await this.keys.meter(row.id, day, limit, now);
    if (used === undefined) throw rateLimited(limit, resetAt, now);
    return { principal, quota: { limit, used, remaining: limit - used, resetAt } };
  }

  /** `tx`: issue the key inside that transaction (see ApplicationService.approve). */
  /** A key was revoked or changed (here or in another process): its cached row goes. */
  forget(prefix: string): void {
    this.verified.delete(prefix);
  }

  private async keyRow(prefix: string): Promise<KeyForAuth | undefined> {
    const now = Date.now();
    const hit = this.verified.get(prefix);
    if (hit && now - hit.at < KEY_CACHE_TTL_MS) return hit.row;
    const row = await this.keys.findForAuth(prefix);
    // only existing keys are cached: unknown prefixes cannot fill the memory
    if (row) {
      if (this.verified.size >= KEY_CACHE_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(prefix, { row, at: now });
    } else this.verified.delete(prefix);
    return row;
  }

  async create(input: NewKeyInput, tx?: EntityManager): Promise<{ key: string; record: ApiKeyRow }> {
    const name = input.name?.trim();
    if (!name || name.length > 200) throw badInput('name must be 1 to 200 characters.');
    const { plan, dailyLimit } = this.validatePlan(input.plan, input.dailyLimit ?? null);
    const key = generateKey();
    const record = await this.keys.insert({
      prefix: keyPrefix(key),
      hash: hashKey(key),
      name,
      email: input.email?.trim() || null,
      role: input.role ?? 'client',
      planCode: plan,
      dailyLimit,
    }, tx);
    return { key, record };
  }

  async revoke(ref: string): Promise<ApiKeyRow> {
    const row = await this.find(ref);
    this.forget(row.prefix);
    return (await this.keys.revoke(row.id, this.clock()))!;
  }

  async changePlan(ref: string, planInput: string, dailyLimitInput?: number | null): Promise<ApiKeyRow> {
    const row = await this.find(ref);
    const { plan, dailyLimit } = this.validatePlan(planInput, dailyLimitInput ?? null);
    this.forget(row.prefix);
    return (await this.keys.setPlan(row.id, plan, dailyLimit))!;
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
   * First start: ADMIN_API_KEY from the environment becomes the administrator key (stored hashed).
   * Without it, and with no administrator yet, one is generated; its plaintext is returned once.
   */
  async bootstrapAdmin(envKey: string | undefined): Promise<{ generatedKey?: string }> {
    if (envKey) {
      if (!isWellFormedKey(envKey)) throw badInput('ADMIN_API_KEY must be 24 to 128 characters of A-Z, a-z, 0-9, "_" or "-".');
      const existing = await this.keys.findByPrefix(keyPrefix(envKey));
      if (existing && hashMatches(envKey, existing.hash)) return {};
      if (existing) throw badInput('ADMIN_API_KEY shares its 12-character prefix with another key; choose another key.');
      await this.keys.insert({ prefix: keyPrefix(envKey), hash: hashKey(envKey), name: 'Administrator (ADMIN_API_KEY)', email: null, role: 'admin', planCode: 'enterprise', dailyLimit: null });
      return {};
    }
    if (await this.keys.hasActiveAdmin()) return {};
    const { key } = await this.create({ name: 'Administrator', plan: 'enterprise', role: 'admin', dailyLimit: null });
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
