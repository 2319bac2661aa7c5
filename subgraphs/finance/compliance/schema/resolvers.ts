import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { badInput, unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { requiredKycLevel } from '../../kernel/gate';
import { KYC_STATES, type KycState } from '../vocabulary';
import type { ComplianceServices } from '../services';
import { userReferenceResolver } from '../../kernel/user-ref';
import { KycDocument, KycDocumentView, KycStatus, KycVerification, KycWebhookReceipt } from './types';

const userOf = (ctx: SubgraphContext): string => {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return p.userId;
};

/** Identity verification: the user's own verifications, the administrators' reviews, the provider's webhook. */
@Resolver()
export class ComplianceResolver {
  constructor(private readonly services: ComplianceServices) {}

  @Authorized('node-user')
  @Query(() => KycStatus, { description: "The caller's level, the node's required level and their verifications (GET /api/v1/kyc/)." })
  async kycStatus(@Ctx() ctx: SubgraphContext): Promise<KycStatus> {
    const p = ctx.principal;
    if (p.kind !== 'node-user') throw unauthenticated();
    // the level is the one the user's principal carries, as identity holds it: what every money module checks
    // (verifications write it there; so may an administrator), never a second reckoning from the verifications
    const verifications = await this.services.kyc.verifications(p.userId);
    return { level: p.kycLevel, requiredLevel: requiredKycLevel(await this.services.gate.state()), verifications };
  }

  @Authorized('node-user')
  @Mutation(() => KycVerification, { description: 'Starts the caller\'s verification at a level (basic; enhanced once basic is verified).' })
  startKycVerification(
    @Arg('level') level: string,
    @Arg('firstName') firstName: string,
    @Arg('lastName') lastName: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<KycVerification> {
    return this.services.kyc.start(userOf(ctx), level, firstName, lastName);
  }

  @Authorized('node-user')
  @Mutation(() => KycDocument, { description: 'Adds a document (base64; JPEG, PNG or PDF by its bytes) to an open verification.' })
  uploadKycDocument(
    @Arg('verificationId', () => ID) verificationId: string,
    @Arg('kind') kind: string,
    @Arg('contentBase64') contentBase64: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: 'The Idempotency-Key: a retried upload answers the first outcome' })
    idempotencyKey?: string | null,
  ): Promise<KycDocument> {
    return this.services.kyc.upload(userOf(ctx), verificationId, kind, contentBase64, idempotencyKey);
  }

  @Authorized('node-user')
  @Mutation(() => KycDocument, {
    description: 'Adds a document the REST surface streamed to the object store (a binary upload; JPEG, PNG or PDF by its bytes) to an open verification.',
  })
  attachKycDocument(
    @Arg('verificationId', () => ID) verificationId: string,
    @Arg('kind') kind: string,
    @Arg('uploadKey', { description: 'The object key the upload was streamed to (kyc/uploads/<uuid>)' }) uploadKey: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: 'The Idempotency-Key: a retried upload answers the first outcome' })
    idempotencyKey?: string | null,
  ): Promise<KycDocument> {
    return this.services.kyc.attach(userOf(ctx), verificationId, kind, uploadKey, idempotencyKey);
  }

  @Authorized('node-user')
  @Mutation(() => KycVerification, { description: 'Submits an open verification to the provider (the sandbox decides at once).' })
  submitKycVerification(@Arg('verificationId', () => ID) verificationId: string, @Ctx() ctx: SubgraphContext): Promise<KycVerification> {
    return this.services.kyc.submit(userOf(ctx), verificationId);
  }

  @Authorized('node-admin')
  @Query(() => [KycVerification], { description: 'Verifications, most recently changed first, optionally in one state (admin console).' })
  kycVerifications(
    @Arg('first', () => Int, { defaultValue: 100 }) first: number,
    @Arg('state', () => String, { nullable: true }) state?: string | null,
  ): Promise<KycVerification[]> {
    if (state && !(KYC_STATES as readonly string[]).includes(state)) throw badInput(`state is one of ${KYC_STATES.join(', ')}.`);
    return this.services.kyc.list(Math.min(Math.max(first, 1), 500), (state ?? undefined) as KycState | undefined);
  }

  @Authorized('node-admin')
  @Mutation(() => KycVerification, { description: 'An administrator decides a pending or in-review verification: verified, rejected or resubmission_required. Audited.' })
  reviewKycVerification(
    @Arg('verificationId', () => ID) verificationId: string,
    @Arg('decision') decision: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('reason', { defaultValue: '' }) reason: string,
  ): Promise<KycVerification> {
    const p = ctx.principal;
    if (p.kind !== 'node-admin') throw unauthenticated();
    return this.services.kyc.review(verificationId, decision, reason, p.username);
  }

  @Authorized('node-admin')
  @Mutation(() => KycDocumentView, { description: 'An administrator opens a verification document to review it (the console serves the bytes). Audited.' })
  viewKycDocument(@Arg('documentId', () => ID) documentId: string, @Ctx() ctx: SubgraphContext): Promise<KycDocumentView> {
    const p = ctx.principal;
    if (p.kind !== 'node-admin') throw unauthenticated();
    return this.services.kyc.viewDocument(documentId, p.username);
  }

  /** No principal: the provider's signature over the raw body (checked in the domain) is the credential. */
  @Mutation(() => KycWebhookReceipt, { description: "A verification provider's signed webhook (POST /api/v1/webhooks/kyc/<provider>/)." })
  async receiveKycWebhook(
    @Arg('provider') provider: string,
    @Arg('payload') payload: string,
    @Arg('digest', () => String, { nullable: true }) digest?: string | null,
    @Arg('digestAlgorithm', () => String, { nullable: true }) digestAlgorithm?: string | null,
  ): Promise<KycWebhookReceipt> {
    const { applied } = await this.services.kyc.receiveWebhook(provider, payload, {
      'x-payload-digest': digest ?? undefined,
      'x-payload-digest-alg': digestAlgorithm ?? undefined,
    });
    return { received: true, applied };
  }

}

/** A verification's user, by reference (identity answers their user name). */
export const KycVerificationUserResolver = userReferenceResolver(KycVerification);
