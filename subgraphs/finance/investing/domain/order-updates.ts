import type { Logger } from '../../../../lib/logger';
import type { Investing } from './investing';
import { AlpacaTradeStream, type TradeStreamStatus, type TradeStreamTarget } from './providers/alpaca-stream';
import { POLL_WHILE_STREAMING_MS } from '../vocabulary';

/**
 * How orders learn their fills: pushed by the equities brokerage's trade stream, and polled as the
 * safety net (each (re)connection polls once to catch up on what happened while the stream was away).
 * Every process holds its own stream: applying is idempotent (the order row is locked, ledger
 * transfer ids derive from the order and the fill step), so replicas receiving the same event, or an
 * event and a poll, change an order once; and each process knows whether its stream is up.
 */
export class OrderUpdates {
  private readonly stream: AlpacaTradeStream;
  private lastPoll = 0;

  constructor(
    private readonly investing: Investing,
    target: () => Promise<TradeStreamTarget>,
    logger: Logger,
  ) {
    this.stream = new AlpacaTradeStream({
      target,
      onUpdate: async (update) => void (await investing.applyProviderEvent('equities_brokerage', update.order)),
      onConnected: () => this.poll().then(() => undefined),
      logger: logger.child({ stream: 'trade_updates' }),
    });
  }

  start(): void {
    this.stream.start();
  }

  stop(): Promise<void> {
    return this.stream.stop();
  }

  /** The key pair or the brokerage's address changed: connect again with the new ones. */
  reconnect(): void {
    this.stream.reconnect();
  }

  status(): TradeStreamStatus {
    return this.stream.status();
  }

  /** Asks the provider about every open order (the catch-up, and the scheduled safety net). */
  async poll(): Promise<number> {
    this.lastPoll = Date.now();
    return this.investing.refreshOrders();
  }

  /** The scheduled job: every time while the stream is down, every POLL_WHILE_STREAMING_MS while it is up. */
  async scheduledPoll(): Promise<number | null> {
    if (this.stream.connected && Date.now() - this.lastPoll < POLL_WHILE_STREAMING_MS) return null;
    return this.poll();
  }
}
