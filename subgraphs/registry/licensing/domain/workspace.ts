import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../../../lib/passwords';
import type { AttemptThrottle } from '../../../../lib/attempts';
import { badInput, DomainError, forbidden, notFound } from '../../../../lib/errors';
import type { Mailer } from '../../../../lib/mailer';
import type { PrincipalOf } from '../../../../lib/principal';
import type { WorkspaceAccount, WorkspaceStore } from '../store/workspace-store';
import type { AuditLog } from './audit';
import type { CatalogueService } from './catalogue';
import type { LicencePrincipal, LicenceService, LicenceSummary } from './licences';

export type WorkspacePrincipal = PrincipalOf<'workspace-user'>;

/** Session tokens: 32 random bytes, base64url (43 characters); the cookie carries the token, the table its SHA-256. */
export const SESSION_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const MIN_PASSWORD_LENGTH = 10;
const INVITATION_TTL_SECONDS = 7 * 24 * 3600;
const RESET_TTL_SECONDS = 3600;

const sha256 = (token: string) => createHash('sha256').update(token).digest();
const newToken = () => randomBytes(32).toString('base64url');

const signInRefused = () => new DomainError('INVALID_CREDENTIALS', 401, 'E-mail address or password is not correct.');

export interface WorkspaceSettings {
  sessionTtlSeconds: number;
  /** Where the links of invitation and reset mails point: the registry's public URL. */
  baseUrl: () => string;
}

/**
 * The customer workspace's people: sign-in (argon2id, throttled per address and per e-mail), sessions
 * (cookie token, only its hash stored), invitations and password resets by mail (single-use links),
 * and what a signed-in user may reach: the licences of their own organisation only.
 */
export class WorkspaceService {
  private get linkAttempts(): AttemptThrottle {
    return this.settings.linkAttempts;
  }

