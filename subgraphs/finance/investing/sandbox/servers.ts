import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * Local HTTP servers that speak the subset of the providers' APIs the node uses: Alpaca's Trading API
 * (assets, orders and their statuses, and the `trade_updates` stream at `/stream`) and Market Data
 * API (latest quotes), and a Stellar Horizon order book. Tests, the benchmark and the offline demo run the real HTTP clients against them.
 */

interface Running {
  url: string;
  /** Requests answered, by path (without the query). */
  requests: Map<string, number>;
  close(): Promise<void>;
}

/** What a request to a sandbox provider may weigh. */
const SANDBOX_BODY_MAX_BYTES = 64 * 1024;

async function listen(
  handler: (req: IncomingMessage, url: URL, body: string) => { status: number; body?: unknown },
  port = 0,
): Promise<Running & { server: Server }> {
  const requests = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    let size = 0;
    req.on('data', (c: Buffer) => {
      // a request is a few hundred bytes: past the limit the rest is dropped and the answer is 413
      size += c.length;
      if (size <= SANDBOX_BODY_MAX_BYTES) body += c.toString('utf8');
    });
    req.on('end', () => {
      if (size > SANDBOX_BODY_MAX_BYTES) return void res.writeHead(413, { 'content-type': 'application/json' }).end('{"message":"request too large"}');
      const url = new URL(req.url ?? '/', 'http://sandbox');
      requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
      let out: { status: number; body?: unknown };
      try {
        out = handler(req, url, body);
      } catch (err) {
        out = { status: 500, body: { message: (err as Error).message } };
      }
      res.writeHead(out.status, out.body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(out.body === undefined ? undefined : JSON.stringify(out.body));
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${bound}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SandboxAsset {
  symbol: string;
  name: string;
  tradable?: boolean;
  fractionable?: boolean;
  status?: 'active' | 'inactive';
}

export interface SandboxOrder {
  id: string;
  client_order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  time_in_force: string;
  qty: string | null;
  notional: string | null;
  limit_price: string | null;
  status: string;
  filled_qty: string;
  filled_avg_price: string | null;
  created_at: string;
  updated_at: string;
}

const TERMINAL = ['filled', 'canceled', 'expired', 'rejected'];

/** A `trade_updates` message as Alpaca's stream sends it. */
export interface TradeUpdateMessage {
  stream: 'trade_updates';
  data: { event: string; execution_id: string; order: SandboxOrder; timestamp: string; price?: string; qty?: string };
}
/** The stream event of an order's new status (Alpaca names fills `fill` and `partial_fill`). */
const EVENT_OF: Record<string, string> = { filled: 'fill', partially_filled: 'partial_fill' };

/** Alpaca's Trading and Market Data APIs (one server answers both hosts' paths). */
export async function startAlpacaSandbox(
  opts: {
    assets?: SandboxAsset[];
    quotes?: Record<string, { bid: string; ask: string }>;
    keys?: { keyId: string; secretKey: string };
    autoFill?: boolean;
    port?: number;
  } = {},
) {
  const assets = [...(opts.assets ?? [])];
  const quotes = new Map(Object.entries(opts.quotes ?? {}));
  const orders = new Map<string, SandboxOrder>();
  const settings = { autoFill: opts.autoFill ?? false };
  const now = () => new Date().toISOString();
  // the trade stream: connections that listen to trade_updates, what was sent, and an outage switch
  const listeners = new Set<WebSocket>();
  const streamEvents: TradeUpdateMessage[] = [];
  const stream = { up: true };
  const send = (message: TradeUpdateMessage) => {
    for (const ws of listeners) ws.send(Buffer.from(JSON.stringify(message)), { binary: true });
  };
  const emit = (o: SandboxOrder, extra: { price?: string; qty?: string } = {}) => {
    const message: TradeUpdateMessage = {
      stream: 'trade_updates',
      data: { event: EVENT_OF[o.status] ?? o.status, execution_id: randomUUID(), order: { ...o }, timestamp: o.updated_at, ...extra },
    };
    streamEvents.push(message);
    send(message);
  };

  /** `status`: what the exchange reports after the fill (default: filled once the ordered quantity is, and after any fill of a notional order). */
  const fillAt = (o: SandboxOrder, qty: string, price: string, status?: string) => {
    const prev = new Decimal(o.filled_qty);
    const total = prev.plus(qty);
    const avg = o.filled_avg_price ? prev.mul(o.filled_avg_price).plus(new Decimal(qty).mul(price)).div(total) : new Decimal(price);
    o.filled_qty = total.toString();
    o.filled_avg_price = avg.toDecimalPlaces(9).toString();
    const ordered = o.qty ? new Decimal(o.qty) : null;
    o.status = status ?? (ordered && total.lt(ordered) ? 'partially_filled' : 'filled');
    o.updated_at = now();
    emit(o, { price, qty });
  };

  const running = await listen((req, url, raw) => {
    if (opts.keys && (req.headers['apca-api-key-id'] !== opts.keys.keyId || req.headers['apca-api-secret-key'] !== opts.keys.secretKey)) {
      return { status: 401, body: { code: 40110000, message: 'request is not authorized' } };
    }
    const path = url.pathname;
    if (req.method === 'GET' && path === '/v2/assets') {
      const status = url.searchParams.get('status');
      return {
        status: 200,
        body: assets
          .filter((a) => !status || (a.status ?? 'active') === status)
          .map((a) => ({
            id: randomUUID(),
            class: 'us_equity',
            exchange: 'NASDAQ',
            symbol: a.symbol,
            name: a.name,
            status: a.status ?? 'active',
            tradable: a.tradable ?? true,
            marginable: true,
            shortable: false,
            easy_to_borrow: false,
            fractionable: a.fractionable ?? true,
          })),
      };
    }
    const quote = /^\/v2\/stocks\/([^/]+)\/quotes\/latest$/.exec(path);
    if (req.method === 'GET' && quote) {
      const symbol = decodeURIComponent(quote[1]);
      const q = quotes.get(symbol);
      if (!q) return { status: 404, body: { message: `no quote for ${symbol}` } };
      return { status: 200, body: { symbol, quote: { t: now(), ax: 'V', ap: Number(q.ask), as: 1, bx: 'V', bp: Number(q.bid), bs: 1, c: ['R'], z: 'C' } } };
    }
    if (req.method === 'POST' && path === '/v2/orders') {
      const b = JSON.parse(raw || '{}') as Partial<SandboxOrder>;
      if ((b.qty == null) === (b.notional == null)) return { status: 422, body: { code: 40010001, message: 'qty or notional is required, not both' } };
      if (!assets.some((a) => a.symbol === b.symbol)) return { status: 422, body: { code: 40010001, message: `asset "${b.symbol}" not found` } };
      if ([...orders.values()].some((o) => o.client_order_id === b.client_order_id))
        return { status: 422, body: { code: 40010001, message: 'client_order_id must be unique' } };
      const o: SandboxOrder = {
        id: randomUUID(),
        client_order_id: b.client_order_id ?? randomUUID(),
        symbol: b.symbol!,
        side: b.side!,
        type: b.type!,
        time_in_force: b.time_in_force ?? 'day',
        qty: b.qty ?? null,
        notional: b.notional ?? null,
        limit_price: b.limit_price ?? null,
        status: 'accepted',
        filled_qty: '0',
        filled_avg_price: null,
        created_at: now(),
        updated_at: now(),
      };
      orders.set(o.id, o);
      emit(o);
      const q = quotes.get(o.symbol);
      if (settings.autoFill && o.type === 'market' && q) {
        const price = o.side === 'buy' ? q.ask : q.bid;
        fillAt(o, o.qty ?? new Decimal(o.notional!).div(price).toDecimalPlaces(9, Decimal.ROUND_DOWN).toString(), price);
      }
      return { status: 200, body: o };
    }
    const one = /^\/v2\/orders\/([^/]+)$/.exec(path);
    if (one) {
      const o = orders.get(one[1]);
      if (!o) return { status: 404, body: { code: 40410000, message: 'order not found' } };
      if (req.method === 'GET') return { status: 200, body: o };
      if (req.method === 'DELETE') {
        if (TERMINAL.includes(o.status)) return { status: 422, body: { code: 42210000, message: `order is already in "${o.status}" state` } };
        o.status = 'canceled';
        o.updated_at = now();
        emit(o);
        return { status: 204 };
      }
    }
    return { status: 404, body: { message: 'not found' } };
  }, opts.port);

  const wss = new WebSocketServer({
    server: running.server,
    path: '/stream',
    verifyClient: (_info, done) => (stream.up ? done(true) : done(false, 503, 'stream unavailable')),
  });
  wss.on('connection', (ws) => {
    let authorized = false;
    ws.on('message', (raw: Buffer) => {
      type Request = { action?: string; key?: string; secret?: string; data?: { streams?: string[] } };
      let m: Request;
      try {
        m = JSON.parse(raw.toString()) as Request;
      } catch {
        return ws.send(JSON.stringify({ stream: 'error', data: { message: 'invalid json' } }));
      }
      if (m.action === 'auth') {
        authorized = !opts.keys || (m.key === opts.keys.keyId && m.secret === opts.keys.secretKey);
        ws.send(Buffer.from(JSON.stringify({ stream: 'authorization', data: { action: 'authenticate', status: authorized ? 'authorized' : 'unauthorized' } })));
        if (!authorized) ws.close();
      } else if (m.action === 'listen' && authorized) {
        const streams = m.data?.streams ?? [];
        if (streams.includes('trade_updates')) listeners.add(ws);
        else listeners.delete(ws);
        ws.send(Buffer.from(JSON.stringify({ stream: 'listening', data: { streams } })));
      }
    });
    ws.on('close', () => listeners.delete(ws));
  });
  const dropStreams = () => {
    for (const ws of wss.clients) ws.terminate();
    listeners.clear();
  };

  return {
    ...running,
    close: async () => {
      dropStreams();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await running.close();
    },
    assets,
    quotes,
    orders,
    settings,
    /** The order the node submitted with this client_order_id. */
    byClientOrderId: (clientOrderId: string) => [...orders.values()].find((o) => o.client_order_id === clientOrderId),
    /** The exchange fills part or all of an order. */
    fill(id: string, qty: string, price: string, status?: 'partially_filled' | 'filled') {
      fillAt(orders.get(id)!, qty, price, status);
    },
    setStatus(id: string, status: string) {
      const o = orders.get(id)!;
      o.status = status;
      o.updated_at = now();
      emit(o);
    },
    /** The trade_updates messages sent so far (also those no connection was listening to). */
    streamEvents,
    /** Connections listening to trade_updates. */
    streamListeners: () => listeners.size,
    /** Sends a message again (a provider redelivering after a reconnect). */
    resend: send,
    /** An outage: every stream connection is dropped and new ones are refused (503) until `streamUp()`. */
    streamDown() {
      stream.up = false;
      dropStreams();
    },
    streamUp() {
      stream.up = true;
    },
  };
}
export type AlpacaSandbox = Awaited<ReturnType<typeof startAlpacaSandbox>>;

/** A Stellar Horizon server's `/order_book` for the assets it is given (keyed by `CODE:ISSUER`). */
export async function startHorizonSandbox(books: Record<string, { bids: string[]; asks: string[] }> = {}) {
  const state = new Map(Object.entries(books));
  const running = await listen((req, url) => {
    if (req.method !== 'GET' || url.pathname !== '/order_book')
      return { status: 404, body: { type: 'https://stellar.org/horizon-errors/not_found', status: 404 } };
    const p = url.searchParams;
    if (p.get('selling_asset_type') !== 'native' && (!p.get('selling_asset_code') || !p.get('selling_asset_issuer')))
      return { status: 400, body: { type: 'https://stellar.org/horizon-errors/bad_request', status: 400, title: 'Bad Request' } };
    const key = `${p.get('selling_asset_code')}:${p.get('selling_asset_issuer')}`;
    const book = state.get(key) ?? { bids: [], asks: [] };
    const level = (price: string) => ({ price_r: { n: 0, d: 0 }, price, amount: '1000.0000000' });
    const limit = Number(p.get('limit') ?? 20);
    return {
      status: 200,
      body: {
        bids: book.bids.slice(0, limit).map(level),
        asks: book.asks.slice(0, limit).map(level),
        base: { asset_type: p.get('selling_asset_type'), asset_code: p.get('selling_asset_code'), asset_issuer: p.get('selling_asset_issuer') },
        counter: {
          asset_type: p.get('buying_asset_type'),
          asset_code: p.get('buying_asset_code') ?? undefined,
          asset_issuer: p.get('buying_asset_issuer') ?? undefined,
        },
      },
    };
  });
  return { ...running, books: state };
}
export type HorizonSandbox = Awaited<ReturnType<typeof startHorizonSandbox>>;
