import { DomainError } from '../../../../lib/errors';
import type { AccountRow, TransferRow } from '../store/ledger-store';

/**
 * Posting rules the ledger enforces on every batch, whoever sends it:
 *
 * - **Exactly-once reversal.** A transfer that gives back a payment names the payment it reverses
 *   (`reverses`); the ledger keeps one reversal per original transfer in its own table
 *   (`ledger.reversal`, keyed by the original), so a second reversal — another dispute, a cancellation
 *   after a dispute — is refused (409 ALREADY_REVERSED) in the transaction that would post it: nothing
 *   moves. The legs of a reversal pay the original's payer back, at most what the original moved.
 *   The codes of REVERSAL_CODES must name their original.
 * - **Separation of duties for platform credits.** A transfer that credits a person's account from a
 *   platform account of PLATFORM_CREDIT_SOURCES (a manual adjustment, a dispute refund from the
 *   dispute-loss account) carries the decision of two different people (`approval`): the proposer and
 *   the approver (operators, by their node user: a person), neither of them the credited person nor a
 *   party of the underlying transfer. Else 403 APPROVAL_REQUIRED / SEPARATION_OF_DUTIES.
 */

/** Codes of transfers that give a payment back: each must name the transfer it reverses. */
export const REVERSAL_CODES: readonly string[] = ['dispute_reversal', 'dispute_loss', 'shop_order_refund', 'reward_reversal'];

/** System accounts whose credits to a person are platform money: each such credit needs two people. */
export const PLATFORM_CREDIT_SOURCES: readonly string[] = ['adjustments', 'commerce:dispute_losses'];

/** The two-person decision behind a platform credit: node user ids (persons). */
export interface PlatformCreditApproval {
  proposedBy: string;
  approvedBy: string;
  /** The parties of the underlying transfer (payer, payee) besides the credited person. */
  parties: string[];
}

export interface RuledInput {
  id: string;
  reverses?: string;
  approval?: PlatformCreditApproval;
}

export interface PostingDecisions {
  /** original transfer id → the legs reversing it in this batch */
  reversals: Map<string, TransferRow[]>;
  credits: { transferId: string; proposedBy: string; approvedBy: string; parties: string[] }[];
}

export const alreadyReversed = (originalId: string, by?: string) =>
  new DomainError('ALREADY_REVERSED', 409, `Transfer ${originalId} was reversed already: a payment is given back once.`, {
    transfer: originalId,
    reversal: by,
  });

const refused = (code: string, message: string) => new DomainError(code, 403, message);
const badReversal = (message: string) => new DomainError('INVALID_REVERSAL', 422, message);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the ledger must record with a batch's new transfers (`created`), or the refusal: reversals
 * named, platform credits decided by two people who are not parties. Pure: the caller records them in
 * the batch's transaction.
 */
export function postingDecisions(created: TransferRow[], inputs: Map<string, RuledInput>, accounts: Map<string, AccountRow>): PostingDecisions {
  const decisions: PostingDecisions = { reversals: new Map(), credits: [] };
  for (const row of created) {
    const input = inputs.get(row.id);
    if (REVERSAL_CODES.includes(row.code) && !input?.reverses) throw badReversal(`A ${row.code} transfer names the transfer it reverses (reverses).`);
    if (input?.reverses) {
      if (!UUID.test(input.reverses)) throw badReversal('reverses is the id of a posted transfer.');
      decisions.reversals.set(input.reverses, [...(decisions.reversals.get(input.reverses) ?? []), row]);
    }
    const debit = accounts.get(row.debitAccountId);
    const credit = accounts.get(row.creditAccountId);
    if (debit?.ownerType !== 'system' || !PLATFORM_CREDIT_SOURCES.includes(debit.code) || credit?.ownerType !== 'user') continue;
    decisions.credits.push({ transferId: row.id, ...checkApproval(input?.approval, credit.ownerId) });
  }
  return decisions;
}

/** Two different people decided, neither of them the credited person nor a party of the underlying transfer. */
export function checkApproval(approval: PlatformCreditApproval | undefined, credited: string): PlatformCreditApproval {
  if (!approval)
    throw refused(
      'APPROVAL_REQUIRED',
      "A credit from a platform account needs a second person's approval (maker-checker): propose it, another operator approves.",
    );
  const person = (id: string) => id.toLowerCase();
  const parties = [...new Set([credited, ...approval.parties].map(person))];
  const proposedBy = person(approval.proposedBy);
  const approvedBy = person(approval.approvedBy);
  if (![proposedBy, approvedBy, ...parties].every((id) => UUID.test(id))) throw refused('APPROVAL_REQUIRED', 'An approval names its people by their ids.');
  if (proposedBy === approvedBy)
    throw refused('SEPARATION_OF_DUTIES', 'The proposer of a credit from a platform account cannot approve it: a second person must.');
  if (parties.includes(proposedBy) || parties.includes(approvedBy))
    throw refused('SEPARATION_OF_DUTIES', 'An operator never decides a credit to themselves or on a transfer they are a party of.');
  return { proposedBy, approvedBy, parties };
}

/** The legs of a reversal against their original: posted, same currency, paying the payer back, at most what it moved. */
export function checkReversal(original: TransferRow | undefined, originalId: string, legs: TransferRow[]): void {
  if (!original || (original.kind !== 'single' && original.kind !== 'post_pending')) throw badReversal(`${originalId} is not a posted transfer.`);
  let total = 0n;
  for (const leg of legs) {
    if (leg.kind !== 'single') throw badReversal('A reversal is posted at once (kind single).');
    if (leg.currency !== original.currency) throw badReversal('A reversal moves the currency of its original.');
    if (leg.creditAccountId !== original.debitAccountId) throw badReversal("A reversal pays back the original's payer.");
    total += leg.amount;
  }
  if (total > original.amount) throw badReversal('A reversal gives back at most what the original moved.');
}
