import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { badInput, unauthenticated } from '../../../../lib/errors';
import { toMoney } from '../../kernel/currencies';
import type { SubgraphContext } from '../../../../lib/subgraph';
import { NodePolicy } from '../../kernel/gate';
import { ORDER_SIDES, ORDER_TYPES } from '../vocabulary';
import type { InvestingServices } from '../services';
import type { OrderRow } from '../store/investing-store';
import {
  FillPage,
  Instrument,
  InstrumentPage,
  InstrumentQuote,
  InvestingRun,
  InvestingTradeStream,
  InvestmentOrder,
  InvestmentOrderCount,
  InvestmentOrderInput,
  InvestmentOrderPage,
  Position,
} from './types';
import { userReferenceResolver } from '../../kernel/user-ref';

const clamp = (n: number | null | undefined, fallback: number, max: number) => Math.min(Math.max(n ?? fallback, 1), max);
const encode = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
function decode<T>(cursor: string | null | undefined, check: (v: unknown) => boolean): T | undefined {
  if (!cursor) return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (check(v)) return v as T;
  } catch {
    // falls through to the 400
  }
  throw badInput('cursor is not a cursor this list gave.', { cursor: ['Not a cursor this list gave.'] });
}
const symbolCursor = (c: string | null | undefined) => decode<{ s: string }>(c, (v) => typeof (v as { s?: unknown })?.s === 'string')?.s;
const timeCursor = (c: string | null | undefined) => {
  const v = decode<{ at: string; id: string }>(c, (x) => typeof (x as { at?: unknown })?.at === 'string' && typeof (x as { id?: unknown })?.id === 'string');
  if (!v) return undefined;
  const at = new Date(v.at);
  if (Number.isNaN(at.getTime())) throw badInput('cursor is not a cursor this list gave.', { cursor: ['Not a cursor this list gave.'] });
  return { at, id: v.id };
};

export const toOrder = (o: OrderRow): InvestmentOrder => ({ ...o, reserved: toMoney(BigInt(o.reservedMinor), o.currency) });

function userOf(ctx: SubgraphContext) {
  const p = ctx.principal;
  if (p.kind !== 'node-user') throw unauthenticated();
  return p;
}

/** Instruments, quotes, orders and portfolios of the active brokerage provider (module `investments`). */
@Resolver()
export class InvestingResolver {
  constructor(private readonly services: InvestingServices) {}

