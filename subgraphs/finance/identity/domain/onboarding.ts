import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hashPassword } from '../../../../lib/passwords';
import { DomainError, badInput, notFound } from '../../../../lib/errors';
import type { Logger } from '../../../../lib/logger';
import type { AttemptThrottle } from '../../../../lib/attempts';
import type { KeyedLimiter } from '../../../../lib/rate-limits';
import type { PoolClient } from 'pg';
import { adminActor, type AuditOutbox } from '../../kernel/audit';
import type { NodeGate } from '../../kernel/gate';
import type { KycLevel } from '../../kernel/kyc';
import type { IdentityStore, UserRow } from '../store/identity-store';
import type { InviteRow, OneTimePurpose, OnboardingStore, SignupMode } from '../store/onboarding-store';
import { IdentityService, normaliseUsername } from './identity-service';
import type { Messenger } from './messages';
import type { RecoveryCodes } from './recovery-codes';
import type { AccessGrant, SessionMeta, SessionService } from './sessions';

export const EMAIL_VERIFY_TTL_SECONDS = 48 * 3600;
export const PASSWORD_RESET_TTL_SECONDS = 3600;
export const SIGNUP_MODES: readonly SignupMode[] = ['open', 'invite_only'];

const USERNAME = /^[a-z0-9_.@+-]{1,150}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export const signupClosed = () => new DomainError('SIGNUP_CLOSED', 403, 'Sign-up on this node is by invitation only: an invite code is required.');
export const invalidInvite = () =>
  new DomainError('INVALID_INVITE', 400, 'The invite code is not valid (unknown, used or expired).', { invite_code: ['Unknown, used or expired.'] });
export const invalidToken = () =>
  new DomainError('INVALID_TOKEN', 400, 'This link is not valid: it is unknown, was used already or has expired.', { token: ['Unknown, used or expired.'] });
export const emailUnverified = () =>
  new DomainError(
    'EMAIL_UNVERIFIED',
    403,
    'Confirm your e-mail address first: open the link in the mail we sent you (you can ask for a new mail in Settings).',
  );
const taken = (code: string, field: string, message: string) => new DomainError(code, 409, message, { [field]: [message] });
/** The unique index on the normalised address (migration IdentityUniqueEmail1798000000100). */
const EMAIL_INDEX = 'node_user_email_unique';

/** What a sign-up answers: the same shape whether the address was new or taken. */
export interface SignupReply {
  id: string;
  username: string;
  email: string;
  emailVerified: false;
}

/** What the node's users may do about their own account: the limits per client address and per user. */
export interface OnboardingLimits {
  signup: KeyedLimiter;
  verify: KeyedLimiter;
  reset: KeyedLimiter;
  /** Password reset mails per e-mail address (beyond it: 202 and no mail). */
  resetMail: KeyedLimiter;
  resend: KeyedLimiter;
}

export interface OnboardingDeps {
  store: OnboardingStore;
  users: IdentityStore;
  identity: IdentityService;
  sessions: SessionService;
  recoveryCodes: RecoveryCodes;
  gate: NodeGate;
  /** The node's mails: sender named after its branding, absolute links to the web client. */
  messages: Messenger;
  limits: OnboardingLimits;
  /** Guesses of the mailed tokens (verification, reset), reserved before they are checked (lib/attempts.ts TOKEN_ATTEMPTS). */
  tokens: AttemptThrottle;
  logger: Logger;
  /** Sign-up until an operator chooses: invite_only in production (NODE_ENV=production), open elsewhere. */
  defaultSignupMode: SignupMode;
  /** The node's audit log (the admin console's writes), through this subgraph's outbox: in the change's transaction. */
  audit: AuditOutbox;
}

