import Decimal from 'decimal.js';
import { badInput, DomainError, notFound } from '../../../../lib/errors';
import { derivedUuid, type IdempotentRequests } from '../../../../lib/idempotency';
import type { Logger } from '../../../../lib/logger';
import { exponentOf, maxAmount } from '../../kernel/currencies';
import type { KycLevel } from '../../kernel/kyc';
import { BROKERAGE_PROVIDERS } from '../../kernel/contract';
import { kycLevelReaches, kycRequiredError, requiredKycLevel, type NodeGate } from '../../kernel/gate';
import type { InstrumentRow, InvestingStore, OrderRow } from '../store/investing-store';
import { limitsOf, type LedgerClient } from '../../kernel/ledger-client';
import type { Brokerage, OrderRequest, ProviderOrder, Quote } from './providers/types';
import { TERMINAL_STATUSES, tradingNotSupported } from './providers/types';
import { MARKET_BUY_BUFFER_BPS } from '../vocabulary';

/** Quantities keep at most 9 decimals (Alpaca's fractional precision). */
export const QUANTITY_DECIMALS = 9;
/**
 * A fill's price is derived from the provider's cumulative average (filled_avg_price), which carries
 * rounding; prices are quoted with at most 7 decimals (Stellar's precision; US equities use 4).
 */
export const PRICE_DECIMALS = 7;

/** The system account that holds reserved and settled trade money (per currency). */
const CLEARING = 'investing:clearing';

/** The two sync targets of `finance:sync-instruments --provider`. */
export const SYNC_PROVIDERS = { equities: 'equities_brokerage', dex: 'decentralized_exchange' } as const;

export interface OrderInput {
  symbol: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  qty?: string | null;
  notional?: string | null;
  limitPrice?: string | null;
  clientOrderId?: string | null;
  /** A sell of a holding at another provider than the active one names it (default: where the user holds the symbol). */
  provider?: string | null;
}

export interface RefreshOutcome {
  provider: string;
  symbol: string;
  ok: boolean;
  price?: string;
  /** The instrument had no cached price before. */
  first?: boolean;
  error?: string;
}

export interface Trader {
  userId: string;
  kycLevel: KycLevel;
}

const DECIMAL = /^\d+(\.\d+)?$/;
/** The most shares of one order; money (notional, limit price) is bounded like every amount (subgraphs/finance/kernel/currencies.ts, 2 decimals). */
const MAX_QUANTITY = new Decimal(10).pow(9);
const MAX_MONEY = new Decimal(maxAmount('USD'));
const positive = (field: string, v: string) => {
  if (typeof v !== 'string' || v.length > 64 || !DECIMAL.test(v) || new Decimal(v).lte(0))
    throw badInput(`${field} must be a positive decimal string.`, { [field]: ['A positive decimal string such as "1.5".'] });
  const max = field === 'qty' ? MAX_QUANTITY : MAX_MONEY;
  if (new Decimal(v).gt(max))
    throw badInput(`${field} is at most ${max.toFixed()}.`, { [field]: [`Ensure this value is less than or equal to ${max.toFixed()}.`] });
  if (new Decimal(v).decimalPlaces() > QUANTITY_DECIMALS)
    throw badInput(`${field} has at most ${QUANTITY_DECIMALS} decimals.`, { [field]: [`At most ${QUANTITY_DECIMALS} decimals.`] });
  return new Decimal(v).toString();
};
/**
 * Money of a currency from a decimal: a reservation rounds up to the minor unit (it must cover the
 * cost); a fill's cost and a sale's proceeds round half up, as brokers settle trade value.
 */
const toMinorRounded = (d: Decimal, currency: string, mode: 'up' | 'half_up') =>
  BigInt(
    d
      .mul(new Decimal(10).pow(exponentOf(currency)))
      .toDecimalPlaces(0, mode === 'up' ? Decimal.ROUND_UP : Decimal.ROUND_HALF_UP)
      .toFixed(0),
  );
const minorToDecimal = (minor: bigint, currency: string) =>
  new Decimal(minor.toString()).div(new Decimal(10).pow(exponentOf(currency))).toFixed(exponentOf(currency));

const isTerminal = (status: string) => (TERMINAL_STATUSES as readonly string[]).includes(status);

