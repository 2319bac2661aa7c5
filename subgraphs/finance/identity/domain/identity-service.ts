import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../../../lib/passwords';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import QRCode from 'qrcode';
import { generate as totpGenerate, generateSecret, generateURI, verify as totpVerify } from 'otplib';
import { inTransaction } from '../../../../lib/database';
import { DomainError, badInput, conflict, invalidCredentials, notFound } from '../../../../lib/errors';
import type { AttemptThrottle } from '../../../../lib/attempts';
import type { PurposeBox } from '../../../../lib/secret-box';
import type { NodeGate } from '../../kernel/gate';
import { KYC_LEVELS, type KycLevel } from '../../kernel/kyc';
import type { Db, IdentityStore, UserRow } from '../store/identity-store';
import type { RecoveryCodes } from './recovery-codes';
import type { SessionMeta, SessionService } from './sessions';
import { ENROLMENT_TOKEN_TTL_SECONDS, type TokenClaims, type TokenService } from './tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ADMIN_SESSION_SECONDS = 14 * 24 * 3600;
const USER_CACHE_TTL_MS = 60_000;
/** Users whose token checks a process remembers at once (one entry each, about 200 bytes). */
const USER_CACHE_MAX = 10_000;

export const improperlyConfigured = (message: string) => new DomainError('IMPROPERLY_CONFIGURED', 503, message);
/** SimpleJWT's answer to wrong credentials. */
export const noActiveAccount = () => new DomainError('NO_ACTIVE_ACCOUNT', 401, 'No active account found with the given credentials');

const USERNAME = /^[a-z0-9_.@+-]{1,150}$/;
export const normaliseUsername = (u: string) => (u ?? '').trim().toLowerCase();

/** A phone number as E.164 ("+447911123456"); 400 unless it is a valid number with its country code. */
export function normalisePhone(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone.trim());
  if (!parsed?.isValid()) throw badInput('phone must be a valid number with its country code, e.g. +447911123456.', { phone: ['A valid E.164 number.'] });
  return parsed.number;
}

export interface NewUser {
  username: string;
  password: string;
  email?: string;
  superuser?: boolean;
  /** Support staff (the admin console's support role). */
  staff?: boolean;
}

/** What the console's sign-in gives: a session, or (2FA enforced, not enrolled yet) the enrolment to confirm first. */
export interface AdminSignIn {
  username: string;
  session: string | null;
  expiresAt: Date | null;
  enrolment: { secret: string; otpauthUri: string; qrCode: string; enrolmentToken: string; expiresIn: number } | null;
}

export interface AccessToken {
  access: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

/**
 * Users, passwords (argon2id), access tokens, sign-in throttling, TOTP 2FA and admin console
 * sessions of the finance node.
 */
export class IdentityService {
  private readonly verified = new Map<string, { active: boolean; version: number; username: string; kycLevel: KycLevel; emailVerified: boolean; at: number }>();

  constructor(
    private readonly store: IdentityStore,
    private readonly gate: NodeGate,
    private readonly tokens: TokenService | undefined,
    private readonly totpBox: PurposeBox | undefined,
    private readonly issuer: string,
    /** Sign-in sessions (revocable tokens) and 2FA recovery codes (domain/sessions.ts, recovery-codes.ts). */
    private readonly account: { sessions: SessionService; recoveryCodes: RecoveryCodes },
    /** Password and one-time-code guesses, reserved before they are verified (lib/attempts.ts). */
    private readonly attempts: { signIn: AttemptThrottle; codes: AttemptThrottle },
  ) {}

  /** A user changed (here or in another process): its cached row goes. */
  forget(userId: string): void {
    this.verified.delete(userId);
    this.account.sessions.forgetUser(userId);
  }

  private tokenService(): TokenService {
    if (!this.tokens) throw improperlyConfigured('SERVER_JWT_KEY is not set: this node cannot issue or verify access tokens.');
    return this.tokens;
  }

  private box(): PurposeBox {
    if (!this.totpBox) throw improperlyConfigured('FRAMEWORK_SECRET_KEY is not set: 2FA secrets cannot be stored.');
    return this.totpBox;
  }