  private get investing() {
    return this.services.investing;
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'investments' })
  @Query(() => InstrumentPage, { description: "The active provider's active instruments, by symbol (GET /api/v1/instruments/)." })
  async instruments(
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
  ): Promise<InstrumentPage> {
    const size = clamp(limit, 50, 500);
    const rows = await this.investing.instruments({ afterSymbol: symbolCursor(cursor), limit: size + 1 });
    const results = rows.slice(0, size);
    return { results, nextCursor: rows.length > size ? encode({ s: results[results.length - 1].symbol }) : null };
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'investments' })
  @Query(() => InstrumentQuote, { description: 'A live quote from the active provider.' })
  instrumentQuote(@Arg('symbol') symbol: string): Promise<InstrumentQuote> {
    return this.investing.quote(symbol);
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'investments' })
  @Mutation(() => InvestmentOrder, { description: 'Buys or sells by qty or notional (exclusive), market or limit. Idempotent by idempotencyKey and clientOrderId.' })
  async submitInvestmentOrder(
    @Arg('order', () => InvestmentOrderInput) order: InvestmentOrderInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<InvestmentOrder> {
    const p = userOf(ctx);
    if (!(ORDER_SIDES as readonly string[]).includes(order.side)) throw badInput('side is buy or sell.', { side: ['buy or sell.'] });
    if (!(ORDER_TYPES as readonly string[]).includes(order.type)) throw badInput('type is market or limit.', { type: ['market or limit.'] });
    const row = await this.investing.submitOrder(
      { userId: p.userId, kycLevel: p.kycLevel },
      { ...order, side: order.side as 'buy' | 'sell', type: order.type as 'market' | 'limit' },
      idempotencyKey,
    );
    return toOrder(row);
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'investments' })
  @Mutation(() => InvestmentOrder, { description: 'Cancels an open order; its reservation is released.' })
  async cancelInvestmentOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<InvestmentOrder> {
    return toOrder(await this.investing.cancelOrder(userOf(ctx).userId, id));
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'investments' })
  @Query(() => InvestmentOrderPage, { description: "The caller's orders, newest first." })
  async investmentOrders(
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<InvestmentOrderPage> {
    return this.orderPage(userOf(ctx).userId, undefined, cursor, limit);
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'investments' })
  @Query(() => [Position], { description: "The caller's positions at every provider (the active one and earlier ones), valued at the cached price." })
  portfolio(@Ctx() ctx: SubgraphContext): Promise<Position[]> {
    return this.investing.portfolio(userOf(ctx).userId);
  }

  @Authorized('node-user')
  @NodePolicy({ module: 'investments' })
  @Query(() => FillPage, { description: "The caller's fills, newest first." })
  async portfolioFills(
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<FillPage> {
    const size = clamp(limit, 50, 200);
    const rows = await this.investing.fills(userOf(ctx).userId, timeCursor(cursor), size + 1);
    const results = rows.slice(0, size);
    const last = results[results.length - 1];
    return { results, nextCursor: rows.length > size ? encode({ at: last.createdAt.toISOString(), id: last.id }) : null };
  }

  // ── admin console ───────────────────────────────────────────────────────────

  @Authorized('node-admin')
  @Query(() => InstrumentPage, { description: 'Instruments of every provider, filtered (admin console).' })
  async adminInstruments(
    @Arg('provider', () => String, { nullable: true }) provider: string | null,
    @Arg('active', () => Boolean, { nullable: true }) active: boolean | null,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
  ): Promise<InstrumentPage> {
    const size = clamp(limit, 100, 500);
    const rows = await this.services.store.instruments({ provider: provider || undefined, active: active ?? undefined, afterSymbol: symbolCursor(cursor), limit: size + 1 });
    const results: Instrument[] = rows.slice(0, size);
    return { results, nextCursor: rows.length > size ? encode({ s: results[results.length - 1].symbol }) : null };
  }

  @Authorized('node-admin')
  @Query(() => [String], { description: 'Entries of the DEX registry file skipped at load, and why (admin console).' })
  investingRegistryWarnings(): string[] {
    return this.services.brokerages.registry().warnings;
  }

  @Authorized('node-admin')
  @Query(() => [InvestingRun], { description: 'The last instrument sync and price refresh runs (admin console).' })
  async investingRuns(@Arg('first', () => Int, { defaultValue: 20 }) first: number): Promise<InvestingRun[]> {
    return this.services.store.runs(clamp(first, 20, 200));
  }

  @Authorized('node-admin')
  @Query(() => InvestmentOrderPage, { description: 'Orders of every user, by status (admin console).' })
  adminInvestmentOrders(
    @Arg('status', () => String, { nullable: true }) status: string | null,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
  ): Promise<InvestmentOrderPage> {
    return this.orderPage(undefined, status || undefined, cursor, limit);
  }

  @Authorized('node-admin')
  @Query(() => [InvestmentOrderCount], { description: 'How many orders are in each status (admin console).' })
  investmentOrderCounts(): Promise<InvestmentOrderCount[]> {
    return this.services.store.orderCounts();
  }

  @Authorized('node-admin')
  @Query(() => InvestingTradeStream, { description: "The equities brokerage's trade stream: connected, last event (admin console)." })
  investingTradeStream(): InvestingTradeStream {
    return this.services.orderUpdates.status();
  }

  private async orderPage(userId: string | undefined, status: string | undefined, cursor: string | null, limit: number | null): Promise<InvestmentOrderPage> {
    const size = clamp(limit, 50, 200);
    const rows = await this.investing.orders(userId, { status, before: timeCursor(cursor), limit: size + 1 });
    const results = rows.slice(0, size);
    const last = results[results.length - 1];
    return { results: results.map(toOrder), nextCursor: rows.length > size ? encode({ at: last.submittedAt.toISOString(), id: last.id }) : null };
  }
}

/** The record's user, by reference (identity answers their user name). */
export const InvestmentOrderUserResolver = userReferenceResolver(InvestmentOrder);