export interface SignupInput {
  username: string;
  email: string;
  password: string;
  inviteCode?: string | null;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest();
const newToken = () => randomBytes(32).toString('base64url');

/** Field problems of a new password (policy: at least 10 characters, not the user name, not only digits). */
export function passwordProblems(password: string, username: string): string[] {
  const problems = IdentityService.validatePassword(password);
  if (password && normaliseUsername(password) === normaliseUsername(username)) problems.push('The password must not be your user name.');
  return problems;
}

/**
 * Onboarding and account security of the finance node's users: sign-up (open or by invitation),
 * e-mail verification, password reset by e-mail and change, sessions, 2FA recovery codes.
 */
export class OnboardingService {
  constructor(private readonly d: OnboardingDeps) {}

  private async issueToken(user: UserRow, purpose: OneTimePurpose, ttlSeconds: number): Promise<string> {
    const token = newToken();
    await this.d.store.insertToken({ tokenHash: tokenHash(token), userId: user.id, purpose, email: user.email, ttlSeconds });
    return token;
  }

  private async sendVerification(user: UserRow, origin: string | null | undefined): Promise<void> {
    const token = await this.issueToken(user, 'email_verify', EMAIL_VERIFY_TTL_SECONDS);
    await this.verificationMail(user.username, user.email, token, origin);
  }

  /** `origin`: of the request that caused the mail (development without FRONTEND_URL: the links' base). */
  private async verificationMail(username: string, email: string, token: string, origin: string | null | undefined): Promise<void> {
    const link = this.d.messages.link('verifyEmail', { token }, origin);
    await this.d.messages.mail(
      'email_verify',
      email,
      'verify your e-mail address',
      () =>
        `Hello ${username},\n\nconfirm that this is your address: ${link}\n\n` +
        `If the link does not open, enter this code where the app asks for it:\n${token}\n\nThe link works once, for 48 hours. Not you? Ignore this mail.\n`,
    );
  }

  /** The operator's choice; until there is one, `invite_only` in production and `open` elsewhere (deps.defaultSignupMode). */
  async signupMode(): Promise<SignupMode> {
    return this.d.store.signupMode(this.d.defaultSignupMode);
  }

  async setSignupMode(mode: string, actor: string): Promise<SignupMode> {
    if (!(SIGNUP_MODES as readonly string[]).includes(mode))
      throw badInput(`mode must be one of ${SIGNUP_MODES.join(', ')}.`, { mode: ['open or invite_only.'] });
    // audited in the change's transaction
    await this.d.store.transaction(async (db) => {
      await this.d.store.setSignupMode(mode as SignupMode, actor, db);
      await this.d.audit.record(db, adminActor(actor), 'signup.mode_set', { mode });
    });
    return mode as SignupMode;
  }

  /** A new invitation: the code is shown once (only its hash is kept). */
  async createInvite(actor: string, opts: { note?: string; expiresInDays?: number | null } = {}): Promise<{ code: string; invite: InviteRow }> {
    const note = (opts.note ?? '').trim();
    if (note.length > 200) throw badInput('The note has at most 200 characters.', { note: ['At most 200 characters.'] });
    const days = opts.expiresInDays ?? null;
    if (days !== null && (!Number.isInteger(days) || days < 1 || days > 365)) throw badInput('Expiry: 1 to 365 days.', { expires_in_days: ['1 to 365.'] });
    const code = `inv_${randomBytes(15).toString('base64url')}`;
    const invite = await this.d.store.transaction(async (db) => {
      const row = await this.d.store.insertInvite(
        { codeHash: tokenHash(code), hint: code.slice(-4), note, createdBy: actor, expiresAt: days === null ? null : new Date(Date.now() + days * 86400_000) },
        db,
      );
      await this.d.audit.record(db, adminActor(actor), 'invite.created', { invite: row.id, hint: row.hint, note, expiresAt: row.expiresAt });
      return row;
    });
    return { code, invite };
  }

  invites(first: number): Promise<InviteRow[]> {
    return this.d.store.invites(first);
  }