/**
 * An order as the broker gets it, or 400 naming the fields: exactly one of qty and notional, a limit
 * price exactly for a limit order (a notional order is a market order), every amount a positive decimal
 * within its bound and QUANTITY_DECIMALS.
 */
export function validateOrder(input: OrderInput) {
  const fields: Record<string, string[]> = {};
  const hasQty = input.qty !== undefined && input.qty !== null;
  const hasNotional = input.notional !== undefined && input.notional !== null;
  if (hasQty === hasNotional) fields[hasQty ? 'notional' : 'qty'] = ['Give exactly one of qty and notional.'];
  if (input.type === 'limit' && !input.limitPrice) fields.limit_price = ['Required for a limit order.'];
  if (input.type === 'market' && input.limitPrice) fields.limit_price = ['Only for a limit order.'];
  if (input.type === 'limit' && hasNotional) fields.notional = ['A notional order is a market order.'];
  if (input.clientOrderId !== undefined && input.clientOrderId !== null && !/^[\x21-\x7e]{1,128}$/.test(input.clientOrderId))
    fields.client_order_id = ['1 to 128 visible ASCII characters.'];
  if (Object.keys(fields).length) throw badInput(Object.values(fields)[0][0], fields);
  return {
    symbol: input.symbol,
    side: input.side,
    type: input.type,
    qty: hasQty ? positive('qty', input.qty!) : null,
    notional: hasNotional ? positive('notional', input.notional!) : null,
    limitPrice: input.limitPrice ? positive('limit_price', input.limitPrice) : null,
    clientOrderId: input.clientOrderId ?? null,
  };
}

export const fractionalNotAllowed = (why: string) => new DomainError('FRACTIONAL_NOT_ALLOWED', 422, why);
const instrumentNotFound = (symbol: string) => notFound(`No instrument ${symbol} at the active brokerage provider.`);

/** Instruments, quotes, orders and portfolios, on the active provider of the settings record. */
export class Investing {
  constructor(
    private readonly deps: {
      store: InvestingStore;
      gate: NodeGate;
      ledger: LedgerClient;
      provider: (kind: string) => Brokerage;
      idempotency: IdempotentRequests;
      logger: Logger;
    },
  ) {}

  private get store() {
    return this.deps.store;
  }

  async activeProvider(): Promise<string> {
    return (await this.deps.gate.state()).brokerageProvider;
  }

  async instruments(page: { afterSymbol?: string; limit: number }): Promise<InstrumentRow[]> {
    return this.store.instruments({ provider: await this.activeProvider(), active: true, ...page });
  }

  async instrument(symbol: string): Promise<InstrumentRow> {
    const row = await this.store.instrument(await this.activeProvider(), symbol);
    if (!row || !row.active) throw instrumentNotFound(symbol);
    return row;
  }

  /** A live quote from the active provider; it also becomes the instrument's cached price. */
  async quote(symbol: string): Promise<Quote> {
    const provider = await this.activeProvider();
    if (provider === 'market_data') return this.deps.provider(provider).quote({ symbol, issuer: null, quoteCurrency: 'USD' });
    const instrument = await this.instrument(symbol);
    const quote = await this.deps.provider(provider).quote(instrument);
    await this.store.setPrice(provider, symbol, quote.price, quote.at);
    return quote;
  }

  // ── commands ────────────────────────────────────────────────────────────────

  /** finance:sync-instruments: the provider's instruments into (provider, symbol) rows. */
  async syncInstruments(opts: { provider: keyof typeof SYNC_PROVIDERS; limit?: number; deactivateMissing?: boolean; trigger: string }) {
    const kind = SYNC_PROVIDERS[opts.provider];
    const run = await this.store.startRun('sync', kind, opts.trigger);
    try {
      // the provider's whole list decides what is missing; --limit only caps what is written
      const listed = await this.deps.provider(kind).instruments();
      const rows = opts.limit === undefined ? listed : listed.slice(0, opts.limit);
      await this.store.upsertInstruments(kind, rows);
      const deactivated = opts.deactivateMissing
        ? await this.store.deactivateMissing(
            kind,
            listed.map((r) => r.symbol),
          )
        : 0;
      await this.store.finishRun(run, { ok: rows.length, failed: 0, deactivated });
      return { provider: kind, synced: rows.length, deactivated };
    } catch (err) {
      await this.store.finishRun(run, { ok: 0, failed: 1, error: (err as Error).message });
      throw err;
    }
  }

