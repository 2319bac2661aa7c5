import Decimal from 'decimal.js';
import { readFileSync } from 'node:fs';
import { derivedUuid } from '../../../../../lib/idempotency';
import { DomainError } from '../../../../../lib/errors';
import { midPrice } from './alpaca';
import type { Brokerage, OrderRequest, ProviderInstrument, ProviderOrder, Quote } from './types';
import { AssetIssuerInvalidError, providerJson, providerUnavailable } from './types';

/**
 * A Stellar-style decentralised exchange: tokenized assets listed in a curated registry file (it ships
 * empty; format and example: docs/dex-registry.example.json), each needing its issuer's address;
 * prices from a Horizon order book against the counter asset (mid of the best bid and ask); trading
 * round the clock, filled against the book's best price.
 */

/** A Stellar account id (StrKey "G…"): 56 base32 characters whose last two bytes are the CRC16-XModem of the rest. */
export function isStellarAccountId(value: unknown): value is string {
  if (typeof value !== 'string' || !/^G[A-Z2-7]{55}$/.test(value)) return false;
  const bytes = base32Decode(value);
  if (bytes.length !== 35 || bytes[0] !== 6 << 3) return false;
  const crc = crc16xmodem(bytes.subarray(0, 33));
  return bytes[33] === (crc & 0xff) && bytes[34] === crc >> 8;
}

