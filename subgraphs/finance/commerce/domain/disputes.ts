import { inTransaction } from '../../../../lib/database';
import { DomainError, badInput, forbidden } from '../../../../lib/errors';
import type pg from 'pg';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import { toMinor, toMoney } from '../../kernel/currencies';
import type { ObjectStore } from '../../../../lib/object-store';
import type { AuditOutbox } from '../../kernel/audit';
import type { CommerceStore, DisputeRow } from '../store/commerce-store';
import { INSUFFICIENT_FUNDS, type LedgerAccountState, type LedgerClient, type LedgerTransferInput, type LedgerTransferView } from '../../kernel/ledger-client';
import { ATTACHMENT_TYPES, DISPUTE_REASONS, MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES } from './catalogue';
import {
  actorLabel,
  alreadyRefunded,
  assertMoneyDecider,
  auditDecision,
  assertId,
  lockTransfer,
  missing,
  pageOf,
  pageRequest,
  text,
  type Actor,
} from './common';
import { DISPUTE_ACTION_RULES, INITIAL_DISPUTE_STATE, disputeMove, type DisputeAction } from './dispute-transitions';
import type { Rewards } from './rewards';
import { SHOP_PAYMENT } from './shop';

export interface AttachmentInput {
  filename: string;
  contentType: string;
  /** The file's bytes, base64. */
  content: string;
}

export interface DisputeInput {
  transactionId: string;
  reason: string;
  description: string;
  attachments?: AttachmentInput[] | null;
}

const field = (name: string, message: string) => badInput(message, { [name]: [message] });

/**
 * What can be disputed: a payment to a merchant (a shop order, a card payment) or to another user
 * (a transfer), by the ledger code of the transfer that paid it. Never an internal leg (an FX
 * conversion's, a fee, an investment's fill or reservation, a swap, a redemption).
 */
export const DISPUTABLE_PAYMENTS: Readonly<Record<string, string>> = {
  [SHOP_PAYMENT]: 'a shop order',
  card_capture: 'a card payment',
  transfer: 'a transfer to another user',
};

/** Where a refund comes from when the payee has spent the money: the platform's dispute losses, one account per currency. */
export const DISPUTE_LOSSES = 'commerce:dispute_losses';

/**
 * Disputes on Stripe's model, raised by a user on a payment of theirs to a merchant or another user
 * (DISPUTABLE_PAYMENTS) that was neither refunded nor reversed. Which action is allowed in which
 * state, and by whom, is the table of ./dispute-transitions: every path here decides through
 * disputeMove. A resolution in the user's favour refunds the payment once (ids derived from the
 * dispute): the payee pays back what it still holds (a merchant's account always can; a user's
 * wallet never goes below zero), the platform's dispute-loss account the rest, so the refund never
 * waits on a payee who spent the money and the ledger stays balanced; a shop order's points go back
 * with it. The original transfer is never touched. Every move is a row of the dispute's history;
 * user and administrators talk in its message thread.
 */
export class Disputes {
  constructor(
    private readonly store: CommerceStore,
    private readonly ledger: LedgerClient,
    private readonly objects: ObjectStore,
    private readonly idempotency: IdempotentRequests,
    private readonly rewards: Rewards,
    private readonly audit: AuditOutbox,
  ) {}

