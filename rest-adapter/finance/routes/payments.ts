import { z } from 'zod';
import type { Route } from '../../core/route';
import { LIMITS_DESCRIPTION, STATEMENT_DIRECTIONS, STATEMENT_STATUSES } from '../../../subgraphs/finance/ledger/vocabulary';
import { FX_FEE_BPS, FX_QUOTE_TTL_SECONDS, NOTE_MAX_LENGTH } from '../../../subgraphs/finance/payments/vocabulary';
import { money } from '../schemas';
import { route, type ResultOf } from '../operation';
import type { StatementLineFragment } from '../operations/types.generated';

/**
 * Money movement on the :8000 surface (Wise's transfers and quotes, Stripe Treasury's transactions):
 * transfers between users, the caller's accounts and transactions with receipts, FX quotes and
 * conversions. Every money-moving POST is idempotent (Idempotency-Key).
 */

const line = (l: StatementLineFragment) => ({
  id: l.id,
  account_id: l.accountId,
  direction: l.direction,
  code: l.code,
  status: l.status,
  amount: l.amount,
  description: l.description,
  note: l.note,
  counterparty: l.counterparty,
  created_at: l.createdAt,
  settled_at: l.settledAt,
});

const transactionLine = z.object({
  id: z.string().describe('Transaction id (a ledger transfer id)'),
  account_id: z.string().describe('The account of yours it moved'),
  direction: z.enum(['debit', 'credit']).describe('debit: money out of the account; credit: money in'),
  code: z.string().describe('transfer, fx_sell, fx_buy, fx_fee, deposit, card_authorisation…'),
  status: z.enum(['posted', 'pending', 'voided', 'expired']),
  amount: money,
  description: z.string().nullable(),
  note: z.string().nullable().describe("The sender's note"),
  counterparty: z.string().nullable().describe('The other party: a user name, a bank, a merchant'),
  created_at: z.string().describe('ISO 8601 UTC'),
  settled_at: z.string().nullable().describe('When it was posted, voided or expired (ISO 8601 UTC)'),
});

const phoneState = z.object({
  username: z.string(),
  phone: z.string().nullable().describe('E.164; null when cleared'),
  verified: z.boolean().describe('Only verified numbers receive transfers'),
  code_expires_at: z.string().nullable().describe('When the code just sent expires (ISO 8601 UTC); null when none was sent'),
});
/** SetPhone's answer (VerifyPhone's has no code expiry). */
const phoneBody = (p: ResultOf<'SetPhone'>['setMyPhone'] | ResultOf<'VerifyPhone'>['verifyMyPhone']) => ({
  username: p.username,
  phone: p.phone,
  verified: p.verified,
  code_expires_at: 'codeExpiresAt' in p ? p.codeExpiresAt : null,
});

const transferBody = z.object({
  recipient: z.string().min(1).max(254).describe('The recipient: user name, e-mail address or E.164 phone number ("+447911123456")'),
  amount: z.string().describe('Decimal string, e.g. "10.50", at most the currency\'s decimals'),
  currency: z.string().describe('ISO 4217 code'),
  note: z.string().max(NOTE_MAX_LENGTH).nullish().describe(`Shown to both parties (at most ${NOTE_MAX_LENGTH} characters)`),
});
const transferResponse = z.object({
  id: z.string().describe('The transaction id (see its receipt)'),
  status: z.literal('posted'),
  amount: money,
  sender: z.string(),
  recipient: z.string().describe("The recipient's user name"),
  note: z.string().nullable(),
  created_at: z.string(),
});

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/, 'An ISO 8601 date or date-time with its offset.')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'An ISO 8601 date or date-time.');
const transactionsQuery = z.object({
  account: z.string().uuid().optional().describe('One of your account ids (GET /api/v1/accounts/); default: all of them'),
  from: isoDate.optional().describe('Created at or after (ISO 8601; a date means 00:00 UTC)'),
  to: isoDate.optional().describe('Created before (ISO 8601; a date means 00:00 UTC)'),
  direction: z.enum(STATEMENT_DIRECTIONS).optional().describe('debit: only money out; credit: only money in'),
  status: z.enum(STATEMENT_STATUSES).optional().describe('Only the lines in this state'),
  cursor: z.string().max(200).optional().describe('next_cursor of the previous page (pass the same filters again)'),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Page size, 1–200 (default 50)'),
});

