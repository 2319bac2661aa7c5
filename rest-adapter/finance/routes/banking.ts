import { z } from 'zod';
import { rawBody } from '../../../lib/http';
import type { Route } from '../../core/route';
import { money } from '../schemas';
import { route } from '../operation';
import type { BankingMovementFieldsFragment, VirtualAccountFieldsFragment } from '../operations/types.generated';

/**
 * Virtual accounts, bank transfers, mobile money and the providers' webhooks (subgraph `banking`),
 * on Stripe Treasury's model: each movement is an object with a status (pending → posted | voided)
 * that follows its ledger transfer.
 */

// formats are the domain's to check (after the node's gate: a read-only node says so before anything else)
const CURRENCY = z.string().min(1).max(8);
const AMOUNT = z.string().min(1).max(40).describe('Decimal string in the currency\'s minor units, e.g. "2500.00"');

const virtualAccount = z.object({
  id: z.string().uuid(),
  currency: z.string(),
  rail: z.enum(['iban', 'nuban']).describe('iban: EUR and GBP (ISO 13616); nuban: NGN (CBN NUBAN)'),
  account_number: z.string().describe('The IBAN (electronic form) or the 10-digit NUBAN'),
  bank_code: z.string().describe('Sort code (GBP), BIC (EUR), CBN bank code (NGN)'),
  bank_name: z.string(),
  holder_name: z.string(),
  created_at: z.string().describe('ISO 8601 UTC'),
  sandbox: z.boolean().describe("true: the rail is the node's sandbox, and the account can receive a simulated incoming transfer"),
});

