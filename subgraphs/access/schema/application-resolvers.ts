import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { isAdmin, type Principal } from '../../../lib/principal';
import type { SubgraphContext } from '../../../lib/subgraph';
import type { Submission } from '../domain/applications';
import type { AccessServices } from '../services';
import type { ApplicationRow } from '../store/application-store';
import { AccessApplication, AccessApplicationInput, AccessApplicationReceipt, ApplicationSourceEnum, ApplicationStatusEnum } from './application-types';
import { PlanCodeEnum } from './types';

function toApplication(row: ApplicationRow): AccessApplication {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    usage: row.usage,
    source: row.source as ApplicationSourceEnum,
    status: row.status as ApplicationStatusEnum,
    plan: row.planCode as PlanCodeEnum | null,
    keyPrefix: row.keyPrefix,
    decidedAt: row.decidedAt,
    decidedBy: row.decidedBy,
    rejectionReason: row.rejectionReason,
    createdAt: row.createdAt,
  };
}

function toReceipt({ application: a, created }: Submission): AccessApplicationReceipt {
  const message = created
    ? 'Application received. An administrator will review it; on approval the key is sent to your e-mail address.'
    : `You already applied with this e-mail address and intended usage; that application is ${a.status}. No new application was made.`;
  return { id: a.id, status: a.status as ApplicationStatusEnum, created, createdAt: a.createdAt, message };
}

const decidedBy = (p: Principal) => (p.kind === 'api-key' ? `${p.name} (${p.prefix})` : p.kind);

@Resolver()
export class ApplicationResolver {
  constructor(private readonly services: AccessServices) {}

  @Mutation(() => AccessApplicationReceipt, {
    description: 'Applies for an API key (no key needed). The same application again returns the existing one (created: false).',
  })
  async submitApplication(@Arg('input') input: AccessApplicationInput): Promise<AccessApplicationReceipt> {
    return toReceipt(await this.services.applications.submit(input));
  }

  @Mutation(() => AccessApplicationReceipt, {
    description:
      'Applies by e-mail: a raw RFC 822 message with the subject "API Access Request". Called by the inbound-mail webhook with its ' +
      'shared secret (INBOUND_MAIL_SECRET); administrators need none.',
  })
  async submitApplicationEmail(
    @Arg('rawMessage') rawMessage: string,
    @Arg('secret', () => String, { nullable: true, description: 'The webhook secret (INBOUND_MAIL_SECRET)' }) secret: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<AccessApplicationReceipt> {
    const caller = isAdmin(ctx.principal) ? ({ kind: 'trusted' } as const) : ({ kind: 'webhook', secret } as const);
    return toReceipt(await this.services.applications.submitEmail(rawMessage, caller));
  }

  @Authorized('admin')
  @Query(() => [AccessApplication], { description: 'Access applications, newest first (administrators).' })
  async applications(
    @Arg('status', () => ApplicationStatusEnum, { nullable: true }) status: ApplicationStatusEnum | null,
    @Arg('first', () => Int, { nullable: true, description: '1–200, default 50' }) first: number | null,
  ): Promise<AccessApplication[]> {
    return (await this.services.applications.list({ status, first })).map(toApplication);
  }

  @Authorized('admin')
  @Query(() => AccessApplication, { description: 'One access application (administrators).' })
  async application(@Arg('id', () => ID) id: string): Promise<AccessApplication> {
    return toApplication(await this.services.applications.get(id));
  }

  @Authorized('admin')
  @Mutation(() => AccessApplication, {
    description: 'Approves a pending application: issues a key on the plan (dailyLimit: Enterprise only) and mails it to the applicant. 409 once decided.',
  })
  async approveApplication(
    @Arg('id', () => ID) id: string,
    @Arg('plan', () => PlanCodeEnum) plan: PlanCodeEnum,
    @Arg('dailyLimit', () => Int, { nullable: true }) dailyLimit: number | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<AccessApplication> {
    return toApplication(await this.services.applications.approve(id, { plan, dailyLimit, decidedBy: decidedBy(ctx.principal) }));
  }

  @Authorized('admin')
  @Mutation(() => AccessApplication, { description: 'Rejects a pending application and tells the applicant (with the reason, if given). 409 once decided.' })
  async rejectApplication(
    @Arg('id', () => ID) id: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<AccessApplication> {
    return toApplication(await this.services.applications.reject(id, { reason, decidedBy: decidedBy(ctx.principal) }));
  }
}