  open(userId: string, input: DisputeInput, key: string | null | undefined): Promise<DisputeRow> {
    return this.idempotency.run({ owner: `user:${userId}`, key, operation: 'openDispute', input }, async (ids) => {
      if (!(DISPUTE_REASONS as readonly string[]).includes(input.reason)) throw field('reason', `One of ${DISPUTE_REASONS.join(', ')}.`);
      const description = text(input.description, 'description', { min: 10, max: 4000 });
      const files = (input.attachments ?? []).map((a, i) => checkAttachment(a, i));
      if (files.length > MAX_ATTACHMENTS) throw field('attachments', `At most ${MAX_ATTACHMENTS} files.`);
      assertId(input.transactionId, 'transaction');
      const transfer = await this.ledger.transfer(input.transactionId);
      if (!transfer) throw missing('transaction');
      // whose accounts it moved between, read rather than the caller's wallet ensured (which would create one)
      const [debit, credit] = await Promise.all([this.ledger.accountState(transfer.debitAccountId), this.ledger.accountState(transfer.creditAccountId)]);
      const ownWallet = (a: LedgerAccountState) => a.ownerType === 'user' && a.ownerId === userId && a.code === 'wallet';
      if (ownWallet(credit) && !ownWallet(debit)) throw field('transaction_id', 'Only a payment out of your wallet can be disputed.');
      if (!ownWallet(debit)) throw missing('transaction');
      if (transfer.kind !== 'single' && transfer.kind !== 'post_pending') throw field('transaction_id', 'Only a posted transaction can be disputed.');
      if (!DISPUTABLE_PAYMENTS[transfer.code])
        throw field('transaction_id', `Only a payment to a merchant or another user can be disputed (${Object.values(DISPUTABLE_PAYMENTS).join(', ')}).`);
      // a quick refusal before the files are stored; decided again under the transfer's lock below
      await this.refuseReversed(this.store.pool, transfer);
      const stored: { objectKey: string; filename: string; contentType: string; size: number }[] = [];
      for (const [i, f] of files.entries()) {
        const objectKey = `commerce/disputes/${userId}/${ids(`attachment:${i}`)}`;
        await this.objects.put(objectKey, f.bytes, { contentType: f.contentType, size: f.bytes.length });
        stored.push({ objectKey, filename: f.filename, contentType: f.contentType, size: f.bytes.length });
      }
      try {
        return await inTransaction(this.store.pool, async (c) => {
          // under the transfer's lock: a resolution or a cancellation of it committed meanwhile is seen here
          await lockTransfer(c, transfer.id);
          await this.refuseReversed(c, transfer);
          const dispute = await this.store.insertDispute(c, {
            userId,
            transferId: transfer.id,
            amount: toMinor(transfer.amount.amount, transfer.amount.currency),
            currency: transfer.amount.currency,
            reason: input.reason,
            description,
            status: INITIAL_DISPUTE_STATE,
          });
          for (const s of stored) await this.store.insertAttachment(c, { disputeId: dispute.id, ...s });
          return dispute;
        });
      } catch (err) {
        if ((err as { code?: string }).code === '23505')
          throw new DomainError('DISPUTE_EXISTS', 409, 'This transaction already has an open dispute, or was reversed already.');
        throw err;
      }
    });
  }

  /** 409 when the transfer was refunded or reversed already (commerce's records and the ledger's), or has a live dispute. */
  private async refuseReversed(db: Parameters<CommerceStore['orderPaidBy']>[1], transfer: LedgerTransferView): Promise<void> {
    const order = transfer.code === SHOP_PAYMENT ? await this.store.orderPaidBy(transfer.id, db) : undefined;
    if (order?.refundTransferId && order.status === 'cancelled') throw alreadyRefunded('the order was cancelled');
    if ((await this.store.transferReversed(transfer.id, db as pg.PoolClient)) || (await this.ledger.reversalOf(transfer.id)))
      throw new DomainError('DISPUTE_EXISTS', 409, 'This transaction already has an open dispute, or was reversed already.');
    if (order?.refundTransferId) throw alreadyRefunded('the order was refunded');
  }

  async dispute(id: string, userId?: string): Promise<DisputeRow> {
    assertId(id, 'dispute');
    const d = await this.store.dispute(id);
    if (!d || (userId && d.userId !== userId)) throw missing('dispute');
    return d;
  }

  async disputes(opts: { userId?: string; status?: string | null; limit?: number | null; cursor?: string | null }) {
    const page = pageRequest(opts.limit, opts.cursor);
    return pageOf(
      await this.store.disputes({ userId: opts.userId, status: opts.status ?? undefined, limit: page.limit + 1, position: page.position }),
      page.limit,
    );
  }

  history(id: string) {
    return this.store.disputeHistory(id);
  }

  attachments(id: string) {
    return this.store.attachments(id);
  }

  messages(id: string) {
    return this.store.messages(id);
  }

  /** Cancelled by the user who raised it (another user's is no dispute of theirs: 404). */
  async cancel(userId: string, id: string): Promise<DisputeRow> {
    await this.dispute(id, userId);
    return this.move(id, 'cancel', { role: 'user', userId });
  }

  /** Put under review: an administrator takes it. */
  review(id: string, actor: Actor): Promise<DisputeRow> {
    return this.move(id, 'review', actor);
  }

  /** Rejected: the transaction stands. */
  reject(id: string, actor: Actor, note: string): Promise<DisputeRow> {
    return this.move(id, 'reject', actor, text(note, 'note', { max: 2000 }));
  }

