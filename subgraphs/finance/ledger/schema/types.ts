import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money';
import { LIMITS_DESCRIPTION } from '../vocabulary';

@ObjectType({ simpleResolvers: true, description: "The caller's balance in one currency (posted, pending, available; Modern Treasury's three)." })
export class LedgerBalance {
  @Field() currency: string;
  @Field(() => ID) accountId: string;
  @Field(() => Money, { description: 'Posted: credits − debits of posted transfers.' }) posted: Money;
  @Field(() => Money, { description: 'Posted plus everything pending, both directions.' }) pending: Money;
  @Field(() => Money, { description: 'What can be spent: posted minus pending debits.' }) available: Money;
}

@ObjectType({ simpleResolvers: true, description: 'A ledger account (TigerBeetle model; amounts in the currency).' })
export class LedgerAccount {
  @Field(() => ID) id: string;
  @Field() ownerType: string;
  @Field(() => ID) ownerId: string;
  @Field() currency: string;
  @Field() code: string;
  @Field(() => Money) debitsPending: Money;
  @Field(() => Money) debitsPosted: Money;
  @Field(() => Money) creditsPending: Money;
  @Field(() => Money) creditsPosted: Money;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'An immutable ledger transfer; its id is the client-chosen idempotency key.' })
export class LedgerTransfer {
  @Field(() => ID) id: string;
  @Field(() => ID) debitAccountId: string;
  @Field(() => ID) creditAccountId: string;
  @Field(() => Money) amount: Money;
  @Field() code: string;
  @Field({ description: 'single, pending, post_pending, void_pending or expire_pending' }) kind: string;
  @Field(() => ID, { nullable: true }) pendingId: string | null;
  @Field(() => Date, { nullable: true }) timeoutAt: Date | null;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'What users hold in one currency (admin dashboard).' })
export class LedgerTotal {
  @Field() currency: string;
  @Field(() => Money) total: Money;
  @Field(() => Int) accounts: number;
}

@ObjectType({ simpleResolvers: true })
export class LedgerCounts {
  @Field(() => Int) accounts: number;
  @Field(() => Int) transfers: number;
}

@InputType({ description: 'A ledger account by owner, currency and purpose (the key it is unique by).' })
export class LedgerAccountKeyInput {
  @Field({ description: 'user or system' }) ownerType: string;
  @Field(() => ID) ownerId: string;
  @Field() currency: string;
  @Field({ description: 'The purpose: wallet, a module\'s clearing or revenue account… (a-z, 0-9, _ and :)' }) code: string;
}

@InputType({
  description:
    'The two people who decided a credit of a person from a platform account (adjustments, dispute losses): node user ids; neither may be the credited person or a party.',
})
export class LedgerApprovalInput {
  @Field(() => ID, { description: 'The operator (node user) who proposed it.' }) proposedBy: string;
  @Field(() => ID, { description: 'A different operator (node user) who approved it.' }) approvedBy: string;
  @Field(() => [ID], { description: 'The parties of the underlying transfer (payer, payee), besides the credited person.' }) parties: string[];
}

@InputType({ description: 'One transfer of a linked batch (TigerBeetle model): all of a batch applies, or none of it.' })
export class LedgerTransferInput {
  @Field(() => ID, { description: 'Client-chosen uuid: a retried id is applied once (the replay answers `exists`).' }) id: string;
  @Field(() => ID, { nullable: true, description: 'Omitted for post_pending and void_pending (the pending transfer names them).' })
  debitAccountId?: string;
  @Field(() => ID, { nullable: true }) creditAccountId?: string;
  @Field(() => LedgerAccountKeyInput, {
    nullable: true,
    description:
      'Instead of debitAccountId: the account by owner, currency and purpose. One that does not exist is created in the batch\'s transaction, so a refused batch leaves no account behind.',
  })
  debitAccount?: LedgerAccountKeyInput;
  @Field(() => LedgerAccountKeyInput, { nullable: true, description: 'Instead of creditAccountId (as debitAccount).' }) creditAccount?: LedgerAccountKeyInput;
  @Field({ nullable: true, description: 'A decimal string in the accounts\' currency ("10.50"); post_pending: at most the pending amount (default all).' })
  amount?: string;
  @Field({ description: 'What the movement is, e.g. `transfer`, `card_authorisation`, `fx_fee` (a-z, 0-9, _ and :).' }) code: string;
  @Field({ nullable: true, description: 'single (default), pending, post_pending or void_pending.' }) kind?: string;
  @Field(() => ID, { nullable: true }) pendingId?: string;
  @Field(() => Int, { nullable: true, description: 'pending only: released by expiry after this many seconds.' }) timeoutSeconds?: number;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      "Free-form references (the module's own record ids). `description`, `note`, `from` and `to` (user names, a bank…) are shown to the accounts' owners in statements and receipts.",
  })
  metadata?: Record<string, unknown>;
  @Field(() => ID, {
    nullable: true,
    description:
      'The posted transfer this one gives back (a refund; required for dispute_reversal, dispute_loss, shop_order_refund): a transfer is reversed once, a second reversal is 409 ALREADY_REVERSED.',
  })
  reverses?: string;
  @Field(() => LedgerApprovalInput, {
    nullable: true,
    description: 'Required when the transfer credits a person from a platform account (adjustments, dispute losses): 403 APPROVAL_REQUIRED otherwise.',
  })
  approval?: LedgerApprovalInput;
}