const periodQuery = z.object({
  from: isoDate.describe('The start of the period, included (ISO 8601; a date means 00:00 UTC)'),
  to: isoDate.describe('The end of the period, excluded (ISO 8601; a date means 00:00 UTC)'),
  account: z.string().uuid().optional().describe('One of your account ids; default: all of them'),
});
const quoteBody = z.object({
  source_currency: z.string().describe('The currency you sell (ISO 4217)'),
  target_currency: z.string().describe('The currency you buy'),
  source_amount: z.string().describe('Decimal string: what leaves your source account, fee included'),
});
const quoteResponse = z.object({
  id: z.string(),
  source_amount: money.describe('Debited from your source account, fee included'),
  target_amount: money.describe('Credited to your target account'),
  fee: money.describe('In the source currency, included in source_amount'),
  rate: z.string().describe('Target units per source unit (decimal string)'),
  expires_at: z.string().describe(`The quote holds for ${FX_QUOTE_TTL_SECONDS} s`),
  created_at: z.string(),
});
const conversionResponse = quoteResponse.omit({ expires_at: true }).extend({
  id: z.string().describe('The transaction id of the source leg (its receipt)'),
  quote_id: z.string(),
  status: z.literal('completed'),
});

const quoteOut = (q: ResultOf<'CreateFxQuote'>['createFxQuote']) => ({
  id: q.id,
  source_amount: q.source,
  target_amount: q.target,
  fee: q.fee,
  rate: q.rate,
  expires_at: q.expiresAt,
  created_at: q.createdAt,
});

const ISO = (s: string | undefined) => (s === undefined ? null : new Date(s).toISOString());

const recipientQuery = z.object({ reference: z.string().min(1).max(254).describe('User name, e-mail address or E.164 phone number') });

