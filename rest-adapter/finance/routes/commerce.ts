import type { z } from 'zod';
import type { HttpMethod, OperationRoute, Route } from '../../core/route';
import { route as operationRoute, type ResultOf } from '../operation';
import type { Operations } from '../operations/types.generated';
import * as s from '../commerce-schemas';
import { LIMITS_DESCRIPTION } from '../../../subgraphs/finance/ledger/vocabulary';

/**
 * The commerce routes of the finance surface: shop (toggle "Shop and utilities"), utilities and
 * gift cards (same toggle), disputes ("Dispute and support system"), points and rewards ("Points
 * and rewards"). A module switched off answers 403 `module_disabled`; licence read-only mode 403
 * `licence_read_only` on every write. Each persisted operation answers its data as `result`.
 */
const SHOP_DOC =
  'Toggle "Shop and utilities": 403 `module_disabled` when off. Checkout turns the cart into a `pending` order and empties the cart; the wallet is not charged and no stock is reserved until the order is paid.';
const UTILITIES_DOC =
  "Validated (phone number of the operator's country, operator and plan from the catalogue, biller account format, amount limits) and stored with status `pending_integration`: nothing is dispatched to a provider and the wallet is not debited (known gap). States: pending_integration, pending, successful, failed, reversed.";
const GIFT_CARDS_DOC =
  'The catalogue works; fulfilment is pending: an order is validated and recorded with `fulfilment: pending`, no code is issued and nothing is charged.';
const DISPUTES_DOC =
  'Toggle "Dispute and support system". Only a payment to a merchant or another user can be disputed (a shop order\'s payment, a card payment, a transfer to a user; 400 otherwise), ' +
  'never one refunded already (409 `already_refunded`) or reversed by an earlier dispute (409 `dispute_exists`); a payment is given back once, by the ledger (409 `already_reversed`). States: open → under_review → resolved | rejected; open → cancelled by the user. ' +
  "A resolution in your favour posts a reversing ledger transfer (the original is never edited): the payee pays back what it still holds and the platform's loss account the rest, " +
  'and the points the payment earned go back. A refused move is 409 `invalid_state` with the current `status`.';
const REWARDS_DOC =
  'Toggle "Points and rewards". A point is worth `rules.point_value` (0.01 of the node\'s reference currency). Rules: 1 point per whole unit of a paid shop order\'s value in the reference currency ' +
  "(converted at the node's rate); a referral gives the referrer 500 and the referred user 250 points, at the referred user's first paid order. Points are redeemed in multiples of 100 into a fiat wallet " +
  "currency: their value, converted at the node's rate and rounded down (crypto: 400). A refunded, cancelled or disputed payment takes back the points it earned (the referral bonuses too, paid again " +
  'at the next paid order); points already spent are owed: the balance goes below zero and nothing is redeemed until later points pay it back.';

