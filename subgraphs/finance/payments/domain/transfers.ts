import { DomainError, badInput } from '../../../../lib/errors';
import type { IdempotentRequests } from '../../../../lib/idempotency';
import { toMinor, toMoney, type Money } from '../../kernel/currencies';
import type { PrincipalOf } from '../../../../lib/principal';
import { kycLevelReaches, kycRequiredError, requiredKycLevel, type NodeGate } from '../../kernel/gate';
import { limitsOf, type LedgerClient } from '../../kernel/ledger-client';
import type { FindRecipient } from './recipients';
import { NOTE_MAX_LENGTH } from '../vocabulary';
import type { KeyedLimiter } from '../../../../lib/rate-limits';

/** Recipient look-ups a user may make before sending (the confirmation's "who is this"): enough for a day of payments, too few to enumerate users. */
export const RECIPIENT_LOOKUPS = { points: 30, durationSeconds: 3600 };

/** What the sender is shown before confirming: the handle the reference resolves to and whether it is verified; no id, e-mail or phone. */
export interface RecipientPreview {
  username: string;
  verified: boolean;
}

export type NodeUserPrincipal = PrincipalOf<'node-user'>;

export interface TransferRequest {
  /** The recipient's user name, e-mail address or E.164 phone number. */
  recipient: string;
  amount: string;
  currency: string;
  note?: string | null;
}

export interface InternalTransfer {
  id: string;
  status: 'posted';
  amount: Money;
  sender: string;
  recipient: string;
  note: string | null;
  createdAt: Date;
}

export const recipientNotFound = () =>
  new DomainError('RECIPIENT_NOT_FOUND', 404, 'No active user of this node has that user name, e-mail address or phone number.');

/** Refuses a money-moving request of a user below the KYC level the node requires (403 KYC_REQUIRED). */
export async function assertKyc(gate: NodeGate, user: NodeUserPrincipal): Promise<void> {
  const required = requiredKycLevel(await gate.state());
  if (!kycLevelReaches(user.kycLevel, required)) throw kycRequiredError(required, user.kycLevel);
}

/**
 * Transfers between users of the node (Wise's "send to a Wise account"): one posted ledger transfer
 * from the sender's wallet to the recipient's (a wallet in a new currency created by the transfer itself), held to the sender's KYC limits by the ledger, its id
 * derived from the request's idempotency key (a retry moves the money once).
 */
export class Transfers {
  constructor(
    private readonly ledger: LedgerClient,
    private readonly recipient: FindRecipient,
    private readonly gate: NodeGate,
    private readonly requests: IdempotentRequests,
    private readonly lookups: KeyedLimiter,
  ) {}

  /**
   * Who a user name, e-mail or phone resolves to, for the send confirmation (as Wise, Revolut or Cash App show
   * the recipient before paying): the handle and whether it is verified, nothing else. Each look-up, found or
   * not, counts against the caller's allowance (RECIPIENT_LOOKUPS; 429 past it), so no one can enumerate users.
   */
  async previewRecipient(user: NodeUserPrincipal, reference: string): Promise<RecipientPreview> {
    await this.lookups.consume(user.userId, 'Too many recipient look-ups; try again later.');
    const recipient = await this.recipient(reference);
    if (!recipient) throw recipientNotFound();
    if (recipient.id === user.userId) throw badInput('You cannot send money to yourself.', { recipient: ['Another user of this node.'] });
    return { username: recipient.username, verified: recipient.verified };
  }

  async send(user: NodeUserPrincipal, input: TransferRequest, idempotencyKey: string | null | undefined): Promise<InternalTransfer> {
    const note = input.note?.trim() || null;
    if (note && note.length > NOTE_MAX_LENGTH)
      throw badInput(`A note has at most ${NOTE_MAX_LENGTH} characters.`, { note: [`At most ${NOTE_MAX_LENGTH} characters.`] });
    const minor = toMinor(input.amount, input.currency);
    if (minor <= 0n) throw badInput('amount must be positive.', { amount: ['A positive amount.'] });
    await assertKyc(this.gate, user);
    return this.requests.run({ owner: `user:${user.userId}`, key: idempotencyKey, operation: 'createTransfer', input: { ...input, note } }, async (ids) => {
      const recipient = await this.recipient(input.recipient);
      if (!recipient) throw recipientNotFound();
      if (recipient.id === user.userId) throw badInput('You cannot send money to yourself.', { recipient: ['Another user of this node.'] });
      const amount = toMoney(minor, input.currency);
      // the wallets by key: one that does not exist yet is created with the transfer, so a refused
      // transfer (no funds in that currency, over a limit) leaves no empty wallet behind
      const [outcome] = await this.ledger.transfers(
        [
          {
            id: ids('transfer'),
            debitAccount: this.ledger.walletKey(user.userId, input.currency),
            creditAccount: this.ledger.walletKey(recipient.id, input.currency),
            amount: amount.amount,
            code: 'transfer',
            metadata: { description: 'Transfer', note, from: user.username, to: recipient.username },
          },
        ],
        limitsOf(user),
      );
      return {
        id: outcome.id,
        status: 'posted' as const,
        amount,
        sender: user.username,
        recipient: recipient.username,
        note,
        createdAt: new Date(outcome.transfer.createdAt),
      };
    });
  }
}