export const paymentsRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/api/v1/transfers/recipient/',
    summary: 'Who a transfer would go to',
    description:
      'For the send confirmation: the user name `reference` (a user name, e-mail or phone) resolves to, and whether that user is verified; no id, ' +
      'e-mail or phone is revealed. 404 `recipient_not_found`; 400 for your own account. Every look-up counts against an allowance per user ' +
      '(30 an hour), past it 429 `throttled` with Retry-After, so users cannot be enumerated.',
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'TransferRecipient',
    query: recipientQuery,
    variables: ({ query }: { query: z.infer<typeof recipientQuery> }) => ({ reference: query.reference }),
    response: { description: 'The recipient', schema: z.object({ username: z.string(), verified: z.boolean() }), headers: { 'Cache-Control': 'no-store' } },
    errors: [400, 404, 429, 503],
    respond: (data) => ({
      kind: 'json',
      headers: { 'cache-control': 'no-store' },
      body: data.transferRecipient,
    }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/transfers/',
    summary: 'Send money to another user of the node',
    description:
      'JSON `{recipient, amount, currency, note?}`: posted at once from your wallet to theirs. The recipient is named by user name, e-mail or phone. ' +
      '404 `recipient_not_found`; 422 `insufficient_funds` when your available balance is short; 403 `kyc_required` below the level the node requires. ' +
      LIMITS_DESCRIPTION,
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'CreateTransfer',
    idempotent: true,
    body: transferBody,
    variables: ({ body }: { body: z.infer<typeof transferBody> }) => ({
      recipient: body.recipient,
      amount: body.amount,
      currency: body.currency,
      note: body.note ?? null,
    }),
    response: { status: 201, description: 'The transfer', schema: transferResponse },
    errors: [403, 404, 503],
    respond: (data) => {
      const { createdAt, ...t } = data.createTransfer;
      return { kind: 'json', status: 201, body: { ...t, created_at: createdAt } };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v1/accounts/',
    summary: 'Your accounts, one per currency',
    description: 'Each account with its balances: available (what you can spend), posted, and pending (posted plus what is pending both ways).',
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'Accounts',
    response: {
      description: 'Accounts',
      schema: z.object({
        results: z.array(z.object({ id: z.string(), currency: z.string(), type: z.literal('wallet'), available: money, posted: money, pending: money })),
      }),
    },
    errors: [403, 503],
    respond: (data) => ({
      kind: 'json',
      body: {
        results: data.balances.map((b) => ({
          id: b.accountId,
          currency: b.currency,
          type: 'wallet',
          available: b.available,
          posted: b.posted,
          pending: b.pending,
        })),
      },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/transactions/',
    summary: 'Your transactions, newest first',
    description:
      'Every movement of your accounts (transfers, conversions, deposits, card payments…), one line per account it moved, cursor-paginated: pass `next_cursor` as `cursor` (with the same filters) for the next page. ' +
      'Filters: `account`, `from`/`to`, `direction` (debit, credit) and `status` (posted, pending, voided, expired), applied by the node; an unknown value is 400.',
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'Transactions',
    query: transactionsQuery,
    variables: ({ query }: { query: z.infer<typeof transactionsQuery> }) => ({
      account: query.account ?? null,
      from: ISO(query.from),
      to: ISO(query.to),
      cursor: query.cursor ?? null,
      limit: query.limit,
      direction: query.direction ?? null,
      status: query.status ?? null,
    }),
    response: { description: 'A page of transactions', schema: z.object({ results: z.array(transactionLine), next_cursor: z.string().nullable() }) },
    errors: [400, 403, 503],
    respond: (data) => ({
      kind: 'json',
      body: { results: data.ledgerStatement.results.map(line), next_cursor: data.ledgerStatement.nextCursor },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/statements/',
    summary: 'A statement for a period: opening and closing balances',
    description:
      'Per account of yours (or `account`), the posted balance at `from` (opening), the money in and out within [from, to) and the balance at `to` ' +
      '(closing = opening + in − out). Pending holds are not money moved yet and are not counted. The lines are GET /api/v1/transactions/ with the same ' +
      '`from` and `to`. `from` not before `to`: 400.',
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'PeriodStatement',
    query: periodQuery,
    variables: ({ query }: { query: z.infer<typeof periodQuery> }) => ({
      from: new Date(query.from).toISOString(),
      to: new Date(query.to).toISOString(),
      account: query.account ?? null,
    }),
    response: {
      description: 'The period and each account’s balances',
      schema: z.object({
        from: z.string(),
        to: z.string(),
        accounts: z.array(
          z.object({ account_id: z.string(), currency: z.string(), opening_balance: money, money_in: money, money_out: money, closing_balance: money }),
        ),
      }),
    },
    errors: [400, 503],
    respond: (data, { query }: { query: z.infer<typeof periodQuery> }) => ({
      kind: 'json',
      body: {
        from: ISO(query.from)!,
        to: ISO(query.to)!,
        accounts: data.ledgerPeriodStatement.map((b) => ({
          account_id: b.accountId,
          currency: b.currency,
          opening_balance: b.opening,
          money_in: b.moneyIn,
          money_out: b.moneyOut,
          closing_balance: b.closing,
        })),
      },
    }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/transactions/:id/receipt/',
    summary: 'The receipt of one of your transactions',
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'TransactionReceipt',
    params: z.object({ id: z.string().describe('Transaction id') }),
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { description: 'The receipt', schema: transactionLine },
    errors: [403, 404, 503],
    respond: (data) => ({ kind: 'json', body: line(data.ledgerReceipt) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/fx/quotes/',
    summary: 'Quote a currency conversion',
    description: `JSON \`{source_currency, target_currency, source_amount}\`: the rate, the fee (${Number(FX_FEE_BPS) / 100} % of the source amount) and both amounts, fixed for ${FX_QUOTE_TTL_SECONDS} s. Convert it with POST /api/v1/fx/conversions/.`,
    tags: ['FX'],
    security: 'bearer',
    operation: 'CreateFxQuote',
    body: quoteBody,
    variables: ({ body }: { body: z.infer<typeof quoteBody> }) => ({
      sourceCurrency: body.source_currency,
      targetCurrency: body.target_currency,
      sourceAmount: body.source_amount,
    }),
    response: { status: 201, description: 'The quote', schema: quoteResponse },
    errors: [403, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: quoteOut(data.createFxQuote) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/fx/conversions/',
    summary: 'Convert at a quote',
    description:
      'JSON `{quote_id}`: one atomic ledger movement (source amount out, fee to the node, target amount in). A quote converts once: 409 `quote_used`; ' +
      'past its expiry: 422 `quote_expired`; 404 `quote_not_found`; 422 `insufficient_funds` when the source balance is short. ' +
      LIMITS_DESCRIPTION,
    tags: ['FX'],
    security: 'bearer',
    operation: 'CreateFxConversion',
    idempotent: true,
    body: z.object({ quote_id: z.string().describe('From POST /api/v1/fx/quotes/') }),
    variables: ({ body }: { body: { quote_id: string } }) => ({ quoteId: body.quote_id }),
    response: { status: 201, description: 'The conversion', schema: conversionResponse },
    errors: [403, 404, 503],
    respond: (data) => {
      const c = data.createFxConversion;
      return {
        kind: 'json',
        status: 201,
        body: {
          id: c.id,
          quote_id: c.quoteId,
          status: c.status,
          source_amount: c.source,
          target_amount: c.target,
          fee: c.fee,
          rate: c.rate,
          created_at: c.createdAt,
        },
      };
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v1/profile/phone/',
    summary: 'Set or clear your phone number',
    description:
      'JSON `{phone}`: a number with its country code (kept as E.164), or null to clear it (200). A new number is pending: a 6-digit code goes to it by SMS ' +
      'and the answer is 202 `{phone, verified: false, code_expires_at}` (10 minutes); POST /api/v1/profile/phone/verify/ with the code verifies it. Only ' +
      'verified numbers receive transfers; a pending claim blocks nobody. Your number already verified answers 200 `{verified: true}`. 409 when another ' +
      'user has the number verified; 429 (Retry-After) past one code a minute or five a day.',
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'SetPhone',
    body: z.object({ phone: z.string().max(40).nullable().describe('E.164, e.g. "+447911123456"') }),
    variables: ({ body }: { body: { phone: string | null } }) => ({ phone: body.phone }),
    response: {
      status: 202,
      description: 'A code was sent to the number (pending)',
      schema: phoneState,
      otherStatuses: { 200: 'Cleared (phone null), or your number already verified' },
    },
    errors: [400, 403, 409, 429, 503],
    respond: (data) => ({
      kind: 'json',
      status: data.setMyPhone.codeExpiresAt ? 202 : 200,
      body: phoneBody(data.setMyPhone),
    }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/profile/phone/verify/',
    summary: 'Verify your phone number',
    description:
      'JSON `{code}`: the 6-digit code sent to your pending number → 200 `{username, phone, verified: true}`; from then on transfers can name you by it, ' +
      "and other users' pending claims of the number are dropped. A wrong code: 400 with `fields.code`; an expired one (10 minutes): 400 `code_expired`; " +
      'each code works once. Five guesses per code, from any number of addresses: the fifth wrong one ends the code; every later guess answers 429 with ' +
      'Retry-After (ask for a new code). 409 when another user verified the number first.',
    tags: ['Transfers'],
    security: 'bearer',
    operation: 'VerifyPhone',
    body: z.object({ code: z.string().max(20).describe('The 6 digits of the text message') }),
    variables: ({ body }: { body: { code: string } }) => ({ code: body.code }),
    response: { description: 'Verified', schema: z.object({ username: z.string(), phone: z.string(), verified: z.literal(true) }) },
    errors: [400, 403, 409, 429],
    respond: (data) => ({
      kind: 'json',
      body: { username: data.verifyMyPhone.username, phone: data.verifyMyPhone.phone, verified: data.verifyMyPhone.verified },
    }),
  }),
];
