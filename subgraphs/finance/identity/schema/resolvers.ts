import { Arg, Authorized, Ctx, Directive, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { forbidden, unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { NodePolicy } from '../../kernel/gate';
import { KYC_LEVEL_WRITERS, REAUTHENTICATORS, RECIPIENT_READERS } from '../credential';
import type { IdentityServices } from '../services';
import { operatorOf } from './operator-resolvers';
import type { UserRow } from '../store/identity-store';
import {
  AdminSessionAuthentication,
  NodeAccessToken,
  NodeAdminSession,
  NodeSignIn,
  NodeTokenAuthentication,
  NodeKycLevel,
  NodePhone,
  NodeRecipient,
  NodeSandboxSms,
  NodeUser,
  NodeUserStats,
  TotpConfirmation,
  TotpEnrolment,
} from './types';

export const toUser = (u: UserRow): NodeUser => ({
  id: u.id,
  username: u.username,
  email: u.email,
  isSuperuser: u.isSuperuser,
  isStaff: u.isStaff,
  isActive: u.isActive,
  twoFactorEnabled: u.totpConfirmedAt !== null,
  dateJoined: u.dateJoined,
  lastLogin: u.lastLogin,
  kycLevel: u.kycLevel,
  phone: u.phone,
  phoneVerified: u.phone !== null && u.phoneVerifiedAt !== null,
  emailVerified: u.emailVerifiedAt !== null,
});

const toPhone = (u: UserRow, codeExpiresAt: Date | null = null): NodePhone => ({
  username: u.username,
  phone: u.phone,
  verified: u.phone !== null && u.phoneVerifiedAt !== null,
  codeExpiresAt,
});

export function userIdOf(ctx: SubgraphContext): string {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return p.userId;
}

/** Sign-in, access tokens, 2FA and admin sessions of the finance node. */
@Resolver()
export class IdentityResolver {
  constructor(private readonly services: IdentityServices) {}

  @Mutation(() => NodeAccessToken, { description: 'Signs in (POST /api/login/); `otp` is the 6-digit code of a user enrolled in 2FA. Allowed in read-only mode (it changes no data).' })
  nodeLogin(
    @Arg('username') username: string,
    @Arg('password') password: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('otp', () => String, { nullable: true }) otp?: string | null,
    @Arg('recoveryCode', () => String, { nullable: true, description: 'A 2FA recovery code instead of `otp` (each works once).' }) recoveryCode?: string | null,
    @Arg('userAgent', () => String, { nullable: true, description: "The client's User-Agent (shown in the list of sessions)." }) userAgent?: string | null,
  ) {
    return this.services.identity.login(username, password, otp, { recoveryCode, meta: { userAgent, ip: ctx.clientAddress }, clientAddress: ctx.clientAddress });
  }

  @Authorized('node-user')
  @NodePolicy({ scopes: ['enrol-2fa'] })
  @Mutation(() => TotpEnrolment, {
    description:
      'Starts enrolment in two-factor authentication (TOTP). With an access token, `currentPassword` is required (400 `current_password` when wrong, ' +
      'guesses throttled like sign-ins); the enrolment token of a sign-in stopped by 2FA enforcement needs none.',
  })
  startTotpEnrolment(
    @Ctx() ctx: SubgraphContext,
    @Arg('currentPassword', () => String, { nullable: true }) currentPassword?: string | null,
  ): Promise<TotpEnrolment> {
    const p = ctx.principal;
    if (p.kind !== 'node-user') throw unauthenticated();
    return this.services.onboarding.startTotpEnrolment(p.userId, p.scope, currentPassword, ctx.clientAddress);
  }

  @Authorized('node-user')
  @NodePolicy({ scopes: ['enrol-2fa'] })
  @Mutation(() => TotpConfirmation, {
    description: 'Confirms the enrolment with a code of the authenticator app: from then on, sign-in needs a code. Answers ten recovery codes (shown once).',
  })
  async confirmTotpEnrolment(@Arg('otp') otp: string, @Ctx() ctx: SubgraphContext): Promise<TotpConfirmation> {
    const id = userIdOf(ctx);
    const recoveryCodes = await this.services.onboarding.confirmTotp(id, otp, ctx.clientAddress);
    const user = toUser((await this.services.identity.user(id))!);
    return { username: user.username, twoFactorEnabled: user.twoFactorEnabled, recoveryCodes };
  }

  @Authorized('node-user')
  @Query(() => NodeUser, { description: 'The signed-in user.' })
  async nodeUser(@Ctx() ctx: SubgraphContext): Promise<NodeUser> {
    const user = await this.services.identity.user(userIdOf(ctx));
    if (!user) throw unauthenticated();
    return toUser(user);
  }

  @Authorized('node-admin')
  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => NodeUser, { description: 'The superuser signed in to the admin console.' })
  async nodeAdminUser(@Ctx() ctx: SubgraphContext): Promise<NodeUser> {
    const p = ctx.principal;
    const user = p.kind === 'node-admin' ? await this.services.identity.user(p.userId) : undefined;
    if (!user) throw unauthenticated();
    return toUser(user);
  }

  @Authorized('node-admin')
  @Query(() => [NodeUser], { description: 'Users, newest first (admin console).' })
  async nodeUsers(@Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<NodeUser[]> {
    return (await this.services.identity.users(Math.min(Math.max(first, 1), 500))).map(toUser);
  }

  @Authorized('node-admin')
  @Query(() => NodeUserStats)
  nodeUserStats(): Promise<NodeUserStats> {
    return this.services.identity.stats();
  }

  @Authorized('node-admin')
  @Query(() => [NodeSignIn], { description: 'Latest sign-ins (admin console dashboard).' })
  async nodeRecentSignIns(@Arg('first', () => Int, { defaultValue: 10 }) first: number): Promise<NodeSignIn[]> {
    return (await this.services.identity.recentSignIns(Math.min(Math.max(first, 1), 100))).map((s) => ({ username: s.username, at: s.lastLogin }));
  }


  @NodePolicy({ maintenance: 'exempt' })
  @Mutation(() => NodeAdminSession, { description: 'Admin console sign-in (superusers); the session goes into the sessionid cookie.' })
  startAdminSession(
    @Arg('username') username: string,
    @Arg('password') password: string,
    @Arg('otp', () => String, { nullable: true, description: 'The one-time code (superusers enrolled in 2FA).' }) otp: string | null | undefined,
    @Ctx() ctx: SubgraphContext,
  ): Promise<NodeAdminSession> {
    return this.services.identity.startAdminSession(username, password, otp, ctx.clientAddress);
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Mutation(() => NodeAdminSession, { description: 'Admin console 2FA enrolment: the enrolment token of startAdminSession and a code of the new secret; then the session.' })
  completeAdminTotpEnrolment(@Arg('enrolmentToken') enrolmentToken: string, @Arg('otp') otp: string, @Ctx() ctx: SubgraphContext): Promise<NodeAdminSession> {
    return this.services.identity.completeAdminTotpEnrolment(enrolmentToken, otp, ctx.clientAddress);
  }

  @Authorized('node-admin')
  @NodePolicy({ maintenance: 'exempt' })
  @Mutation(() => Boolean, { description: 'Admin console sign-out.' })
  async endAdminSession(@Arg('session') session: string): Promise<boolean> {
    await this.services.identity.endAdminSession(session);
    return true;
  }

  /** The gateway verifies every presented access token here, once per operation. */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => NodeTokenAuthentication)
  async authenticateNodeToken(@Arg('token') token: string, @Arg('meter') _meter: boolean): Promise<NodeTokenAuthentication> {
    const c = await this.services.identity.authenticateToken(token);
    return { userId: c.userId, username: c.username, scope: c.scope, kycLevel: c.kycLevel, emailVerified: c.emailVerified, sessionId: c.sessionId ?? null };
  }

  /**
   * Sets a user's identity-verification level: an administrator of the node (its admin console), or the
   * outcome of a verification (the service principal of a subgraph in KYC_LEVEL_WRITERS). No other
   * product's credential: the prediction API's administrator keys have no say on the node.
   */
  @Authorized('node-admin', 'service')
  @Mutation(() => NodeUser, { description: "Sets a user's KYC level (by id or user name); their next request carries it." })
  async setNodeUserKycLevel(
    @Arg('user', () => ID) user: string,
    @Arg('level', () => NodeKycLevel) level: NodeKycLevel,
    @Ctx() ctx: SubgraphContext,
  ): Promise<NodeUser> {
    const p = ctx.principal;
    if (p.kind === 'service' && !KYC_LEVEL_WRITERS.includes(p.name)) throw forbidden('This service may not set KYC levels.');
    // an administrator's decision is audited; a verification's outcome is the compliance subgraph's record
    if (p.kind === 'node-admin') return toUser(await this.services.operators.setKycLevel(operatorOf(ctx), user, level));
    return toUser(await this.services.identity.setKycLevel(user, level));
  }

  @Authorized('node-user')
  @Mutation(() => NodePhone, {
    description:
      "Sets or clears (null) the caller's phone number (E.164 or any format with its country code). A new number is pending: a 6-digit code goes to it by SMS " +
      '(valid 10 minutes), and verifyMyPhone verifies it; only verified numbers receive transfers. 409 when another user has it verified.',
  })
  async setMyPhone(@Arg('phone', () => String, { nullable: true }) phone: string | null, @Ctx() ctx: SubgraphContext): Promise<NodePhone> {
    const state = await this.services.phones.request(userIdOf(ctx), phone);
    return toPhone(state.user, state.codeExpiresAt);
  }

  @Authorized('node-user')
  @Mutation(() => NodePhone, { description: 'Verifies the caller\'s pending phone number with the code sent to it (single use; 5 wrong codes end it).' })
  async verifyMyPhone(@Arg('code') code: string, @Ctx() ctx: SubgraphContext): Promise<NodePhone> {
    return toPhone(await this.services.phones.verify(userIdOf(ctx), code, ctx.clientAddress));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeUser, {
    description:
      "Sets or clears (null) a user's phone number (by id or user name): the operator asserts it, so it is verified at once. Never one's own nor another operator's. Audited.",
  })
  async setNodeUserPhone(
    @Arg('user', () => ID) user: string,
    @Arg('phone', () => String, { nullable: true }) phone: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<NodeUser> {
    return toUser(await this.services.operators.setPhone(operatorOf(ctx), user, phone));
  }

  @Authorized('node-admin')
  @Query(() => [NodeSandboxSms], { description: 'Text messages of the offline sandbox SMS provider, newest first (to one number, or all).' })
  nodeSandboxSms(@Arg('to', () => String, { nullable: true }) to: string | null, @Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<NodeSandboxSms[]> {
    return this.services.phones.sandboxOutbox(to, Math.min(Math.max(first, 1), 500));
  }

  /** Resolves a transfer's recipient; only the payments module (RECIPIENT_READERS) may look users up. */
  @Authorized('service')
  @Query(() => NodeRecipient, { nullable: true, description: 'The active user named by user name, e-mail or E.164 phone; null when none.' })
  async nodeRecipient(@Arg('reference') reference: string, @Ctx() ctx: SubgraphContext): Promise<NodeRecipient | null> {
    const p = ctx.principal;
    if (p.kind !== 'service' || !RECIPIENT_READERS.includes(p.name)) throw forbidden('This service may not look users up.');
    const user = await this.services.identity.recipient(reference);
    return user ? { id: user.id, username: user.username, verified: user.kycLevel !== 'none' } : null;
  }

  /**
   * Re-authenticates a signed-in user (password, and the one-time code with 2FA) for a service that
   * guards a sensitive read (REAUTHENTICATORS: cards); throttled like sign-in. True, or a refusal
   * (403 REAUTHENTICATION_FAILED, OTP_REQUIRED; 429 RATE_LIMITED).
   */
  @Authorized('service')
  @Mutation(() => Boolean, { description: "Checks a user's password (and one-time code when 2FA is on) again; services only." })
  async reauthenticateNodeUser(
    @Arg('userId', () => ID) userId: string,
    @Arg('password') password: string,
    @Arg('otp', () => String, { nullable: true }) otp: string | null,
    @Arg('clientAddress', () => String, { nullable: true }) clientAddress: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<boolean> {
    const p = ctx.principal;
    if (p.kind !== 'service' || !REAUTHENTICATORS.includes(p.name)) throw forbidden('This service may not re-authenticate users.');
    await this.services.identity.reauthenticate(userId, { password, otp, clientAddress: clientAddress ?? undefined });
    return true;
  }

  /** The gateway verifies admin session cookies here; an unknown or expired session is anonymous (null). */
  @Authorized('gateway')
  @Directive('@inaccessible')
  @Mutation(() => AdminSessionAuthentication, { nullable: true })
  async authenticateAdminSession(@Arg('session') session: string, @Arg('meter') _meter: boolean): Promise<AdminSessionAuthentication | null> {
    return (await this.services.identity.authenticateAdminSession(session)) ?? null;
  }
}
