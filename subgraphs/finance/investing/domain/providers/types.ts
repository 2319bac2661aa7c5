import { DomainError } from '../../../../../lib/errors';
import type { BrokerageProvider } from '../../../kernel/contract';
import type { OrderStatus } from '../../vocabulary';
import { readText } from '../../../../../lib/bounded-body';

/** An instrument as a provider lists it (sync) — (provider, symbol) is its key on this node. */
export interface ProviderInstrument {
  symbol: string;
  name: string;
  assetClass: string;
  issuer: string | null;
  tradable: boolean;
  fractionable: boolean;
  quoteCurrency: string;
}

/** A live quote: decimal strings; `price` is what the node shows (mid of bid and ask when both exist). */
export interface Quote {
  symbol: string;
  bid: string | null;
  ask: string | null;
  price: string;
  currency: string;
  at: Date;
}

/** An order as the provider sees it (Alpaca's fields). Quantities and prices are decimal strings. */
export interface ProviderOrder {
  providerOrderId: string;
  status: OrderStatus;
  filledQty: string;
  filledAvgPrice: string | null;
  rejectReason?: string;
}

export interface OrderRequest {
  symbol: string;
  issuer: string | null;
  clientOrderId: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  qty: string | null;
  notional: string | null;
  limitPrice: string | null;
}

/** Statuses after which nothing more fills: the reservation is settled. */
export const TERMINAL_STATUSES: readonly OrderStatus[] = ['filled', 'canceled', 'expired', 'rejected', 'replaced', 'stopped', 'done_for_day'];

/**
 * One interface for the three kinds of brokerage provider (contract: "Brokerage providers"). A kind
 * that cannot do something says so with a DomainError (the market-data provider cannot trade).
 */
export interface Brokerage {
  readonly kind: BrokerageProvider;
  /** Instruments for the sync command (`limit`: at most this many). */
  instruments(limit?: number): Promise<ProviderInstrument[]>;
  quote(instrument: { symbol: string; issuer: string | null; quoteCurrency: string }): Promise<Quote>;
  submitOrder(order: OrderRequest): Promise<ProviderOrder>;
  order(providerOrderId: string, request: OrderRequest): Promise<ProviderOrder>;
  cancelOrder(providerOrderId: string, request: OrderRequest): Promise<ProviderOrder>;
}

export const tradingNotSupported = () =>
  new DomainError(
    'TRADING_NOT_SUPPORTED',
    422,
    'The active brokerage provider is a market-data provider: it gives quotes, and buying and selling are not available.',
  );

export const providerUnavailable = (provider: string, message: string) =>
  new DomainError('PROVIDER_UNAVAILABLE', 502, `The brokerage provider (${provider}) failed: ${message}`);

/** AssetIssuerInvalidError: a decentralized-exchange asset without a valid issuer address; raised before any network call. */
export class AssetIssuerInvalidError extends DomainError {
  constructor(symbol: string, issuer: string | null) {
    super('ASSET_ISSUER_INVALID', 422, `The asset ${symbol} has no valid issuer address${issuer ? ` (got "${issuer}")` : ''}: it cannot be priced or traded.`, {
      symbol,
    });
    this.name = 'AssetIssuerInvalidError';
  }
}

/** Reads a JSON answer of a provider over HTTP; a non-2xx status or a network failure is PROVIDER_UNAVAILABLE (or the mapped client error). */
export async function providerJson<T>(provider: string, url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw providerUnavailable(provider, (err as Error).message);
  }
  const text = await readText(res).catch(() => {
    throw providerUnavailable(provider, `answered ${res.status} with a body that could not be read whole`);
  });
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw providerUnavailable(provider, `answered ${res.status} with a body that is not JSON`);
  }
  return { status: res.status, body: body as T };
}
