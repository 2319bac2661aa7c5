import Decimal from 'decimal.js';
import { DomainError } from '../../../../../lib/errors';
import { ORDER_STATUSES, type OrderStatus } from '../../vocabulary';
import type { Brokerage, OrderRequest, ProviderInstrument, ProviderOrder, Quote } from './types';
import { providerJson, providerUnavailable, tradingNotSupported } from './types';

/** Alpaca's paper-trading and market-data hosts: the defaults (live trading needs BROKERAGE_LIVE=true and keys). */
export const ALPACA_PAPER_URL = 'https://paper-api.alpaca.markets';
export const ALPACA_LIVE_URL = 'https://api.alpaca.markets';
export const ALPACA_DATA_URL = 'https://data.alpaca.markets';

export interface AlpacaCredentials {
  keyId: string;
  secretKey: string;
}

interface AlpacaAsset {
  symbol: string;
  name?: string;
  class?: string;
  status?: string;
  tradable?: boolean;
  fractionable?: boolean;
}
export interface AlpacaOrder {
  id: string;
  status: string;
  filled_qty?: string | null;
  filled_avg_price?: string | null;
}
interface AlpacaLatestQuote {
  quote?: { ap?: number; bp?: number; t?: string };
}

const headers = (c: AlpacaCredentials | undefined): Record<string, string> =>
  c ? { 'APCA-API-KEY-ID': c.keyId, 'APCA-API-SECRET-KEY': c.secretKey, accept: 'application/json' } : { accept: 'application/json' };

/** A quote's mid price: (bid + ask) / 2 when both are positive, else whichever is. */
export function midPrice(bid: string | null, ask: string | null): string | null {
  const b = bid !== null && Number(bid) > 0 ? bid : null;
  const a = ask !== null && Number(ask) > 0 ? ask : null;
  if (b && a) return new Decimal(b).plus(a).div(2).toDecimalPlaces(9).toString();
  return b ?? a;
}

/** Alpaca's latest-quote answer → Quote (prices as decimal strings). */
async function latestQuote(provider: string, dataUrl: string, symbol: string, credentials: AlpacaCredentials | undefined): Promise<Quote> {
  const { status, body } = await providerJson<AlpacaLatestQuote & { message?: string }>(
    provider,
    `${dataUrl}/v2/stocks/${encodeURIComponent(symbol)}/quotes/latest`,
    { headers: headers(credentials) },
  );
  if (status === 404) throw new DomainError('NOT_FOUND', 404, `No quote for ${symbol}.`);
  if (status !== 200) throw providerUnavailable(provider, `latest quote answered ${status}${body?.message ? `: ${body.message}` : ''}`);
  const bid = body.quote?.bp !== undefined ? String(body.quote.bp) : null;
  const ask = body.quote?.ap !== undefined ? String(body.quote.ap) : null;
  const price = midPrice(bid, ask);
  if (!price) throw providerUnavailable(provider, `no bid or ask for ${symbol}`);
  return { symbol, bid, ask, price, currency: 'USD', at: body.quote?.t ? new Date(body.quote.t) : new Date() };
}

const statusOf = (s: string): OrderStatus => ((ORDER_STATUSES as readonly string[]).includes(s) ? (s as OrderStatus) : 'accepted');

/** An order of the Trading API (an answer, or a stream event's order) → the node's view of it. */
export const toProviderOrder = (o: AlpacaOrder): ProviderOrder => ({
  providerOrderId: o.id,
  status: statusOf(o.status),
  filledQty: o.filled_qty ?? '0',
  filledAvgPrice: o.filled_avg_price ?? null,
});

/** Alpaca-compatible equities brokerage over HTTP: assets, latest quotes, orders (Trading API v2, Market Data v2). */
export class AlpacaBrokerage implements Brokerage {
  readonly kind = 'equities_brokerage' as const;

  constructor(private readonly opts: { tradingUrl: string; dataUrl: string; credentials: () => Promise<AlpacaCredentials | undefined> }) {}