/** What a route's `variables` reads: its validated params, query and body (values checked by the domain). */
interface Input {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** Commerce's operations: each answers its data under the alias `result`, which the route answers as it is (or `pick`s from). */
type CommerceOperation = { [N in keyof Operations]: ResultOf<N> extends { result: unknown } ? N : never }[keyof Operations];

interface Spec<N extends CommerceOperation> {
  method: HttpMethod;
  path: string;
  summary: string;
  description: string;
  tag: string;
  operation: N;
  status?: number;
  schema: z.ZodType;
  errors: number[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  idempotent?: boolean;
  variables?: (input: Input) => Record<string, unknown>;
  pick?: (result: ResultOf<N>['result']) => unknown;
}

const route = <N extends CommerceOperation>(spec: Spec<N>): Route =>
  operationRoute({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    security: 'bearer',
    operation: spec.operation,
    params: spec.params,
    query: spec.query,
    body: spec.body,
    idempotent: spec.idempotent,
    // commerce's bodies are read field by field and checked by the domain: their variables stay untyped here
    variables: spec.variables as OperationRoute<Operations, N>['variables'],
    response: { status: spec.status ?? 200, description: spec.summary, schema: spec.schema },
    errors: spec.errors,
    respond: (data) => ({ kind: 'json', status: spec.status ?? 200, body: spec.pick ? spec.pick(data.result) : data.result }),
  });

const page = ({ query }: Input) => ({ limit: query.limit ?? null, cursor: query.cursor ?? null });
/** A read without an id (a list, the caller's own cart or rewards): nothing to be missing. */
const LIST = [403, 503];
const READ = [403, 404, 503];
const WRITE = [403, 404, 409, 503];
/** A new request from validated input (an idempotent one adds its 409 and 422). */
const CREATE = [403, 503];

export const commerceRoutes: Route[] = [
  // ---- shop
  route({
    method: 'GET',
    path: '/api/v1/shop/products/',
    summary: 'Products on sale',
    description: `${SHOP_DOC} Newest first; \`search\` matches name and description.`,
    tag: 'Shop',
    operation: 'ShopProducts',
    query: s.pageQuery.extend({ search: s.brandQuery.shape.search }),
    variables: (input) => ({ ...page(input), search: input.query.search ?? null }),
    schema: s.productPage,
    errors: LIST,
  }),
  route({
    method: 'GET',
    path: '/api/v1/shop/products/:id/',
    summary: 'One product',
    description: SHOP_DOC,
    tag: 'Shop',
    operation: 'ShopProduct',
    params: s.idParams,
    variables: ({ params }) => ({ id: params.id }),
    schema: s.product,
    errors: READ,
  }),
  route({
    method: 'GET',
    path: '/api/v1/shop/cart/',
    summary: 'Your cart',
    description: `${SHOP_DOC} Lines show current prices and stock (nothing is reserved).`,
    tag: 'Shop',
    operation: 'ShopCart',
    schema: s.cart,
    errors: LIST,
  }),
  route({
    method: 'POST',
    path: '/api/v1/shop/cart/items/',
    summary: 'Add a product to the cart',
    description: `${SHOP_DOC} The product must be on sale, in the cart's currency (409 \`currency_mismatch\`), with stock for the line's new quantity (409 \`out_of_stock\` with \`available\`); \`expected_price\` must still be the price (409 \`price_changed\` with \`price\`).`,
    tag: 'Shop',
    operation: 'AddShopCartItem',
    status: 201,
    body: s.addCartItemBody,
    variables: ({ body }) => ({ productId: body.product_id, quantity: body.quantity, expectedPrice: body.expected_price ?? null }),
    schema: s.cart,
    errors: WRITE,
  }),
  route({
    method: 'PATCH',
    path: '/api/v1/shop/cart/items/:id/',
    summary: 'Change the quantity of a cart line',
    description: `${SHOP_DOC} 409 \`out_of_stock\` beyond the stock.`,
    tag: 'Shop',
    operation: 'ChangeShopCartItem',
    params: s.idParams,
    body: s.changeCartItemBody,
    variables: ({ params, body }) => ({ itemId: params.id, quantity: body.quantity }),
    schema: s.cart,
    errors: WRITE,
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/shop/cart/items/:id/',
    summary: 'Remove a cart line',
    description: SHOP_DOC,
    tag: 'Shop',
    operation: 'RemoveShopCartItem',
    params: s.idParams,
    variables: ({ params }) => ({ itemId: params.id }),
    schema: s.cart,
    errors: [403, 404, 503],
  }),
  route({
    method: 'POST',
    path: '/api/v1/shop/checkout/',
    summary: 'Check out: the cart becomes a pending order',
    description: `${SHOP_DOC} One transaction: an order \`pending\` with the prices of now (snapshots), the cart emptied. 409 \`cart_empty\`, \`out_of_stock\` or \`product_unavailable\`.`,
    tag: 'Shop',
    operation: 'ShopCheckout',
    status: 201,
    idempotent: true,
    schema: s.order,
    errors: [403, 409, 503],
  }),
  route({
    method: 'GET',
    path: '/api/v1/shop/orders/',
    summary: 'Your orders',
    description: `${SHOP_DOC} Newest first. States: pending → paid → fulfilled; pending | paid → cancelled; paid | fulfilled → refunded (a dispute refunded its payment).`,
    tag: 'Shop',
    operation: 'ShopOrders',
    query: s.pageQuery,
    variables: page,
    schema: s.orderPage,
    errors: LIST,
  }),
  route({
    method: 'GET',
    path: '/api/v1/shop/orders/:id/',
    summary: 'One order with its history',
    description: SHOP_DOC,
    tag: 'Shop',
    operation: 'ShopOrder',
    params: s.idParams,
    variables: ({ params }) => ({ id: params.id }),
    schema: s.order,
    errors: READ,
  }),
  route({
    method: 'POST',
    path: '/api/v1/shop/orders/:id/pay/',
    summary: 'Pay a pending order from your wallet',
    description: `${SHOP_DOC} pending → paid: one ledger transfer from your wallet; stock is taken now. 409 \`invalid_state\` (with \`status\`) for an order that is not pending; 422 \`insufficient_funds\`; 403 \`kyc_required\` under the KYC toggles. ${LIMITS_DESCRIPTION}`,
    tag: 'Shop',
    operation: 'PayShopOrder',
    idempotent: true,
    params: s.idParams,
    variables: ({ params }) => ({ orderId: params.id }),
    schema: s.order,
    errors: [...WRITE, 422],
  }),
  route({
    method: 'POST',
    path: '/api/v1/shop/orders/:id/cancel/',
    summary: 'Cancel a pending order',
    description: `${SHOP_DOC} pending → cancelled (an administrator cancels, and refunds, a paid order). 409 \`invalid_state\` with the current \`status\` otherwise.`,
    tag: 'Shop',
    operation: 'CancelShopOrder',
    params: s.idParams,
    variables: ({ params }) => ({ orderId: params.id }),
    schema: s.order,
    errors: WRITE,
  }),
  // ---- utilities
  route({
    method: 'GET',
    path: '/api/v1/utilities/catalogue/',
    summary: 'Operators, data plans and billers',
    description: `${UTILITIES_DOC}`,
    tag: 'Utilities',
    operation: 'UtilityCatalogue',
    schema: s.utilityCatalogue,
    errors: LIST,
  }),
  route({
    method: 'GET',
    path: '/api/v1/utilities/requests/',
    summary: 'Your utility requests',
    description: UTILITIES_DOC,
    tag: 'Utilities',
    operation: 'UtilityRequests',
    query: s.pageQuery,
    variables: page,
    schema: s.utilityRequestPage,
    errors: LIST,
  }),
  route({
    method: 'POST',
    path: '/api/v1/utilities/airtime/',
    summary: 'Request an airtime top-up',
    description: UTILITIES_DOC,
    tag: 'Utilities',
    operation: 'RequestAirtime',
    status: 202,
    idempotent: true,
    body: s.airtimeBody,
    variables: ({ body }) => ({ operator: body.operator, phoneNumber: body.phone_number, amount: body.amount, currency: body.currency }),
    schema: s.utilityRequest,
    errors: CREATE,
  }),
  route({
    method: 'POST',
    path: '/api/v1/utilities/data/',
    summary: 'Request a data bundle',
    description: UTILITIES_DOC,
    tag: 'Utilities',
    operation: 'RequestDataBundle',
    status: 202,
    idempotent: true,
    body: s.dataBody,
    variables: ({ body }) => ({ operator: body.operator, phoneNumber: body.phone_number, planId: body.plan_id }),
    schema: s.utilityRequest,
    errors: CREATE,
  }),
  route({
    method: 'POST',
    path: '/api/v1/utilities/bills/',
    summary: 'Request a bill payment',
    description: UTILITIES_DOC,
    tag: 'Utilities',
    operation: 'RequestBillPayment',
    status: 202,
    idempotent: true,
    body: s.billBody,
    variables: ({ body }) => ({ biller: body.biller, accountNumber: body.account_number, amount: body.amount, currency: body.currency }),
    schema: s.utilityRequest,
    errors: CREATE,
  }),
  // ---- gift cards
  route({
    method: 'GET',
    path: '/api/v1/gift-cards/brands/',
    summary: 'Gift-card brands',
    description: `${GIFT_CARDS_DOC} Filters: search, country, category, currency (offers narrowed to the filter).`,
    tag: 'Gift cards',
    operation: 'GiftCardBrands',
    query: s.brandQuery,
    variables: ({ query }) => ({
      search: query.search ?? null,
      country: query.country ?? null,
      category: query.category ?? null,
      currency: query.currency ?? null,
    }),
    schema: s.brand.array(),
    errors: LIST,
  }),
  route({
    method: 'GET',
    path: '/api/v1/gift-cards/countries/',
    summary: 'Countries with gift cards, and their currencies',
    description: GIFT_CARDS_DOC,
    tag: 'Gift cards',
    operation: 'GiftCardCountries',
    schema: s.brand.shape.countries.element.pick({ country: true }).extend({ currencies: s.brand.shape.countries.element.shape.currency.array() }).array(),
    errors: LIST,
  }),
  route({
    method: 'GET',
    path: '/api/v1/gift-cards/orders/',
    summary: 'Your gift-card orders',
    description: GIFT_CARDS_DOC,
    tag: 'Gift cards',
    operation: 'GiftCardOrders',
    query: s.pageQuery,
    variables: page,
    schema: s.giftCardOrderPage,
    errors: LIST,
  }),
  route({
    method: 'POST',
    path: '/api/v1/gift-cards/orders/',
    summary: 'Order a gift card',
    description: GIFT_CARDS_DOC,
    tag: 'Gift cards',
    operation: 'OrderGiftCard',
    status: 201,
    idempotent: true,
    body: s.giftCardOrderBody,
    variables: ({ body }) => ({
      brandId: body.brand_id,
      country: body.country,
      denomination: body.denomination,
      quantity: body.quantity ?? null,
      recipientEmail: body.recipient_email ?? null,
    }),
    schema: s.giftCardOrder,
    errors: CREATE,
  }),
  // ---- disputes
  route({
    method: 'GET',
    path: '/api/v1/disputes/',
    summary: 'Your disputes',
    description: DISPUTES_DOC,
    tag: 'Disputes',
    operation: 'Disputes',
    query: s.disputeQuery,
    variables: (input) => ({ ...page(input), status: input.query.status ?? null }),
    schema: s.disputePage,
    errors: LIST,
  }),
  route({
    method: 'POST',
    path: '/api/v1/disputes/',
    summary: 'Dispute one of your transactions',
    description: `${DISPUTES_DOC} 409 \`dispute_exists\` while the transaction has an open dispute or was reversed.`,
    tag: 'Disputes',
    operation: 'OpenDispute',
    status: 201,
    idempotent: true,
    body: s.disputeBody,
    variables: ({ body }) => ({
      transactionId: body.transaction_id,
      reason: body.reason,
      description: body.description,
      attachments: ((body.attachments ?? []) as { filename: string; content_type: string; content: string }[]).map((a) => ({
        filename: a.filename,
        contentType: a.content_type,
        content: a.content,
      })),
    }),
    schema: s.dispute,
    errors: WRITE,
  }),
  route({
    method: 'GET',
    path: '/api/v1/disputes/:id/',
    summary: 'One dispute: evidence, messages, history',
    description: DISPUTES_DOC,
    tag: 'Disputes',
    operation: 'DisputeDetail',
    params: s.idParams,
    variables: ({ params }) => ({ id: params.id }),
    schema: s.dispute,
    errors: READ,
  }),
  route({
    method: 'POST',
    path: '/api/v1/disputes/:id/cancel/',
    summary: 'Cancel your open dispute',
    description: DISPUTES_DOC,
    tag: 'Disputes',
    operation: 'CancelDispute',
    params: s.idParams,
    variables: ({ params }) => ({ id: params.id }),
    schema: s.dispute,
    errors: WRITE,
  }),
  route({
    method: 'GET',
    path: '/api/v1/disputes/:id/messages/',
    summary: "The dispute's message thread",
    description: DISPUTES_DOC,
    tag: 'Disputes',
    operation: 'DisputeMessages',
    params: s.idParams,
    variables: ({ params }) => ({ id: params.id }),
    schema: s.disputeMessage.array(),
    errors: READ,
    pick: (result) => result.messages,
  }),
  route({
    method: 'POST',
    path: '/api/v1/disputes/:id/messages/',
    summary: 'Write to the support team about a dispute',
    description: `${DISPUTES_DOC} A closed dispute takes no more messages (409 \`invalid_state\`).`,
    tag: 'Disputes',
    operation: 'PostDisputeMessage',
    status: 201,
    params: s.idParams,
    body: s.messageBody,
    variables: ({ params, body }) => ({ id: params.id, body: body.body }),
    schema: s.disputeMessage,
    errors: WRITE,
  }),
  // ---- rewards
  route({
    method: 'GET',
    path: '/api/v1/rewards/',
    summary: 'Points, referral code, rules and recent movements',
    description: REWARDS_DOC,
    tag: 'Rewards',
    operation: 'RewardsSummary',
    schema: s.rewards,
    errors: LIST,
  }),
  route({
    method: 'POST',
    path: '/api/v1/rewards/referral/',
    summary: 'Name who referred you (their referral code)',
    description: `${REWARDS_DOC} Once, before your first paid order (409 \`already_referred\`, \`referral_too_late\`); never your own code.`,
    tag: 'Rewards',
    operation: 'ClaimReferral',
    body: s.referralBody,
    variables: ({ body }) => ({ code: body.code }),
    schema: s.rewards,
    errors: [403, 409, 503],
  }),
  route({
    method: 'POST',
    path: '/api/v1/rewards/redeem/',
    summary: 'Redeem points into wallet credit',
    description: `${REWARDS_DOC} One linked ledger batch: the points leave your points account, the rewards account credits your wallet. 422 \`insufficient_points\`.`,
    tag: 'Rewards',
    operation: 'RedeemRewardPoints',
    idempotent: true,
    body: s.redeemBody,
    variables: ({ body }) => ({ points: body.points, currency: body.currency }),
    schema: s.redemption,
    errors: [...CREATE, 422],
  }),
];
