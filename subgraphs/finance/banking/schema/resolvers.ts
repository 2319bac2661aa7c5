import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { badInput, notFound, unauthenticated } from '../../../../lib/errors';
import { toMoney } from '../../kernel/currencies';
import type { PrincipalOf } from '../../../../lib/principal';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { NodePolicy } from '../../kernel/gate';
import { WEBHOOK_PROVIDERS, type WebhookProvider } from '../domain/providers';
import type { BankingServices } from '../services';
import type { MovementKind, MovementRow, MovementStatus, VirtualAccountRow } from '../store/banking-store';
import {
  BankingMovement,
  BankingMovementPage,
  BankingProviderEvent,
  BankingWebhookReceipt,
  BankTransferInput,
  MobileMoneyInput,
  RampInput,
  VirtualAccount,
} from './types';

const MOVEMENT_KINDS: readonly MovementKind[] = ['inbound_credit', 'bank_transfer', 'mobile_money_deposit', 'mobile_money_withdrawal', 'ramp_on', 'ramp_off'];
const MOVEMENT_STATUSES: readonly MovementStatus[] = ['pending', 'posted', 'voided'];

const nodeUser = (ctx: SubgraphContext): PrincipalOf<'node-user'> => {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return p;
};

const clamp = (n: number, max: number) => Math.min(Math.max(n, 1), max);