  async instruments(limit?: number): Promise<ProviderInstrument[]> {
    const { status, body } = await providerJson<AlpacaAsset[]>(this.kind, `${this.opts.tradingUrl}/v2/assets?status=active&asset_class=us_equity`, {
      headers: headers(await this.opts.credentials()),
    });
    if (status !== 200 || !Array.isArray(body)) throw providerUnavailable(this.kind, `assets answered ${status}`);
    const assets = body.filter((a) => typeof a.symbol === 'string' && (a.status ?? 'active') === 'active');
    return (limit === undefined ? assets : assets.slice(0, limit)).map((a) => ({
      symbol: a.symbol,
      name: a.name ?? a.symbol,
      assetClass: a.class ?? 'us_equity',
      issuer: null,
      tradable: a.tradable ?? false,
      fractionable: a.fractionable ?? false,
      quoteCurrency: 'USD',
    }));
  }

  async quote(instrument: { symbol: string }): Promise<Quote> {
    return latestQuote(this.kind, this.opts.dataUrl, instrument.symbol, await this.opts.credentials());
  }

  async submitOrder(o: OrderRequest): Promise<ProviderOrder> {
    const body = {
      symbol: o.symbol,
      side: o.side,
      type: o.type,
      // fractional and notional orders must be day orders at Alpaca
      time_in_force: 'day',
      client_order_id: o.clientOrderId,
      ...(o.qty !== null ? { qty: o.qty } : { notional: o.notional }),
      ...(o.limitPrice !== null ? { limit_price: o.limitPrice } : {}),
    };
    const res = await providerJson<AlpacaOrder & { message?: string }>(this.kind, `${this.opts.tradingUrl}/v2/orders`, {
      method: 'POST',
      headers: { ...headers(await this.opts.credentials()), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status === 403 || res.status === 422) {
      return { providerOrderId: '', status: 'rejected', filledQty: '0', filledAvgPrice: null, rejectReason: res.body?.message ?? `refused (${res.status})` };
    }
    if (res.status !== 200) throw providerUnavailable(this.kind, `order submission answered ${res.status}`);
    return toProviderOrder(res.body);
  }

  async order(providerOrderId: string): Promise<ProviderOrder> {
    const res = await providerJson<AlpacaOrder>(this.kind, `${this.opts.tradingUrl}/v2/orders/${encodeURIComponent(providerOrderId)}`, {
      headers: headers(await this.opts.credentials()),
    });
    if (res.status !== 200) throw providerUnavailable(this.kind, `order lookup answered ${res.status}`);
    return toProviderOrder(res.body);
  }

  async cancelOrder(providerOrderId: string): Promise<ProviderOrder> {
    const res = await providerJson<{ message?: string }>(this.kind, `${this.opts.tradingUrl}/v2/orders/${encodeURIComponent(providerOrderId)}`, {
      method: 'DELETE',
      headers: headers(await this.opts.credentials()),
    });
    // 422: no longer cancelable (filled meanwhile): the order's state says what happened
    if (res.status !== 204 && res.status !== 200 && res.status !== 422) throw providerUnavailable(this.kind, `cancel answered ${res.status}`);
    return this.order(providerOrderId);
  }
}

/** Quotes from an Alpaca-compatible market-data API; no instruments of its own, and no trading (by design). */
export class MarketDataProvider implements Brokerage {
  readonly kind = 'market_data' as const;

  constructor(private readonly opts: { dataUrl: string; credentials: () => Promise<AlpacaCredentials | undefined> }) {}

  async instruments(): Promise<ProviderInstrument[]> {
    return [];
  }

  async quote(instrument: { symbol: string }): Promise<Quote> {
    return latestQuote(this.kind, this.opts.dataUrl, instrument.symbol, await this.opts.credentials());
  }

  submitOrder(): Promise<ProviderOrder> {
    return Promise.reject(tradingNotSupported());
  }
  order(): Promise<ProviderOrder> {
    return Promise.reject(tradingNotSupported());
  }
  cancelOrder(): Promise<ProviderOrder> {
    return Promise.reject(tradingNotSupported());
  }
}
