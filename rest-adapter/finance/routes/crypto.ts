import { z } from 'zod';
import type { Route } from '../../core/route';
import { CRYPTO_ASSETS, NETWORKS } from '../../../subgraphs/finance/crypto/vocabulary';
import type { CryptoDepositAddressFieldsFragment, CryptoDepositFieldsFragment, CryptoSwapFieldsFragment } from '../operations/types.generated';
import { LIMITS_DESCRIPTION } from '../../../subgraphs/finance/ledger/vocabulary';
import { money } from '../schemas';
import { listQuery, WEBHOOK_SIGNATURE_HEADER, type WebhookInput } from './cards';
import { route, type ResultOf } from '../operation';

const asset = z.enum(CRYPTO_ASSETS);
// request values are checked by the domain, after the gate (read-only mode, maintenance and the toggle answer first)
const assetInput = z.string().describe(`One of ${CRYPTO_ASSETS.join(', ')}`);
const iso = (d: string) => new Date(d).toISOString();

const address = z.object({
  id: z.string(),
  asset,
  network: z.enum([...new Set(Object.values(NETWORKS))] as [string, ...string[]]),
  address: z.string(),
  created_at: z.string(),
});
const deposit = z.object({
  id: z.string(),
  asset,
  amount: money,
  address: z.string(),
  tx_hash: z.string(),
  status: z.enum(['confirmed', 'credited']),
  created_at: z.string(),
  credited_at: z.string().nullable(),
});
const quote = z.object({
  id: z.string(),
  from_amount: money.describe('What is sold, the fee included'),
  fee: money.describe("The node's fee, in the asset sold"),
  to_amount: money.describe('What is received'),
  rate: z.string().describe('Units bought per unit sold (decimal string)'),
  expires_at: z.string(),
  created_at: z.string(),
});
const swap = quote.omit({ expires_at: true }).extend({ quote_id: z.string() });

const addressBody = (a: CryptoDepositAddressFieldsFragment) => ({
  id: a.id,
  asset: a.asset,
  network: a.network,
  address: a.address,
  created_at: iso(a.createdAt),
});
const depositBody = (d: CryptoDepositFieldsFragment) => ({
  id: d.id,
  asset: d.asset,
  amount: d.amount,
  address: d.address,
  tx_hash: d.txHash,
  status: d.status,
  created_at: iso(d.createdAt),
  credited_at: d.creditedAt ? iso(d.creditedAt) : null,
});
const quoteBody = (q: ResultOf<'CreateCryptoQuote'>['createCryptoQuote']) => ({
  id: q.id,
  from_amount: q.fromAmount,
  fee: q.fee,
  to_amount: q.toAmount,
  rate: q.rate,
  expires_at: iso(q.expiresAt),
  created_at: iso(q.createdAt),
});
const swapBody = (s: CryptoSwapFieldsFragment) => ({
  id: s.id,
  quote_id: s.quoteId,
  from_amount: s.fromAmount,
  fee: s.fee,
  to_amount: s.toAmount,
  rate: s.rate,
  created_at: iso(s.createdAt),
});

const TAGS = ['Crypto'];
const MODULE = 'Module `crypto`: 403 `module_disabled` while its toggle is off.';

