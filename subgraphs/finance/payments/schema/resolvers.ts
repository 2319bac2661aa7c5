import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { forbidden, unauthenticated } from '../../../../lib/errors';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { RATE_READERS } from '../domain/fx';
import type { NodeUserPrincipal } from '../domain/transfers';
import type { PaymentsServices } from '../services';
import { FxConversion, FxQuote, InternalTransfer, ProviderEvent, TransferRecipient } from './types';

function userOf(ctx: SubgraphContext): NodeUserPrincipal {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return p;
}

/** Transfers between users and FX conversions (money moves in the ledger); provider events for the admin console. */
@Resolver()
export class PaymentsResolver {
  constructor(private readonly services: PaymentsServices) {}

  @Authorized('node-user')
  @Mutation(() => InternalTransfer, { description: 'Sends money to another user of the node (POST /api/v1/transfers/); idempotent by key.' })
  createTransfer(
    @Arg('recipient', { description: 'User name, e-mail address or E.164 phone number.' }) recipient: string,
    @Arg('amount') amount: string,
    @Arg('currency') currency: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey?: string | null,
  ): Promise<InternalTransfer> {
    return this.services.transfers.send(userOf(ctx), { recipient, amount, currency, note }, idempotencyKey);
  }

  @Authorized('node-user')
  @Query(() => TransferRecipient, {
    description: 'Who a user name, e-mail or phone resolves to, before sending (GET /api/v1/transfers/recipient/); throttled per user.',
  })
  transferRecipient(@Arg('reference', { description: 'User name, e-mail address or E.164 phone number.' }) reference: string, @Ctx() ctx: SubgraphContext): Promise<TransferRecipient> {
    return this.services.transfers.previewRecipient(userOf(ctx), reference);
  }

  @Authorized('node-user')
  @Mutation(() => FxQuote, { description: 'Quotes a conversion between two of the caller\'s currencies (POST /api/v1/fx/quotes/).' })
  createFxQuote(
    @Arg('sourceCurrency') sourceCurrency: string,
    @Arg('targetCurrency') targetCurrency: string,
    @Arg('sourceAmount') sourceAmount: string,
    @Ctx() ctx: SubgraphContext,
  ): Promise<FxQuote> {
    return this.services.fx.quote(userOf(ctx), { sourceCurrency, targetCurrency, sourceAmount });
  }

  @Authorized('node-user')
  @Mutation(() => FxConversion, { description: 'Converts at a quote (POST /api/v1/fx/conversions/); idempotent by key; a quote converts once.' })
  createFxConversion(
    @Arg('quoteId', () => ID) quoteId: string,
    @Ctx() ctx: SubgraphContext,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey?: string | null,
  ): Promise<FxConversion> {
    return this.services.fx.convert(userOf(ctx), quoteId, idempotencyKey);
  }

  @Authorized('service')
  @Query(() => String, {
    description:
      "The node's own FX rate: units of target per unit of source, a decimal string (the finance modules that value money across currencies: rewards).",
  })
  fxRateForService(@Arg('source') source: string, @Arg('target') target: string, @Ctx() ctx: SubgraphContext): Promise<string> {
    const p = ctx.principal;
    if (p.kind !== 'service' || !RATE_READERS.includes(p.name)) throw forbidden('Only the finance modules that value money read the rates.');
    return this.services.fx.rate(source, target);
  }

  @Authorized('node-admin')
  @Query(() => [ProviderEvent], { description: 'Provider events (webhooks, callbacks), newest first (admin console).' })
  providerEvents(@Arg('first', () => Int, { defaultValue: 50 }) first: number): Promise<ProviderEvent[]> {
    return this.services.store.events(Math.min(Math.max(first, 1), 500));
  }

}
