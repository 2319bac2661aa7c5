import type { Request } from 'express';
import { z } from 'zod';
import type { Route } from '../../core/route';
import { CARD_CURRENCIES, DECLINE_REASONS, ISSUER_EVENTS } from '../../../subgraphs/finance/cards/vocabulary';
import type { CardAuthorisationFieldsFragment, CardFieldsFragment } from '../operations/types.generated';
import { money } from '../schemas';
import { route } from '../operation';

/** The signature header of the providers' webhooks: `t=<unix seconds>,v1=<hex HMAC-SHA256>` (subgraphs/finance/kernel/provider-http.ts). */
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** What a provider's webhook route reads: the provider of the path, the event, the signature header. */
export type WebhookInput = { params: { provider: string }; body: Record<string, unknown>; req: Request };

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'A decimal string such as "50.00".');
const cardId = z.object({ id: z.uuid().describe("The card's id") });
export const listQuery = z.object({
  cursor: z.string().optional().describe('next_cursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(100).optional().describe('1 to 100 (default 20)'),
});

const card = z.object({
  id: z.string(),
  brand: z.string().describe('visa, mastercard, …'),
  last4: z.string(),
  masked_number: z.string().describe('•••• •••• •••• 4242: the full number only from POST …/reveal/'),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  currency: z.enum(CARD_CURRENCIES).describe('The wallet currency the card spends from'),
  status: z.enum(['active', 'frozen']),
  spending_limits: z.object({
    per_authorisation: money.nullable().describe('Largest single authorisation (null: none)'),
    daily: money.nullable().describe('Most authorised per UTC day, held and captured (null: none)'),
  }),
  created_at: z.string(),
});

const authorisation = z.object({
  id: z.string(),
  card_id: z.string(),
  issuer_authorisation_id: z.string(),
  amount: money,
  merchant: z.object({ name: z.string(), category: z.string() }),
  status: z.enum(['pending', 'captured', 'released', 'declined']).describe('pending: held on the wallet; captured: posted; released: voided'),
  decline_reason: z.enum(DECLINE_REASONS).nullable(),
  captured_amount: money.nullable(),
  created_at: z.string(),
});

const iso = (d: string) => new Date(d).toISOString();

export const cardBody = (c: CardFieldsFragment) => ({
  id: c.id,
  brand: c.brand,
  last4: c.last4,
  masked_number: c.maskedNumber,
  exp_month: c.expMonth,
  exp_year: c.expYear,
  currency: c.currency,
  status: c.status,
  spending_limits: { per_authorisation: c.perAuthorisationLimit, daily: c.dailyLimit },
  created_at: iso(c.createdAt),
});

export const authorisationBody = (a: CardAuthorisationFieldsFragment) => ({
  id: a.id,
  card_id: a.cardId,
  issuer_authorisation_id: a.providerAuthorisationId,
  amount: a.amount,
  merchant: { name: a.merchantName, category: a.merchantCategory },
  status: a.status,
  decline_reason: a.declineReason,
  captured_amount: a.capturedAmount,
  created_at: iso(a.createdAt),
});

const limitsBody = z.object({
  per_authorisation: decimal.nullable().optional().describe('Decimal string in the card currency; null removes the limit'),
  daily: decimal.nullable().optional().describe('Decimal string in the card currency; null removes the limit'),
});

// the values are checked by the domain, after the gate (read-only mode and maintenance answer first)
const issueBody = z.object({ currency: z.string().describe(`One of ${CARD_CURRENCIES.join(', ')}`), spending_limits: limitsBody.optional() });
const patchBody = z.object({ spending_limits: limitsBody.optional() });
const revealBody = z.object({
  password: z.string().min(1).max(4096).describe("The holder's password"),
  otp: z.string().max(64).optional().describe('With 2FA: a current 6-digit code, or a recovery code'),
});
type ListQuery = z.infer<typeof listQuery>;
type CardParams = z.infer<typeof cardId>;

const TAGS = ['Cards'];

/** Virtual cards (Stripe Issuing's shape): issue, list, reveal (audited), freeze, unfreeze, limits, authorisations, and the issuer's webhook. */
export const cardRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/api/v1/cards/',
    summary: 'Issue a virtual card',
    description:
      'JSON `{currency, spending_limits?: {per_authorisation, daily}}` → 201 the card, its number masked. Spends from the wallet in `currency`. Needs the KYC level the node requires (403 `kyc_required`).',
    tags: TAGS,
    security: 'bearer',
    operation: 'IssueCard',
    idempotent: true,
    body: issueBody,
    variables: ({ body }: { body: z.infer<typeof issueBody> }) => ({
      currency: body.currency,
      perAuthorisationLimit: body.spending_limits?.per_authorisation ?? null,
      dailyLimit: body.spending_limits?.daily ?? null,
    }),
    response: { status: 201, description: 'The card', schema: card },
    errors: [400, 403, 502, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: cardBody(data.issueCard) }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/cards/',
    summary: "The caller's cards",
    description: 'Newest first; cursor pagination (`?cursor=&limit=`).',
    tags: TAGS,
    security: 'bearer',
    operation: 'Cards',
    query: listQuery,
    variables: ({ query }: { query: ListQuery }) => ({ cursor: query.cursor ?? null, limit: query.limit ?? null }),
    response: { description: 'A page of cards', schema: z.object({ results: z.array(card), next_cursor: z.string().nullable() }) },
    errors: [400, 403, 503],
    respond: (data) => ({
      kind: 'json',
      body: { results: data.cards.results.map(cardBody), next_cursor: data.cards.nextCursor },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/cards/:id/',
    summary: 'One card',
    tags: TAGS,
    security: 'bearer',
    operation: 'Card',
    params: cardId,
    variables: ({ params }: { params: CardParams }) => ({ id: params.id }),
    response: { description: 'The card', schema: card },
    errors: [403, 404, 503],
    respond: (data) => ({ kind: 'json', body: cardBody(data.card) }),
  }),
  route({
    method: 'PATCH',
    path: '/api/v1/cards/:id/',
    summary: "Set a card's spend limits",
    description: 'JSON `{spending_limits: {per_authorisation, daily}}`: decimal strings in the card currency; null removes a limit, an omitted one stays.',
    tags: TAGS,
    security: 'bearer',
    operation: 'UpdateCardLimits',
    params: cardId,
    body: patchBody,
    variables: ({ params, body }: { params: CardParams; body: z.infer<typeof patchBody> }) => {
      const limits = body.spending_limits ?? {};
      return {
        id: params.id,
        perAuthorisationLimit: limits.per_authorisation ?? null,
        dailyLimit: limits.daily ?? null,
        clear: [...(limits.per_authorisation === null ? ['perAuthorisationLimit'] : []), ...(limits.daily === null ? ['dailyLimit'] : [])],
      };
    },
    response: { description: 'The card', schema: card },
    errors: [400, 403, 404, 503],
    respond: (data) => ({ kind: 'json', body: cardBody(data.updateCardLimits) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/cards/:id/reveal/',
    summary: "Reveal a card's full number and security code",
    description:
      'For the holder only, who gives the password again: JSON `{password, otp?}` (`otp`: a current code of the authenticator app, or a recovery code, ' +
      'required when the holder has 2FA). Checked by the node (not the client), throttled like sign-in. No or malformed body: 400; wrong password or code: ' +
      '403 `reauthentication_failed` (403, not 401: the access token itself is fine); 2FA on and no `otp`: 403 `otp_required`; too many wrong ' +
      'passwords: 429 `throttled` with Retry-After. Each reveal is recorded (who, when, request id, address). Never cache the answer.',
    tags: TAGS,
    security: 'bearer',
    operation: 'RevealCard',
    params: cardId,
    body: revealBody,
    variables: ({ params, body }: { params: CardParams; body: z.infer<typeof revealBody> }) => ({
      id: params.id,
      password: body.password,
      otp: body.otp ?? null,
    }),
    response: {
      description: 'The full number',
      schema: z.object({
        id: z.string(),
        number: z.string(),
        cvc: z.string().describe('The security code (CVC/CVV), asked of the card issuer at each reveal and never stored by the node'),
        exp_month: z.number().int(),
        exp_year: z.number().int(),
      }),
      headers: { 'Cache-Control': 'no-store' },
    },
    errors: [400, 403, 404, 429, 503],
    respond: (data) => ({
      kind: 'json',
      headers: { 'cache-control': 'no-store' },
      body: {
        id: data.revealCard.id,
        number: data.revealCard.number,
        cvc: data.revealCard.cvc,
        exp_month: data.revealCard.expMonth,
        exp_year: data.revealCard.expYear,
      },
    }),
  }),
  ...(['freeze', 'unfreeze'] as const).map((action) =>
    route({
      method: 'POST',
      path: `/api/v1/cards/:id/${action}/`,
      summary: action === 'freeze' ? 'Freeze a card (every authorisation is declined)' : 'Unfreeze a card',
      tags: TAGS,
      security: 'bearer',
      operation: action === 'freeze' ? 'FreezeCard' : 'UnfreezeCard',
      params: cardId,
      variables: ({ params }: { params: CardParams }) => ({ id: params.id }),
      response: { description: 'The card', schema: card },
      errors: [403, 404, 502, 503],
      respond: (data) => ({ kind: 'json', body: cardBody(data.setCardFrozen) }),
    }),
  ),
  route({
    method: 'GET',
    path: '/api/v1/cards/:id/authorisations/',
    summary: "A card's authorisations",
    description: 'Newest first; cursor pagination. pending: held on the wallet; captured: posted; released: voided; declined: with its reason.',
    tags: TAGS,
    security: 'bearer',
    operation: 'CardAuthorisations',
    params: cardId,
    query: listQuery,
    variables: ({ params, query }: { params: CardParams; query: ListQuery }) => ({
      cardId: params.id,
      cursor: query.cursor ?? null,
      limit: query.limit ?? null,
    }),
    response: { description: 'A page of authorisations', schema: z.object({ results: z.array(authorisation), next_cursor: z.string().nullable() }) },
    errors: [400, 403, 404, 503],
    respond: (data) => ({
      kind: 'json',
      body: { results: data.cardAuthorisations.results.map(authorisationBody), next_cursor: data.cardAuthorisations.nextCursor },
    }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/webhooks/cards/:provider/',
    summary: "The card issuer's webhook",
    description:
      `Events ${ISSUER_EVENTS.join(', ')} (Stripe Issuing's shape: \`{id, type, data: {authorization: {id, card, amount, currency, merchant_data}}}\`), ` +
      `signed in the \`Webhook-Signature\` header: \`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body as canonical JSON>">\`, within 5 minutes. ` +
      "A request is answered with the decision (`approved`, `decline_reason`; `limit_exceeded` past the limits of the holder's KYC level); a redelivered event is applied once. Missing, bad or stale signature: 401 `webhook_signature_invalid`.",
    tags: ['Webhooks'],
    security: 'none',
    credentials: [],
    operationId: 'cardIssuerWebhook',
    operation: 'CardIssuerWebhook',
    params: z.object({ provider: z.string().regex(/^[a-z0-9_-]{1,40}$/) }),
    body: z.record(z.string(), z.unknown()),
    variables: ({ params, body, req }: WebhookInput) => ({
      provider: params.provider,
      payload: JSON.stringify(body),
      signature: req.get(WEBHOOK_SIGNATURE_HEADER) ?? null,
    }),
    response: {
      description: 'The decision',
      schema: z.object({ approved: z.boolean(), decline_reason: z.enum(DECLINE_REASONS).nullable(), authorisation }),
    },
    errors: [400, 401, 404, 409, 503],
    respond: (data) => ({
      kind: 'json',
      body: {
        approved: data.receiveCardIssuerEvent.approved,
        decline_reason: data.receiveCardIssuerEvent.declineReason,
        authorisation: authorisationBody(data.receiveCardIssuerEvent.authorisation),
      },
    }),
  }),
];
