import { z } from 'zod';
import type { ErrorCatalogue } from '../../core/errors';
import type { Route } from '../../core/route';
import { MARKET_BUY_BUFFER_BPS, ORDER_SIDES, ORDER_STATUSES, ORDER_TYPES } from '../../../subgraphs/finance/investing/vocabulary';
import { LIMITS_DESCRIPTION } from '../../../subgraphs/finance/ledger/vocabulary';
import { money } from '../schemas';
import { route } from '../operation';

/** The investing module's labels (body {"detail", "code"}). */
export const INVESTING_ERRORS: ErrorCatalogue = {
  TRADING_NOT_SUPPORTED: { code: 'trading_not_supported' },
  ASSET_ISSUER_INVALID: { code: 'asset_issuer_invalid' },
  ORDER_BOOK_EMPTY: { code: 'order_book_empty' },
  FRACTIONAL_NOT_ALLOWED: { code: 'fractional_not_allowed' },
  INSUFFICIENT_POSITION: { code: 'insufficient_position' },
  INSTRUMENT_NOT_TRADABLE: { code: 'instrument_not_tradable' },
  ORDER_NOT_CANCELABLE: { code: 'order_not_cancelable' },
  CLIENT_ORDER_ID_REUSED: { code: 'client_order_id_reused' },
};

const decimal = (what: string) => z.string().describe(`${what} (decimal string)`);
const page = z.object({
  cursor: z.string().optional().describe('next_cursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(500).optional().describe('Page size'),
});
const pageVariables = ({ query }: { query: z.infer<typeof page> }) => ({ cursor: query.cursor ?? null, limit: query.limit ?? null });

const instrument = z.object({
  provider: z.string().describe('decentralized_exchange, equities_brokerage or market_data'),
  symbol: z.string(),
  name: z.string(),
  asset_class: z.string(),
  issuer: z.string().nullable().describe('Issuer address (decentralized exchange)'),
  tradable: z.boolean(),
  fractionable: z.boolean(),
  active: z.boolean(),
  quote_currency: z.string(),
  last_price: z.string().nullable().describe('Cached price; null until its first successful fetch'),
  last_price_at: z.string().nullable(),
});
const quote = z.object({
  symbol: z.string(),
  bid: z.string().nullable(),
  ask: z.string().nullable(),
  price: z.string().describe('Mid of bid and ask'),
  currency: z.string(),
  at: z.string(),
});
const order = z.object({
  id: z.string(),
  client_order_id: z.string(),
  provider: z.string(),
  symbol: z.string(),
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES),
  qty: z.string().nullable(),
  notional: z.string().nullable(),
  limit_price: z.string().nullable(),
  status: z.enum(ORDER_STATUSES).describe("Alpaca's order lifecycle"),
  filled_qty: z.string(),
  filled_avg_price: z.string().nullable(),
  reserved: money.describe('What a buy reserved in the wallet at submit (pending until the order settles)'),
  quote_price: z.string().nullable().describe('The live quote the order was sized on'),
  reject_reason: z.string().nullable(),
  submitted_at: z.string(),
  updated_at: z.string(),
  filled_at: z.string().nullable(),
});
const position = z.object({
  symbol: z.string(),
  provider: z.string(),
  qty: z.string(),
  held_qty: z.string().describe('Held by open sell orders'),
  currency: z.string(),
  average_cost: z.string(),
  cost_basis: z.string(),
  last_price: z.string().nullable(),
  last_price_at: z.string().nullable(),
  market_value: z.string().nullable().describe('qty × the cached price'),
  unrealized_pl: z.string().nullable().describe('market_value − cost_basis'),
  sellable: z.boolean().describe('Its provider trades it now (a holding at a provider switched away from stays sellable there)'),
});
const fill = z.object({
  id: z.string(),
  order_id: z.string(),
  provider: z.string(),
  symbol: z.string(),
  side: z.string(),
  qty: z.string(),
  price: z.string(),
  created_at: z.string(),
});

// side and type are checked by the domain, after the node's gate: a read-only node refuses the write first
export const orderBody = z.object({
  symbol: z.string().min(1).max(64),
  side: z.string().describe(`${ORDER_SIDES.join(' or ')}`),
  type: z
    .string()
    .default('market')
    .describe(`${ORDER_TYPES.join(' or ')} (default market)`),
  qty: decimal('Shares; exclusive with notional').optional(),
  notional: decimal('An amount of the quote currency; exclusive with qty; market orders').optional(),
  limit_price: decimal('Limit orders').optional(),
  client_order_id: z.string().max(128).optional().describe('Unique per user: a repeat with the same body answers the same order'),
  provider: z
    .string()
    .max(64)
    .optional()
    .describe('Sells only: the provider holding the shares when it is not the active one (default: the one that holds them)'),
});