  private async validateSignup(input: SignupInput): Promise<{ username: string; email: string }> {
    const username = normaliseUsername(input.username);
    const email = (input.email ?? '').trim();
    const errors: Record<string, string[]> = {};
    if (!USERNAME.test(username)) errors.username = ['1 to 150 characters: letters, digits and @ . + - _ only.'];
    if (!EMAIL.test(email) || email.length > 254) errors.email = ['Enter a valid e-mail address.'];
    const pw = passwordProblems(input.password ?? '', username);
    if (pw.length) errors.password = pw;
    if (Object.keys(errors).length) throw badInput('Some fields are not valid.', errors);
    // user names are public handles: a taken one is said; e-mail addresses are not (signup below)
    if (await this.d.users.byUsername(username)) throw taken('USERNAME_TAKEN', 'username', 'This user name is taken.');
    return { username, email };
  }

  /**
   * POST /api/auth/signup/: a new user, not verified yet, and the verification mail. Invite-only:
   * 403 without a code, 400 with a code that cannot be used. Nothing is created on any refusal.
   * The answer is the same whether the address is new or taken (nobody learns which addresses have
   * accounts): for a taken address the mail goes to its owner instead (heldAddressSignup).
   */
  async signup(input: SignupInput, clientAddress: string | undefined, origin?: string | null): Promise<SignupReply> {
    await this.d.limits.signup.consume(clientAddress, 'Too many sign-ups from this address: try again later.');
    const inviteOnly = (await this.signupMode()) === 'invite_only';
    const code = (input.inviteCode ?? '').trim();
    if (inviteOnly && !code) throw signupClosed();
    const { username, email } = await this.validateSignup(input);
    const passwordHash = await hashPassword(input.password);
    const invite = inviteOnly ? tokenHash(code) : undefined;
    const fresh = { username, email, passwordHash, invite };
    if (await this.d.store.emailHolder(email)) return this.heldAddressSignup(fresh, origin);
    let user: UserRow;
    try {
      user = await this.d.store.transaction(async (db) => {
        const row = await this.d.store.insertUnverified(db, { username, email, passwordHash });
        if (invite && !(await this.d.store.redeemInvite(db, invite, row.id))) throw invalidInvite();
        return row;
      });
    } catch (err) {
      const e = err as { code?: string; constraint?: string };
      // a concurrent sign-up took the address first: this one is a sign-up for a taken address
      if (e.code === '23505' && e.constraint === EMAIL_INDEX) return this.heldAddressSignup(fresh, origin);
      if (e.code === '23505') throw taken('USERNAME_TAKEN', 'username', 'This user name is taken.');
      throw err;
    }
    await this.sendVerification(user, origin);
    return { id: user.id, username: user.username, email: user.email, emailVerified: false };
  }

  /**
   * A sign-up with an address an account holds: no second account with it, and the same answer as
   * for a new address. The mail goes to the address: when its account has verified it, a notice
   * (sign in, or reset the password); when the account only claims it (never verified), a link that
   * creates this sign-up's account verified and drops the pending claim (the verified sign-up wins).
   * The invitation, if any, is used as for a new address.
   */
  private async heldAddressSignup(
    s: { username: string; email: string; passwordHash: string; invite?: Buffer },
    origin: string | null | undefined,
  ): Promise<SignupReply> {
    if (s.invite && !(await this.d.store.transaction((db) => this.d.store.redeemInvite(db, s.invite!, null)))) throw invalidInvite();
    const id = randomUUID();
    const holder = await this.d.store.emailHolder(s.email);
    const mailAllowed = await this.d.limits.resetMail.tryConsume(`signup:${s.email.toLowerCase()}`);
    if (holder?.verified) {
      if (mailAllowed) {
        const [signIn, reset] = [this.d.messages.link('signIn', {}, origin), this.d.messages.link('forgotPassword', {}, origin)];
        await this.d.messages.mail(
          'signup_address_held',
          s.email,
          'someone tried to sign up with your address',
          (brand) =>
            `Hello ${holder.username},\n\nsomeone asked to open an account on ${brand} with this e-mail address, which is already yours. ` +
            `Nothing was created.\n\nIf it was you: sign in as ${holder.username} (${signIn}), or reset your password (${reset}).\n` +
            `Not you? Ignore this mail.\n`,
        );
      }
    } else {
      const token = newToken();
      await this.d.store.insertSignupRequest({
        id,
        tokenHash: tokenHash(token),
        username: s.username,
        email: s.email,
        passwordHash: s.passwordHash,
        ttlSeconds: EMAIL_VERIFY_TTL_SECONDS,
      });
      if (mailAllowed) await this.verificationMail(s.username, s.email, token, origin);
    }
    return { id, username: s.username, email: s.email, emailVerified: false };
  }