/** Crypto deposits and swaps (Coinbase's shape): addresses, deposits, quotes, swaps, and the exchange's webhook. */
export const cryptoRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/api/v1/crypto/addresses/',
    summary: 'Get a deposit address for an asset',
    description: `JSON \`{asset}\` → 201 the caller's address for it (the same one on every request). ${MODULE}`,
    tags: TAGS,
    security: 'bearer',
    operation: 'CreateCryptoDepositAddress',
    body: z.object({ asset: assetInput }),
    variables: ({ body }: { body: { asset: string } }) => ({ asset: body.asset }),
    response: { status: 201, description: 'The address', schema: address },
    errors: [400, 403, 502, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: addressBody(data.createCryptoDepositAddress) }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/crypto/addresses/',
    summary: "The caller's deposit addresses",
    description: MODULE,
    tags: TAGS,
    security: 'bearer',
    operation: 'CryptoDepositAddresses',
    response: { description: 'Addresses', schema: z.object({ results: z.array(address) }) },
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', body: { results: data.cryptoDepositAddresses.map(addressBody) } }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/crypto/deposits/',
    summary: "The caller's deposits",
    description: `Newest first; cursor pagination. A deposit is credited to the wallet once, on confirmation. ${MODULE}`,
    tags: TAGS,
    security: 'bearer',
    operation: 'CryptoDeposits',
    query: listQuery,
    variables: ({ query }: { query: z.infer<typeof listQuery> }) => ({ cursor: query.cursor ?? null, limit: query.limit ?? null }),
    response: { description: 'A page of deposits', schema: z.object({ results: z.array(deposit), next_cursor: z.string().nullable() }) },
    errors: [400, 403, 503],
    respond: (data) => ({
      kind: 'json',
      body: { results: data.cryptoDeposits.results.map(depositBody), next_cursor: data.cryptoDeposits.nextCursor },
    }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/crypto/quotes/',
    summary: 'Quote a swap',
    description: `JSON \`{from_asset, to_asset, from_amount}\` (8 decimals at most) → 201 the rate, the fee and what is received, valid until \`expires_at\`. ${MODULE}`,
    tags: TAGS,
    security: 'bearer',
    operation: 'CreateCryptoQuote',
    body: z.object({ from_asset: assetInput, to_asset: assetInput, from_amount: z.string().describe('A decimal string such as "0.05"') }),
    variables: ({ body }: { body: { from_asset: string; to_asset: string; from_amount: string } }) => ({
      fromAsset: body.from_asset,
      toAsset: body.to_asset,
      fromAmount: body.from_amount,
    }),
    response: { status: 201, description: 'The quote', schema: quote },
    errors: [400, 403, 502, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: quoteBody(data.createCryptoQuote) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/crypto/swaps/',
    summary: 'Execute a quote',
    description:
      `JSON \`{quote_id}\` → 201 the swap: one atomic ledger batch (the asset sold to clearing and the fee to revenue, the asset bought from clearing). ` +
      `An expired quote: 422 \`quote_expired\`; not enough of the asset: 422 \`insufficient_funds\`; a quote executes once. ${LIMITS_DESCRIPTION} ${MODULE}`,
    tags: TAGS,
    security: 'bearer',
    operation: 'SwapCrypto',
    idempotent: true,
    body: z.object({ quote_id: z.string().describe('The id of a quote of yours') }),
    variables: ({ body }: { body: { quote_id: string } }) => ({ quoteId: body.quote_id }),
    response: { status: 201, description: 'The swap', schema: swap },
    errors: [400, 403, 404, 422, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: swapBody(data.swapCrypto) }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/crypto/swaps/',
    summary: "The caller's swaps",
    description: `Newest first; cursor pagination. ${MODULE}`,
    tags: TAGS,
    security: 'bearer',
    operation: 'CryptoSwaps',
    query: listQuery,
    variables: ({ query }: { query: z.infer<typeof listQuery> }) => ({ cursor: query.cursor ?? null, limit: query.limit ?? null }),
    response: { description: 'A page of swaps', schema: z.object({ results: z.array(swap), next_cursor: z.string().nullable() }) },
    errors: [400, 403, 503],
    respond: (data) => ({
      kind: 'json',
      body: { results: data.cryptoSwaps.results.map(swapBody), next_cursor: data.cryptoSwaps.nextCursor },
    }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/webhooks/crypto/:provider/',
    summary: "The crypto exchange's webhook",
    description:
      "Event `deposit.confirmed`: `{id, type, data: {deposit: {id, address, asset, amount, tx_hash}}}`, signed in the `Webhook-Signature` header as the card issuer's. " +
      "Credits the address owner's wallet once, whatever the deliveries. Missing, bad or stale signature: 401 `webhook_signature_invalid`.",
    tags: ['Webhooks'],
    security: 'none',
    credentials: [],
    operationId: 'cryptoExchangeWebhook',
    operation: 'CryptoExchangeWebhook',
    params: z.object({ provider: z.string().regex(/^[a-z0-9_-]{1,40}$/) }),
    body: z.record(z.string(), z.unknown()),
    variables: ({ params, body, req }: WebhookInput) => ({
      provider: params.provider,
      payload: JSON.stringify(body),
      signature: req.get(WEBHOOK_SIGNATURE_HEADER) ?? null,
    }),
    response: { description: 'The deposit', schema: deposit },
    errors: [400, 401, 404, 503],
    respond: (data) => ({ kind: 'json', body: depositBody(data.receiveCryptoExchangeEvent) }),
  }),
];
