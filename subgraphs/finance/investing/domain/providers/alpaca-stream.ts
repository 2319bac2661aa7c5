import WebSocket from 'ws';
import type { Logger } from '../../../../../lib/logger';
import { toProviderOrder, type AlpacaCredentials, type AlpacaOrder } from './alpaca';
import type { ProviderOrder } from './types';

/** One `trade_updates` event: what happened and the order as the provider now sees it (the poller's view). */
export interface TradeUpdate {
  event: string;
  order: ProviderOrder & { clientOrderId: string | null };
}

/** Where the stream is, and whether it can authenticate there; null: nothing to connect to (see `Brokerages.tradeStream`). */
export type TradeStreamTarget = { url: string; credentials: AlpacaCredentials | undefined } | null;

export interface TradeStreamStatus {
  state: 'off' | 'connecting' | 'connected' | 'disconnected';
  connectedAt: Date | null;
  lastEventAt: Date | null;
  /** Why the last connection ended (or failed), while not connected. */
  lastError: string | null;
  /** Times a listening connection dropped (each followed by a reconnect and a catch-up poll). */
  reconnects: number;
  /** trade_updates events handled (applied, or failed and left to the poll). */
  events: number;
}

/** Back-off between connection attempts (doubled up to the maximum); a live connection's ping interval. */
export const STREAM_TIMINGS = { firstRetryMs: 1_000, maxRetryMs: 30_000, pingMs: 20_000, idleCheckMs: 60_000 };

/** A frame's text: one buffer (text or binary frame), fragments, or an ArrayBuffer. */
const textOf = (raw: WebSocket.RawData) =>
  (Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(new Uint8Array(raw))).toString('utf8');

interface StreamMessage {
  stream?: string;
  data?: {
    status?: string;
    action?: string;
    event?: string;
    order?: AlpacaOrder & { client_order_id?: string };
  };
}

/**
 * Alpaca's trading stream (`wss://…/stream`): authenticates with the brokerage's key pair, listens to
 * `trade_updates`, hands each event to `onUpdate`, and calls `onConnected` once listening (each time:
 * what happened while it was away is the caller's catch-up). A dropped connection is retried with
 * back-off; a half-open one is found by ping. Alpaca sends its frames as binary JSON; both kinds are read.
 */
export class AlpacaTradeStream {
  private socket: WebSocket | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = STREAM_TIMINGS.firstRetryMs;
  private running = false;
  private resolving = false;
  private applying: Promise<void> = Promise.resolve();
  private readonly state: TradeStreamStatus = { state: 'off', connectedAt: null, lastEventAt: null, lastError: null, reconnects: 0, events: 0 };

  constructor(
    private readonly opts: {
      target: () => Promise<TradeStreamTarget>;
      onUpdate: (update: TradeUpdate) => Promise<void>;
      onConnected: () => Promise<void>;
      logger: Logger;
    },
  ) {}

  status(): TradeStreamStatus {
    return { ...this.state };
  }

  get connected(): boolean {
    return this.state.state === 'connected';
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.retry);
    this.state.state = 'off';
    const socket = this.socket;
    this.socket = undefined;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.terminate();
      });
    }
  }

  /** Connects again at once (the key pair or the address changed). */
  reconnect(): void {
    if (!this.running) return;
    this.retryMs = STREAM_TIMINGS.firstRetryMs;
    clearTimeout(this.retry);
    if (this.socket) this.socket.terminate();
    else void this.connect();
  }

  private schedule(ms: number) {
    clearTimeout(this.retry);
    if (this.running) this.retry = setTimeout(() => void this.connect(), ms);
  }

  private async connect(): Promise<void> {
    // one connection at a time: a reconnect() while the target is being read does not open a second
    if (!this.running || this.socket || this.resolving) return;
    let target: TradeStreamTarget;
    this.resolving = true;
    try {
      target = await this.opts.target();
    } catch (err) {
      target = null;
      this.state.lastError = (err as Error).message;
    } finally {
      this.resolving = false;
    }
    if (!this.running) return;
    if (!target) {
      // not configured (yet): look again later, the admin console may add the key pair
      this.state.state = 'off';
      return this.schedule(STREAM_TIMINGS.idleCheckMs);
    }
    this.state.state = 'connecting';
    const socket = new WebSocket(target.url, { handshakeTimeout: 10_000 });
    this.socket = socket;
    let alive = true;
    let ping: NodeJS.Timeout | undefined;
    const fail = (why: string) => {
      this.state.lastError = why;
      socket.terminate();
    };
    socket.on('open', () => {
      const c = target.credentials;
      socket.send(JSON.stringify({ action: 'auth', key: c?.keyId ?? '', secret: c?.secretKey ?? '' }));
      ping = setInterval(() => {
        if (!alive) return fail('no answer to ping');
        alive = false;
        socket.ping();
      }, STREAM_TIMINGS.pingMs);
    });
    socket.on('pong', () => (alive = true));
    socket.on('message', (raw: WebSocket.RawData) => {
      alive = true;
      let message: StreamMessage;
      try {
        message = JSON.parse(textOf(raw)) as StreamMessage;
      } catch {
        return this.opts.logger.warn('trade stream: a frame that is not JSON, ignored');
      }
      if (message.stream === 'authorization') {
        if (message.data?.status !== 'authorized') return fail(`not authorized (${message.data?.status ?? 'no status'})`);
        socket.send(JSON.stringify({ action: 'listen', data: { streams: ['trade_updates'] } }));
      } else if (message.stream === 'listening') {
        this.listening();
      } else if (message.stream === 'trade_updates' && message.data?.order) {
        const { event = 'unknown', order } = message.data;
        this.state.lastEventAt = new Date();
        const update: TradeUpdate = {
          event,
          order: { ...toProviderOrder(order), clientOrderId: order.client_order_id ?? null },
        };
        // applied one after another, in the order sent (each waits for the one before)
        this.applying = this.applying
          .then(() => this.opts.onUpdate(update))
          .catch((err: unknown) =>
            // the poll applies it later
            this.opts.logger.warn(
              { err: { message: (err as Error).message }, providerOrderId: order.id, event },
              'trade stream: an update could not be applied',
            ),
          )
          .finally(() => this.state.events++);
      }
    });
    socket.on('error', (err) => (this.state.lastError = err.message));
    socket.on('close', () => {
      clearInterval(ping);
      if (this.socket === socket) this.socket = undefined;
      if (!this.running) return;
      if (this.state.state === 'connected') this.state.reconnects++;
      this.state.state = 'disconnected';
      this.state.connectedAt = null;
      this.opts.logger.warn({ error: this.state.lastError, retryInMs: this.retryMs }, 'trade stream: disconnected; reconnecting');
      this.schedule(this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, STREAM_TIMINGS.maxRetryMs);
    });
  }

  private listening() {
    this.state.state = 'connected';
    this.state.connectedAt = new Date();
    this.state.lastError = null;
    this.retryMs = STREAM_TIMINGS.firstRetryMs;
    this.opts.logger.info('trade stream: listening to trade_updates');
    this.opts.onConnected().catch((err: unknown) => this.opts.logger.warn({ err: { message: (err as Error).message } }, 'trade stream: catch-up poll failed'));
  }
}
