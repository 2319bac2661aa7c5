import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money';
import { NodeUserRef } from '../../kernel/user-ref';

@ObjectType({ simpleResolvers: true, description: 'A tradable (or quoted) instrument, keyed by provider and symbol.' })
export class Instrument {
  @Field({ description: 'decentralized_exchange, equities_brokerage or market_data' }) provider: string;
  @Field() symbol: string;
  @Field() name: string;
  @Field({ description: 'us_equity, tokenized_equity…' }) assetClass: string;
  @Field(() => String, { nullable: true, description: 'The issuer address (decentralized exchange assets).' }) issuer: string | null;
  @Field() tradable: boolean;
  @Field() fractionable: boolean;
  @Field() active: boolean;
  @Field() quoteCurrency: string;
  @Field(() => String, { nullable: true, description: 'The cached price (decimal string); null before its first successful fetch.' }) lastPrice: string | null;
  @Field(() => Date, { nullable: true }) lastPriceAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class InstrumentPage {
  @Field(() => [Instrument]) results: Instrument[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A live quote: decimal strings; price is the mid of bid and ask.' })
export class InstrumentQuote {
  @Field() symbol: string;
  @Field(() => String, { nullable: true }) bid: string | null;
  @Field(() => String, { nullable: true }) ask: string | null;
  @Field() price: string;
  @Field() currency: string;
  @Field() at: Date;
}

@ObjectType({ simpleResolvers: true, description: "An order; statuses follow Alpaca's lifecycle." })
export class InvestmentOrder {
  @Field(() => ID) id: string;
  @Field() clientOrderId: string;
  @Field() provider: string;
  @Field() symbol: string;
  @Field() side: string;
  @Field() type: string;
  @Field(() => String, { nullable: true }) qty: string | null;
  @Field(() => String, { nullable: true }) notional: string | null;
  @Field(() => String, { nullable: true }) limitPrice: string | null;
  @Field() status: string;
  @Field() filledQty: string;
  @Field(() => String, { nullable: true }) filledAvgPrice: string | null;
  @Field(() => Money, { description: 'What the buy reserved in the wallet at submit (live quote plus the buffer); zero for a sell.' }) reserved: Money;
  @Field(() => String, { nullable: true }) quotePrice: string | null;
  @Field(() => String, { nullable: true }) rejectReason: string | null;
  @Field() submittedAt: Date;
  @Field() updatedAt: Date;
  @Field(() => Date, { nullable: true }) filledAt: Date | null;
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'The user (their user name from identity)' }) user?: NodeUserRef;
}

@ObjectType({ simpleResolvers: true })
export class InvestmentOrderPage {
  @Field(() => [InvestmentOrder]) results: InvestmentOrder[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@InputType()
export class InvestmentOrderInput {
  @Field() symbol: string;
  @Field({ description: 'buy or sell' }) side: string;
  @Field({ description: 'market or limit' }) type: string;
  @Field(() => String, { nullable: true, description: 'Shares (decimal string); exclusive with notional.' }) qty?: string | null;
  @Field(() => String, { nullable: true, description: 'An amount of the quote currency; exclusive with qty; market orders only.' }) notional?: string | null;
  @Field(() => String, { nullable: true }) limitPrice?: string | null;
  @Field(() => String, { nullable: true, description: 'Unique per user; a repeat with the same body answers the same order.' }) clientOrderId?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'A sell at another provider than the active one (a holding from before a switch); default: the provider that holds the shares.',
  })
  provider?: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A holding at a provider (the active one or an earlier one), valued at the cached price.' })
export class Position {
  @Field() symbol: string;
  @Field() provider: string;
  @Field() qty: string;
  @Field({ description: 'Held by open sell orders.' }) heldQty: string;
  @Field() currency: string;
  @Field() averageCost: string;
  @Field() costBasis: string;
  @Field(() => String, { nullable: true }) lastPrice: string | null;
  @Field(() => Date, { nullable: true }) lastPriceAt: Date | null;
  @Field(() => String, { nullable: true }) marketValue: string | null;
  @Field(() => String, { nullable: true }) unrealizedPl: string | null;
  @Field({ description: 'Its provider trades it now: a holding at a provider switched away from stays sellable there (not at the market-data provider)' })
  sellable: boolean;
}

@ObjectType({ simpleResolvers: true })
export class Fill {
  @Field(() => ID) id: string;
  @Field(() => ID) orderId: string;
  @Field() provider: string;
  @Field() symbol: string;
  @Field() side: string;
  @Field() qty: string;
  @Field() price: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class FillPage {
  @Field(() => [Fill]) results: Fill[];
  @Field(() => String, { nullable: true }) nextCursor: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A run of the instrument sync or the price refresh (command or scheduled job).' })
export class InvestingRun {
  @Field(() => ID) id: string;
  @Field() kind: string;
  @Field(() => String, { nullable: true }) provider: string | null;
  @Field() trigger: string;
  @Field() startedAt: Date;
  @Field(() => Date, { nullable: true }) finishedAt: Date | null;
  @Field(() => Int) ok: number;
  @Field(() => Int) failed: number;
  @Field(() => Int) deactivated: number;
  @Field(() => String, { nullable: true }) error: string | null;
}

@ObjectType({ simpleResolvers: true })
export class InvestmentOrderCount {
  @Field() status: string;
  @Field(() => Int) count: number;
}

@ObjectType({ simpleResolvers: true, description: "The equities brokerage's trade stream (trade_updates) as seen by the process that answers." })
export class InvestingTradeStream {
  @Field({ description: 'off (not configured), connecting, connected or disconnected (reconnecting with back-off)' }) state: string;
  @Field(() => Date, { nullable: true }) connectedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the last trade_updates event arrived.' }) lastEventAt: Date | null;
  @Field(() => String, { nullable: true, description: 'Why the last connection ended or failed, while not connected.' }) lastError: string | null;
  @Field(() => Int) reconnects: number;
  @Field(() => Int, { description: 'trade_updates events handled since the process started.' }) events: number;
}
