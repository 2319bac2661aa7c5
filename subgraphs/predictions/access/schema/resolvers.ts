import { Arg, Authorized, Ctx, Directive, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import type { AccessServices } from '../services';
import type { ApiKeyRow } from '../store/entities';
import { effectiveLimit, PLANS } from '../domain/plans';
import { ApiKey, CreateApiKeyInput, CreatedApiKey, KeyAuthentication, Plan, PlanCodeEnum, Viewer, type KeyRole } from './types';

function toApiKey(row: ApiKeyRow, usedToday: number): ApiKey {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    email: row.email,
    role: row.role as KeyRole,
    plan: row.planCode as PlanCodeEnum,
    dailyLimit: effectiveLimit(row.planCode, row.dailyLimit),
    usedToday,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

@Resolver()
export class AccessResolver {
  constructor(private readonly services: AccessServices) {}

  @Query(() => [Plan], { description: 'The plans and their daily allowances.' })
  plans(): Plan[] {
    return PLANS.map((p) => ({ ...p, code: p.code as PlanCodeEnum }));
  }

  @Authorized()
  @Query(() => Viewer, { description: 'The API key making this request.' })
  viewer(@Ctx() ctx: SubgraphContext): Viewer {
    const p = ctx.principal;
    if (p.kind !== 'api-key') throw unauthenticated();
    return { prefix: p.prefix, name: p.name, role: p.role as KeyRole, plan: p.plan as PlanCodeEnum };
  }

  @Authorized('admin')
  @Query(() => [ApiKey], { description: 'All API keys (administrators).' })
  async apiKeys(@Arg('includeRevoked', { defaultValue: false }) includeRevoked: boolean): Promise<ApiKey[]> {
    const rows = await this.services.apiKeys.list({ includeRevoked });
    const usage = await this.services.apiKeys.usageToday(rows.map((r) => r.id));
    return rows.map((r) => toApiKey(r, usage.get(r.id) ?? 0));
  }

  @Authorized('admin')
  @Mutation(() => CreatedApiKey, { description: 'Issues a key. The response is the only time the key is shown.' })
  async createApiKey(@Arg('input') input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const { key, record } = await this.services.apiKeys.create(input);
    return { key, apiKey: toApiKey(record, 0) };
  }

  @Authorized('admin')
  @Mutation(() => ApiKey, { description: 'Revokes a key (by id or prefix); it stops working at once.' })
  async revokeApiKey(@Arg('key', () => ID, { description: 'Key id or prefix' }) ref: string): Promise<ApiKey> {
    const row = await this.services.apiKeys.revoke(ref);
    return toApiKey(row, (await this.services.apiKeys.usageToday([row.id])).get(row.id) ?? 0);
  }

  @Authorized('admin')
  @Mutation(() => ApiKey, { description: 'Moves a key to another plan; dailyLimit applies to Enterprise keys.' })
  async changeApiKeyPlan(
    @Arg('key', () => ID, { description: 'Key id or prefix' }) ref: string,
    @Arg('plan', () => PlanCodeEnum) plan: PlanCodeEnum,
    @Arg('dailyLimit', () => Int, { nullable: true }) dailyLimit?: number | null,
  ): Promise<ApiKey> {
    const row = await this.services.apiKeys.changePlan(ref, plan, dailyLimit);
    return toApiKey(row, (await this.services.apiKeys.usageToday([row.id])).get(row.id) ?? 0);
  }

  /** The gateway verifies every presented key here, once per operation, and meters it. */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => KeyAuthentication)
  async authenticateApiKey(@Arg('apiKey') apiKey: string, @Arg('meter') meter: boolean): Promise<KeyAuthentication> {
    const { principal, quota } = await this.services.apiKeys.authenticate(apiKey, { meter });
    return {
      keyId: principal.keyId,
      prefix: principal.prefix,
      name: principal.name,
      role: principal.role as KeyRole,
      plan: principal.plan as PlanCodeEnum,
      limit: quota?.limit ?? null,
      remaining: quota?.remaining ?? null,
      resetAt: quota?.resetAt ?? null,
    };
  }

  /**
   * The gateway gives back the unit an operation took when its answer was the server's fault (5xx):
   * once per metered operation (`ticket`), counted in the window ending at `resetAt`. The requests
   * left after it, or null when nothing was given back (unlimited key, ticket seen before).
   */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => Int, { nullable: true })
  async giveBackApiKeyRequest(@Arg('apiKey') apiKey: string, @Arg('ticket') ticket: string, @Arg('resetAt') resetAt: string): Promise<number | null> {
    return (await this.services.apiKeys.giveBack(apiKey, ticket, new Date(resetAt)))?.remaining ?? null;
  }
}
