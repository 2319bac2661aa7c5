import { randomUUID } from 'node:crypto';
import { inTransaction } from '../../../../lib/database';
import { DomainError, badInput, forbidden, notFound } from '../../../../lib/errors';
import { exponentOf, toMinor, toMoney } from '../../kernel/currencies';
import { adminActor, type AuditOutbox } from '../../kernel/audit';
import type { AdjustmentRow, AdjustmentStore } from '../store/adjustment-store';
import { NIL_OWNER, WALLET, type Ledger } from './ledger';

/** The system account of a currency that manual adjustments move money against (the ledger stays balanced). */
export const ADJUSTMENTS = 'adjustments';

/** An operator: a node user (a person) signed in to the console, with their role. */
export interface Operator {
  id: string;
  name: string;
  /** superuser decides money; support staff never do (absent: not known, treated as support for decisions). */
  role?: 'superuser' | 'support';
}

/** An operator never acts on their own wallet. */
const ownAccount = () => forbidden('An operator never adjusts their own wallet: another operator must handle it.');

export interface Proposal {
  /** The user: user name, e-mail or E.164 phone (an active user). */
  user: string;
  currency: string;
  /** A decimal string in the currency ("10.50"): the project's one money parser and maximum. */
  amount: string;
  direction: string;
  reason: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Maker-checker manual adjustments of a wallet: one administrator proposes a credit or a debit, a
 * different one approves it (then the ledger posts it against the currency's `adjustments` account,
 * in the transaction that records the decision) or rejects it. A debit never takes a wallet below zero.
 * Every step is audited, in its own transaction (the kernel's audit outbox).
 */
export class AdjustmentService {
  constructor(
    private readonly store: AdjustmentStore,
    private readonly ledger: Ledger,
    private readonly resolveUser: (reference: string) => Promise<{ id: string; username: string } | null>,
    private readonly audit: AuditOutbox,
  ) {}

  async propose(p: Proposal, by: Operator): Promise<AdjustmentRow> {
    const errors: Record<string, string[]> = {};
    const currency = p.currency.trim().toUpperCase();
    let amount = 0n;
    try {
      exponentOf(currency);
      try {
        amount = toMinor(p.amount.trim(), currency);
        if (amount <= 0n) errors.amount = ['The amount must be positive.'];
      } catch (err) {
        // toMinor: the decimals of the currency and its maximum (MAX_AMOUNT_MINOR), as every amount of the node
        errors.amount = [(err as Error).message];
      }
    } catch {
      errors.currency = ['Not a currency this node supports.'];
    }
    if (p.direction !== 'credit' && p.direction !== 'debit') errors.direction = ['credit or debit.'];
    const reason = p.reason.trim();
    if (!reason) errors.reason = ['This field is required.'];
    else if (reason.length > 500) errors.reason = ['At most 500 characters.'];
    const user = p.user.trim() ? await this.resolveUser(p.user.trim()) : null;
    if (!user) errors.user = [p.user.trim() ? 'No active user by this name, e-mail or phone.' : 'This field is required.'];
    if (Object.keys(errors).length) throw badInput('Invalid adjustment.', errors);
    if (user!.id === by.id) throw ownAccount();
    const row = await inTransaction(this.store.pool, async (c) => {
      const inserted = await this.store.insert(c, {
        id: randomUUID(),
        userId: user!.id,
        username: user!.username,
        currency,
        direction: p.direction as 'credit' | 'debit',
        amount,
        reason,
        proposedById: by.id,
        proposedBy: by.name,
      });
      await this.audit.record(c, adminActor(by.name), 'adjustment.proposed', this.detail(inserted));
      return inserted;
    });
    return row;
  }

  /**
   * Approves a pending adjustment (a superuser; not one's own proposal nor one's own wallet: 403) and posts it, once: the row is locked, its status
   * leaves `pending` in the transaction that posts the transfer (whose id is the adjustment's), so
   * concurrent approvals post it once and the others answer 409. A debit beyond the wallet: 422, still pending.
   */
  async approve(id: string, by: Operator): Promise<AdjustmentRow> {
    const decided = await inTransaction(this.store.pool, async (c) => {
      const a = await this.pending(id, c);
      if (by.role !== 'superuser') throw forbidden('Support staff do not decide money: a superuser approves adjustments.');
      if (a.proposedById === by.id) throw forbidden('You proposed this adjustment: a different administrator must approve it (maker-checker).');
      if (a.userId === by.id) throw ownAccount();
      const system = { ownerType: 'system', ownerId: NIL_OWNER, currency: a.currency, code: ADJUSTMENTS };
      const wallet = { ownerType: 'user', ownerId: a.userId, currency: a.currency, code: WALLET };
      try {
        await this.ledger.applyInTransaction(c, [
          {
            id: a.id,
            ...(a.direction === 'credit' ? { debitAccount: system, creditAccount: wallet } : { debitAccount: wallet, creditAccount: system }),
            amount: a.amount,
            code: `adjustment_${a.direction}`,
            metadata: { adjustment: a.id, reason: a.reason },
            // a credit from the platform's adjustments account: the ledger checks the two people (posting-rules.ts)
            ...(a.direction === 'credit' ? { approval: { proposedBy: a.proposedById, approvedBy: by.id, parties: [] } } : {}),
          },
        ]);
      } catch (err) {
        if ((err as DomainError).code === 'INSUFFICIENT_FUNDS')
          throw new DomainError('INSUFFICIENT_FUNDS', 422, `The debit would take ${a.username}'s ${a.currency} wallet below zero: not posted (still pending).`);
        throw err;
      }
      const approved = (await this.store.decide(c, a.id, 'approved', by))!;
      await this.audit.record(c, adminActor(by.name), 'adjustment.approved', this.detail(approved));
      return approved;
    });
    return decided;
  }

  /** Rejects a pending adjustment (any administrator, the proposer too: withdrawing it). */
  async reject(id: string, by: Operator): Promise<AdjustmentRow> {
    const decided = await inTransaction(this.store.pool, async (c) => {
      await this.pending(id, c);
      const rejected = (await this.store.decide(c, id, 'rejected', by))!;
      await this.audit.record(c, adminActor(by.name), 'adjustment.rejected', this.detail(rejected));
      return rejected;
    });
    return decided;
  }

  list(limit: number): Promise<AdjustmentRow[]> {
    return this.store.list(Math.min(Math.max(limit, 1), 500));
  }

  /** The adjustment, locked; 404 when there is none, 409 once decided. */
  private async pending(id: string, c: Parameters<AdjustmentStore['get']>[1]): Promise<AdjustmentRow> {
    const a = UUID.test(id) ? await this.store.get(id, c, true) : undefined;
    if (!a) throw notFound('No such adjustment.');
    if (a.status !== 'pending') throw new DomainError('ALREADY_DECIDED', 409, `This adjustment was already ${a.status} (by ${a.decidedBy ?? 'someone'}).`);
    return a;
  }

  private detail(a: AdjustmentRow) {
    return {
      adjustment: a.id,
      user: a.userId,
      username: a.username,
      direction: a.direction,
      amount: toMoney(a.amount, a.currency).amount,
      currency: a.currency,
      reason: a.reason,
    };
  }
}