  /** POST /api/auth/email/verify/: the token of the mail, once (each guess reserved first: lib/attempts.ts). */
  async verifyEmail(token: string, clientAddress: string | undefined): Promise<void> {
    await this.d.limits.verify.consume(clientAddress, 'Too many verification attempts from this address: try again later.');
    if (!token || token.length > 200) throw invalidToken();
    let verified: string | undefined;
    const held = await this.d.tokens.guard('email_verify', clientAddress, async () => {
      verified = await this.d.store
        .transaction(async (db) => {
          const used = await this.d.store.useToken(db, tokenHash(token), 'email_verify');
          if (used) return (await this.d.store.markEmailVerified(db, used.userId, used.email)) ? used.userId : undefined;
          // the link of a sign-up whose address another account only claimed: its account now, verified
          return (await this.d.store.completeSignupRequest(db, tokenHash(token)))?.id;
        })
        .catch((err: { code?: string }) => {
          if (err.code === '23505') return undefined; // its user name was taken meanwhile
          throw err;
        });
      return verified !== undefined;
    });
    if (!held || !verified) throw invalidToken();
    this.d.identity.forget(verified);
  }

  /** POST /api/auth/email/resend/: a new verification mail (none when the address is verified already). */
  async resendVerification(userId: string, origin?: string | null): Promise<void> {
    const user = await this.d.users.byId(userId);
    if (!user) throw notFound('No such user.');
    if (user.emailVerifiedAt || !user.email) return;
    await this.d.limits.resend.consume(user.id, 'Too many verification mails: try again later.');
    await this.sendVerification(user, origin);
  }

  /**
   * POST /api/auth/password/reset/: whatever the address, the same answer at the same speed (the
   * mail goes out after the answer): nobody learns whether an account has it.
   */
  async requestPasswordReset(email: string, clientAddress: string | undefined, origin?: string | null): Promise<void> {
    await this.d.limits.reset.consume(clientAddress, 'Too many password resets from this address: try again later.');
    const address = (email ?? '').trim();
    if (!EMAIL.test(address) || address.length > 254) return;
    void this.sendResets(address, origin).catch((err: unknown) => this.d.logger.error({ err: (err as Error).message }, 'password reset failed'));
  }

  private async sendResets(email: string, origin: string | null | undefined): Promise<void> {
    if (!(await this.d.limits.resetMail.tryConsume(email.toLowerCase()))) return;
    for (const user of await this.d.store.activeUsersByEmail(email)) {
      const token = await this.issueToken(user, 'password_reset', PASSWORD_RESET_TTL_SECONDS);
      const link = this.d.messages.link('resetPassword', { token }, origin);
      await this.d.messages.mail(
        'password_reset',
        user.email,
        'reset your password',
        () =>
          `Hello ${user.username},\n\nsomeone (we hope you) asked to reset your password: ${link}\n\n` +
          `If the link does not open, enter this code with your new password where the app asks for it:\n${token}\n\n` +
          `The link works once, for one hour. Every device signed in to your account will be signed out.\n` +
          `Not you? Ignore this mail: your password stays as it is.\n`,
      );
    }
  }

  /** POST /api/auth/password/reset/confirm/: a new password; every session and token of the user ends (each guess reserved first). */
  async confirmPasswordReset(token: string, password: string, clientAddress: string | undefined): Promise<void> {
    await this.d.limits.verify.consume(clientAddress, 'Too many attempts from this address: try again later.');
    if (!token || token.length > 200) throw invalidToken();
    const passwordHash = await hashPassword(password ?? '');
    let userId: string | undefined;
    const held = await this.d.tokens.guard('password_reset', clientAddress, async () => {
      userId = await this.d.store.transaction(async (db) => {
        const used = await this.d.store.useToken(db, tokenHash(token), 'password_reset');
        if (!used) return undefined;
        const user = await this.d.users.byId(used.userId);
        const problems = passwordProblems(password ?? '', user?.username ?? '');
        // thrown: the transaction rolls back, the token stays usable
        if (problems.length) throw badInput('The new password is not valid.', { password: problems });
        await this.d.store.replacePassword(db, used.userId, passwordHash);
        return used.userId;
      });
      return userId !== undefined;
    });
    if (!held || !userId) throw invalidToken();
    this.d.identity.forget(userId);
  }