  constructor(
    private readonly store: WorkspaceStore,
    private readonly catalogue: CatalogueService,
    private readonly licences: LicenceService,
    private readonly audit: AuditLog,
    private readonly mailer: Mailer,
    private readonly signInAttempts: AttemptThrottle,
    private readonly settings: WorkspaceSettings & { linkAttempts: AttemptThrottle },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Checks e-mail and password. The attempt is reserved before the hash is checked (per client
   * address, per e-mail address and both: lib/attempts.ts), so concurrent guesses cannot outrun the
   * limit; past it, 429. A success gives the attempt back.
   */
  async signIn(emailInput: string, password: string, clientAddress?: string): Promise<{ session: string; expiresAt: Date; user: WorkspaceAccount }> {
    const email = (emailInput ?? '').trim().toLowerCase();
    let account = undefined as WorkspaceAccount | undefined;
    const held = await this.signInAttempts.guard(email || 'empty', clientAddress, async () => {
      account = email ? await this.store.accountByEmail(email) : undefined;
      // the hash is checked even without an account: no timing difference tells which addresses exist
      return verifyPassword(account?.passwordHash, password);
    });
    if (!held || !account) throw signInRefused();
    const session = newToken();
    const expiresAt = new Date(this.clock().getTime() + this.settings.sessionTtlSeconds * 1000);
    await this.store.insertSession({ tokenHash: sha256(session), userId: account.id, expiresAt });
    await this.audit.record(undefined, {
      action: 'workspace_user.signed_in',
      actor: `workspace-user:${account.id}`,
      organisationId: account.organisationId,
      subjectType: 'workspace_user',
      subjectId: account.id,
      details: {},
    });
    return { session, expiresAt, user: account };
  }

  /** The gateway's check of a session cookie: the user, or null (an unknown or expired session is anonymous). */
  async authenticate(session: string): Promise<WorkspacePrincipal | null> {
    if (!SESSION_TOKEN_SHAPE.test(session)) return null;
    const account = await this.store.sessionAccount(sha256(session), this.clock());
    if (!account) return null;
    return { kind: 'workspace-user', userId: account.id, organisationId: account.organisationId, email: account.email, name: account.name, role: account.role };
  }

  async signOut(session: string): Promise<void> {
    if (SESSION_TOKEN_SHAPE.test(session)) await this.store.deleteSession(sha256(session));
  }

  /**
   * Invites a person to an organisation's workspace (the vendor, or an owner of that organisation):
   * the account, and a mail with a single-use link to choose a password.
   */
  async invite(
    input: { organisation: string; email: string; name: string; role?: 'owner' | 'member' | null },
    actor: string,
  ): Promise<{ user: WorkspaceAccount; link: string }> {
    const row = await this.catalogue.addWorkspaceUser(input, actor);
    const user = (await this.store.account(row.id))!;
    const link = await this.passwordLink(user, 'invitation', INVITATION_TTL_SECONDS);
    await this.mailer.send({
      to: user.email,
      subject: 'Your workspace invitation',
      text: `Hello ${user.name},\n\nyou are invited to your organisation's licence workspace. Choose your password here (valid for 7 days):\n\n${link}\n`,
    });
    await this.audit.record(undefined, {
      action: 'workspace_user.invited',
      actor,
      organisationId: user.organisationId,
      subjectType: 'workspace_user',
      subjectId: user.id,
      details: { email: user.email, role: user.role },
    });
    return { user, link };
  }

  /** An owner invites someone to their own organisation. */
  inviteByOwner(owner: WorkspacePrincipal, input: { email: string; name: string; role?: 'owner' | 'member' | null }) {
    if (owner.role !== 'owner') throw forbidden('Only an owner of the organisation can invite people.');
    return this.invite({ ...input, organisation: owner.organisationId }, `workspace-user:${owner.userId}`);
  }

  /** A reset link by mail; the answer is the same whether or not the address has an account. */
  async requestPasswordReset(emailInput: string): Promise<void> {
    const email = (emailInput ?? '').trim().toLowerCase();
    const user = email ? await this.store.accountByEmail(email) : undefined;
    if (!user) return;
    const link = await this.passwordLink(user, 'reset', RESET_TTL_SECONDS);
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your workspace password',
      text: `Hello ${user.name},\n\nchoose a new password for your licence workspace here (valid for one hour):\n\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
    });
  }

  /** Sets the password of an invitation or reset link (used once); every other session of the user ends. */
  /** Each guess of a link's token is reserved before it is checked (lib/attempts.ts TOKEN_ATTEMPTS, per client address). */
  async setPassword(token: string, password: string, clientAddress?: string): Promise<void> {
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH || password.length > 200) {
      throw badInput(`The password must be ${MIN_PASSWORD_LENGTH} to 200 characters.`, { password: [`${MIN_PASSWORD_LENGTH} to 200 characters`] });
    }
    let userId: string | undefined;
    const held = await this.linkAttempts.guard('password-link', clientAddress, async () => {
      userId = SESSION_TOKEN_SHAPE.test(token ?? '') ? await this.store.consumePasswordToken(sha256(token), this.clock()) : undefined;
      return userId !== undefined;
    });
    if (!held || !userId) throw new DomainError('LINK_EXPIRED', 410, 'This link has been used or has expired; ask for a new one.');
    await this.store.setPassword(userId, await hashPassword(password));
    const user = (await this.store.account(userId))!;
    await this.audit.record(undefined, {
      action: 'workspace_user.password_set',
      actor: `workspace-user:${userId}`,
      organisationId: user.organisationId,
      subjectType: 'workspace_user',
      subjectId: userId,
      details: {},
    });
  }

  private async passwordLink(user: WorkspaceAccount, purpose: 'invitation' | 'reset', ttlSeconds: number): Promise<string> {
    const token = newToken();
    await this.store.insertPasswordToken({
      tokenHash: sha256(token),
      userId: user.id,
      purpose,
      expiresAt: new Date(this.clock().getTime() + ttlSeconds * 1000),
    });
    return `${this.settings.baseUrl()}/workspace/password/?token=${token}`;
  }

  /** The licences of the user's organisation, as the workspace shows them (keys masked). */
  async licencesOf(user: WorkspacePrincipal): Promise<LicenceSummary[]> {
    const rows = await this.licences.ofOrganisations([user.organisationId]);
    return Promise.all(rows.map((r) => this.licences.summary(r.id)));
  }

  /** One licence of the user's organisation, as its own key would see it (another organisation's: not found). */
  async licence(user: WorkspacePrincipal, licenceId: string): Promise<LicencePrincipal> {
    const principal = /^[0-9a-f-]{36}$/i.test(licenceId ?? '') ? await this.licences.principalById(licenceId.toLowerCase()) : undefined;
    if (!principal || principal.organisationId !== user.organisationId) throw notFound('No such licence in your organisation.');
    return principal;
  }

  /** The full key of one of the organisation's licences (reveal). */
  async revealKey(user: WorkspacePrincipal, licenceId: string): Promise<string> {
    const licence = await this.licence(user, licenceId);
    return this.licences.revealKey(await this.licences.find(licence.licenceId));
  }

  entitlements(organisationId: string): Promise<string[]> {
    return this.store.entitlements(organisationId);
  }
}