function base32Decode(s: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of s) {
    value = (value << 5) | alphabet.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

function base32Encode(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

function crc16xmodem(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The StrKey account id of a 32-byte public key (tests, the sandbox). */
export function stellarAccountId(publicKey: Buffer): string {
  const payload = Buffer.concat([Buffer.from([6 << 3]), publicKey]);
  const crc = crc16xmodem(payload);
  return base32Encode(Buffer.concat([payload, Buffer.from([crc & 0xff, crc >> 8])]));
}

/** One asset of the registry file. */
export interface RegistryAsset {
  /** The asset code on the network (1–12 characters), the instrument's symbol. */
  code: string;
  issuer: string;
  name: string;
  assetClass: string;
  /** The counter asset prices are read against: `native` (XLM) or `CODE:ISSUER`. */
  counter: string;
  /** The ledger currency of the price (e.g. USDC). */
  quoteCurrency: string;
}

export interface RegistryLoad {
  assets: RegistryAsset[];
  /** One line per entry skipped (no issuer, an invalid one, a missing field). */
  warnings: string[];
}

/** Reads the curated registry file: `{"assets": [{code, issuer, name, asset_class, counter, quote_currency}]}`. A missing file is an empty registry. */
export function loadRegistry(path: string | undefined): RegistryLoad {
  if (!path) return { assets: [], warnings: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { assets: [], warnings: [] };
    return { assets: [], warnings: [`${path}: not a readable JSON registry (${(err as Error).message})`] };
  }
  const entries = (raw as { assets?: unknown }).assets;
  if (!Array.isArray(entries)) return { assets: [], warnings: [`${path}: expected {"assets": [...]}`] };
  const assets: RegistryAsset[] = [];
  const warnings: string[] = [];
  entries.forEach((e: Record<string, unknown>, i) => {
    const label = `entry ${i + 1}${typeof e?.code === 'string' ? ` (${e.code})` : ''}`;
    if (typeof e?.code !== 'string' || !/^[A-Za-z0-9]{1,12}$/.test(e.code)) return warnings.push(`${label}: skipped, no valid asset code`);
    if (e.issuer === undefined || e.issuer === null || e.issuer === '') return warnings.push(`${label}: skipped, no issuer address`);
    if (!isStellarAccountId(e.issuer)) return warnings.push(`${label}: skipped, the issuer ${JSON.stringify(e.issuer)} is not a valid account id`);
    const counter = typeof e.counter === 'string' ? e.counter : 'native';
    if (counter !== 'native' && !isStellarAccountId(counter.split(':')[1]))
      return warnings.push(`${label}: skipped, the counter asset "${counter}" has no valid issuer`);
    assets.push({
      code: e.code,
      issuer: e.issuer,
      name: typeof e.name === 'string' ? e.name : e.code,
      assetClass: typeof e.asset_class === 'string' ? e.asset_class : 'tokenized_asset',
      counter,
      quoteCurrency: typeof e.quote_currency === 'string' ? e.quote_currency : 'USDC',
    });
  });
  return { assets, warnings };
}

const assetParams = (prefix: 'selling' | 'buying', code: string, issuer: string | null) =>
  code === 'native' || issuer === null
    ? { [`${prefix}_asset_type`]: 'native' }
    : {
        [`${prefix}_asset_type`]: code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12',
        [`${prefix}_asset_code`]: code,
        [`${prefix}_asset_issuer`]: issuer,
      };

interface OrderBook {
  bids?: { price: string }[];
  asks?: { price: string }[];
}

export class DexBrokerage implements Brokerage {
  readonly kind = 'decentralized_exchange' as const;

  constructor(private readonly opts: { horizonUrl: string; registry: () => RegistryLoad }) {}

  async instruments(limit?: number): Promise<ProviderInstrument[]> {
    const assets = this.opts.registry().assets;
    return (limit === undefined ? assets : assets.slice(0, limit)).map((a) => ({
      symbol: a.code,
      name: a.name,
      assetClass: a.assetClass,
      issuer: a.issuer,
      tradable: true,
      fractionable: true,
      quoteCurrency: a.quoteCurrency,
    }));
  }

  /** Best bid and ask of the asset against its counter asset; refuses an asset without a valid issuer before any request. */
  private async book(symbol: string, issuer: string | null): Promise<{ bid: string | null; ask: string | null; currency: string }> {
    if (!isStellarAccountId(issuer)) throw new AssetIssuerInvalidError(symbol, issuer);
    const asset = this.opts.registry().assets.find((a) => a.code === symbol && a.issuer === issuer);
    const counter = asset?.counter ?? 'native';
    const [counterCode, counterIssuer] = counter === 'native' ? ['native', null] : counter.split(':');
    const query = new URLSearchParams({ ...assetParams('selling', symbol, issuer), ...assetParams('buying', counterCode, counterIssuer), limit: '1' });
    const { status, body } = await providerJson<OrderBook>(this.kind, `${this.opts.horizonUrl}/order_book?${query.toString()}`, {
      headers: { accept: 'application/json' },
    });
    if (status !== 200) throw providerUnavailable(this.kind, `order book answered ${status}`);
    return { bid: body.bids?.[0]?.price ?? null, ask: body.asks?.[0]?.price ?? null, currency: asset?.quoteCurrency ?? 'USDC' };
  }

  async quote(instrument: { symbol: string; issuer: string | null; quoteCurrency: string }): Promise<Quote> {
    const { bid, ask } = await this.book(instrument.symbol, instrument.issuer);
    const price = midPrice(bid, ask);
    if (!bid && !ask)
      throw new DomainError('ORDER_BOOK_EMPTY', 422, `The order book of ${instrument.symbol} is empty: no price.`, { symbol: instrument.symbol });
    return { symbol: instrument.symbol, bid, ask, price: price!, currency: instrument.quoteCurrency, at: new Date() };
  }

  /** Fills against the book's best price (market, or a limit that crosses it); a limit that does not cross stays open. */
  async submitOrder(o: OrderRequest): Promise<ProviderOrder> {
    return this.evaluate(derivedUuid('dex-order', o.clientOrderId), o);
  }

  async order(providerOrderId: string, o: OrderRequest): Promise<ProviderOrder> {
    return this.evaluate(providerOrderId, o);
  }

  async cancelOrder(providerOrderId: string): Promise<ProviderOrder> {
    return { providerOrderId, status: 'canceled', filledQty: '0', filledAvgPrice: null };
  }

  private async evaluate(providerOrderId: string, o: OrderRequest): Promise<ProviderOrder> {
    const { bid, ask } = await this.book(o.symbol, o.issuer);
    const price = o.side === 'buy' ? ask : bid;
    if (!price) return { providerOrderId, status: 'rejected', filledQty: '0', filledAvgPrice: null, rejectReason: 'The order book has no offer on that side.' };
    const crosses = o.type === 'market' || (o.side === 'buy' ? new Decimal(price).lte(o.limitPrice!) : new Decimal(price).gte(o.limitPrice!));
    if (!crosses) return { providerOrderId, status: 'new', filledQty: '0', filledAvgPrice: null };
    const qty = o.qty ?? new Decimal(o.notional!).div(price).toDecimalPlaces(9, Decimal.ROUND_DOWN).toString();
    return { providerOrderId, status: 'filled', filledQty: qty, filledAvgPrice: price };
  }
}
