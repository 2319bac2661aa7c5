import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { NodePolicy } from '../../kernel/gate';
import type { IdentityServices } from '../services';
import { operatorOf } from './operator-resolvers';
import { toUser, userIdOf } from './resolvers';
import { NodeAccessToken, NodeInvite, NodeInviteCreated, NodeOutboxMessage, NodeSession, NodeSignup, NodeUser } from './types';

function sessionOf(ctx: SubgraphContext): { userId: string; sessionId?: string } {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return { userId: p.userId, sessionId: p.sessionId };
}

function adminOf(ctx: SubgraphContext): string {
  const p = ctx.principal;
  if (p.kind === 'node-admin') return p.username;
  return 'system administrator';
}

/** Sign-up, e-mail verification, password reset and change, sessions, recovery codes, invitations. */
@Resolver()
export class OnboardingResolver {
  constructor(private readonly services: IdentityServices) {}

  @Mutation(() => NodeSignup, {
    description:
      'Signs up (POST /api/auth/signup/): a user with an unverified e-mail address, and the verification mail. The same answer for a new and a taken address ' +
      '(the address gets a mail either way; no second account with one address).',
  })
  async nodeSignup(
    @Arg('username') username: string,
    @Arg('email') email: string,
    @Arg('password') password: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('inviteCode', () => String, { nullable: true }) inviteCode?: string | null,
    @Arg('requestOrigin', () => String, {
      nullable: true,
      description: "Development without FRONTEND_URL: the origin of the client's request (the REST adapter passes it), the base of the mail's links. Ignored otherwise.",
    })
    requestOrigin?: string | null,
  ): Promise<NodeSignup> {
    return this.services.onboarding.signup({ username, email, password, inviteCode }, ctx.clientAddress, requestOrigin);
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => [NodeOutboxMessage], {
    description:
      'Development only (404 in production): the mails and text messages the node "sent" — its file outbox and the sandbox SMS provider — newest first. No credential (as Mailpit beside an app).',
  })
  nodeDevOutbox(@Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<NodeOutboxMessage[]> {
    return this.services.devOutbox.list(first);
  }

  @Mutation(() => Boolean, { description: 'Verifies an e-mail address with the token of the mail (once).' })
  async verifyNodeEmail(@Arg('token') token: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.onboarding.verifyEmail(token, ctx.clientAddress);
    return true;
  }

  @Authorized('node-user')
  @Mutation(() => Boolean, { description: 'Sends the verification mail again (nothing when the address is verified).' })
  async resendNodeEmailVerification(
    @Ctx() ctx: SubgraphContext,
    @Arg('requestOrigin', () => String, {
      nullable: true,
      description: "Development without FRONTEND_URL: the origin of the client's request (the REST adapter passes it), the base of the mail's links. Ignored otherwise.",
    })
    requestOrigin?: string | null,
  ): Promise<boolean> {
    await this.services.onboarding.resendVerification(userIdOf(ctx), requestOrigin);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Asks for a password reset mail; the same answer whether or not an account has the address.' })
  async requestNodePasswordReset(
    @Arg('email') email: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('requestOrigin', () => String, {
      nullable: true,
      description: "Development without FRONTEND_URL: the origin of the client's request (the REST adapter passes it), the base of the mail's links. Ignored otherwise.",
    })
    requestOrigin?: string | null,
  ): Promise<boolean> {
    await this.services.onboarding.requestPasswordReset(email, ctx.clientAddress, requestOrigin);
    return true;
  }

  @Mutation(() => Boolean, { description: "Sets a new password with a reset mail's token (once, within the hour); every session of the user ends." })
  async confirmNodePasswordReset(@Arg('token') token: string, @Arg('password') password: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.onboarding.confirmPasswordReset(token, password, ctx.clientAddress);
    return true;
  }

  @Authorized('node-user')
  @Mutation(() => NodeAccessToken, { description: 'Changes the password; every other session ends and this one gets a new token.' })
  changeNodePassword(
    @Arg('currentPassword') currentPassword: string,
    @Arg('password') password: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('userAgent', () => String, { nullable: true }) userAgent?: string | null,
  ): Promise<NodeAccessToken> {
    return this.services.onboarding.changePassword(userIdOf(ctx), currentPassword, password, { userAgent, ip: ctx.clientAddress });
  }

  @Authorized('node-user')
  @Query(() => [NodeSession], { description: "The caller's live sessions, newest first." })
  nodeSessions(@Ctx() ctx: SubgraphContext): Promise<NodeSession[]> {
    const { userId, sessionId } = sessionOf(ctx);
    return this.services.sessions.list(userId, sessionId);
  }

  @Authorized('node-user')
  @Mutation(() => Boolean, { description: 'Ends one of the caller\'s sessions (404 for any other id).' })
  async revokeNodeSession(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.sessions.revoke(sessionOf(ctx).userId, id);
    return true;
  }

  @Authorized('node-user')
  @Mutation(() => Boolean, { description: 'Signs out: ends the session of this token.' })
  async nodeLogout(@Ctx() ctx: SubgraphContext): Promise<boolean> {
    const { userId, sessionId } = sessionOf(ctx);
    if (sessionId) await this.services.sessions.revoke(userId, sessionId);
    return true;
  }

  @Authorized('node-user')
  @Mutation(() => Boolean, { description: 'Signs out everywhere: ends every session of the caller, this one included.' })
  async nodeLogoutAll(@Ctx() ctx: SubgraphContext): Promise<boolean> {
    await this.services.sessions.revokeAll(sessionOf(ctx).userId);
    return true;
  }

  @Authorized('node-user')
  @Mutation(() => [String], { description: 'A new set of ten 2FA recovery codes (the old ones stop working); needs a current one-time code.' })
  renewNodeRecoveryCodes(@Arg('otp') otp: string, @Ctx() ctx: SubgraphContext): Promise<string[]> {
    return this.services.onboarding.renewRecoveryCodes(userIdOf(ctx), otp, ctx.clientAddress);
  }

  @Authorized('node-user')
  @Mutation(() => Boolean, { description: 'Switches 2FA off with the current password and a current one-time code (403 when the node enforces 2FA).' })
  async disableNodeTotp(
    @Arg('otp') otp: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('currentPassword', () => String, { nullable: true, description: 'Required (400 `current_password` without it).' }) currentPassword?: string | null,
  ): Promise<boolean> {
    await this.services.onboarding.disableTotp(userIdOf(ctx), otp, currentPassword, ctx.clientAddress);
    return true;
  }

  @NodePolicy({ maintenance: 'exempt' })
  @Query(() => String, { description: 'How people join this node: open (anyone signs up) or invite_only (with an invite code).' })
  nodeSignupMode(): Promise<string> {
    return this.services.onboarding.signupMode();
  }

  @Authorized('node-admin')
  @Mutation(() => String, { description: 'Sets how people join: open or invite_only (admin console).' })
  setNodeSignupMode(@Arg('mode') mode: string, @Ctx() ctx: SubgraphContext): Promise<string> {
    return this.services.onboarding.setSignupMode(mode, adminOf(ctx));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeInviteCreated, { description: 'A new invite code (shown once); optional note and expiry in days.' })
  createNodeInvite(
    @Ctx() ctx: SubgraphContext,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
    @Arg('expiresInDays', () => Int, { nullable: true }) expiresInDays?: number | null,
  ): Promise<NodeInviteCreated> {
    return this.services.onboarding.createInvite(adminOf(ctx), { note: note ?? '', expiresInDays: expiresInDays ?? null });
  }

  @Authorized('node-admin')
  @Mutation(() => NodeUser, { description: 'Freezes (active: false) or unfreezes a user: a frozen user cannot sign in or move money; every token of theirs ends. Never oneself nor another operator ' +
      '(403: operators change through proposeNodeOperatorChange). Audited.' })
  async setNodeUserActive(@Arg('user', () => ID) user: string, @Arg('active') active: boolean, @Ctx() ctx: SubgraphContext): Promise<NodeUser> {
    return toUser(await this.services.operators.setActive(operatorOf(ctx), user, active));
  }

  @Authorized('node-admin')
  @Mutation(() => NodeUser, {
    description:
      'Adds a user (admin console): 400 with the problems of each field (username, email, password), 409 when the name is taken. The address counts as verified. ' +
      'With superuser or staff, the user is created without a role and the role is PROPOSED: a second superuser approves it (approveNodeOperatorChange). Audited.',
  })
  async createNodeUser(
    @Arg('username') username: string,
    @Arg('email') email: string,
    @Arg('password') password: string,
    @Arg('superuser', { defaultValue: false }) superuser: boolean,
    @Ctx() ctx: SubgraphContext,
    @Arg('staff', { defaultValue: false, description: 'Support staff: the admin console with the support role.' }) staff: boolean,
  ): Promise<NodeUser> {
    return toUser(await this.services.operators.addUser(operatorOf(ctx), { username, email, password, superuser, staff }));
  }

  @Authorized('node-admin')
  @Query(() => NodeUser, { description: 'One user by id (admin console).' })
  async nodeUserDetail(@Arg('id', () => ID) id: string): Promise<NodeUser> {
    return toUser(await this.services.onboarding.user(id));
  }

  @Authorized('node-admin')
  @Query(() => [NodeInvite], { description: 'Invitations, newest first (admin console).' })
  nodeInvites(@Arg('first', () => Int, { defaultValue: 100 }) first: number): Promise<NodeInvite[]> {
    return this.services.onboarding.invites(Math.min(Math.max(first, 1), 500));
  }
}