@InputType({ description: `The user whose spending limits a batch is held to. ${LIMITS_DESCRIPTION}` })
export class LedgerLimitsInput {
  @Field(() => ID) userId: string;
  @Field({ description: 'none, basic or enhanced (the principal\'s kycLevel).' }) kycLevel: string;
}

@ObjectType({ simpleResolvers: true, description: 'The outcome of one transfer of a batch.' })
export class LedgerTransferOutcome {
  @Field(() => ID) id: string;
  @Field({ description: 'created: applied now; exists: the same transfer was applied before (an idempotent replay).' }) result: string;
  @Field(() => LedgerTransfer) transfer: LedgerTransfer;
}

@ObjectType({ simpleResolvers: true, description: "A line of the caller's statement: a movement of one of their accounts (also its receipt)." })
export class LedgerStatementLine {
  @Field(() => ID, { description: 'The ledger transfer id.' }) id: string;
  @Field(() => ID) accountId: string;
  @Field({ description: 'debit (money out of the account) or credit (money in).' }) direction: string;
  @Field({ description: 'What the movement is: transfer, fx_sell, fx_buy, fx_fee, deposit, card_authorisation…' }) code: string;
  @Field({ description: 'posted, pending, voided or expired.' }) status: string;
  @Field(() => Money, { description: 'Posted amount (for a pending movement: the amount held).' }) amount: Money;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field(() => String, { nullable: true, description: "The sender's note." }) note: string | null;
  @Field(() => String, { nullable: true, description: 'The other party (a user name, a bank, a merchant).' }) counterparty: string | null;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true, description: 'When it was posted, voided or expired.' }) settledAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class LedgerStatementPage {
  @Field(() => [LedgerStatementLine]) results: LedgerStatementLine[];
  @Field(() => String, { nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'One currency of the reconciliation: every total is zero when the ledger balances.' })
export class LedgerReconciliation {
  @Field() currency: string;
  @Field(() => Money, { description: 'Σ(credits − debits) of posted transfers over every account: zero.' }) posted: Money;
  @Field(() => Money, { description: 'Σ(credits − debits) of pending transfers over every account: zero.' }) pending: Money;
  @Field(() => Money, { description: "What users hold (their accounts' posted balances)." }) userHoldings: Money;
  @Field(() => Int) accounts: number;
  @Field(() => Int) transfers: number;
  @Field(() => Int, { description: 'Accounts whose counters differ from the sums of their transfers: zero.' }) driftingAccounts: number;
  @Field() balanced: boolean;
}

@ObjectType({ simpleResolvers: true, description: "A manual adjustment of a user's wallet (maker-checker): proposed by one administrator, approved or rejected by another." })
export class LedgerAdjustment {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field() username: string;
  @Field({ description: 'credit (into the wallet) or debit (out of it)' }) direction: string;
  @Field(() => Money) amount: Money;
  @Field() reason: string;
  @Field({ description: 'pending, approved (posted: the ledger transfer has the adjustment\'s id) or rejected' }) status: string;
  @Field() proposedBy: string;
  @Field() proposedAt: Date;
  @Field(() => String, { nullable: true }) decidedBy: string | null;
  @Field(() => Date, { nullable: true }) decidedAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: "One account's figures for a statement period [from, to): posted money only." })
export class LedgerPeriodBalance {
  @Field(() => ID) accountId: string;
  @Field() currency: string;
  @Field(() => Money, { description: 'The posted balance at the start of the period.' }) opening: Money;
  @Field(() => Money, { description: 'Posted credits within the period.' }) moneyIn: Money;
  @Field(() => Money, { description: 'Posted debits within the period.' }) moneyOut: Money;
  @Field(() => Money, { description: 'The posted balance at the end of the period: opening + in − out.' }) closing: Money;
}
