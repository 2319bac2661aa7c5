import { inTransaction } from '../../../../lib/database';
import { DomainError, badInput } from '../../../../lib/errors';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import { toMinor } from '../../../../lib/money';
import type { ObjectStore } from '../../../../lib/object-store';
import type { CommerceStore, DisputeRow } from '../store/commerce-store';
import type { LedgerClient } from '../../../../lib/ledger-client';
import { ATTACHMENT_TYPES, DISPUTE_REASONS, MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES, type DisputeState } from './catalogue';
import { actorLabel, assertId, invalidState, missing, pageOf, pageRequest, text, type Actor } from './common';

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
 * Disputes on Stripe's model, raised by a user on one of their ledger transactions (money that
 * left their wallet): open → under_review → resolved | rejected, open → cancelled by the user. A
 * resolution in the user's favour posts a reversing transfer (the original's accounts swapped, id
 * derived from the dispute: once); the original transfer is never touched. Every move is a row of
 * the dispute's history; user and administrators talk in its message thread.
 */
export class Disputes {
  constructor(
    private readonly store: CommerceStore,
    private readonly ledger: LedgerClient,
    private readonly objects: ObjectStore,
    private readonly idempotency: IdempotentRequests,
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
      const wallet = await this.ledger.wallet(userId, transfer.amount.currency);
      if (transfer.creditAccountId === wallet && transfer.debitAccountId !== wallet)
        throw field('transaction_id', 'Only a payment out of your wallet can be disputed.');
      if (transfer.debitAccountId !== wallet) throw missing('transaction');
      if (transfer.kind !== 'single' && transfer.kind !== 'post_pending') throw field('transaction_id', 'Only a posted transaction can be disputed.');
      if (await this.store.transferReversed(transfer.id))
        throw new DomainError('DISPUTE_EXISTS', 409, 'This transaction already has an open dispute, or was reversed already.');
      const stored: { objectKey: string; filename: string; contentType: string; size: number }[] = [];
      for (const [i, f] of files.entries()) {
        const objectKey = `commerce/disputes/${userId}/${ids(`attachment:${i}`)}`;
        await this.objects.put(objectKey, f.bytes, { contentType: f.contentType, size: f.bytes.length });
        stored.push({ objectKey, filename: f.filename, contentType: f.contentType, size: f.bytes.length });
      }
      try {
        return await inTransaction(this.store.pool, async (c) => {
          const dispute = await this.store.insertDispute(c, {
            userId,
            transferId: transfer.id,
            amount: toMinor(transfer.amount.amount, transfer.amount.currency),
            currency: transfer.amount.currency,
            reason: input.reason,
            description,
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

  /** open → cancelled, by the user who raised it. */
  async cancel(userId: string, id: string): Promise<DisputeRow> {
    await this.dispute(id, userId);
    return this.move(id, ['open'], 'cancelled', 'cancelled', { role: 'user', userId });
  }

  /** open → under_review (an administrator takes it). */
  review(id: string, actor: Actor): Promise<DisputeRow> {
    return this.move(id, ['open'], 'under_review', 'put under review', actor);
  }

  /** under_review → rejected: the transaction stands. */
  reject(id: string, actor: Actor, note: string): Promise<DisputeRow> {
    return this.move(id, ['under_review'], 'rejected', 'rejected', actor, text(note, 'note', { max: 2000 }));
  }

  /**
   * under_review → resolved in the user's favour: a reversing transfer (the original's credit
   * account pays the user's wallet back) in the same step; the dispute row stays locked meanwhile.
   */
  async resolve(id: string, actor: Actor, note: string): Promise<DisputeRow> {
    const resolution = text(note, 'note', { max: 2000 });
    assertId(id, 'dispute');
    return inTransaction(this.store.pool, async (c) => {
      const d = await this.store.dispute(id, c, true);
      if (!d) throw missing('dispute');
      if (d.status !== 'under_review') throw invalidState('dispute', d.status, 'resolved');
      const original = await this.ledger.transfer(d.transferId);
      if (!original) throw missing('transaction');
      const reversalId = derivedUuid('dispute-reversal', d.id);
      await this.ledger.transfers([
        {
          id: reversalId,
          debitAccountId: original.creditAccountId,
          creditAccountId: original.debitAccountId,
          amount: original.amount.amount,
          code: 'dispute_reversal',
          metadata: { disputeId: d.id, reverses: original.id },
        },
      ]);
      return this.store.moveDispute(c, id, d.status, 'resolved', actorLabel(actor), { note: resolution, reversalTransferId: reversalId });
    });
  }

  /** A message on the thread: the user on their own dispute, or an administrator; not once the dispute is closed. */
  async postMessage(id: string, actor: Actor, body: string) {
    const d = await this.dispute(id, actor.role === 'user' ? actor.userId : undefined);
    if (!['open', 'under_review'].includes(d.status)) throw invalidState('dispute', d.status, 'discussed further');
    return this.store.insertMessage({
      disputeId: id,
      authorRole: actor.role,
      author: actor.role === 'user' ? actor.userId : actor.username,
      body: text(body, 'body', { max: 4000 }),
    });
  }

  private move(id: string, from: DisputeState[], to: DisputeState, verb: string, actor: Actor, note?: string): Promise<DisputeRow> {
    assertId(id, 'dispute');
    return inTransaction(this.store.pool, async (c) => {
      const d = await this.store.dispute(id, c, true);
      if (!d) throw missing('dispute');
      if (!(from as string[]).includes(d.status)) throw invalidState('dispute', d.status, verb);
      return this.store.moveDispute(c, id, d.status, to, actorLabel(actor), { note });
    });
  }
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