export const toMovement = (m: MovementRow): BankingMovement => ({
  id: m.id,
  kind: m.kind,
  status: m.status,
  amount: toMoney(m.amount, m.currency),
  counterAmount: m.counterAmount !== null && m.counterCurrency ? toMoney(m.counterAmount, m.counterCurrency) : null,
  provider: m.provider,
  counterparty: m.counterparty,
  failureReason: m.failureReason,
  ledgerTransferId: m.ledgerTransferId,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

/** Opaque keyset cursor of a movement list: base64url of "<ISO instant>|<uuid>". */
const encodeCursor = (m: MovementRow) => Buffer.from(`${m.createdAt.toISOString()}|${m.id}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(iso);
  if (!iso || Number.isNaN(at.getTime()) || !/^[0-9a-f-]{36}$/.test(id ?? '')) throw badInput('Invalid cursor.', { cursor: ['Invalid cursor.'] });
  return { at, id };
}

/** Thin: each field hands the principal and its input to the Banking domain service. */
@Resolver()
export class BankingResolver {
  constructor(private readonly services: BankingServices) {}

  @Authorized('node-user')
  @Query(() => [VirtualAccount], { description: "The caller's virtual accounts (GET /api/v1/virtual-accounts/)." })
  async bankingVirtualAccounts(@Ctx() ctx: SubgraphContext): Promise<VirtualAccount[]> {
    return (await this.services.banking.virtualAccounts(nodeUser(ctx))).map((a) => this.account(a));
  }

  private account(a: VirtualAccountRow): VirtualAccount {
    return { ...a, sandbox: this.services.banking.sandbox };
  }

  @Authorized('node-user')
  @Mutation(() => VirtualAccount, {
    description: 'Opens a virtual account in a currency: EUR or GBP (an IBAN; "Virtual IBAN accounts" toggle), NGN (a NUBAN; "African accounts" toggle).',
  })
  async openVirtualAccount(
    @Arg('currency') currency: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<VirtualAccount> {
    return this.account((await this.services.banking.openVirtualAccount(nodeUser(ctx), currency, idempotencyKey)).account);
  }

  @Authorized('node-user')
  @Mutation(() => BankingMovement, {
    description:
      "Sandbox only: a simulated incoming transfer to one of the caller's accounts (the rail's signed credit.received through the webhook receiver); held to the deposit limits. 409 NOT_SANDBOX with a real provider.",
  })
  async simulateIncomingTransfer(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('amount') amount: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<BankingMovement> {
    if (!/^[0-9a-f-]{36}$/i.test(accountId)) throw notFound('No such account.');
    return toMovement(await this.services.banking.simulateIncomingTransfer(nodeUser(ctx), accountId, amount));
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'african_accounts' })
  @Mutation(() => BankingMovement, { description: 'A bank transfer out on the Nigerian rail: held now, posted or voided by the rail\'s callback.' })
  async sendBankTransfer(
    @Arg('input') input: BankTransferInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<BankingMovement> {
    return toMovement(await this.services.banking.sendBankTransfer(nodeUser(ctx), { ...input }, idempotencyKey));
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'mobile_money' })
  @Mutation(() => BankingMovement, { description: 'Mobile money in: a request to pay on the phone, credited when the provider reports SUCCESSFUL.' })
  async requestMobileMoneyDeposit(
    @Arg('input') input: MobileMoneyInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<BankingMovement> {
    return toMovement(await this.services.banking.mobileMoney(nodeUser(ctx), 'deposit', { ...input }, idempotencyKey));
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'mobile_money' })
  @Mutation(() => BankingMovement, { description: 'Mobile money out: held now, posted when the provider reports SUCCESSFUL, released when FAILED.' })
  async requestMobileMoneyWithdrawal(
    @Arg('input') input: MobileMoneyInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<BankingMovement> {
    return toMovement(await this.services.banking.mobileMoney(nodeUser(ctx), 'withdrawal', { ...input }, idempotencyKey));
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'fiat_ramps' })
  @Mutation(() => BankingMovement, { description: "A fiat on/off-ramp at the ramp's price: both legs pending, posted or voided together by the ramp's callback." })
  async createRamp(
    @Arg('input') input: RampInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<BankingMovement> {
    return toMovement(await this.services.banking.ramp(nodeUser(ctx), { ...input }, idempotencyKey));
  }

  @Authorized('node-user')
  @Query(() => BankingMovementPage, { description: "The caller's movements of the given kinds, newest first (cursor pagination)." })
  async bankingMovements(
    @Arg('kinds', () => [String]) kinds: string[],
    @Arg('first', () => Int, { defaultValue: 20 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<BankingMovementPage> {
    for (const kind of kinds) if (!MOVEMENT_KINDS.includes(kind as MovementKind)) throw badInput(`kind is one of ${MOVEMENT_KINDS.join(', ')}.`);
    const limit = clamp(first, 100);
    const rows = await this.services.banking.movementsOf(nodeUser(ctx), kinds as MovementKind[], limit + 1, after ? decodeCursor(after) : undefined);
    const page = rows.slice(0, limit);
    return { results: page.map(toMovement), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null };
  }

  @Authorized('node-user')
  @Query(() => BankingMovement, { description: "One of the caller's movements." })
  async bankingMovement(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<BankingMovement> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw badInput('Not a transfer id.');
    return toMovement(await this.services.banking.movement(nodeUser(ctx), id));
  }

  @Mutation(() => BankingWebhookReceipt, {
    description: "A banking provider's webhook (no principal: the HMAC signature over timestamp and raw body is the credential).",
  })
  async receiveBankingWebhook(
    @Arg('provider') provider: string,
    @Arg('payload') payload: string,
    @Arg('timestamp', () => String, { nullable: true }) timestamp: string | null,
    @Arg('signature', () => String, { nullable: true }) signature: string | null,
  ): Promise<BankingWebhookReceipt> {
    if (!(WEBHOOK_PROVIDERS as readonly string[]).includes(provider)) throw notFound(`No banking provider "${provider}" (one of ${WEBHOOK_PROVIDERS.join(', ')}).`);
    const outcome = await this.services.banking.receiveWebhook(provider as WebhookProvider, payload, timestamp, signature);
    return { received: true, outcome };
  }

  @Authorized('node-admin')
  @Query(() => [VirtualAccount], { description: 'Virtual accounts, newest first (admin console).' })
  async adminVirtualAccounts(@Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<VirtualAccount[]> {
    return (await this.services.store.virtualAccounts(clamp(first, 500))).map((a) => this.account(a));
  }

  @Authorized('node-admin')
  @Mutation(() => BankingMovement, {
    description: 'Sandbox only: a simulated incoming transfer to a virtual account, as the rail would send it (admin console). 409 NOT_SANDBOX with a real provider.',
  })
  async adminSimulateIncomingTransfer(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('amount') amount: string,
    @Arg('senderName', () => String, { nullable: true }) senderName: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<BankingMovement> {
    if (!/^[0-9a-f-]{36}$/i.test(accountId)) throw notFound('No such account.');
    const p = ctx.principal;
    if (p.kind !== 'node-admin') throw unauthenticated();
    return toMovement(await this.services.banking.simulateIncomingTransfer({ operator: p.username }, accountId, amount, senderName));
  }

  @Authorized('node-admin')
  @Query(() => [BankingMovement], { description: 'Rail and mobile money movements, newest first, optionally by status (admin console).' })
  async adminBankingMovements(
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('status', () => String, { nullable: true }) status: string | null,
  ): Promise<BankingMovement[]> {
    if (status && !MOVEMENT_STATUSES.includes(status as MovementStatus)) throw badInput(`status is one of ${MOVEMENT_STATUSES.join(', ')}.`);
    return (await this.services.store.movements(clamp(first, 500), (status as MovementStatus) || undefined)).map(toMovement);
  }

  @Authorized('node-admin')
  @Query(() => [BankingProviderEvent], { description: 'Provider webhooks received, newest first (admin console).' })
  adminBankingEvents(@Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<BankingProviderEvent[]> {
    return this.services.store.events(clamp(first, 500));
  }

  @Authorized('node-admin')
  @Mutation(() => BankingMovement, { description: 'Releases a stuck pending movement: the ledger voids its hold (admin console, superusers). Audited.' })
  async adminVoidBankingMovement(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<BankingMovement> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw badInput('Not a transfer id.');
    const p = ctx.principal;
    if (p.kind !== 'node-admin') throw unauthenticated();
    return toMovement(await this.services.banking.voidStuck(id, p.username));
  }

}