const TAGS = ['Investing'];

/** GET/POST/DELETE of the investing module (module `investments`): refused with the toggle off, writes refused in read-only mode. */
export const investingRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/api/v1/instruments/',
    summary: 'Instruments of the active brokerage provider',
    description: 'Active instruments of the provider selected in the admin console (only its rows), by symbol, with the cached price.',
    tags: TAGS,
    security: 'bearer',
    operation: 'Instruments',
    query: page,
    variables: pageVariables,
    response: { description: 'A page of instruments', schema: z.object({ results: z.array(instrument), next_cursor: z.string().nullable() }) },
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', body: data.instruments }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/instruments/:symbol/quote/',
    summary: 'A live quote',
    description:
      'From the active provider (the decentralized exchange: mid of the order book; an empty book is 422 `order_book_empty`; an asset without a valid issuer 422 `asset_issuer_invalid`). The price becomes the cached price.',
    tags: TAGS,
    security: 'bearer',
    operation: 'InstrumentQuote',
    params: z.object({ symbol: z.string().min(1).max(64) }),
    variables: ({ params }: { params: { symbol: string } }) => ({ symbol: params.symbol }),
    response: { description: 'The quote', schema: quote },
    errors: [403, 404, 422, 502, 503],
    respond: (data) => ({ kind: 'json', body: data.instrumentQuote }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/orders/',
    summary: 'Buy or sell',
    description:
      'By `qty` or `notional` (exactly one), `market` or `limit`. Fractional quantities and notional orders need the "Fractional shares" toggle and a fractionable instrument (422 `fractional_not_allowed`). ' +
      `A buy reserves its cost in the wallet at submit as a pending ledger transfer: the notional, a limit's qty × limit price, or a market qty × the live ask plus ${MARKET_BUY_BUFFER_BPS / 100}%; ` +
      'posted at the fill price with the rest released, voided on cancel, reject or expiry. Idempotent by `Idempotency-Key` and by `client_order_id`. ' +
      'The market-data provider cannot trade: 422 `trading_not_supported`. A buy is held to the limits of your KYC level. ' +
      LIMITS_DESCRIPTION,
    tags: TAGS,
    security: 'bearer',
    operation: 'SubmitInvestmentOrder',
    idempotent: true,
    body: orderBody,
    variables: ({ body }: { body: z.infer<typeof orderBody> }) => ({
      order: {
        symbol: body.symbol,
        side: body.side,
        type: body.type,
        qty: body.qty ?? null,
        notional: body.notional ?? null,
        limitPrice: body.limit_price ?? null,
        clientOrderId: body.client_order_id ?? null,
        provider: body.provider ?? null,
      },
    }),
    response: { status: 201, description: 'The order', schema: order },
    errors: [403, 404, 422, 502, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: data.order }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/orders/',
    summary: "The caller's orders",
    description: 'Newest first.',
    tags: TAGS,
    security: 'bearer',
    operation: 'InvestmentOrders',
    query: page,
    variables: pageVariables,
    response: { description: 'A page of orders', schema: z.object({ results: z.array(order), next_cursor: z.string().nullable() }) },
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', body: data.investmentOrders }),
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/orders/:id/',
    summary: 'Cancel an open order',
    description: 'The reservation of what did not fill is released. A settled order is 422 `order_not_cancelable`.',
    tags: TAGS,
    security: 'bearer',
    operation: 'CancelInvestmentOrder',
    params: z.object({ id: z.string().uuid() }),
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { description: 'The order', schema: order },
    errors: [403, 404, 422, 502, 503],
    respond: (data) => ({ kind: 'json', body: data.order }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/portfolio/',
    summary: "The caller's positions",
    description:
      'At every provider, the active one and any the admin console switched away from (such holdings stay sellable there while that provider trades them): ' +
      'quantity, average cost, market value and unrealised P&L at the cached price, and whether it can be sold now.',
    tags: TAGS,
    security: 'bearer',
    operation: 'Portfolio',
    response: { description: 'Positions', schema: z.object({ positions: z.array(position) }) },
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', body: { positions: data.portfolio } }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/portfolio/fills/',
    summary: "The caller's fills",
    description: 'Newest first.',
    tags: TAGS,
    security: 'bearer',
    operation: 'PortfolioFills',
    query: page,
    variables: pageVariables,
    response: { description: 'A page of fills', schema: z.object({ results: z.array(fill), next_cursor: z.string().nullable() }) },
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', body: data.portfolioFills }),
  }),
];
