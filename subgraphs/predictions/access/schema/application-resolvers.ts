import { Arg, Authorized, Ctx, Directive, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { isAdmin, type Principal } from '../../../../lib/principal';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { RECEIVED_MESSAGE, type ConfirmationState, type Submitter } from '../domain/applications';
import type { AccessServices } from '../services';
import type { ApplicationRow } from '../store/application-store';
import {
  AccessApplication,
  AccessApplicationConfirmation,
  AccessApplicationInput,
  AccessApplicationReceipt,
  ApplicationMailboxInfo,
  ApplicationSourceEnum,
  ApplicationStatusEnum,
  ConfirmationStateEnum,
} from './application-types';
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
    confirmedAt: row.confirmedAt,
    createdAt: row.createdAt,
  };
}

const RECEIVED: AccessApplicationReceipt = { message: RECEIVED_MESSAGE };

const toConfirmation = (c: ConfirmationState): AccessApplicationConfirmation => ({
  state: c.state as ConfirmationStateEnum,
  name: c.state === 'invalid' ? null : c.name,
});

/** Anyone (the form, JSON, GraphQL) counts against the per-address limit; administrators do not. */
const submitterOf = (ctx: SubgraphContext): Submitter => (isAdmin(ctx.principal) ? { kind: 'trusted' } : { kind: 'public', clientAddress: ctx.clientAddress });

const decidedBy = (p: Principal) => (p.kind === 'api-key' ? `${p.name} (${p.prefix})` : p.kind);

const ORIGIN_DOC =
  "The prediction API's origin as the applicant's request named it (the REST surface passes it): the links of the application's mails " +
  'when PUBLIC_URL_PREDICTIONS is unset (development). Ignored unless an http(s) origin.';

@Resolver()
export class ApplicationResolver {
  constructor(private readonly services: AccessServices) {}

  @Query(() => ApplicationMailboxInfo, { description: 'Where to apply by e-mail (public): the mailbox address and its SMTP receiver.' })
  applicationMailbox(): ApplicationMailboxInfo {
    const m = this.services.mailbox.info();
    return { address: m.address, smtpHost: m.host, smtpPort: m.port, ...m.counts };
  }

  @Mutation(() => AccessApplicationReceipt, {
    description:
      'Applies for an API key (no key needed; limited per client address). A link to confirm the address is mailed to it; the same ' +
      'application again makes no second one. The answer is the same in every case.',
  })
  async submitApplication(
    @Arg('input') input: AccessApplicationInput,
    @Ctx() ctx: SubgraphContext,
    @Arg('origin', () => String, { nullable: true, description: ORIGIN_DOC }) origin: string | null = null,
  ): Promise<AccessApplicationReceipt> {
    await this.services.applications.submit(input, submitterOf(ctx), 'form', null, origin);
    return RECEIVED;
  }

  @Mutation(() => AccessApplicationReceipt, {
    description:
      'Applies by e-mail: a raw RFC 822 message with the subject "API Access Request". For the inbound-mail webhook, whose secret ' +
      '(INBOUND_MAIL_SECRET) comes only in the X-Inbound-Mail-Secret header; administrators need none.',
  })
  async submitApplicationEmail(
    @Arg('rawMessage') rawMessage: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('origin', () => String, { nullable: true, description: ORIGIN_DOC }) origin: string | null = null,
  ): Promise<AccessApplicationReceipt> {
    const { applications } = this.services;
    const submitter: Submitter = isAdmin(ctx.principal)
      ? { kind: 'trusted' }
      : ctx.principal.kind === 'inbound-mail'
        ? { kind: 'inbound-mail', clientAddress: ctx.clientAddress }
        : { kind: 'public' };
    if (submitter.kind === 'public') throw applications.inboundSecretMissing();
    await applications.submitEmail(rawMessage, submitter, origin);
    return RECEIVED;
  }

  /** The gateway verifies the inbound-mail secret here (credential kind `inbound-mail`), counting wrong ones per address. */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => Boolean)
  async authenticateInboundMail(@Arg('secret') secret: string, @Arg('meter') _meter: boolean, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.applications.verifyInboundSecret(secret, ctx.clientAddress);
    return true;
  }

  @Query(() => AccessApplicationConfirmation, { description: 'What a confirmation link (from the mail to an applicant) is: ready, confirmed or invalid.' })
  async applicationConfirmation(@Arg('token') token: string): Promise<AccessApplicationConfirmation> {
    return toConfirmation(await this.services.applications.confirmationState(token));
  }

  @Mutation(() => AccessApplicationConfirmation, {
    description: "Uses a confirmation link: the applicant's address is confirmed and the application goes to review. Idempotent.",
  })
  async confirmApplication(@Arg('token') token: string): Promise<AccessApplicationConfirmation> {
    return toConfirmation(await this.services.applications.confirm(token));
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