  /** POST /api/auth/password/: the current password and a new one; the other sessions end, this one gets a new token. */
  async changePassword(userId: string, current: string, password: string, meta: SessionMeta): Promise<AccessGrant> {
    const user = await this.d.users.byId(userId);
    if (!user?.isActive) throw notFound('No such user.');
    await this.requireCurrentPassword(user, current, meta.ip ?? undefined);
    const problems = passwordProblems(password ?? '', user.username);
    if (problems.length) throw badInput('The new password is not valid.', { password: problems });
    if (password === current) throw badInput('The new password is your current one.', { password: ['Choose a password you have not used here.'] });
    const passwordHash = await hashPassword(password);
    await this.d.store.transaction((db) => this.d.store.replacePassword(db, user.id, passwordHash));
    this.d.identity.forget(user.id);
    return this.d.sessions.grant({ ...user, tokenVersion: user.tokenVersion + 1 }, meta);
  }

  /**
   * The signed-in user's current password, before a change to their account's security (password,
   * 2FA on or off, e-mail address): reserved before it is checked, in the sign-in throttle
   * (identity.currentPasswordHolds, lib/attempts.ts). 400 `current_password` when wrong, 429 once spent.
   */
  async requireCurrentPassword(user: UserRow, current: string | null | undefined, clientAddress: string | undefined): Promise<void> {
    if (!current) throw badInput('Your current password is required.', { current_password: ['This field is required.'] });
    if (!(await this.d.identity.currentPasswordHolds(user, current, clientAddress)))
      throw badInput('The current password is wrong.', { current_password: ['Wrong password.'] });
  }

  /** Freezes or unfreezes a user (by id or user name): a frozen user cannot sign in or move money (every token ends). */
  async setActive(ref: string, active: boolean, actor: string): Promise<UserRow> {
    const user = UUID.test(ref) ? await this.d.users.byId(ref) : await this.d.users.byUsername(normaliseUsername(ref));
    if (!user) throw notFound('No such user.');
    const updated = await this.d.store.transaction(async (db) => {
      const row = await this.d.store.setActive(user.id, active, db);
      await this.d.audit.record(db, actor, active ? 'user.unfrozen' : 'user.frozen', {
        user: user.id,
        username: user.username,
        from: user.isActive,
        to: active,
      });
      return row;
    });
    this.d.identity.forget(user.id);
    return updated!;
  }

  /**
   * An administrator adds a user (admin console): user name, e-mail (required here), password, superuser;
   * 400 with each field's problems, 409 when the name is taken (also when a concurrent twin wins). Audited.
   */
  async addUser(
    input: { username: string; email: string; password: string; superuser: boolean; staff?: boolean },
    actor: string,
    /** More of the same decision, in its transaction (an operator role proposed for the new user: identity/domain/operators.ts). */
    within?: (db: PoolClient, user: UserRow) => Promise<unknown>,
  ): Promise<UserRow> {
    if (!input.email.trim()) {
      const errors: Record<string, string[]> = { email: ['This field is required.'] };
      if (!input.username.trim()) errors.username = ['This field is required.'];
      throw badInput('Invalid user.', errors);
    }
    try {
      return await this.d.store.transaction(async (db) => {
        const user = await this.d.identity.createUser(
          { username: input.username, email: input.email.trim(), password: input.password, superuser: input.superuser, staff: input.staff },
          { db },
        );
        await this.d.audit.record(db, actor, 'user.created', { user: user.id, username: user.username, superuser: user.isSuperuser, staff: user.isStaff });
        await within?.(db, user);
        return user;
      });
    } catch (err) {
      const e = err as { code?: string; constraint?: string };
      if (e.code === '23505' && e.constraint === EMAIL_INDEX) throw new DomainError('CONFLICT', 409, 'Another user has this e-mail address.');
      if (e.code === '23505') throw new DomainError('CONFLICT', 409, `A user named "${normaliseUsername(input.username)}" already exists.`);
      throw err;
    }
  }