  static validatePassword(password: string): string[] {
    const problems: string[] = [];
    if ((password ?? '').length < 10) problems.push('This password is too short. It must contain at least 10 characters.');
    if (/^\d+$/.test(password ?? '')) problems.push('This password is entirely numeric.');
    return problems;
  }

  /** Creates a user, or (for `finance:createsuperuser` on an existing name) sets its password. */
  /** `opts.db`: the transaction to insert the user in (an administrator's addition, audited with it). */
  async createUser(input: NewUser, opts: { replace?: boolean; db?: Db } = {}): Promise<UserRow> {
    const username = normaliseUsername(input.username);
    const errors: Record<string, string[]> = {};
    if (!USERNAME.test(username)) errors.username = ['1 to 150 characters: letters, digits and @ . + - _ only.'];
    const pw = IdentityService.validatePassword(input.password);
    if (pw.length) errors.password = pw;
    if (input.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) errors.email = ['Enter a valid email address.'];
    if (Object.keys(errors).length) throw badInput('Invalid user.', errors);
    const passwordHash = await hashPassword(input.password);
    const existing = await this.store.byUsername(username);
    if (existing) {
      if (!opts.replace) throw conflict(`A user named "${username}" already exists.`);
      await this.store.setPassword(existing.id, passwordHash, input.superuser ?? existing.isSuperuser);
      this.forget(existing.id);
      return (await this.store.byId(existing.id))!;
    }
    return this.store.insert(
      { username, email: input.email ?? '', passwordHash, isSuperuser: input.superuser ?? false, isStaff: input.staff ?? false },
      opts.db,
    );
  }

  findUser(username: string) {
    return this.store.byUsername(normaliseUsername(username));
  }

  /**
   * Checks a user name and password. The attempt is reserved first (per address, per user name and
   * both: lib/attempts.ts), so concurrent guesses cannot outrun the limit; a success gives it back.
   * The password hash is checked even for unknown names (no timing oracle).
   */
  private async checkPassword(usernameInput: string, password: string, clientAddress: string | undefined): Promise<UserRow> {
    const username = normaliseUsername(usernameInput);
    let user = undefined as UserRow | undefined;
    const held = await this.attempts.signIn.guard(username, clientAddress, async () => {
      user = username ? await this.store.byUsername(username) : undefined;
      return (await this.passwordMatches(user?.passwordHash, password)) && user!.isActive;
    });
    if (!held || !user) throw noActiveAccount();
    return user;
  }

  /** argon2id against the stored hash (lib/passwords.ts: a dummy hash when there is none, the same time either way). Only inside a guard. */
  private passwordMatches(hash: string | undefined, password: string): Promise<boolean> {
    return verifyPassword(hash, password);
  }

  /**
   * The current password of a signed-in user, before a change to their account's security (a new
   * password, 2FA on or off, a new e-mail address): reserved in the sign-in throttle like a sign-in
   * (the same counts: a stolen access token does not buy more guesses). False when it is wrong; 429 once spent.
   */
  async currentPasswordHolds(user: UserRow, password: string, clientAddress: string | undefined): Promise<boolean> {
    return this.attempts.signIn.guard(user.username, clientAddress, () => this.passwordMatches(user.passwordHash, password));
  }

  /**
   * POST /api/login/: user name and password (and, for a user enrolled in 2FA, `otp`). With the
   * "Enforce 2FA on login" toggle on, a user not enrolled yet gets 403 with an enrolment token.
   */
  async login(
    usernameInput: string,
    password: string,
    otp?: string | null,
    opts: { recoveryCode?: string | null; meta?: SessionMeta; clientAddress?: string } = {},
  ): Promise<AccessToken> {
    const tokens = this.tokenService();
    const user = await this.checkPassword(usernameInput, password, opts.clientAddress);
    const enrolled = user.totpConfirmedAt !== null;
    if (enrolled) {
      const recovery = !otp && opts.recoveryCode;
      if (!otp && !recovery)
        throw new DomainError(
          'OTP_REQUIRED',
          401,
          'A one-time code is required: send the 6-digit code of your authenticator app as "otp" (or a recovery code as "recovery_code").',
        );
      const valid = recovery ? await this.checkRecoveryCode(user, recovery, opts.clientAddress) : await this.checkTotp(user, otp!, opts.clientAddress);
      if (!valid) throw new DomainError('OTP_INVALID', 401, 'The one-time code is not valid.');
    } else if ((await this.gate.state()).enforce2fa) {
      const enrolmentToken = await tokens.issue(
        { userId: user.id, username: user.username, scope: 'enrol-2fa', version: user.tokenVersion },
        ENROLMENT_TOKEN_TTL_SECONDS,
      );
      throw new DomainError(
        'OTP_ENROLMENT_REQUIRED',
        403,
        'This service requires two-factor authentication: set up your authenticator app first (scan the code it shows you, enter the code the app gives), then sign in again with that code.',
        { enrolment_token: enrolmentToken, expires_in: ENROLMENT_TOKEN_TTL_SECONDS },
      );
    }
    await this.store.recordSuccess(user.id, user.username);
    const { access, tokenType, expiresIn } = await this.account.sessions.grant(user, opts.meta);
    return { access, tokenType, expiresIn };
  }

