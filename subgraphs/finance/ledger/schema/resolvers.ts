import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { badInput, forbidden, unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { toMoney } from '../../kernel/currencies';
import type { LedgerServices } from '../services';
import type { TransferRow } from '../store/ledger-store';
import { LEDGER_WRITERS } from '../domain/writers';
import type { TransferKind } from '../domain/ledger';
import type { AccountRow } from '../store/ledger-store';
import { isKycLevel } from '../domain/limits';
import type { KycLevel } from '../../kernel/kyc';
import type { AdjustmentRow } from '../store/adjustment-store';
import type { Operator } from '../domain/adjustments';
import {
  LedgerAdjustment,
  LedgerAccount,
  LedgerBalance,
  LedgerCounts,
  LedgerLimitsInput,
  LedgerReconciliation,
  LedgerPeriodBalance,
  LedgerStatementLine,
  LedgerStatementPage,
  LedgerTotal,
  LedgerTransfer,
  LedgerTransferInput,
  LedgerTransferOutcome,
} from './types';

const toAdjustment = (a: AdjustmentRow): LedgerAdjustment => ({ ...a, amount: toMoney(a.amount, a.currency) });

function operatorOf(ctx: SubgraphContext): Operator {
  const p = ctx.principal;
  if (p.kind !== 'node-admin') throw unauthenticated();
  return { id: p.userId, name: p.username, role: p.role };
}

const clamp = (n: number, max: number) => Math.min(Math.max(n, 1), max);

export const toLedgerTransfer = (t: TransferRow): LedgerTransfer => ({
  id: t.id,
  debitAccountId: t.debitAccountId,
  creditAccountId: t.creditAccountId,
  amount: toMoney(t.amount, t.currency),
  code: t.code,
  kind: t.kind,
  pendingId: t.pendingId,
  timeoutAt: t.timeoutAt,
  createdAt: t.createdAt ?? new Date(),
});

const toLedgerAccount = (a: AccountRow): LedgerAccount => ({
  id: a.id,
  ownerType: a.ownerType,
  ownerId: a.ownerId,
  currency: a.currency,
  code: a.code,
  debitsPending: toMoney(a.debitsPending, a.currency),
  debitsPosted: toMoney(a.debitsPosted, a.currency),
  creditsPending: toMoney(a.creditsPending, a.currency),
  creditsPosted: toMoney(a.creditsPosted, a.currency),
  createdAt: a.createdAt ?? new Date(),
});

const TRANSFER_KINDS: readonly string[] = ['single', 'pending', 'post_pending', 'void_pending'];

/** Only the finance subgraphs that move money (LEDGER_WRITERS) may call the ledger's service mutations. */
function assertWriter(ctx: SubgraphContext): void {
  const p = ctx.principal;
  if (p.kind !== 'service' || !LEDGER_WRITERS.includes(p.name)) throw forbidden('Only the finance modules that move money may write to the ledger.');
}

/**
 * Balances for users; accounts, transfers and totals for the admin console. Money moves through the
 * service mutations below, called by the finance subgraphs in LEDGER_WRITERS (never by clients): each
 * module builds its movements as linked batches of transfers with ids derived from its own records.
 */
@Resolver()
export class LedgerResolver {
  constructor(private readonly services: LedgerServices) {}

  @Authorized('node-user')
  @Query(() => [LedgerBalance], { description: "The caller's balances, one per currency (GET /api/balance/)." })
  balances(@Ctx() ctx: SubgraphContext): Promise<LedgerBalance[]> {
    const p = ctx.principal;
    if (p.kind !== 'node-user') throw unauthenticated();
    return this.services.ledger.balances(p.userId);
  }

  @Authorized('node-user')
  @Query(() => [LedgerPeriodBalance], {
    description: "The head of the caller's statement for [from, to): opening and closing balances per account (GET /api/v1/statements/).",
  })
  ledgerPeriodStatement(
    @Ctx() ctx: SubgraphContext,
    @Arg('from', () => Date) from: Date,
    @Arg('to', () => Date) to: Date,
    @Arg('account', () => ID, { nullable: true }) account?: string | null,
  ): Promise<LedgerPeriodBalance[]> {
    const p = ctx.principal;
    if (p.kind !== 'node-user') throw unauthenticated();
    return this.services.ledger.periodStatement(p.userId, { accountId: account ?? undefined, from, to });
  }

  @Authorized('node-user')
  @Query(() => LedgerStatementPage, { description: "The caller's transactions, newest first (GET /api/v1/transactions/)." })
  ledgerStatement(
    @Ctx() ctx: SubgraphContext,
    @Arg('account', () => ID, { nullable: true }) account?: string | null,
    @Arg('from', () => Date, { nullable: true }) from?: Date | null,
    @Arg('to', () => Date, { nullable: true }) to?: Date | null,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string | null,
    @Arg('limit', () => Int, { defaultValue: 50 }) limit = 50,
    @Arg('direction', () => String, { nullable: true, description: 'debit or credit: only the lines that take money out, or bring it in' })
    direction?: string | null,
    @Arg('status', () => String, { nullable: true, description: 'posted, pending, voided or expired' }) status?: string | null,
  ): Promise<LedgerStatementPage> {
    const p = ctx.principal;
    if (p.kind !== 'node-user') throw unauthenticated();
    return this.services.ledger
      .statement(p.userId, {
        accountId: account ?? undefined,
        from: from ?? undefined,
        to: to ?? undefined,
        cursor: cursor ?? undefined,
        limit,
        direction: direction ?? undefined,
        status: status ?? undefined,
      })
      .then((page) => ({ results: page.lines, nextCursor: page.nextCursor }));
  }

  @Authorized('node-user')
  @Query(() => LedgerStatementLine, { description: "A receipt: one transaction of the caller's accounts (404 otherwise)." })
  ledgerReceipt(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<LedgerStatementLine> {
    const p = ctx.principal;
    if (p.kind !== 'node-user') throw unauthenticated();
    return this.services.ledger.receipt(p.userId, id);
  }

  @Authorized('node-admin')
  @Query(() => [LedgerReconciliation], { description: 'Per currency, totals over every account that reconcile to zero (admin reconciliation page).' })
  async ledgerReconciliation(): Promise<LedgerReconciliation[]> {
    return (await this.services.ledger.reconciliation()).map((r) => ({
      currency: r.currency,
      posted: toMoney(r.posted, r.currency),
      pending: toMoney(r.pending, r.currency),
      userHoldings: toMoney(r.userHoldings, r.currency),
      accounts: r.accounts,
      transfers: r.transfers,
      driftingAccounts: r.driftingAccounts,
      balanced: r.balanced,
    }));
  }

  @Authorized('node-admin')
  @Mutation(() => LedgerTransferOutcome, { description: 'Voids a pending transfer stuck waiting for its provider (admin console); a second void answers `exists`. Audited.' })
  async voidLedgerTransfer(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('reason', { defaultValue: 'voided by an administrator' }) reason: string,
  ): Promise<LedgerTransferOutcome> {
    const o = await this.services.voids.void(id, reason.slice(0, 500), operatorOf(ctx));
    return { id: o.id, result: o.result, transfer: toLedgerTransfer(o.transfer) };
  }

  @Authorized('node-admin')
  @Query(() => [LedgerAdjustment], { description: 'Manual adjustments, pending first, then newest first (admin console).' })
  async ledgerAdjustments(@Arg('first', () => Int, { defaultValue: 200 }) first: number): Promise<LedgerAdjustment[]> {
    return (await this.services.adjustments.list(clamp(first, 500))).map(toAdjustment);
  }

  @Authorized('node-admin')
  @Mutation(() => LedgerAdjustment, {
    description:
      "Proposes a manual credit or debit of a user's wallet (`user`: user name, e-mail or phone; `amount`: a decimal string; `direction`: credit or debit); pending until a different administrator approves it. Audited.",
  })
  async proposeLedgerAdjustment(
    @Arg('user') user: string,
    @Arg('currency') currency: string,
    @Arg('amount') amount: string,
    @Arg('direction') direction: string,
    @Arg('reason') reason: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<LedgerAdjustment> {
    return toAdjustment(await this.services.adjustments.propose({ user, currency, amount, direction, reason }, operatorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => LedgerAdjustment, {
    description:
      'Approves a pending adjustment and posts it through the ledger against the system adjustments account, once (409 when already decided); its proposer may not (403); a debit beyond the wallet is refused (422). Audited.',
  })
  async approveLedgerAdjustment(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<LedgerAdjustment> {
    return toAdjustment(await this.services.adjustments.approve(id, operatorOf(ctx)));
  }

  @Authorized('node-admin')
  @Mutation(() => LedgerAdjustment, { description: 'Rejects a pending adjustment (nothing posted; 409 when already decided). Audited.' })
  async rejectLedgerAdjustment(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<LedgerAdjustment> {
    return toAdjustment(await this.services.adjustments.reject(id, operatorOf(ctx)));
  }

  @Authorized('node-admin')
  @Query(() => [LedgerAccount], { description: 'Ledger accounts, newest first (admin console).' })
  async ledgerAccounts(@Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<LedgerAccount[]> {
    return (await this.services.store.accounts(clamp(first, 500))).map(toLedgerAccount);
  }

  @Authorized('node-admin')
  @Query(() => [LedgerTransfer], { description: 'Ledger transfers, newest first (admin console).' })
  async ledgerTransfers(@Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<LedgerTransfer[]> {
    return (await this.services.store.transfers(clamp(first, 500))).map(toLedgerTransfer);
  }

  @Authorized('node-admin')
  @Query(() => [LedgerTransfer], { description: 'Pending transfers not posted, voided or expired yet, oldest first (admin console).' })
  async ledgerOpenPending(@Arg('first', () => Int, { defaultValue: 200 }) first: number): Promise<LedgerTransfer[]> {
    return (await this.services.store.openPending(clamp(first, 500))).map(toLedgerTransfer);
  }

  @Authorized('node-admin')
  @Query(() => [LedgerTotal], { description: "Per currency, the total of users' posted balances (admin dashboard)." })
  async ledgerTotals(): Promise<LedgerTotal[]> {
    return (await this.services.store.totals()).map((t) => ({ currency: t.currency, total: toMoney(t.posted, t.currency), accounts: t.accounts }));
  }

  @Authorized('node-admin')
  @Query(() => LedgerCounts)
  ledgerCounts(): Promise<LedgerCounts> {
    return this.services.store.counts();
  }

  @Authorized('service')
  @Mutation(() => LedgerAccount, {
    description:
      'The account of an owner in a currency for a purpose (`code`: wallet, a module\'s clearing or revenue account…), created on first use. ' +
      'A user\'s account may not go below zero; a system account may (it is where money enters and leaves the ledger).',
  })
  async ensureLedgerAccount(
    @Arg('ownerType') ownerType: string,
    @Arg('ownerId', () => ID) ownerId: string,
    @Arg('currency') currency: string,
    @Arg('code') code: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<LedgerAccount> {
    assertWriter(ctx);
    return toLedgerAccount(await this.services.ledger.account(ownerType, ownerId, currency, code));
  }

  @Authorized('service')
  @Mutation(() => [LedgerTransferOutcome], {
    description:
      'Applies a linked batch of transfers atomically (all or none); retried ids answer `exists`. With `limits`, the user\'s outflows are ' +
      'held to their KYC level\'s per-transaction and daily limits in the same transaction (403 LIMIT_EXCEEDED).',
  })
  async createLedgerTransfers(
    @Arg('transfers', () => [LedgerTransferInput]) transfers: LedgerTransferInput[],
    @Ctx() ctx: SubgraphContext,
    @Arg('limits', () => LedgerLimitsInput, { nullable: true }) limits?: LedgerLimitsInput | null,
  ): Promise<LedgerTransferOutcome[]> {
    assertWriter(ctx);
    if (limits && !isKycLevel(limits.kycLevel)) throw badInput('limits.kycLevel is none, basic or enhanced.', { kycLevel: ['none, basic or enhanced'] });
    const outcomes = await this.services.ledger.createDecimalTransfers(
      transfers.map((t) => {
        if (t.kind !== undefined && t.kind !== null && !TRANSFER_KINDS.includes(t.kind)) throw badInput(`kind is one of ${TRANSFER_KINDS.join(', ')}.`);
        return {
          id: t.id,
          debitAccountId: t.debitAccountId ?? undefined,
          creditAccountId: t.creditAccountId ?? undefined,
          debitAccount: t.debitAccount ? { ...t.debitAccount } : undefined,
          creditAccount: t.creditAccount ? { ...t.creditAccount } : undefined,
          amount: t.amount ?? undefined,
          code: t.code,
          kind: (t.kind ?? 'single') as TransferKind,
          pendingId: t.pendingId ?? undefined,
          timeoutSeconds: t.timeoutSeconds ?? undefined,
          metadata: t.metadata ?? undefined,
          reverses: t.reverses ?? undefined,
          approval: t.approval ? { proposedBy: t.approval.proposedBy, approvedBy: t.approval.approvedBy, parties: [...t.approval.parties] } : undefined,
        };
      }),
      limits ? { userId: limits.userId, kycLevel: limits.kycLevel as KycLevel } : undefined,
    );
    return outcomes.map((o) => ({ id: o.id, result: o.result, transfer: toLedgerTransfer(o.transfer) }));
  }

  @Authorized('service')
  @Query(() => LedgerAccount, {
    nullable: true,
    description: 'One account with its counters, for the money modules (what a counterparty still holds before a reversal).',
  })
  async ledgerAccountForService(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<LedgerAccount | null> {
    assertWriter(ctx);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    const account = await this.services.store.account(id);
    return account ? toLedgerAccount(account) : null;
  }

  @Authorized('service')
  @Query(() => LedgerTransfer, { nullable: true, description: 'One transfer by id, for the money modules (e.g. a dispute names the transaction it is about).' })
  async ledgerTransferForService(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<LedgerTransfer | null> {
    assertWriter(ctx);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    const transfer = await this.services.ledger.transfer(id);
    return transfer ? toLedgerTransfer(transfer) : null;
  }

  @Authorized('service')
  @Query(() => ID, {
    nullable: true,
    description: 'The first transfer of the reversal of a transfer (null: not reversed), for the money modules: a payment is reversed once.',
  })
  async ledgerReversalForService(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<string | null> {
    assertWriter(ctx);
    return (await this.services.ledger.reversalOf(id)) ?? null;
  }

}