  /**
   * finance:refresh-prices: a quote per active instrument of every provider (so a provider switch shows
   * prices at once), each through its own provider; each outcome reported.
   */
  async refreshPrices(trigger: string, concurrency = 8): Promise<RefreshOutcome[]> {
    const run = await this.store.startRun('refresh', null, trigger);
    const instruments = await this.store.activeInstruments();
    const results = new Array<RefreshOutcome>(instruments.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < instruments.length; i = next++) {
        const inst = instruments[i];
        try {
          const q = await this.deps.provider(inst.provider).quote(inst);
          await this.store.setPrice(inst.provider, inst.symbol, q.price, q.at);
          results[i] = { provider: inst.provider, symbol: inst.symbol, ok: true, price: q.price, first: inst.lastPrice === null };
        } catch (err) {
          results[i] = { provider: inst.provider, symbol: inst.symbol, ok: false, error: (err as Error).message };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, instruments.length) }, worker));
    await this.store.finishRun(run, { ok: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length });
    return results;
  }

  // ── orders ──────────────────────────────────────────────────────────────────

  /** Validates, reserves (buy: a pending ledger transfer; sell: the shares), submits to the provider. Idempotent by key and client_order_id. */
  async submitOrder(trader: Trader, input: OrderInput, idempotencyKey: string | null | undefined): Promise<OrderRow> {
    const state = await this.deps.gate.state();
    const provider = await this.tradingProvider(trader.userId, input, state.brokerageProvider);
    const required = requiredKycLevel(state);
    if (!kycLevelReaches(trader.kycLevel, required)) throw kycRequiredError(required, trader.kycLevel);
    const order = validateOrder(input);
    const key = idempotencyKey ?? (input.clientOrderId ? `client_order_id:${input.clientOrderId}` : null);
    return this.deps.idempotency.run({ owner: `user:${trader.userId}`, key, operation: 'submitOrder', input: { ...order, provider } }, async (ids) => {
      const instrument = await this.store.instrument(provider, order.symbol);
      if (!instrument || !instrument.active) throw instrumentNotFound(order.symbol);
      if (!instrument.tradable) throw new DomainError('INSTRUMENT_NOT_TRADABLE', 422, `${order.symbol} is not tradable.`);
      const fractional = order.notional !== null || !new Decimal(order.qty!).isInteger();
      if (fractional && !state.fractionalShares) throw fractionalNotAllowed('Fractional shares are switched off on this node: order whole shares by quantity.');
      if (fractional && !instrument.fractionable) throw fractionalNotAllowed(`${order.symbol} is not fractionable: order whole shares by quantity.`);
      const orderId = ids('order');
      const clientOrderId = order.clientOrderId ?? orderId;
      const existing = await this.store.orderByClientId(trader.userId, clientOrderId);
      if (existing) {
        if (existing.id === orderId) return existing;
        throw new DomainError('CLIENT_ORDER_ID_REUSED', 422, 'client_order_id must be unique: an order with it exists.');
      }
      const brokerage = this.deps.provider(provider);
      // order sizing from a live quote at submit time
      const quote = await brokerage.quote(instrument);
      await this.store.setPrice(provider, instrument.symbol, quote.price, quote.at);
      const currency = instrument.quoteCurrency;
      let qty = order.qty;
      if (order.side === 'sell' && order.notional !== null) {
        // a sell by notional is sized in shares at the live bid (what the user holds is shares)
        const bid = new Decimal(quote.bid ?? quote.price);
        qty = new Decimal(order.notional).div(bid).toDecimalPlaces(QUANTITY_DECIMALS, Decimal.ROUND_DOWN).toString();
      }
      const request: OrderRequest = {
        symbol: instrument.symbol,
        issuer: instrument.issuer,
        clientOrderId,
        side: order.side,
        type: order.type,
        qty,
        notional: order.side === 'buy' ? order.notional : null,
        limitPrice: order.limitPrice,
      };
      let reservationId: string | null = null;
      let reserved = 0n;
      if (order.side === 'buy') {
        reserved = toMinorRounded(this.cost(order, quote), currency, 'up');
        reservationId = ids('reservation');
        const [wallet, clearing] = await Promise.all([this.deps.ledger.wallet(trader.userId, currency), this.deps.ledger.system(currency, CLEARING)]);
        await this.deps.ledger.transfers(
          [
            {
              id: reservationId,
              debitAccountId: wallet,
              creditAccountId: clearing,
              amount: minorToDecimal(reserved, currency),
              code: 'investing:order_reserve',
              kind: 'pending',
              metadata: { orderId, symbol: instrument.symbol },
            },
          ],
          limitsOf(trader),
        );
      } else if (!(await this.store.holdShares(trader.userId, provider, instrument.symbol, qty!))) {
        throw new DomainError('INSUFFICIENT_POSITION', 422, `You do not hold ${qty} free ${instrument.symbol} to sell.`);
      }
      await this.store.insertOrder({
        id: orderId,
        userId: trader.userId,
        provider,
        symbol: instrument.symbol,
        clientOrderId,
        side: order.side,
        type: order.type,
        qty: order.side === 'sell' ? qty : order.qty,
        notional: order.side === 'sell' ? null : order.notional,
        limitPrice: order.limitPrice,
        currency,
        status: 'pending_new',
        reservationId,
        reservedMinor: reserved.toString(),
        quotePrice: quote.price,
      });
      let submitted: ProviderOrder;
      try {
        submitted = await brokerage.submitOrder(request);
      } catch (err) {
        await this.apply(orderId, { providerOrderId: '', status: 'rejected', filledQty: '0', filledAvgPrice: null, rejectReason: (err as Error).message });
        throw err;
      }
      return this.apply(orderId, submitted);
    });
  }

  /**
   * Where an order goes: a buy to the active provider; a sell to the provider that holds the user's
   * shares — the active one when it does, else the one (after a switch of the active provider in the
   * admin console, holdings at the previous one stay sellable there), or the one the order names. A
   * provider that cannot trade (market data) refuses both (422 TRADING_NOT_SUPPORTED).
   */
  private async tradingProvider(userId: string, input: OrderInput, active: string): Promise<string> {
    const named = input.provider ?? null;
    if (named !== null && !(BROKERAGE_PROVIDERS as readonly string[]).includes(named))
      throw badInput(`provider is one of ${BROKERAGE_PROVIDERS.join(', ')}.`, { provider: [`One of ${BROKERAGE_PROVIDERS.join(', ')}.`] });
    let provider = active;
    if (input.side === 'buy') {
      if (named !== null && named !== active) throw badInput('A buy goes to the active provider.', { provider: [`${active}, or none.`] });
    } else if (named !== null) {
      provider = named;
    } else {
      const holders = [...new Set((await this.store.positions(userId, input.symbol)).map((p) => p.provider))];
      if (!holders.includes(active) && holders.length === 1) provider = holders[0];
      else if (!holders.includes(active) && holders.length > 1)
        throw badInput(`You hold ${input.symbol} at ${holders.join(' and ')}: name the provider to sell at.`, { provider: [`One of ${holders.join(', ')}.`] });
    }
    if (provider === 'market_data') throw tradingNotSupported();
    return provider;
  }

  /** What a buy reserves: the notional; a limit's quantity × limit price; a market quantity × ask plus the buffer. */
  private cost(order: ReturnType<typeof validateOrder>, quote: Quote): Decimal {
    if (order.notional !== null) return new Decimal(order.notional);
    if (order.type === 'limit') return new Decimal(order.qty!).mul(order.limitPrice!);
    const ask = new Decimal(quote.ask ?? quote.price);
    return new Decimal(order.qty!)
      .mul(ask)
      .mul(10_000 + MARKET_BUY_BUFFER_BPS)
      .div(10_000);
  }

  async orders(userId: string | undefined, page: { status?: string; before?: { at: Date; id: string }; limit: number }) {
    return this.store.orders({ userId, ...page });
  }

  async userOrder(userId: string, id: string): Promise<OrderRow> {
    const order = /^[0-9a-f-]{36}$/i.test(id) ? await this.store.order(id) : undefined;
    if (!order || order.userId !== userId) throw notFound('No such order.');
    return order;
  }

  /** Cancels an open order at the provider; the reservation is voided (or posted for what filled). */
  async cancelOrder(userId: string, id: string): Promise<OrderRow> {
    const order = await this.userOrder(userId, id);
    if (order.settled) throw new DomainError('ORDER_NOT_CANCELABLE', 422, `The order is ${order.status}: it can no longer be canceled.`);
    const state = order.providerOrderId
      ? await this.deps.provider(order.provider).cancelOrder(order.providerOrderId, await this.requestOf(order))
      : { providerOrderId: '', status: 'canceled' as const, filledQty: order.filledQty, filledAvgPrice: order.filledAvgPrice };
    return this.apply(order.id, state);
  }

  /** Asks the provider for the state of each open order and applies it (the scheduled job). */
  async refreshOrders(limit = 200): Promise<number> {
    let changed = 0;
    for (const order of await this.store.openOrders(limit)) {
      if (!order.providerOrderId) continue;
      try {
        const state = await this.deps.provider(order.provider).order(order.providerOrderId, await this.requestOf(order));
        if (state.status !== order.status || state.filledQty !== order.filledQty) changed++;
        await this.apply(order.id, state);
      } catch (err) {
        this.deps.logger.warn({ err: { message: (err as Error).message }, orderId: order.id }, 'order refresh failed');
      }
    }
    return changed;
  }

  /**
   * A provider's pushed event (trade stream): applied like a poll's answer, so an event delivered twice,
   * or an event and a poll for the same fill, change the order and the ledger once. Events about orders
   * this node did not place (or already settled) are ignored.
   */
  async applyProviderEvent(provider: string, p: ProviderOrder & { clientOrderId: string | null }): Promise<OrderRow | undefined> {
    const order = await this.store.openOrderAtProvider(provider, p.providerOrderId, p.clientOrderId);
    return order ? this.apply(order.id, p) : undefined;
  }

  private async requestOf(o: OrderRow): Promise<OrderRequest> {
    const issuer = (await this.store.instrument(o.provider, o.symbol))?.issuer ?? null;
    return { symbol: o.symbol, issuer, clientOrderId: o.clientOrderId, side: o.side, type: o.type, qty: o.qty, notional: o.notional, limitPrice: o.limitPrice };
  }

  /**
   * Applies the provider's view of an order, once per step: new fills become fill rows and position
   * changes (a sell's proceeds go to the wallet per fill); a terminal status settles the buy's
   * reservation (posted at the filled cost, the rest released; voided when nothing filled) and
   * releases a sell's unfilled shares. Ledger transfer ids derive from the order and the step, so a
   * replay moves no money twice.
   */
  async apply(orderId: string, p: ProviderOrder): Promise<OrderRow> {
    return this.store.transaction(async (c) => {
      const o = (await this.store.order(orderId, c, true))!;
      if (o.settled) return o;
      const prevQty = new Decimal(o.filledQty);
      // an older view than the one applied (a late stream event, a poll answered before it): nothing new
      if (new Decimal(p.filledQty || '0').lt(prevQty)) return o;
      const newQty = Decimal.max(prevQty, new Decimal(p.filledQty || '0'));
      const avg = p.filledAvgPrice ? new Decimal(p.filledAvgPrice) : o.filledAvgPrice ? new Decimal(o.filledAvgPrice) : null;
      const currency = o.currency;
      if (newQty.gt(prevQty) && avg) {
        const delta = newQty.minus(prevQty);
        const prevCost = o.filledAvgPrice ? prevQty.mul(o.filledAvgPrice) : new Decimal(0);
        const price = newQty.mul(avg).minus(prevCost).div(delta).toDecimalPlaces(PRICE_DECIMALS);
        const fill = {
          orderId,
          userId: o.userId,
          provider: o.provider,
          symbol: o.symbol,
          side: o.side,
          qty: delta.toString(),
          price: price.toString(),
          cumulativeQty: newQty.toString(),
        };
        await this.store.insertFill(c, fill);
        await this.store.applyFillToPosition(c, { userId: o.userId, provider: o.provider, symbol: o.symbol, side: o.side, qty: fill.qty, price: fill.price });
        if (o.side === 'sell') {
          const proceeds = toMinorRounded(delta.mul(price), currency, 'half_up');
          if (proceeds > 0n) {
            const [wallet, clearing] = await Promise.all([this.deps.ledger.wallet(o.userId, currency), this.deps.ledger.system(currency, CLEARING)]);
            await this.deps.ledger.transfers([
              {
                id: ids(orderId, `proceeds:${fill.cumulativeQty}`),
                debitAccountId: clearing,
                creditAccountId: wallet,
                amount: minorToDecimal(proceeds, currency),
                code: 'investing:sale_proceeds',
                metadata: { orderId },
              },
            ]);
          }
        }
      }
      const terminal = isTerminal(p.status);
      if (terminal) {
        if (o.side === 'buy' && o.reservationId) {
          const cost = avg ? toMinorRounded(newQty.mul(avg), currency, 'half_up') : 0n;
          const reserved = BigInt(o.reservedMinor);
          const moves =
            cost > 0n
              ? [
                  {
                    id: ids(orderId, 'settle'),
                    pendingId: o.reservationId,
                    amount: minorToDecimal(cost < reserved ? cost : reserved, currency),
                    code: 'investing:order_fill',
                    kind: 'post_pending' as const,
                  },
                ]
              : [{ id: ids(orderId, 'settle'), pendingId: o.reservationId, code: 'investing:order_release', kind: 'void_pending' as const }];
          await this.deps.ledger.transfers(moves);
          if (cost > reserved) {
            // the fill came above the buffer: the difference is charged (it may fail for want of funds; logged for the back office)
            const [wallet, clearing] = await Promise.all([this.deps.ledger.wallet(o.userId, currency), this.deps.ledger.system(currency, CLEARING)]);
            await this.deps.ledger
              .transfers([
                {
                  id: ids(orderId, 'excess'),
                  debitAccountId: wallet,
                  creditAccountId: clearing,
                  amount: minorToDecimal(cost - reserved, currency),
                  code: 'investing:order_fill',
                },
              ])
              .catch((err: unknown) => this.deps.logger.error({ err, orderId }, 'fill above the reservation could not be charged'));
          }
        } else if (o.side === 'sell' && o.qty) {
          const unfilled = new Decimal(o.qty).minus(newQty);
          if (unfilled.gt(0)) await this.store.releaseShares(c, o.userId, o.provider, o.symbol, unfilled.toString());
        }
      }
      await this.store.updateOrder(c, orderId, {
        status: p.status,
        providerOrderId: p.providerOrderId || null,
        filledQty: newQty.toString(),
        filledAvgPrice: avg ? avg.toDecimalPlaces(QUANTITY_DECIMALS).toString() : null,
        settled: terminal,
        rejectReason: p.rejectReason ?? null,
      });
      return (await this.store.order(orderId, c))!;
    });
  }

  // ── portfolio ───────────────────────────────────────────────────────────────

  /**
   * The user's positions at every provider, valued at the cached price: a holding at a provider the
   * admin console switched away from stays shown, `sellable` while that provider trades it.
   */
  async portfolio(userId: string) {
    const rows = await this.store.positions(userId);
    return rows.map((p) => {
      const qty = new Decimal(p.qty);
      const cost = new Decimal(p.costBasis);
      const marketValue = p.lastPrice ? qty.mul(p.lastPrice) : null;
      const e = exponentOf(p.quoteCurrency);
      return {
        symbol: p.symbol,
        provider: p.provider,
        qty: p.qty,
        heldQty: p.heldQty,
        currency: p.quoteCurrency,
        averageCost: qty.isZero() ? '0' : cost.div(qty).toDecimalPlaces(QUANTITY_DECIMALS).toString(),
        costBasis: cost.toFixed(e),
        lastPrice: p.lastPrice,
        lastPriceAt: p.lastPriceAt,
        marketValue: marketValue ? marketValue.toFixed(e) : null,
        unrealizedPl: marketValue ? marketValue.minus(cost).toFixed(e) : null,
        sellable: p.tradable && p.provider !== 'market_data',
      };
    });
  }

  fills(userId: string, before: { at: Date; id: string } | undefined, limit: number) {
    return this.store.fills(userId, before, limit);
  }
}

const ids = (orderId: string, step: string) => derivedUuid('investing', orderId, step);