  /**
   * Resolved in the user's favour: the payment refunded in the same step (`refund`),
   * a shop order's points taken back and the order `refunded`. Decided by a superuser who is not a
   * party of the transfer (403). Under the dispute's row lock and the transfer's lock: a transfer
   * refunded meanwhile (another dispute, a cancellation) is not refunded again (409), and the ledger
   * refuses a second reversal of it in its own tables whoever asks (409 ALREADY_REVERSED, nothing
   * moved). A refund that needs the platform's dispute-loss account is a proposal: a second operator
   * resolving it approves it (two people, neither a party: the ledger checks them too).
   */
  async resolve(id: string, actor: Actor, note: string): Promise<DisputeRow> {
    const resolution = text(note, 'note', { max: 2000 });
    assertId(id, 'dispute');
    return inTransaction(this.store.pool, async (c) => {
      const d = await this.store.dispute(id, c, true);
      if (!d) throw missing('dispute');
      const to = disputeMove(d.status, 'resolve', actor);
      const original = await this.ledger.transfer(d.transferId);
      if (!original) throw missing('transaction');
      // locks in the order a cancellation takes them (the order's row, then the transfer's): no deadlock between them
      const order = original.code === SHOP_PAYMENT ? await this.store.orderPaidBy(original.id, c, true) : undefined;
      await lockTransfer(c, original.id);
      const payee = await this.ledger.accountState(original.creditAccountId);
      const parties = [d.userId, ...(payee.ownerType === 'user' ? [payee.ownerId] : [])];
      const operator = assertMoneyDecider(actor, parties);
      if (order?.refundTransferId) throw alreadyRefunded('the order was refunded');
      const own = [derivedUuid('dispute-reversal', d.id), derivedUuid('dispute-loss', d.id)];
      const reversed = await this.ledger.reversalOf(original.id);
      if (reversed && !own.includes(reversed)) throw alreadyRefunded('by another dispute or a cancellation');
      const outcome = await this.refund(d, original, { operator, parties });
      if (outcome === undefined) {
        const proposed = await this.store.proposeDisputeRefund(c, d.id, { id: operator, name: actorLabel(actor) });
        await auditDecision(this.audit, c, actor, 'dispute.refund_proposed', { ...disputeDetail(d, d.status), note: resolution });
        return proposed;
      }
      if (order) {
        await this.rewards.reverseOrder(c, order.id);
        await this.store.moveOrder(c, order.id, order.status, 'refunded', actorLabel(actor), { refundTransferId: outcome });
      }
      const resolved = await this.store.moveDispute(c, id, d.status, to, actorLabel(actor), { note: resolution, reversalTransferId: outcome });
      await auditDecision(this.audit, c, actor, DISPUTE_ACTION_RULES.resolve.audit, {
        ...disputeDetail(d, to),
        note: resolution,
        reversal: outcome,
        order: order?.id,
        refundProposedBy: d.refundProposedBy ?? undefined,
      });
      return resolved;
    });
  }

  /**
   * Pays the disputed amount back into the user's wallet, once (ids derived from the dispute: a retry
   * finds what was applied; the legs name the original, which the ledger reverses once): from the
   * payee's account what it still holds — a merchant's or another system account all of it, a user's
   * wallet its available balance — and the rest from the platform's dispute losses, in one linked
   * batch. The losses' part needs two operators: without an earlier proposal by another person it is
   * proposed (undefined) and nothing moves. A payee spending concurrently makes the batch short of funds: it is
   * weighed again. Answers the id of the batch's first transfer (the dispute's reversal).
   */
  private async refund(d: DisputeRow, original: LedgerTransferView, by: { operator: string; parties: string[] }): Promise<string | undefined> {
    const fromPayee = derivedUuid('dispute-reversal', d.id);
    const fromLosses = derivedUuid('dispute-loss', d.id);
    for (const done of [fromPayee, fromLosses]) if (await this.ledger.transfer(done)) return done;
    const { currency } = original.amount;
    const amount = toMinor(original.amount.amount, currency);
    const metadata = { disputeId: d.id, reverses: original.id, description: 'Dispute refund' };
    for (let attempt = 1; ; attempt++) {
      const payee = await this.ledger.accountState(original.creditAccountId);
      const available = payee.creditsPosted - payee.debitsPosted - payee.debitsPending;
      const held = payee.ownerType !== 'user' ? amount : available > 0n ? available : 0n;
      const back = held < amount ? held : amount;
      if (amount > back && (!d.refundProposedById || d.refundProposedById === by.operator)) {
        if (d.refundProposedById) throw forbidden('You proposed this refund from the platform: a second operator must approve it (maker-checker).');
        return undefined;
      }
      const legs: LedgerTransferInput[] = [];
      const leg = { creditAccountId: original.debitAccountId, metadata, reverses: original.id };
      if (back > 0n)
        legs.push({ id: fromPayee, debitAccountId: original.creditAccountId, amount: toMoney(back, currency).amount, code: 'dispute_reversal', ...leg });
      if (amount > back)
        legs.push({
          id: fromLosses,
          debitAccountId: await this.ledger.system(currency, DISPUTE_LOSSES),
          amount: toMoney(amount - back, currency).amount,
          code: 'dispute_loss',
          approval: { proposedBy: d.refundProposedById!, approvedBy: by.operator, parties: by.parties },
          ...leg,
        });
      try {
        await this.ledger.transfers(legs);
        return legs[0].id;
      } catch (err) {
        if (err instanceof DomainError && err.code === INSUFFICIENT_FUNDS && attempt < 3) continue;
        throw err;
      }
    }
  }