  /**
   * Re-authentication of a signed-in user before a sensitive read (a card's full number): the
   * password again, reserved in the sign-in throttle like a sign-in (lib/attempts.ts: 429 with
   * Retry-After once spent), and the one-time code (or a recovery code) when the user has 2FA.
   * A wrong password or code is 403 `REAUTHENTICATION_FAILED` (401 would say the bearer token is bad).
   */
  async reauthenticate(userId: string, input: { password: string; otp?: string | null; clientAddress?: string }): Promise<void> {
    const user = UUID.test(userId) ? await this.store.byId(userId) : undefined;
    const failed = (why: string) => new DomainError('REAUTHENTICATION_FAILED', 403, why);
    if (!user?.isActive) throw failed('The password is not right.');
    try {
      await this.checkPassword(user.username, input.password, input.clientAddress);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'NO_ACTIVE_ACCOUNT') throw failed('The password is not right.');
      throw err;
    }
    if (user.totpConfirmedAt === null) return;
    const otp = (input.otp ?? '').trim();
    if (!otp) throw new DomainError('OTP_REQUIRED', 403, 'A one-time code is required: send the 6-digit code of your authenticator app as "otp".');
    const valid = /^\d{6}$/.test(otp) ? await this.checkTotp(user, otp, input.clientAddress) : await this.checkRecoveryCode(user, otp, input.clientAddress);
    if (!valid) throw failed('The one-time code is not valid.');
  }

  /** The gateway's check of a presented access token: signature, expiry, the user still active with the same token version, its session alive. */
  async authenticateToken(token: string): Promise<TokenClaims & { kycLevel: KycLevel; emailVerified: boolean }> {
    const claims = await this.tokenService().verify(token);
    const now = Date.now();
    let user = this.verified.get(claims.userId);
    if (!user || now - user.at > USER_CACHE_TTL_MS) {
      const row = await this.store.byId(claims.userId);
      user = {
        active: row?.isActive === true,
        version: row?.tokenVersion ?? -1,
        username: row?.username ?? '',
        kycLevel: row?.kycLevel ?? 'none',
        emailVerified: Boolean(row?.emailVerifiedAt),
        at: now,
      };
      if (row) {
        // bounded like the session cache: at most a burst of look-ups again after a clear
        if (this.verified.size >= USER_CACHE_MAX) this.verified.clear();
        this.verified.set(claims.userId, user);
      }
    }
    if (!user.active || user.version !== claims.version) throw invalidCredentials('Token is invalid.');
    // an access token lives as long as its session (signed out, or every session ended): the enrolment token has none
    if (claims.scope === 'access' && !(await this.account.sessions.isAlive(claims.sessionId, claims.userId))) throw invalidCredentials('Token is invalid.');
    // the level as it is now (it changes without a new token)
    return { ...claims, kycLevel: user.kycLevel, emailVerified: user.emailVerified };
  }

