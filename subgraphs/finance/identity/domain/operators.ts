import { DomainError, badInput, conflict, notFound } from '../../../../lib/errors';
import { adminActor, type AuditOutbox } from '../../kernel/audit';
import type { KycLevel } from '../../kernel/kyc';
import type { IdentityStore, UserRow } from '../store/identity-store';
import type { OnboardingStore } from '../store/onboarding-store';
import type { OperatorChangeKind, OperatorChangeRow, OperatorStore } from '../store/operator-store';
import { normaliseUsername, type IdentityService } from './identity-service';
import type { OnboardingService } from './onboarding';
import type { PhoneVerificationService } from './phone-verification';

/** The admin console operator who acts (the node-admin principal the gateway verified). */
export interface OperatorActor {
  userId: string;
  username: string;
  role: 'superuser' | 'support';
}

export const OPERATOR_CHANGES: readonly OperatorChangeKind[] = ['superuser', 'support', 'remove_role', 'freeze', 'reactivate'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isOperator = (u: Pick<UserRow, 'isSuperuser' | 'isStaff'>) => u.isSuperuser || u.isStaff;

export const selfActionForbidden = () =>
  new DomainError('OPERATOR_SELF_ACTION', 403, 'Operators do not act on their own account (its state, KYC level or phone number): another operator does.');
export const operatorTargetForbidden = () =>
  new DomainError(
    'OPERATOR_TWO_PERSON',
    403,
    "Another operator's account changes through the two-person operator flow only: a superuser proposes it, a different superuser approves it.",
  );
export const samePersonForbidden = () =>
  new DomainError('SAME_PERSON', 403, 'An operator change is approved by a second person: neither the operator who proposed it nor the operator it changes.');

export interface OperatorDeps {
  users: IdentityStore;
  accounts: OnboardingStore;
  store: OperatorStore;
  identity: IdentityService;
  onboarding: OnboardingService;
  phones: PhoneVerificationService;
  audit: AuditOutbox;
}

/**
 * The admin console's authority over accounts, enforced where the user rows live:
 *   - no operator acts on their own account, and no operator changes another operator's account
 *     directly (freezing, KYC level, phone number): the console's operators cannot lock each other out
 *     or raise themselves;
 *   - creating, elevating, demoting, freezing or re-activating an operator is a two-person decision:
 *     a superuser proposes, a DIFFERENT superuser (not the proposer, not the operator it changes)
 *     approves, and the change applies in the approval's transaction, audited. The host's CLI
 *     (`npm run cli -- finance:createsuperuser`) stays the way in when nobody is left to approve.
 */
export class OperatorService {
  constructor(private readonly d: OperatorDeps) {}

  private async userOf(ref: string): Promise<UserRow> {
    const user = UUID.test(ref) ? await this.d.users.byId(ref) : await this.d.users.byUsername(normaliseUsername(ref ?? ''));
    if (!user) throw notFound('No such user.');
    return user;
  }

  /** Refuses an operator's direct change of `target`: their own account, or another operator's. */
  refuseTarget(actor: OperatorActor, target: UserRow): void {
    if (target.id === actor.userId) throw selfActionForbidden();
    if (isOperator(target)) throw operatorTargetForbidden();
  }

  /** Freezes or unfreezes a customer (support staff and superusers). */
  async setActive(actor: OperatorActor, ref: string, active: boolean): Promise<UserRow> {
    const target = await this.userOf(ref);
    this.refuseTarget(actor, target);
    return this.d.onboarding.setActive(target.id, active, adminActor(actor.username));
  }

  /** Sets a customer's KYC level (support staff and superusers). */
  async setKycLevel(actor: OperatorActor, ref: string, level: KycLevel): Promise<UserRow> {
    const target = await this.userOf(ref);
    this.refuseTarget(actor, target);
    return this.d.onboarding.setKycLevelAsAdmin(target.id, level, adminActor(actor.username));
  }

  /** Sets or clears a customer's phone number, verified at once (it routes transfers): audited in its transaction. */
  async setPhone(actor: OperatorActor, ref: string, phone: string | null): Promise<UserRow> {
    const target = await this.userOf(ref);
    this.refuseTarget(actor, target);
    return this.d.phones.setVerified(target.id, phone, (db, after) =>
      this.d.audit.record(db, adminActor(actor.username), after.phone ? 'user.phone_set' : 'user.phone_cleared', {
        user: after.id,
        username: after.username,
        from: target.phone,
        to: after.phone,
      }),
    );
  }

  /**
   * Adds a user. A user meant to be an operator (superuser or support staff) is created as a plain user
   * with a proposal of the role, in one transaction: a second superuser approves it.
   */
  async addUser(actor: OperatorActor, input: { username: string; email: string; password: string; superuser: boolean; staff: boolean }): Promise<UserRow> {
    const role: OperatorChangeKind | undefined = input.superuser ? 'superuser' : input.staff ? 'support' : undefined;
    return this.d.onboarding.addUser({ ...input, superuser: false, staff: false }, adminActor(actor.username), async (db, user) => {
      if (role) await this.insert(db, actor, user, role, 'new user');
    });
  }

  private async insert(db: Parameters<OperatorStore['insert']>[0], actor: OperatorActor, target: UserRow, change: OperatorChangeKind, reason: string) {
    const id = await this.d.store
      .insert(db, { userId: target.id, change, reason, proposedBy: actor.userId, proposedByName: actor.username })
      .catch((err: { code?: string }) => {
        if (err.code === '23505') throw conflict('This user has an operator change pending already: approve or reject it first.');
        throw err;
      });
    await this.d.audit.record(db, adminActor(actor.username), 'operator.change_proposed', {
      change: id,
      user: target.id,
      username: target.username,
      to: change,
      reason,
    });
    return id;
  }

  /** A superuser proposes an operator change of `ref` (never of their own account). */
  async propose(actor: OperatorActor, ref: string, change: string, reason: string): Promise<OperatorChangeRow> {
    if (!(OPERATOR_CHANGES as readonly string[]).includes(change))
      throw badInput(`change must be one of ${OPERATOR_CHANGES.join(', ')}.`, { change: ['Unknown change.'] });
    const note = (reason ?? '').trim();
    if (note.length > 500) throw badInput('The reason has at most 500 characters.', { reason: ['At most 500 characters.'] });
    const target = await this.userOf(ref);
    if (target.id === actor.userId) throw selfActionForbidden();
    const pointless = this.pointless(target, change as OperatorChangeKind);
    if (pointless) throw conflict(pointless);
    const id = await this.d.store.transaction((db) => this.insert(db, actor, target, change as OperatorChangeKind, note));
    return (await this.d.store.byId(id))!;
  }

  /** Why the change would change nothing, if it would not. */
  private pointless(u: UserRow, change: OperatorChangeKind): string | undefined {
    if (change === 'superuser' && u.isSuperuser) return 'This user is a superuser already.';
    if (change === 'support' && u.isStaff && !u.isSuperuser) return 'This user is support staff already.';
    if (change === 'remove_role' && !isOperator(u)) return 'This user has no operator role.';
    if (change === 'freeze' && !u.isActive) return 'This user is frozen already.';
    if (change === 'reactivate' && u.isActive) return 'This user is active already.';
    if ((change === 'freeze' || change === 'reactivate') && !isOperator(u)) return 'Not an operator: freeze or unfreeze a customer on their page.';
    return undefined;
  }

  /** A second superuser approves: the change applies in this transaction, once. */
  async approve(actor: OperatorActor, id: string): Promise<OperatorChangeRow> {
    if (!UUID.test(id)) throw notFound('No such operator change.');
    const userId = await this.d.store.transaction(async (db) => {
      const c = await this.d.store.lock(db, id);
      if (!c) throw notFound('No such operator change.');
      if (c.status !== 'pending') throw new DomainError('INVALID_STATE', 409, `This operator change is ${c.status} already.`, { status: c.status });
      if (c.proposedBy === actor.userId || c.userId === actor.userId) throw samePersonForbidden();
      const role = c.change === 'superuser' || c.change === 'support' ? c.change : c.change === 'remove_role' ? 'none' : undefined;
      if (role) await this.d.store.setRole(db, c.userId, role);
      else await this.d.accounts.setActive(c.userId, c.change === 'reactivate', db);
      await this.d.store.decide(db, id, 'approved', { id: actor.userId, name: actor.username });
      await this.d.audit.record(db, adminActor(actor.username), 'operator.change_approved', {
        change: id,
        user: c.userId,
        username: c.username,
        to: c.change,
        proposedBy: adminActor(c.proposedByName),
      });
      return c.userId;
    });
    this.d.identity.forget(userId);
    return (await this.d.store.byId(id))!;
  }

  /** A superuser rejects a pending change (the proposer may withdraw theirs): nothing applies. */
  async reject(actor: OperatorActor, id: string): Promise<OperatorChangeRow> {
    if (!UUID.test(id)) throw notFound('No such operator change.');
    await this.d.store.transaction(async (db) => {
      const c = await this.d.store.lock(db, id);
      if (!c) throw notFound('No such operator change.');
      if (c.status !== 'pending') throw new DomainError('INVALID_STATE', 409, `This operator change is ${c.status} already.`, { status: c.status });
      await this.d.store.decide(db, id, 'rejected', { id: actor.userId, name: actor.username });
      await this.d.audit.record(db, adminActor(actor.username), 'operator.change_rejected', { change: id, user: c.userId, username: c.username, to: c.change });
    });
    return (await this.d.store.byId(id))!;
  }

  list(first: number, status?: string | null): Promise<OperatorChangeRow[]> {
    const s = status === 'pending' || status === 'approved' || status === 'rejected' ? status : undefined;
    return this.d.store.list(Math.min(Math.max(first, 1), 500), s);
  }
}
