/**
 * The investing subgraph's published words: the domain, the schema and the REST surface's schemas,
 * documentation and admin pages share them (the REST layer reaches no domain/ module).
 */

/** Alpaca's order lifecycle (https://docs.alpaca.markets/docs/orders-at-alpaca#order-lifecycle). */
export const ORDER_STATUSES = [
  'new',
  'accepted',
  'pending_new',
  'accepted_for_bidding',
  'partially_filled',
  'filled',
  'done_for_day',
  'canceled',
  'expired',
  'replaced',
  'pending_cancel',
  'pending_replace',
  'stopped',
  'rejected',
  'suspended',
  'calculated',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_SIDES = ['buy', 'sell'] as const;
export const ORDER_TYPES = ['market', 'limit'] as const;

/**
 * What a market buy by quantity reserves above the live ask (basis points): the fill may come at a
 * higher price than the quote. The reservation is posted at the fill price and the rest released.
 */
export const MARKET_BUY_BUFFER_BPS = 500;

/** While the stream is up the scheduled poll (every minute) only runs this often: it is the safety net. */
export const POLL_WHILE_STREAMING_MS = 10 * 60_000;