  /** Sets a user's KYC level (by id or user name): an administrator's decision, or a verification's outcome. */
  /**
   * Sets a user's KYC level. `audit`, when given, runs in the same transaction with the user as they
   * were (an administrator's change, audited with it).
   */
  async setKycLevel(ref: string, level: KycLevel, audit?: (db: Db, before: UserRow, after: UserRow) => Promise<unknown>): Promise<UserRow> {
    if (!(KYC_LEVELS as readonly string[]).includes(level)) throw badInput(`level must be one of ${KYC_LEVELS.join(', ')}.`);
    const user = UUID.test(ref) ? await this.store.byId(ref) : await this.store.byUsername(normaliseUsername(ref));
    if (!user) throw notFound('No such user.');
    const updated = audit
      ? await inTransaction(this.store.pool, async (db) => {
          const after = (await this.store.setKycLevel(user.id, level, db))!;
          await audit(db, user, after);
          return after;
        })
      : await this.store.setKycLevel(user.id, level);
    this.verified.delete(user.id);
    return updated!;
  }

  /** The active user named by user name, e-mail address or verified phone number (E.164, "+" first); undefined when none. */
  async recipient(reference: string): Promise<UserRow | undefined> {
    const ref = (reference ?? '').trim();
    if (!ref || ref.length > 254) return undefined;
    if (ref.startsWith('+')) {
      const phone = parsePhoneNumberFromString(ref);
      return phone?.isValid() ? this.store.recipient('phone', phone.number) : undefined;
    }
    if (ref.includes('@') && ref.includes('.')) {
      const byEmail = await this.store.recipient('email', ref);
      if (byEmail) return byEmail;
    }
    return this.store.recipient('username', normaliseUsername(ref));
  }

  /** A recovery code instead of the one-time code: reserved like a code guess (lib/attempts.ts), each code works once. */
  private checkRecoveryCode(user: UserRow, code: string, clientAddress: string | undefined): Promise<boolean> {
    return this.attempts.codes.guard(user.id, clientAddress, () => this.account.recoveryCodes.spendRecoveryCode(user.id, code));
  }

  /** A one-time code of the user's confirmed 2FA secret: the attempt reserved first (lib/attempts.ts), the step recorded (no replay). */
  async checkTotp(user: UserRow, code: string, clientAddress?: string): Promise<boolean> {
    return this.attempts.codes.guard(user.id, clientAddress, async () => {
      if (!user.totpSecretSealed || !/^\d{6}$/.test(code.trim())) return false;
      const result = await this.verifyTotp(user.totpSecretSealed, code.trim());
      return result.valid && (await this.store.useTotpStep(user.id, result.step));
    });
  }

  /**
   * A six-digit code against a sealed secret (±30 s): whether it is valid, and the time step that
   * matched (otplib's `timeStep` is that step already; `delta` only says how far it is from now).
   */
  private async verifyTotp(sealed: string, token: string): Promise<{ valid: boolean; step: number }> {
    const secret = this.box().open(sealed);
    const result = (await totpVerify({ secret, token, epochTolerance: 30 } as Parameters<typeof totpVerify>[0])) as { valid: boolean; timeStep?: number };
    return result.valid && result.timeStep !== undefined ? { valid: true, step: result.timeStep } : { valid: false, step: -1 };
  }