const movement = z.object({
  id: z.string().uuid(),
  type: z.enum(['inbound_credit', 'bank_transfer', 'mobile_money_deposit', 'mobile_money_withdrawal', 'ramp_on', 'ramp_off']),
  status: z.enum(['pending', 'posted', 'voided']).describe('pending: held in the ledger; posted: done; voided: released (failed or cancelled)'),
  amount: money,
  converted_amount: money.nullable().describe('A ramp: what is received in the other currency (at `counterparty.price`); null otherwise'),
  provider: z.string(),
  counterparty: z.record(z.string(), z.unknown()).describe('The other side: bank and account, or phone number'),
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const movementList = z.object({ results: z.array(movement), next_cursor: z.string().nullable() });

const toVirtualAccount = (a: VirtualAccountFieldsFragment) => ({
  id: a.id,
  currency: a.currency,
  rail: a.rail,
  account_number: a.accountNumber,
  bank_code: a.bankCode,
  bank_name: a.bankName,
  holder_name: a.holderName,
  created_at: a.createdAt,
  sandbox: a.sandbox,
});

const toMovement = (m: BankingMovementFieldsFragment) => ({
  id: m.id,
  type: m.kind,
  status: m.status,
  amount: m.amount,
  converted_amount: m.counterAmount,
  provider: m.provider,
  counterparty: m.counterparty,
  failure_reason: m.failureReason,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
});

const listQuery = z.object({
  cursor: z.string().max(200).optional().describe('next_cursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const mobileMoneyBody = z.object({
  amount: AMOUNT,
  currency: CURRENCY.describe('GHS, UGX, XOF or KES'),
  phone_number: z.string().min(1).max(32).describe('The wallet\'s number in international form, e.g. "+233241234567"'),
});

function movementListRoute(path: string, summary: string, kinds: string[], tag: string): Route {
  return route({
    method: 'GET',
    path,
    summary,
    description: 'Newest first; `{results, next_cursor}` (pass `cursor=<next_cursor>` for the next page).',
    tags: [tag],
    security: 'bearer',
    operation: 'BankingMovements',
    operationId: `list_${kinds.join('_')}`,
    query: listQuery,
    variables: ({ query }: { query: z.infer<typeof listQuery> }) => ({ kinds, first: query.limit, after: query.cursor ?? null }),
    response: { description: 'A page of movements', schema: movementList },
    errors: [400, 403, 503],
    respond: (data) => ({
      kind: 'json',
      body: { results: data.bankingMovements.results.map(toMovement), next_cursor: data.bankingMovements.nextCursor },
    }),
  });
}

function mobileMoneyRoute(direction: 'deposits' | 'withdrawals'): Route {
  const deposit = direction === 'deposits';
  const operation = deposit ? 'RequestMobileMoneyDeposit' : 'RequestMobileMoneyWithdrawal';
  return route({
    method: 'POST',
    path: `/api/v1/mobile-money/${direction}/`,
    summary: deposit ? 'Deposit by mobile money (request to pay)' : 'Withdraw to mobile money',
    description: deposit
      ? 'Sends a request to pay to the phone (MTN MoMo shape). The amount is pending in the wallet until the provider reports SUCCESSFUL (posted) or FAILED (voided). "Mobile money" toggle.'
      : 'Holds the amount from the wallet and pays it out to the phone; posted when the provider reports SUCCESSFUL, released when FAILED. 422 `insufficient_funds` when the available balance does not cover it.',
    tags: ['Mobile money'],
    security: 'bearer',
    operation,
    idempotent: true,
    body: mobileMoneyBody,
    variables: ({ body }: { body: z.infer<typeof mobileMoneyBody> }) => ({
      input: { amount: body.amount, currency: body.currency, phoneNumber: body.phone_number },
    }),
    response: { status: 201, description: 'The movement (status pending)', schema: movement },
    errors: [400, 403, 422, 503],
    respond: (data) => ({
      kind: 'json',
      status: 201,
      body: toMovement('requestMobileMoneyDeposit' in data ? data.requestMobileMoneyDeposit : data.requestMobileMoneyWithdrawal),
    }),
  });
}

const bankTransferBody = z.object({
  amount: AMOUNT,
  currency: CURRENCY.describe('NGN'),
  bank_code: z.string().min(1).max(6).describe("The bank's CBN code: 3 or 6 digits"),
  account_number: z.string().min(1).max(10).describe('The 10-digit NUBAN (its check digit is verified against the bank code)'),
  account_name: z.string().max(200).optional(),
  narration: z.string().max(140).optional(),
});

const rampBody = z.object({
  direction: z.string().min(1).max(3).describe('on: fiat → crypto; off: crypto → fiat'),
  fiat_currency: CURRENCY.describe('EUR, GBP, USD or NGN'),
  asset: CURRENCY.describe('BTC, ETH, USDC or USDT (8 decimals)'),
  amount: AMOUNT.describe('What is given: in the fiat currency (on) or in the asset (off)'),
});

// the provider is the domain's to check (after the node's gate)
const webhookParams = z.object({ provider: z.string().max(40).describe('iban, nuban (rails), momo (mobile money) or ramp') });

export const bankingRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/api/v1/virtual-accounts/',
    summary: 'Open a virtual account',
    description:
      'JSON `{currency}`: EUR or GBP opens an IBAN ("Virtual IBAN accounts" toggle), NGN a NUBAN ("African accounts" toggle), issued by the banking rail. ' +
      'One account per currency: 409 `virtual_account_exists` for a second. Money sent to it arrives in the wallet of that currency.',
    tags: ['Virtual accounts'],
    security: 'bearer',
    operation: 'OpenVirtualAccount',
    idempotent: true,
    body: z.object({ currency: CURRENCY.describe('EUR, GBP or NGN') }),
    variables: ({ body }: { body: { currency: string } }) => ({ currency: body.currency }),
    response: { status: 201, description: 'The account', schema: virtualAccount },
    errors: [400, 403, 409, 502, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: toVirtualAccount(data.openVirtualAccount) }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/virtual-accounts/',
    summary: "The caller's virtual accounts",
    tags: ['Virtual accounts'],
    security: 'bearer',
    operation: 'VirtualAccounts',
    response: { description: 'The accounts', schema: z.object({ results: z.array(virtualAccount) }) },
    errors: [403, 503],
    respond: (data) => ({
      kind: 'json',
      body: { results: data.bankingVirtualAccounts.map(toVirtualAccount) },
    }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/virtual-accounts/:id/simulate-incoming-transfer/',
    summary: 'Sandbox: receive a simulated incoming transfer',
    description:
      "Only while the rail is the node's sandbox (`sandbox: true` on the account; Wise's \"simulate incoming payment\"): the sandbox sends the rail's signed " +
      '`credit.received` for the account through the webhook receiver, as the rail would; the credit is posted at once. Held to the deposit limits ' +
      '(403 `limit_exceeded`); 409 `not_sandbox` with a real provider.',
    tags: ['Virtual accounts'],
    security: 'bearer',
    // a sandbox's test helper (as Stripe's and Wise's are): not part of the node's API document, which a real provider's node serves too
    documented: false,
    operation: 'SimulateIncomingTransfer',
    params: z.object({ id: z.string().uuid() }),
    body: z.object({ amount: AMOUNT }),
    variables: ({ params, body }: { params: { id: string }; body: { amount: string } }) => ({ accountId: params.id, amount: body.amount }),
    response: { status: 201, description: 'The credit (status posted)', schema: movement },
    errors: [400, 403, 404, 409, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: toMovement(data.simulateIncomingTransfer) }),
  }),
  movementListRoute('/api/v1/virtual-accounts/credits/', 'Credits received on the virtual accounts', ['inbound_credit'], 'Virtual accounts'),
  route({
    method: 'POST',
    path: '/api/v1/bank-transfers/',
    summary: 'Send a bank transfer (Nigerian rail)',
    description:
      "Holds the amount from the NGN wallet (pending) and hands the transfer to the rail; the rail's callback posts it (`transfer.succeeded`) or releases it (`transfer.failed`). " +
      'The account number must be a NUBAN valid for the bank code (check digit). "African accounts" toggle; 422 `insufficient_funds`.',
    tags: ['Bank transfers'],
    security: 'bearer',
    operation: 'SendBankTransfer',
    idempotent: true,
    body: bankTransferBody,
    variables: ({ body }: { body: z.infer<typeof bankTransferBody> }) => ({
      input: {
        amount: body.amount,
        currency: body.currency,
        bankCode: body.bank_code,
        accountNumber: body.account_number,
        accountName: body.account_name ?? null,
        narration: body.narration ?? null,
      },
    }),
    response: { status: 201, description: 'The transfer (status pending)', schema: movement },
    errors: [400, 403, 422, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: toMovement(data.sendBankTransfer) }),
  }),
  movementListRoute('/api/v1/bank-transfers/', 'Bank transfers sent', ['bank_transfer'], 'Bank transfers'),
  mobileMoneyRoute('deposits'),
  mobileMoneyRoute('withdrawals'),
  movementListRoute('/api/v1/mobile-money/', 'Mobile money deposits and withdrawals', ['mobile_money_deposit', 'mobile_money_withdrawal'], 'Mobile money'),
  route({
    method: 'POST',
    path: '/api/v1/ramps/',
    summary: 'Convert between fiat and crypto (on/off-ramp)',
    description:
      "The ramp quotes its price; the amount given and the amount received (rounded down to the received currency's units) are both held as pending ledger transfers, " +
      'posted together when the ramp reports `ramp.completed`, voided together on `ramp.failed`. "Fiat ramps" toggle; 422 `insufficient_funds`.',
    tags: ['Fiat ramps'],
    security: 'bearer',
    operation: 'CreateRamp',
    idempotent: true,
    body: rampBody,
    variables: ({ body }: { body: z.infer<typeof rampBody> }) => ({
      input: { direction: body.direction, fiatCurrency: body.fiat_currency, asset: body.asset, amount: body.amount },
    }),
    response: { status: 201, description: 'The ramp (status pending)', schema: movement },
    errors: [400, 403, 422, 502, 503],
    respond: (data) => ({ kind: 'json', status: 201, body: toMovement(data.createRamp) }),
  }),
  movementListRoute('/api/v1/ramps/', 'Fiat on/off-ramps', ['ramp_on', 'ramp_off'], 'Fiat ramps'),
  route({
    method: 'GET',
    path: '/api/v1/banking/transfers/:id/',
    summary: 'One movement (credit, bank transfer, mobile money)',
    tags: ['Bank transfers'],
    security: 'bearer',
    operation: 'BankingMovement',
    params: z.object({ id: z.string().uuid() }),
    variables: ({ params }: { params: { id: string } }) => ({ id: params.id }),
    response: { description: 'The movement', schema: movement },
    errors: [403, 404, 503],
    respond: (data) => ({ kind: 'json', body: toMovement(data.bankingMovement) }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/webhooks/banking/:provider/',
    summary: "A banking provider's webhook",
    description:
      'No bearer: the provider signs. Headers `X-Banking-Timestamp` (Unix seconds, within 5 minutes) and `X-Banking-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with BANKING_WEBHOOK_SECRET>`. ' +
      'Body `{id, type, data}`: `credit.received` (data: account_number, amount, currency, transaction_id, sender_name), `transfer.succeeded` / `transfer.failed` (data: reference, reason), ' +
      '`ramp.completed` / `ramp.failed` (provider ramp; data: reference, reason), or for `momo` the MoMo callback (data: externalId, status, reason). An event id seen before answers `duplicate` and changes nothing; a credit is applied once per transaction_id, whatever the order of deliveries. ' +
      'Bad or stale signature: 401 `webhook_signature_invalid`.',
    tags: ['Webhooks'],
    security: 'none',
    // the signature is the credential: a bearer sent along is ignored
    credentials: [],
    operation: 'ReceiveBankingWebhook',
    params: webhookParams,
    body: z
      .object({ id: z.string(), type: z.string(), data: z.record(z.string(), z.unknown()) })
      .partial()
      .passthrough(),
    variables: ({ params, req }: { params: { provider: string }; req: { headers: Record<string, string | string[] | undefined> } }) => ({
      provider: params.provider,
      payload: rawBody(req as never).toString('utf8'),
      timestamp: typeof req.headers['x-banking-timestamp'] === 'string' ? req.headers['x-banking-timestamp'] : null,
      signature: typeof req.headers['x-banking-signature'] === 'string' ? req.headers['x-banking-signature'] : null,
    }),
    response: { description: 'Received', schema: z.object({ received: z.literal(true), outcome: z.enum(['processed', 'duplicate', 'ignored']) }) },
    errors: [400, 401, 403, 503],
    respond: (data) => ({ kind: 'json', body: data.receiveBankingWebhook }),
  }),
];