  /** An administrator sets a user's KYC level (admin console): audited. */
  async setKycLevelAsAdmin(ref: string, level: KycLevel, actor: string): Promise<UserRow> {
    return this.d.identity.setKycLevel(ref, level, (db, before, after) =>
      this.d.audit.record(db, actor, 'user.kyc_level_set', { user: after.id, username: after.username, from: before.kycLevel, to: after.kycLevel, level }),
    );
  }

  /** A user by id (the console's detail page); 404 when there is none. */
  async user(id: string): Promise<UserRow> {
    const user = UUID.test(id) ? await this.d.users.byId(id) : undefined;
    if (!user) throw notFound('No such user.');
    return user;
  }

  /** A signed-in user's one-time code (each guess reserved first: identity.checkTotp, lib/attempts.ts). */
  private async checkOtp(user: UserRow, otp: string, clientAddress?: string): Promise<void> {
    if (!(await this.d.identity.checkTotp(user, otp ?? '', clientAddress))) {
      throw new DomainError('OTP_INVALID', 400, 'The one-time code is not valid.', { otp: ['The one-time code is not valid.'] });
    }
  }

  private async enrolledUser(userId: string): Promise<UserRow> {
    const user = await this.d.users.byId(userId);
    if (!user) throw notFound('No such user.');
    if (!user.totpConfirmedAt) throw new DomainError('TWOFA_NOT_ENABLED', 409, 'Two-factor authentication is not enabled for this account.');
    return user;
  }

  /** Confirms 2FA enrolment and answers the first set of recovery codes (shown once). */
  async confirmTotp(userId: string, otp: string, clientAddress?: string): Promise<string[]> {
    await this.d.identity.confirmTotpEnrolment(userId, otp, clientAddress);
    return this.d.recoveryCodes.renew(userId);
  }

  /** POST /api/auth/2fa/recovery-codes/: a new set (the old codes stop working); needs a current one-time code. */
  async renewRecoveryCodes(userId: string, otp: string, clientAddress?: string): Promise<string[]> {
    const user = await this.enrolledUser(userId);
    await this.checkOtp(user, otp, clientAddress);
    return this.d.recoveryCodes.renew(user.id);
  }

  /**
   * POST /api/auth/2fa/enrol/ with an access token: the current password first (a stolen token alone
   * cannot put its holder's authenticator on the account). The enrolment token of a sign-in that
   * 2FA enforcement stopped was given for the password just checked: it needs none.
   */
  async startTotpEnrolment(userId: string, scope: string, currentPassword: string | null | undefined, clientAddress?: string) {
    if (scope !== 'enrol-2fa') {
      const user = await this.d.users.byId(userId);
      if (!user?.isActive) throw notFound('No such user.');
      await this.requireCurrentPassword(user, currentPassword, clientAddress);
    }
    return this.d.identity.startTotpEnrolment(userId);
  }

  /** DELETE /api/auth/2fa/: switches 2FA off with the current password and a current code, unless the node enforces 2FA. */
  async disableTotp(userId: string, otp: string, currentPassword?: string | null, clientAddress?: string): Promise<void> {
    const user = await this.enrolledUser(userId);
    if ((await this.d.gate.state()).enforce2fa)
      throw new DomainError('TWOFA_ENFORCED', 403, 'This node requires two-factor authentication: it cannot be switched off.');
    await this.requireCurrentPassword(user, currentPassword, clientAddress);
    await this.checkOtp(user, otp, clientAddress);
    await this.d.store.disableTotp(user.id);
    this.d.identity.forget(user.id);
  }
}

export { tokenHash as oneTimeTokenHash };