  /** Starts (or restarts) 2FA enrolment: a new secret and its otpauth:// URI for an authenticator app. */
  async startTotpEnrolment(userId: string): Promise<{ secret: string; otpauthUri: string; qrCode: string }> {
    const user = await this.store.byId(userId);
    if (!user) throw notFound('No such user.');
    if (user.totpConfirmedAt) throw conflict('Two-factor authentication is already enabled for this account.');
    const secret = generateSecret();
    await this.store.setTotpSecret(user.id, this.box().seal(secret));
    const otpauthUri = generateURI({ issuer: this.issuer, label: user.username, secret });
    // a QR code to scan (the `qrcode` library), as an SVG data: URI any page can show
    const svg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, otpauthUri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  async confirmTotpEnrolment(userId: string, code: string, clientAddress?: string): Promise<void> {
    const user = await this.store.byId(userId);
    if (!user) throw notFound('No such user.');
    if (user.totpConfirmedAt) throw conflict('Two-factor authentication is already enabled for this account.');
    if (!user.totpSecretSealed) throw conflict('Start the enrolment first (POST /api/auth/2fa/enrol/).');
    // otplib throws on a token that is not six digits: check the shape first
    const token = (code ?? '').trim();
    const sealed = user.totpSecretSealed;
    const held = await this.attempts.codes.guard(user.id, clientAddress, async () => {
      const result = /^\d{6}$/.test(token) ? await this.verifyTotp(sealed, token) : { valid: false, step: -1 };
      if (result.valid) await this.store.confirmTotp(user.id, result.step);
      return result.valid;
    });
    if (!held) throw badInput('The one-time code is not valid.', { otp: ['The one-time code is not valid.'] });
    this.forget(user.id);
  }

  /** The current code of a user's 2FA secret (tests and the demo set-up; never exposed). */
  async currentTotp(userId: string): Promise<string> {
    const user = await this.store.byId(userId);
    if (!user?.totpSecretSealed) throw notFound('No 2FA secret.');
    return totpGenerate({ secret: this.box().open(user.totpSecretSealed) });
  }

  /**
   * Admin console sign-in: superusers only. A superuser enrolled in 2FA also gives the code of their
   * authenticator app; with "Enforce 2FA on login" on, one not enrolled yet gets no session but an
   * enrolment (secret, otpauth URI and a short enrolment token) to confirm with
   * `completeAdminTotpEnrolment`. The session token goes into the `sessionid` cookie; only its hash is stored.
   */
  async startAdminSession(username: string, password: string, otp?: string | null, clientAddress?: string): Promise<AdminSignIn> {
    const user = await this.checkPassword(username, password, clientAddress);
    // superusers, and support staff (a role below: the gate's SUPPORT_FIELDS)
    if (!user.isSuperuser && !user.isStaff)
      throw new DomainError('NO_ACTIVE_ACCOUNT', 401, 'Please enter the correct username and password for a staff account.');
    if (user.totpConfirmedAt !== null) {
      if (!otp) throw new DomainError('OTP_REQUIRED', 401, 'Enter the one-time code of your authenticator app.');
      if (!(await this.checkTotp(user, otp, clientAddress))) throw new DomainError('OTP_INVALID', 401, 'The one-time code is not valid.');
    } else if ((await this.gate.state()).enforce2fa) {
      const enrolment = await this.startTotpEnrolment(user.id);
      const enrolmentToken = await this.tokenService().issue(
        { userId: user.id, username: user.username, scope: 'enrol-2fa', version: user.tokenVersion },
        ENROLMENT_TOKEN_TTL_SECONDS,
      );
      return { username: user.username, session: null, expiresAt: null, enrolment: { ...enrolment, enrolmentToken, expiresIn: ENROLMENT_TOKEN_TTL_SECONDS } };
    }
    return this.openAdminSession(user);
  }

  /** The console's enrolment step: the enrolment token of `startAdminSession` and a code of the new secret; then the session. */
  async completeAdminTotpEnrolment(enrolmentToken: string, otp: string, clientAddress?: string): Promise<AdminSignIn> {
    const claims = await this.tokenService().verify(enrolmentToken);
    const user = await this.store.byId(claims.userId);
    if (claims.scope !== 'enrol-2fa' || !user?.isActive || !(user.isSuperuser || user.isStaff) || user.tokenVersion !== claims.version)
      throw invalidCredentials('Token is invalid.');
    await this.confirmTotpEnrolment(user.id, otp, clientAddress);
    return this.openAdminSession(user);
  }

  private async openAdminSession(user: UserRow): Promise<AdminSignIn> {
    const session = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ADMIN_SESSION_SECONDS * 1000);
    await this.store.insertSession(sessionHash(session), user.id, expiresAt);
    await this.store.recordSuccess(user.id, user.username);
    return { session, username: user.username, expiresAt, enrolment: null };
  }

  authenticateAdminSession(session: string): Promise<{ userId: string; username: string; role: 'superuser' | 'support' } | undefined> {
    return this.store.session(sessionHash(session));
  }

  endAdminSession(session: string): Promise<void> {
    return this.store.deleteSession(sessionHash(session));
  }

  user(id: string) {
    return this.store.byId(id);
  }

  users(first: number) {
    return this.store.list(first);
  }

  stats() {
    return this.store.stats();
  }

  recentSignIns(first: number) {
    return this.store.recentSignIns(first);
  }
}

const sessionHash = (session: string) => createHash('sha256').update(session).digest();