  /** A message on the thread: the user on their own dispute, or an administrator; not once the dispute is closed. */
  async postMessage(id: string, actor: Actor, body: string) {
    const d = await this.dispute(id, actor.role === 'user' ? actor.userId : undefined);
    disputeMove(d.status, 'message', actor);
    const message = {
      disputeId: id,
      authorRole: actor.role,
      author: actor.role === 'user' ? actor.userId : actor.username,
      body: text(body, 'body', { max: 4000 }),
    };
    // an operator's word on a case is audited with it (a user's own message is not an operator decision)
    return inTransaction(this.store.pool, async (c) => {
      const m = await this.store.insertMessage(message, c);
      await auditDecision(this.audit, c, actor, DISPUTE_ACTION_RULES.message.audit, { dispute: id, message: String(m.id), user: d.userId });
      return m;
    });
  }

  /** An action that only changes the state (no money), decided by the table under the dispute's row lock. */
  private move(id: string, action: Exclude<DisputeAction, 'resolve' | 'message'>, actor: Actor, note?: string): Promise<DisputeRow> {
    assertId(id, 'dispute');
    return inTransaction(this.store.pool, async (c) => {
      const d = await this.store.dispute(id, c, true);
      if (!d) throw missing('dispute');
      const to = disputeMove(d.status, action, actor);
      const moved = await this.store.moveDispute(c, id, d.status, to, actorLabel(actor), { note });
      await auditDecision(this.audit, c, actor, DISPUTE_ACTION_RULES[action].audit, { ...disputeDetail(d, to), note });
      return moved;
    });
  }
}

/** What an audit entry of a dispute decision says: the dispute, its transaction and amount, old → new status. */
function disputeDetail(d: DisputeRow, to: string) {
  return {
    dispute: d.id,
    user: d.userId,
    transaction: d.transferId,
    amount: toMoney(d.amount, d.currency).amount,
    currency: d.currency,
    reason: d.reason,
    from: d.status,
    to,
  };
}

const MAGIC: Record<(typeof ATTACHMENT_TYPES)[number], Buffer> = {
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'application/pdf': Buffer.from('%PDF'),
};

function checkAttachment(a: AttachmentInput, i: number) {
  const name = `attachments[${i}]`;
  if (!(ATTACHMENT_TYPES as readonly string[]).includes(a.contentType)) throw field(name, `content_type is one of ${ATTACHMENT_TYPES.join(', ')}.`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.content ?? '')) throw field(name, 'content is base64.');
  const bytes = Buffer.from(a.content, 'base64');
  if (!bytes.length || bytes.length > MAX_ATTACHMENT_BYTES) throw field(name, `1 byte to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`);
  // the bytes must be what the type says (a renamed executable is not a PDF)
  const magic = MAGIC[a.contentType as keyof typeof MAGIC];
  if (!bytes.subarray(0, magic.length).equals(magic)) throw field(name, `The file is not a ${a.contentType} file.`);
  return { filename: text(a.filename, `${name}.filename`, { max: 200 }), contentType: a.contentType, bytes };
}
