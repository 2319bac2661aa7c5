import { randomUUID } from 'node:crypto';
import { financeOpenApi, financeSurface } from '../../../../rest-adapter/finance';
import { TOGGLES } from '../../../../subgraphs/finance/kernel/contract';
import { NODE_STATE_CHANGED } from '../../../../subgraphs/finance/kernel/gate';
import { type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { generate as totpGenerate } from 'otplib';
import { signWebhook } from '../../../../subgraphs/finance/kernel/provider-http';
import { signPayload } from '../../../../subgraphs/finance/banking/domain/providers';
import { adminPost, adminSignIn, changeNode, createUser, licenceKeys, licenceToken, login, PASSWORD, type AdminSession } from '../../../support/finance/node';
import { startProviders, type Providers } from '../../../support/finance/investing';
import { postWebhook } from '../../../support/finance/money-modules';
import { startMoneyProviders } from '../../../support/finance/money-providers';
import { startBankingProvider } from '../../../support/finance/banking-provider';
import { LocalSumsub, signedWebhook } from '../../../support/finance/sumsub';
import { startAssistantProvider } from '../../../support/finance/assistant';
import { LICENCE_KEY as LOCAL_LICENCE_KEY, LocalRegistry } from '../../../support/finance/local-registry';
import { smsCodeTo } from '../../../support/finance/phone';
import { RECIPIENT_LOOKUPS } from '../../../../subgraphs/finance/payments/domain/transfers';
import type { CaseContext, Recipe, ReplayRequest, SurfaceFixture } from './replay';
import { objectStoreFor } from '../../../../lib/object-store';
import { LOGO_MAX_BYTES, LOGO_UPLOAD_PREFIX } from '../../../../subgraphs/finance/node/contract';

/**
 * The finance node's part of the conformance replay: a signed-in user with money on the ledger, an
 * enrolment-only token (what a bearer route refuses with 403), the admin console's session (cookie and
 * CSRF token), a valid licence and every module switched on; the objects the routes with an id need.
 */

interface FinanceState {
  token: string;
  userId: string;
  /** A token that only allows enrolling in 2FA: every other bearer route answers 403. */
  enrolToken: string;
  session: AdminSession;
  card: string;
  verification: string;
  product: string;
  transaction: string;
  [key: string]: unknown;
}

const stateOf = (ctx: CaseContext) => ctx.state as unknown as FinanceState;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function json(method: string, path: string, headers: Record<string, string>, body?: unknown): ReplayRequest {
  if (body === undefined) return { method, path, headers };
  return { method, path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
const as = (ctx: CaseContext, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
  json(method, path, { ...bearer(stateOf(ctx).token), ...extra }, body);
const idem = () => ({ 'idempotency-key': randomUUID() });

/** An admin console form, with the session's CSRF token. */
function form(ctx: CaseContext, path: string, fields: Record<string, string> = {}): ReplayRequest {
  const { session } = stateOf(ctx);
  return {
    method: 'POST',
    path,
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, csrfmiddlewaretoken: session.csrf }).toString(),
    redirect: true,
  };
}

/** A request straight to the system (not replayed): what a recipe needs to exist first. */
async function call(t: TestApp, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await http(`${t.urls.finance}${path}`, {
    method,
    key: token,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res;
}

async function must(what: string, res: { status: number; body: any }, status: number) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const KYC_APP_TOKEN = 'sbx:conformance-app-token';
const KYC_SECRET_KEY = 'conformance-secret-key-for-request-signatures';
const KYC_WEBHOOK_SECRET = 'conformance-webhook-secret-0123456789';
const BANKING_WEBHOOK_SECRET = 'whsec_conformance_0123456789abcdef';
const BANKING_API_KEY = 'sk_conformance_banking';

const reviewed = (applicantId: string, answer: Record<string, unknown>) => ({
  applicantId,
  inspectionId: 'insp-1',
  correlationId: `corr-${randomUUID()}`,
  levelName: 'basic-kyc-level',
  type: 'applicantReviewed',
  reviewStatus: 'completed',
  createdAtMs: new Date().toISOString(),
  reviewResult: answer,
});

function bankingWebhook(provider: string, event: unknown, secret = BANKING_WEBHOOK_SECRET): ReplayRequest {
  const body = JSON.stringify(event);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    method: 'POST',
    path: `/api/v1/webhooks/banking/${provider}/`,
    headers: { 'content-type': 'application/json', 'x-banking-timestamp': timestamp, 'x-banking-signature': `v1=${signPayload(secret, timestamp, body)}` },
    body,
  };
}

/** The smallest file the node recognises as a PDF (its first bytes), and the fixture's document size limit. */
const PDF = '%PDF-1.4\n%conformance\n';
const KYC_DOCUMENT_MAX_BYTES = 64 * 1024;

/** A binary document upload (the file as the body) to a verification of the KYC user. */
function upload(ctx: CaseContext, verification: string, opts: { body?: string; contentType?: string } = {}): ReplayRequest {
  return {
    method: 'POST',
    path: `/api/v1/kyc/verifications/${verification}/documents/upload/?kind=passport`,
    headers: { ...bearer(stateOf(ctx).kycToken as string), ...idem(), 'content-type': opts.contentType ?? 'application/pdf' },
    body: opts.body ?? PDF,
  };
}

function signed(_ctx: CaseContext, path: string, secret: string, event: unknown): ReplayRequest {
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'webhook-signature': signWebhook(secret, event) },
    body: JSON.stringify(event),
  };
}

/** A WebP by its first bytes, all of them ASCII (a replayed body is a string): RIFF, a size, WEBP. */
const WEBP = 'RIFF    WEBPVP8 conformance logo';
function logoUpload(ctx: CaseContext, opts: { body?: string; contentType?: string; csrf?: boolean } = {}): ReplayRequest {
  const { session } = stateOf(ctx);
  return {
    method: 'POST',
    path: '/admin/node/branding/logo/',
    headers: { cookie: session.cookie, ...(opts.csrf === false ? {} : { 'x-csrftoken': session.csrf }), 'content-type': opts.contentType ?? 'image/webp' },
    body: opts.body ?? WEBP,
  };
}
/** The node with a logo (GET /api/v1/config/logo/ 200), or without (404). */
async function withLogo(ctx: CaseContext, present: boolean): Promise<ReplayRequest> {
  const node = ctx.t.app.services.node.node;
  if (present) {
    const key = `${LOGO_UPLOAD_PREFIX}${randomUUID()}`;
    await objectStoreFor(ctx.t.config).put(key, Buffer.from(WEBP, 'latin1'), { contentType: 'image/webp' });
    await node.uploadLogo(key, 'admin:conformance');
  } else await node.updateBranding({ logo_url: '' }, 'admin:conformance');
  return { method: 'GET', path: '/api/v1/config/logo/', headers: {} };
}

const totp = (secret: string) => totpGenerate({ secret });

/** A new user at a KYC level, signed in, with money (the cases that change a user's state once). */
async function freshToken(ctx: CaseContext, level: 'none' | 'basic' = 'none'): Promise<string> {
  const user = await createUser(ctx.t);
  if (level !== 'none') await ctx.t.app.services.identity.identity.setKycLevel(user.id, level);
  await ctx.t.app.services.ledger.ledger.fund(user.id, 'EUR', 100_00n, randomUUID());
  return login(ctx.t, user.username);
}

/** A number nobody has (every 07400 xxxxxx is a valid UK mobile). */
const freshPhone = () => `+447400${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;

/** A new user whose new number waits for its code (read from the sandbox SMS outbox). */
async function pendingPhone(ctx: CaseContext): Promise<{ token: string; code: string; phone: string }> {
  const token = await freshToken(ctx);
  const phone = freshPhone();
  await must('set phone', await call(ctx.t, token, 'PUT', '/api/v1/profile/phone/', { phone }), 202);
  return { token, code: await smsCodeTo(ctx.t, phone), phone };
}

/** A verification submitted by a new user, waiting for its review. */
async function submittedVerification(ctx: CaseContext): Promise<string> {
  const token = await freshToken(ctx);
  const created = (
    await must('verification', await call(ctx.t, token, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Alan', last_name: 'Turing' }), 201)
  ).id;
  await must('document', await call(ctx.t, token, 'POST', `/api/v1/kyc/verifications/${created}/documents/`, { kind: 'passport', content_base64: PNG }), 201);
  await must('submit', await call(ctx.t, token, 'POST', `/api/v1/kyc/verifications/${created}/submit/`), 200);
  return created;
}

/** A document of a verification waiting for review. */
async function kycDocument(ctx: CaseContext): Promise<string> {
  const token = await freshToken(ctx);
  const created = (
    await must('verification', await call(ctx.t, token, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Alan', last_name: 'Turing' }), 201)
  ).id;
  return (
    await must('document', await call(ctx.t, token, 'POST', `/api/v1/kyc/verifications/${created}/documents/`, { kind: 'passport', content_base64: PNG }), 201)
  ).id as string;
}

const cardsWebhook = (ctx: CaseContext) => `/api/v1/webhooks/cards/${ctx.t.app.services.cards.issuer.name}/`;
const cryptoWebhook = (ctx: CaseContext) => `/api/v1/webhooks/crypto/${ctx.t.app.services.crypto.exchange.name}/`;

async function newCard(ctx: CaseContext): Promise<string> {
  return (await must('card', await call(ctx.t, stateOf(ctx).token, 'POST', '/api/v1/cards/', { currency: 'EUR' }, idem()), 201)).id;
}

async function cryptoQuote(ctx: CaseContext): Promise<string> {
  const quote = await call(ctx.t, stateOf(ctx).token, 'POST', '/api/v1/crypto/quotes/', { from_asset: 'BTC', to_asset: 'USDC', from_amount: '0.00010000' });
  return (await must('crypto quote', quote, 201)).id;
}

async function fxQuote(ctx: CaseContext): Promise<string> {
  const quote = await call(ctx.t, stateOf(ctx).token, 'POST', '/api/v1/fx/quotes/', { source_currency: 'EUR', target_currency: 'USD', source_amount: '1.00' });
  return (await must('fx quote', quote, 201)).id;
}

/** A line of the user's cart (the product added again). */
async function cartLine(ctx: CaseContext): Promise<string> {
  const cart = await call(ctx.t, stateOf(ctx).token, 'POST', '/api/v1/shop/cart/items/', { product_id: stateOf(ctx).product, quantity: 1 });
  return (await must('cart', cart, 201)).items[0].id;
}

/** A pending order of one product. */
async function shopOrder(ctx: CaseContext): Promise<string> {
  await cartLine(ctx);
  return (await must('checkout', await call(ctx.t, stateOf(ctx).token, 'POST', '/api/v1/shop/checkout/'), 201)).id;
}

async function paidOrder(ctx: CaseContext): Promise<string> {
  const order = await shopOrder(ctx);
  const paid = await must('pay', await call(ctx.t, stateOf(ctx).token, 'POST', `/api/v1/shop/orders/${order}/pay/`), 200);
  ctx.state.lastPayment = paid.payment_transaction_id;
  return order;
}

async function paidTransaction(ctx: CaseContext): Promise<string> {
  await paidOrder(ctx);
  return ctx.state.lastPayment as string;
}

/** The open dispute of the replay (`fresh`: a new one, for the cases that move it on). */
async function dispute(ctx: CaseContext, fresh = false): Promise<string> {
  if (!fresh && ctx.state.dispute) return ctx.state.dispute as string;
  const opened = await call(ctx.t, stateOf(ctx).token, 'POST', '/api/v1/disputes/', {
    transaction_id: await paidTransaction(ctx),
    reason: 'duplicate',
    description: 'Charged twice for it.',
  });
  const created = (await must('dispute', opened, 201)).id as string;
  if (!fresh) ctx.state.dispute = created;
  return created;
}

async function cancelledDispute(ctx: CaseContext): Promise<string> {
  const created = await dispute(ctx, true);
  await must('cancel dispute', await call(ctx.t, stateOf(ctx).token, 'POST', `/api/v1/disputes/${created}/cancel/`), 200);
  return created;
}

async function reviewedDispute(ctx: CaseContext): Promise<string> {
  const created = await dispute(ctx, true);
  const { session } = stateOf(ctx);
  await adminPost(ctx.t, session, `/admin/commerce/dispute/${created}/review/`, {});
  return created;
}

/** An investing order that the brokerage has not filled (cancelable). */
async function placedOrder(ctx: CaseContext): Promise<{ order: string; clientOrderId: string }> {
  const clientOrderId = randomUUID();
  const order = await call(
    ctx.t,
    stateOf(ctx).token,
    'POST',
    '/api/v1/orders/',
    { symbol: 'AAPL', side: 'buy', type: 'limit', qty: '1', limit_price: '100.00', client_order_id: clientOrderId },
    idem(),
  );
  return { order: (await must('investing order', order, 201)).id, clientOrderId };
}
const openOrder = async (ctx: CaseContext) => (await placedOrder(ctx)).order;

/** A value of the brokerage's peer that fails whoever reads it (the peer answers 500). */
const failing = () => {
  const fail = (): never => {
    throw new Error('the brokerage is down');
  };
  return Object.defineProperties({} as { bid: string; ask: string; get: () => never }, {
    bid: { get: fail, enumerable: true },
    ask: { get: fail, enumerable: true },
    symbol: { get: fail, enumerable: true },
    get: { value: fail },
  });
};

/** Switches the node's brokerage provider (its instruments synchronised). */
async function brokerage(ctx: CaseContext, provider: string): Promise<void> {
  await changeNode(ctx.t, () => ctx.t.app.services.node.node.updateSettings({ brokerage_provider: provider }, 'test'));
  if (provider === 'decentralized_exchange') await ctx.t.app.services.investing.investing.syncInstruments({ provider: 'dex', trigger: 'test' });
}

async function providerCredential(ctx: CaseContext): Promise<string> {
  const saved = await ctx.t.app.services.node.node.saveProviderCredential(
    { provider: 'banking', name: `gone-${randomUUID().slice(0, 6)}`, secret: 'sk_x' },
    'test',
  );
  return saved.id;
}

/** A bank transfer that the provider has not answered: a pending banking movement, holding a pending ledger transfer. */
async function bankTransfer(ctx: CaseContext): Promise<string> {
  const res = await call(
    ctx.t,
    stateOf(ctx).token,
    'POST',
    '/api/v1/bank-transfers/',
    { amount: '1.00', currency: 'NGN', bank_code: '011', account_number: '0000014579', account_name: 'Ada Obi' },
    idem(),
  );
  return (await must('bank transfer', res, 201)).id;
}

async function pendingMovement(ctx: CaseContext): Promise<string> {
  return bankTransfer(ctx);
}

async function pendingTransfer(ctx: CaseContext): Promise<string> {
  await bankTransfer(ctx);
  const page = await http(`${ctx.t.urls.finance}/admin/ledger/pending/`, { headers: { cookie: stateOf(ctx).session.cookie } });
  const found = [...String(page.body).matchAll(/\/admin\/ledger\/pending\/([0-9a-f-]{36})\/void\//g)].map((m) => m[1]);
  if (!found.length) throw new Error('no pending ledger transfer');
  return found[0];
}

/** The settings form as the editor shows them now (a form leaves a switch that it does not send off). */
const settingsForm = (ctx: CaseContext) => stateOf(ctx).settingsForm as Record<string, string>;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR passport scan')]).toString('base64');
const ABSENT = '00000000-0000-4000-8000-000000000000';
const kycAs = (ctx: CaseContext, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
  json(method, path, { ...bearer(stateOf(ctx).kycToken as string), ...extra }, body);
const id = (ctx: CaseContext, name: string) => stateOf(ctx)[name] as string;
const submitterAs = (ctx: CaseContext, method: string, path: string, body?: unknown) => json(method, path, bearer(id(ctx, 'kycToken2')), body);

/** The success request of each route that the route table alone cannot make (a body, an id). */
const success: Record<string, Recipe['request']> = {
  'POST /api/login/': (ctx) => json('POST', '/api/login/', {}, { username: stateOf(ctx).username, password: PASSWORD }),
  'POST /api/auth/2fa/enrol/': async (ctx) => json('POST', '/api/auth/2fa/enrol/', bearer(await freshToken(ctx)), { current_password: PASSWORD }),
  'POST /api/auth/2fa/confirm/': async (ctx) => {
    const secret = id(ctx, 'totpSecret');
    return json('POST', '/api/auth/2fa/confirm/', bearer(id(ctx, 'enrolUserToken')), { otp: await totp(secret) });
  },
  'POST /api/assistant/': (ctx) => as(ctx, 'POST', '/api/assistant/', { question: 'What is a virtual IBAN?' }),
  'POST /api/v1/kyc/verifications/': async (ctx) =>
    json('POST', '/api/v1/kyc/verifications/', bearer(await freshToken(ctx)), {
      level: 'basic',
      first_name: 'Grace',
      last_name: 'Hopper',
    }),
  'POST /api/v1/kyc/verifications/:id/documents/': (ctx) =>
    kycAs(ctx, 'POST', `/api/v1/kyc/verifications/${id(ctx, 'verification')}/documents/`, { kind: 'passport', content_base64: PNG }, idem()),
  'POST /api/v1/kyc/verifications/:id/documents/upload/': (ctx) => upload(ctx, id(ctx, 'verification')),
  'POST /api/v1/kyc/verifications/:id/submit/': async (ctx) => {
    // a verification with its document, not submitted yet
    const token = await freshToken(ctx);
    const created = await call(ctx.t, token, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Ada', last_name: 'Lovelace' });
    await call(ctx.t, token, 'POST', `/api/v1/kyc/verifications/${created.body.id}/documents/`, { kind: 'passport', content_base64: PNG });
    ctx.state.submitToken = token;
    return json('POST', `/api/v1/kyc/verifications/${created.body.id}/submit/`, bearer(token));
  },
  'POST /api/v1/webhooks/kyc/:provider/': (ctx) => {
    const { body, headers } = signedWebhook(KYC_WEBHOOK_SECRET, reviewed(id(ctx, 'applicant'), { reviewAnswer: 'GREEN' }));
    return { method: 'POST', path: '/api/v1/webhooks/kyc/sumsub/', headers, body };
  },
  'POST /api/v1/virtual-accounts/': async (ctx) => json('POST', '/api/v1/virtual-accounts/', bearer(await freshToken(ctx, 'basic')), { currency: 'EUR' }),
  'POST /api/v1/bank-transfers/': (ctx) =>
    as(
      ctx,
      'POST',
      '/api/v1/bank-transfers/',
      { amount: '10.00', currency: 'NGN', bank_code: '011', account_number: '0000014579', account_name: 'Ada Obi' },
      idem(),
    ),
  'POST /api/v1/mobile-money/deposits/': (ctx) =>
    as(ctx, 'POST', '/api/v1/mobile-money/deposits/', { amount: '50.00', currency: 'GHS', phone_number: '+233241234567' }, idem()),
  'POST /api/v1/mobile-money/withdrawals/': (ctx) =>
    as(ctx, 'POST', '/api/v1/mobile-money/withdrawals/', { amount: '5.00', currency: 'GHS', phone_number: '+233241234567' }, idem()),
  'POST /api/v1/ramps/': (ctx) => as(ctx, 'POST', '/api/v1/ramps/', { direction: 'on', fiat_currency: 'EUR', asset: 'BTC', amount: '20.00' }, idem()),
  'GET /api/v1/banking/transfers/:id/': (ctx) => as(ctx, 'GET', `/api/v1/banking/transfers/${id(ctx, 'bankTransfer')}/`),
  'POST /api/v1/webhooks/banking/:provider/': (ctx) =>
    bankingWebhook('nuban', { id: randomUUID(), type: 'transfer.succeeded', data: { reference: id(ctx, 'bankTransfer') } }),
  'POST /api/v1/cards/': (ctx) => as(ctx, 'POST', '/api/v1/cards/', { currency: 'EUR' }, idem()),
  'GET /api/v1/cards/:id/': (ctx) => as(ctx, 'GET', `/api/v1/cards/${stateOf(ctx).card}/`),
  'PATCH /api/v1/cards/:id/': (ctx) => as(ctx, 'PATCH', `/api/v1/cards/${stateOf(ctx).card}/`, { spending_limits: { daily: '100.00' } }),
  'POST /api/v1/cards/:id/reveal/': (ctx) => as(ctx, 'POST', `/api/v1/cards/${stateOf(ctx).card}/reveal/`, { password: PASSWORD }),
  'POST /api/v1/cards/:id/freeze/': (ctx) => as(ctx, 'POST', `/api/v1/cards/${stateOf(ctx).card}/freeze/`),
  'POST /api/v1/cards/:id/unfreeze/': (ctx) => as(ctx, 'POST', `/api/v1/cards/${stateOf(ctx).card}/unfreeze/`),
  'GET /api/v1/cards/:id/authorisations/': (ctx) => as(ctx, 'GET', `/api/v1/cards/${stateOf(ctx).card}/authorisations/`),
  'POST /api/v1/webhooks/cards/:provider/': async (ctx) =>
    signed(ctx, cardsWebhook(ctx), (await ctx.t.app.services.cards.issuer.webhookSecret())!, {
      id: `evt_${randomUUID()}`,
      type: 'issuing_authorization.request',
      data: { authorization: { id: `iauth_${randomUUID()}`, card: id(ctx, 'providerCard'), amount: '1.00', currency: 'EUR' } },
    }),
  'POST /api/v1/crypto/addresses/': (ctx) => as(ctx, 'POST', '/api/v1/crypto/addresses/', { asset: 'BTC' }),
  'POST /api/v1/crypto/quotes/': (ctx) => as(ctx, 'POST', '/api/v1/crypto/quotes/', { from_asset: 'ETH', to_asset: 'USDC', from_amount: '0.01000000' }),
  'POST /api/v1/crypto/swaps/': async (ctx) => as(ctx, 'POST', '/api/v1/crypto/swaps/', { quote_id: await cryptoQuote(ctx) }, idem()),
  'POST /api/v1/webhooks/crypto/:provider/': async (ctx) =>
    signed(ctx, cryptoWebhook(ctx), (await ctx.t.app.services.crypto.exchange.webhookSecret())!, {
      id: `evt_${randomUUID()}`,
      type: 'deposit.confirmed',
      data: { deposit: { id: `dep_${randomUUID()}`, address: id(ctx, 'cryptoAddress'), asset: 'BTC', amount: '0.00100000', tx_hash: `0x${randomUUID()}` } },
    }),
  'GET /api/v1/shop/products/:id/': (ctx) => as(ctx, 'GET', `/api/v1/shop/products/${stateOf(ctx).product}/`),
  'POST /api/v1/shop/cart/items/': (ctx) => as(ctx, 'POST', '/api/v1/shop/cart/items/', { product_id: stateOf(ctx).product, quantity: 1 }),
  'PATCH /api/v1/shop/cart/items/:id/': async (ctx) => as(ctx, 'PATCH', `/api/v1/shop/cart/items/${await cartLine(ctx)}/`, { quantity: 2 }),
  'DELETE /api/v1/shop/cart/items/:id/': async (ctx) => as(ctx, 'DELETE', `/api/v1/shop/cart/items/${await cartLine(ctx)}/`),
  'POST /api/v1/shop/checkout/': async (ctx) => {
    await cartLine(ctx);
    return as(ctx, 'POST', '/api/v1/shop/checkout/', undefined, idem());
  },
  'GET /api/v1/shop/orders/:id/': async (ctx) => as(ctx, 'GET', `/api/v1/shop/orders/${await shopOrder(ctx)}/`),
  'POST /api/v1/shop/orders/:id/pay/': async (ctx) => as(ctx, 'POST', `/api/v1/shop/orders/${await shopOrder(ctx)}/pay/`, undefined, idem()),
  'POST /api/v1/shop/orders/:id/cancel/': async (ctx) => as(ctx, 'POST', `/api/v1/shop/orders/${await shopOrder(ctx)}/cancel/`),
  'POST /api/v1/utilities/airtime/': (ctx) =>
    as(ctx, 'POST', '/api/v1/utilities/airtime/', { operator: 'mtn-ng', phone_number: '+2348031234567', amount: '500.00', currency: 'NGN' }, idem()),
  'POST /api/v1/utilities/data/': (ctx) =>
    as(ctx, 'POST', '/api/v1/utilities/data/', { operator: 'mtn-ng', phone_number: '+2348031234567', plan_id: 'mtn-ng-1gb-30d' }, idem()),
  'POST /api/v1/utilities/bills/': (ctx) =>
    as(ctx, 'POST', '/api/v1/utilities/bills/', { biller: 'ikedc-prepaid', account_number: '45012345678', amount: '2500.00', currency: 'NGN' }, idem()),
  'POST /api/v1/gift-cards/orders/': (ctx) =>
    as(ctx, 'POST', '/api/v1/gift-cards/orders/', { brand_id: 'amazon', country: 'US', denomination: '25.00' }, idem()),
  'POST /api/v1/disputes/': async (ctx) =>
    as(ctx, 'POST', '/api/v1/disputes/', { transaction_id: await paidTransaction(ctx), reason: 'duplicate', description: 'Charged twice for it.' }, idem()),
  'GET /api/v1/disputes/:id/': async (ctx) => as(ctx, 'GET', `/api/v1/disputes/${await dispute(ctx)}/`),
  'POST /api/v1/disputes/:id/cancel/': async (ctx) => as(ctx, 'POST', `/api/v1/disputes/${await dispute(ctx, true)}/cancel/`),
  'GET /api/v1/disputes/:id/messages/': async (ctx) => as(ctx, 'GET', `/api/v1/disputes/${await dispute(ctx)}/messages/`),
  'POST /api/v1/disputes/:id/messages/': async (ctx) => as(ctx, 'POST', `/api/v1/disputes/${await dispute(ctx)}/messages/`, { body: 'Any news?' }),
  'POST /api/v1/rewards/referral/': async (ctx) => {
    const token = await freshToken(ctx, 'basic');
    return json('POST', '/api/v1/rewards/referral/', bearer(token), { code: id(ctx, 'referralCode') });
  },
  'POST /api/v1/rewards/redeem/': (ctx) => as(ctx, 'POST', '/api/v1/rewards/redeem/', { points: 100, currency: 'EUR' }, idem()),
  'GET /api/v1/instruments/:symbol/quote/': (ctx) => as(ctx, 'GET', '/api/v1/instruments/AAPL/quote/'),
  'POST /api/v1/orders/': (ctx) => as(ctx, 'POST', '/api/v1/orders/', { symbol: 'AAPL', side: 'buy', type: 'market', qty: '1' }, idem()),
  'DELETE /api/v1/orders/:id/': async (ctx) => as(ctx, 'DELETE', `/api/v1/orders/${await openOrder(ctx)}/`),
  'GET /api/v1/transfers/recipient/': (ctx) => as(ctx, 'GET', `/api/v1/transfers/recipient/?reference=${encodeURIComponent(stateOf(ctx).peer as string)}`),
  'GET /api/v1/statements/': (ctx) => as(ctx, 'GET', '/api/v1/statements/?from=2026-01-01&to=2030-01-01'),
  'POST /api/v1/transfers/': (ctx) => as(ctx, 'POST', '/api/v1/transfers/', { recipient: stateOf(ctx).peer, amount: '1.00', currency: 'EUR' }, idem()),
  'GET /api/v1/transactions/:id/receipt/': (ctx) => as(ctx, 'GET', `/api/v1/transactions/${stateOf(ctx).transaction}/receipt/`),
  'POST /api/v1/fx/quotes/': (ctx) => as(ctx, 'POST', '/api/v1/fx/quotes/', { source_currency: 'EUR', target_currency: 'USD', source_amount: '10.00' }),
  'POST /api/v1/fx/conversions/': async (ctx) => as(ctx, 'POST', '/api/v1/fx/conversions/', { quote_id: await fxQuote(ctx) }, idem()),
  // a new user each time: codes are sent at most once a minute per user
  'PUT /api/v1/profile/phone/': async (ctx) => json('PUT', '/api/v1/profile/phone/', bearer(await freshToken(ctx)), { phone: freshPhone() }),
  'POST /api/v1/profile/phone/verify/': async (ctx) => {
    const { token, code } = await pendingPhone(ctx);
    return json('POST', '/api/v1/profile/phone/verify/', bearer(token), { code });
  },

  // the admin console: forms with the session's CSRF token, answered with a redirect
  'POST /admin/compliance/verification/:id/review/': async (ctx) =>
    form(ctx, `/admin/compliance/verification/${await submittedVerification(ctx)}/review/`, { decision: 'verified', reason: 'Looks right.' }),
  'POST /admin/commerce/product/': (ctx) =>
    form(ctx, '/admin/commerce/product/', {
      name: `Lamp ${randomUUID().slice(0, 6)}`,
      description: 'Desk lamp',
      price: '24.00',
      currency: 'EUR',
      stock: '7',
      active: 'on',
    }),
  'POST /admin/commerce/product/:id/': (ctx) =>
    form(ctx, `/admin/commerce/product/${stateOf(ctx).product}/`, {
      name: 'Replayed thing',
      description: 'A thing',
      price: '2.50',
      currency: 'EUR',
      stock: '1000',
      active: 'on',
    }),
  'POST /admin/commerce/product/:id/image/': (ctx) =>
    form(ctx, `/admin/commerce/product/${stateOf(ctx).product}/image/`, { image: `data:image/png;base64,${PNG}` }),
  'POST /admin/commerce/order/:id/fulfil/': async (ctx) => form(ctx, `/admin/commerce/order/${await paidOrder(ctx)}/fulfil/`),
  'POST /admin/commerce/order/:id/cancel/': async (ctx) => form(ctx, `/admin/commerce/order/${await shopOrder(ctx)}/cancel/`),
  'GET /admin/compliance/verification/documents/:id/': async (ctx) => ({
    method: 'GET',
    path: `/admin/compliance/verification/documents/${await kycDocument(ctx)}/`,
    headers: { cookie: stateOf(ctx).session.cookie },
  }),
  'GET /admin/commerce/dispute/:id/': async (ctx) => ({
    method: 'GET',
    path: `/admin/commerce/dispute/${await dispute(ctx)}/`,
    headers: { cookie: stateOf(ctx).session.cookie },
  }),
  'POST /admin/commerce/dispute/:id/review/': async (ctx) => form(ctx, `/admin/commerce/dispute/${await dispute(ctx, true)}/review/`),
  'POST /admin/commerce/dispute/:id/resolve/': async (ctx) =>
    form(ctx, `/admin/commerce/dispute/${await reviewedDispute(ctx)}/resolve/`, { note: 'Refunded.' }),
  'POST /admin/commerce/dispute/:id/reject/': async (ctx) => form(ctx, `/admin/commerce/dispute/${await reviewedDispute(ctx)}/reject/`, { note: 'Delivered.' }),
  'POST /admin/commerce/dispute/:id/message/': async (ctx) => form(ctx, `/admin/commerce/dispute/${await dispute(ctx)}/message/`, { body: 'We are on it.' }),
  'POST /admin/login/': async (ctx) => {
    const page = await fetch(`${ctx.t.urls.finance}/admin/login/`);
    const csrf = /csrftoken=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')![1];
    return {
      method: 'POST',
      path: '/admin/login/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${csrf}` },
      body: new URLSearchParams({ username: id(ctx, 'adminName'), password: PASSWORD, next: '/admin/', csrfmiddlewaretoken: csrf }).toString(),
      redirect: true,
    };
  },
  'POST /admin/logout/': async (ctx) => {
    const session = await adminSignIn(ctx.t, id(ctx, 'adminName'));
    return {
      ...form(ctx, '/admin/logout/'),
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrfmiddlewaretoken=${session.csrf}`,
    };
  },
  'POST /admin/node/settings/': (ctx) => form(ctx, '/admin/node/settings/', settingsForm(ctx)),
  'POST /admin/node/branding/': (ctx) => form(ctx, '/admin/node/branding/', { display_name: 'Replayed Finance' }),
  'POST /admin/node/branding/logo/': (ctx) => logoUpload(ctx),
  'GET /api/v1/config/logo/': (ctx) => withLogo(ctx, true),
  'POST /admin/node/licence/': (ctx) => form(ctx, '/admin/node/licence/', { token: id(ctx, 'licenceToken'), public_key: id(ctx, 'licenceKey') }),
  'POST /admin/node/licence/activate/': (ctx) =>
    form(ctx, '/admin/node/licence/activate/', { licence_key: LOCAL_LICENCE_KEY, registry_url: licenceRegistry!.url }),
  'POST /admin/node/providercredential/': (ctx) =>
    form(ctx, '/admin/node/providercredential/', { provider: 'banking', name: `key-${randomUUID().slice(0, 6)}`, secret: 'sk_replayed_0123456789' }),
  'POST /admin/node/providercredential/:id/delete/': async (ctx) => form(ctx, `/admin/node/providercredential/${await providerCredential(ctx)}/delete/`),
  'POST /admin/ledger/pending/:id/void/': async (ctx) => form(ctx, `/admin/ledger/pending/${await pendingTransfer(ctx)}/void/`),
  'POST /admin/banking/movement/:id/void/': async (ctx) => form(ctx, `/admin/banking/movement/${await pendingMovement(ctx)}/void/`),
  'GET /admin/:app/': (ctx) => ({ method: 'GET', path: '/admin/commerce/', headers: { cookie: stateOf(ctx).session.cookie } }),
};

const document = financeOpenApi() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const documented = (method: string, path: string) =>
  Object.keys(document.paths[path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[method.toLowerCase()]?.responses ?? {}).map(Number);

const pool = (ctx: CaseContext) => ctx.t.app.services.identity.store.pool;

/** The user whose access token a request carries. */
const userOf = (r: ReplayRequest) =>
  (JSON.parse(Buffer.from(r.headers.authorization.split(' ')[1].split('.')[1], 'base64url').toString('utf8')) as { sub: string }).sub;

/** The idempotency records of every finance schema (each money module keeps its own). */
async function idempotencyTables(t: TestApp): Promise<string[]> {
  const { rows } = await t.app.services.identity.store.pool.query<{ schema: string }>(
    `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'idempotency_key'`,
  );
  return rows.map((r) => `"${r.schema}".idempotency_key`);
}

/** The node without a valid licence for one case (read-only: writes are refused with 403), then the licence again. */
const withoutLicence: Pick<Recipe, 'before' | 'after'> = {
  before: (ctx) =>
    changeNode(ctx.t, async () => {
      await pool(ctx).query(`UPDATE node.licence SET token = 'withdrawn' WHERE id = 1`);
      await pool(ctx).query('SELECT pg_notify($1, $2)', [NODE_STATE_CHANGED, 'licence']);
      (ctx.t.app.services.node.node as unknown as { changed(): void }).changed();
    }),
  after: (ctx) => changeNode(ctx.t, () => ctx.t.app.services.node.installLicence(id(ctx, 'licenceToken'), id(ctx, 'licenceKey'))).then(() => undefined),
};

/** The card issuer and the crypto exchange refuse every request for one case. */
const refusing: Pick<Recipe, 'before' | 'after'> = {
  before: async () => {
    money!.state.refusing = true;
  },
  after: async () => {
    money!.state.refusing = false;
  },
};

const recipes: Record<string, Recipe> = {
  'POST /api/login/ 401': { request: (ctx) => json('POST', '/api/login/', {}, { username: stateOf(ctx).username, password: 'not the password' }) },
  'POST /api/login/ 403': {
    // "Enforce 2FA on login" on, a user not enrolled yet: the enrolment token
    before: (ctx) => changeNode(ctx.t, () => ctx.t.app.services.node.node.updateSettings({ enforce_2fa: true }, 'test')).then(() => undefined),
    request: (ctx) => json('POST', '/api/login/', {}, { username: stateOf(ctx).username, password: PASSWORD }),
    after: (ctx) => changeNode(ctx.t, () => ctx.t.app.services.node.node.updateSettings({ enforce_2fa: false }, 'test')).then(() => undefined),
  },
  'POST /api/login/ 429': {
    // five failures of one user name within the window
    before: async (ctx) => {
      for (let i = 0; i < 5; i++)
        await http(`${ctx.t.urls.finance}/api/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'throttled-user', password: 'wrong' }),
        });
    },
    request: () => json('POST', '/api/login/', {}, { username: 'throttled-user', password: 'wrong' }),
  },
  'GET /api/v1/transfers/recipient/ 404': { request: (ctx) => as(ctx, 'GET', '/api/v1/transfers/recipient/?reference=nobody_has_this_handle') },
  'GET /api/v1/transfers/recipient/ 429': {
    // a user who has used up the look-ups of the hour (found or not, each counts)
    request: async (ctx) => {
      const token = await freshToken(ctx);
      for (let i = 0; i < RECIPIENT_LOOKUPS.points; i++)
        await must('look-up', await call(ctx.t, token, 'GET', `/api/v1/transfers/recipient/?reference=guess_${i}`), 404);
      return json('GET', `/api/v1/transfers/recipient/?reference=${encodeURIComponent(stateOf(ctx).peer as string)}`, bearer(token));
    },
  },
  'POST /api/v1/cards/:id/reveal/ 403': {
    // the password given again is wrong
    request: (ctx) => as(ctx, 'POST', `/api/v1/cards/${stateOf(ctx).card}/reveal/`, { password: 'not the password' }),
  },
  'POST /api/v1/cards/:id/reveal/ 429': {
    // five wrong passwords of one holder from one address: the sixth attempt is not evaluated
    request: async (ctx) => {
      const token = await freshToken(ctx, 'basic');
      const card = (await must('card', await call(ctx.t, token, 'POST', '/api/v1/cards/', { currency: 'EUR' }, idem()), 201)).id as string;
      for (let i = 0; i < 5; i++) await must('wrong password', await call(ctx.t, token, 'POST', `/api/v1/cards/${card}/reveal/`, { password: 'wrong' }), 403);
      return json('POST', `/api/v1/cards/${card}/reveal/`, bearer(token), { password: PASSWORD });
    },
  },
  'POST /api/auth/2fa/enrol/ 409': { request: (ctx) => json('POST', '/api/auth/2fa/enrol/', bearer(id(ctx, 'enrolledToken')), { current_password: PASSWORD }) },
  'POST /api/auth/2fa/confirm/ 409': {
    request: async (ctx) => json('POST', '/api/auth/2fa/confirm/', bearer(id(ctx, 'enrolledToken')), { otp: await totp(id(ctx, 'enrolledSecret')) }),
  },
  'POST /api/v1/kyc/verifications/ 409': {
    request: (ctx) => kycAs(ctx, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Grace', last_name: 'Hopper' }),
  },
  'GET /api/v1/config/logo/ 404': { request: (ctx) => withLogo(ctx, false) },
  // GIF bytes declared as WebP: the bytes decide
  'POST /admin/node/branding/logo/ 400': { request: (ctx) => logoUpload(ctx, { body: 'GIF89a conformance' }) },
  // a browser whose session is gone (the CSRF cookie and token still right) is sent to the sign-in page
  'POST /admin/node/branding/logo/ 302': {
    request: (ctx) => {
      const r = logoUpload(ctx);
      return { ...r, redirect: true, headers: { ...r.headers, cookie: r.headers.cookie.replace(/;?\s*sessionid=[^;]*/, '') } };
    },
  },
  'POST /admin/node/branding/logo/ 403': { request: (ctx) => logoUpload(ctx, { csrf: false }) },
  'POST /admin/node/branding/logo/ 413': { request: (ctx) => logoUpload(ctx, { body: `${WEBP}${'x'.repeat(LOGO_MAX_BYTES)}` }) },
  'POST /admin/node/branding/logo/ 415': { request: (ctx) => logoUpload(ctx, { contentType: 'image/gif', body: 'GIF89a conformance' }) },
  'POST /api/v1/kyc/verifications/:id/documents/upload/ 404': {
    request: (ctx) => upload(ctx, '00000000-0000-4000-8000-000000000000'),
  },
  'POST /api/v1/kyc/verifications/:id/documents/upload/ 413': {
    // past KYC_DOCUMENT_MAX_BYTES (the fixture's env): refused by its Content-Length before anything is read
    request: (ctx) => upload(ctx, id(ctx, 'verification'), { body: `${PDF}${'x'.repeat(KYC_DOCUMENT_MAX_BYTES)}` }),
  },
  'POST /api/v1/kyc/verifications/:id/documents/upload/ 415': {
    request: (ctx) => upload(ctx, id(ctx, 'verification'), { contentType: 'text/plain' }),
  },
  'POST /api/v1/webhooks/cards/:provider/ 401': {
    request: (ctx) =>
      signed(ctx, cardsWebhook(ctx), 'whsec_not_the_issuers', {
        id: `evt_${randomUUID()}`,
        type: 'issuing_authorization.request',
        data: { authorization: { id: `iauth_${randomUUID()}`, card: id(ctx, 'providerCard'), amount: '1.00', currency: 'EUR' } },
      }),
  },
  'POST /api/v1/webhooks/crypto/:provider/ 401': {
    request: (ctx) =>
      signed(ctx, cryptoWebhook(ctx), 'whsec_not_the_exchanges', {
        id: `evt_${randomUUID()}`,
        type: 'deposit.confirmed',
        data: { deposit: { id: `dep_${randomUUID()}`, address: id(ctx, 'cryptoAddress'), asset: 'BTC', amount: '0.00100000', tx_hash: '0x2' } },
      }),
  },
  'POST /api/v1/kyc/verifications/:id/documents/ 409': {
    // a verification submitted already takes no more documents
    request: (ctx) =>
      submitterAs(ctx, 'POST', `/api/v1/kyc/verifications/${id(ctx, 'submittedVerification')}/documents/`, { kind: 'passport', content_base64: PNG }),
  },
  'POST /api/v1/kyc/verifications/:id/submit/ 400': {
    // a verification without a document
    request: async (ctx) => {
      const token = await freshToken(ctx);
      const created = await call(ctx.t, token, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Ada', last_name: 'Lovelace' });
      return json('POST', `/api/v1/kyc/verifications/${(await must('verification', created, 201)).id}/submit/`, bearer(token));
    },
    validRequest: true,
  },
  'POST /api/v1/kyc/verifications/:id/submit/ 409': {
    request: (ctx) => submitterAs(ctx, 'POST', `/api/v1/kyc/verifications/${id(ctx, 'submittedVerification')}/submit/`),
  },
  'POST /api/v1/kyc/verifications/:id/submit/ 502': {
    before: async () => {
      sumsub!.failWith = 500;
    },
    request: (ctx) => success['POST /api/v1/kyc/verifications/:id/submit/'](ctx),
    after: async () => {
      sumsub!.failWith = undefined;
    },
  },
  'POST /api/v1/webhooks/kyc/:provider/ 401': {
    request: (ctx) => {
      const { body, headers } = signedWebhook('another secret', reviewed(id(ctx, 'applicant'), { reviewAnswer: 'GREEN' }));
      return { method: 'POST', path: '/api/v1/webhooks/kyc/sumsub/', headers, body };
    },
  },
  'POST /api/v1/webhooks/kyc/:provider/ 404': {
    request: (ctx) => {
      const { body, headers } = signedWebhook(KYC_WEBHOOK_SECRET, reviewed(id(ctx, 'applicant'), { reviewAnswer: 'GREEN' }));
      return { method: 'POST', path: '/api/v1/webhooks/kyc/onfido/', headers, body };
    },
  },
  'POST /api/v1/webhooks/kyc/:provider/ 400': {
    request: () => {
      const { body, headers } = signedWebhook(KYC_WEBHOOK_SECRET, { type: 'applicantReviewed' });
      return { method: 'POST', path: '/api/v1/webhooks/kyc/sumsub/', headers, body };
    },
  },
  'POST /api/v1/webhooks/banking/:provider/ 401': {
    request: (ctx) => bankingWebhook('nuban', { id: randomUUID(), type: 'transfer.succeeded', data: { reference: id(ctx, 'bankTransfer') } }, 'another secret'),
  },
  'POST /api/v1/webhooks/cards/:provider/ 404': {
    request: async (ctx) =>
      signed(ctx, '/api/v1/webhooks/cards/other/', (await ctx.t.app.services.cards.issuer.webhookSecret())!, {
        id: `evt_${randomUUID()}`,
        type: 'issuing_authorization.request',
        data: { authorization: { id: `iauth_${randomUUID()}`, card: id(ctx, 'providerCard'), amount: '1.00', currency: 'EUR' } },
      }),
  },
  'POST /api/v1/webhooks/crypto/:provider/ 404': {
    request: async (ctx) =>
      signed(ctx, '/api/v1/webhooks/crypto/other/', (await ctx.t.app.services.crypto.exchange.webhookSecret())!, {
        id: `evt_${randomUUID()}`,
        type: 'deposit.confirmed',
        data: { deposit: { id: `dep_${randomUUID()}`, address: id(ctx, 'cryptoAddress'), asset: 'BTC', amount: '0.00100000', tx_hash: '0x1' } },
      }),
  },
  'POST /admin/login/ 401': {
    request: async (ctx) => {
      const r = await success['POST /admin/login/'](ctx);
      return { ...r, body: r.body!.replace(/password=[^&]*/, 'password=wrong'), redirect: false };
    },
  },
  'POST /admin/compliance/verification/:id/review/ 409': {
    // reviewed already
    request: async (ctx) => {
      const reviewedOnce = await submittedVerification(ctx);
      await adminPost(ctx.t, stateOf(ctx).session, `/admin/compliance/verification/${reviewedOnce}/review/`, { decision: 'verified' });
      return { ...form(ctx, `/admin/compliance/verification/${reviewedOnce}/review/`, { decision: 'verified' }), redirect: false };
    },
  },
  'PATCH /api/v1/shop/cart/items/:id/ 404': { request: (ctx) => as(ctx, 'PATCH', `/api/v1/shop/cart/items/${ABSENT}/`, { quantity: 1 }) },
  'PATCH /api/v1/shop/cart/items/:id/ 409': {
    // more than the stock
    request: async (ctx) => {
      const token = await freshToken(ctx, 'basic');
      const cart = await must('cart', await call(ctx.t, token, 'POST', '/api/v1/shop/cart/items/', { product_id: id(ctx, 'scarce'), quantity: 1 }), 201);
      return json('PATCH', `/api/v1/shop/cart/items/${cart.items[0].id}/`, bearer(token), { quantity: 5 });
    },
  },
  'DELETE /api/v1/shop/cart/items/:id/ 404': { request: (ctx) => as(ctx, 'DELETE', `/api/v1/shop/cart/items/${ABSENT}/`) },
  'POST /api/v1/shop/checkout/ 409': {
    // an empty cart
    request: async (ctx) => json('POST', '/api/v1/shop/checkout/', bearer(await freshToken(ctx, 'basic'))),
  },
  'GET /api/v1/shop/orders/:id/ 404': { request: (ctx) => as(ctx, 'GET', `/api/v1/shop/orders/${ABSENT}/`) },
  'POST /api/v1/shop/orders/:id/pay/ 404': { request: (ctx) => as(ctx, 'POST', `/api/v1/shop/orders/${ABSENT}/pay/`) },
  'POST /api/v1/shop/orders/:id/pay/ 409': { request: async (ctx) => as(ctx, 'POST', `/api/v1/shop/orders/${await paidOrder(ctx)}/pay/`) },
  'POST /api/v1/shop/orders/:id/cancel/ 404': { request: (ctx) => as(ctx, 'POST', `/api/v1/shop/orders/${ABSENT}/cancel/`) },
  'POST /api/v1/shop/orders/:id/cancel/ 409': { request: async (ctx) => as(ctx, 'POST', `/api/v1/shop/orders/${await paidOrder(ctx)}/cancel/`) },
  'POST /api/v1/disputes/ 404': {
    request: (ctx) => as(ctx, 'POST', '/api/v1/disputes/', { transaction_id: ABSENT, reason: 'duplicate', description: 'Charged twice for it.' }, idem()),
  },
  'POST /api/v1/disputes/ 409': {
    // the transaction has an open dispute
    request: async (ctx) => {
      const disputed = await paidTransaction(ctx);
      const body = { transaction_id: disputed, reason: 'duplicate', description: 'Charged twice for it.' };
      await must('dispute', await call(ctx.t, stateOf(ctx).token, 'POST', '/api/v1/disputes/', body), 201);
      return as(ctx, 'POST', '/api/v1/disputes/', body, idem());
    },
  },
  'GET /api/v1/disputes/:id/ 404': { request: (ctx) => as(ctx, 'GET', `/api/v1/disputes/${ABSENT}/`) },
  'POST /api/v1/disputes/:id/cancel/ 404': { request: (ctx) => as(ctx, 'POST', `/api/v1/disputes/${ABSENT}/cancel/`) },
  'POST /api/v1/disputes/:id/cancel/ 409': { request: async (ctx) => as(ctx, 'POST', `/api/v1/disputes/${await cancelledDispute(ctx)}/cancel/`) },
  'GET /api/v1/disputes/:id/messages/ 404': { request: (ctx) => as(ctx, 'GET', `/api/v1/disputes/${ABSENT}/messages/`) },
  'POST /api/v1/disputes/:id/messages/ 404': { request: (ctx) => as(ctx, 'POST', `/api/v1/disputes/${ABSENT}/messages/`, { body: 'Any news?' }) },
  'POST /api/v1/disputes/:id/messages/ 409': {
    request: async (ctx) => as(ctx, 'POST', `/api/v1/disputes/${await cancelledDispute(ctx)}/messages/`, { body: 'Any news?' }),
  },
  'POST /api/v1/rewards/referral/ 409': {
    // claimed once already
    request: async (ctx) => {
      const token = await freshToken(ctx, 'basic');
      await must('referral', await call(ctx.t, token, 'POST', '/api/v1/rewards/referral/', { code: id(ctx, 'referralCode') }), 200);
      return json('POST', '/api/v1/rewards/referral/', bearer(token), { code: id(ctx, 'referralCode') });
    },
  },
  'POST /api/v1/webhooks/banking/:provider/ 403': {
    // an event changes money: refused while the node has no valid licence
    ...withoutLicence,
    request: (ctx) => success['POST /api/v1/webhooks/banking/:provider/'](ctx),
  },
  'POST /api/v1/webhooks/cards/:provider/ 409': {
    // a capture of an authorisation released already
    request: async (ctx) => {
      const secret = (await ctx.t.app.services.cards.issuer.webhookSecret())!;
      const authorisation = { id: `iauth_${randomUUID()}`, card: id(ctx, 'providerCard'), amount: '1.00', currency: 'EUR' };
      const event = (type: string) => ({ id: `evt_${randomUUID()}`, type, data: { authorization: authorisation } });
      await must('authorisation', await postWebhook(ctx.t, cardsWebhook(ctx), event('issuing_authorization.request'), secret), 200);
      await must('release', await postWebhook(ctx.t, cardsWebhook(ctx), event('issuing_authorization.released'), secret), 200);
      return signed(ctx, cardsWebhook(ctx), secret, event('issuing_authorization.captured'));
    },
  },
  'GET /api/v1/instruments/:symbol/quote/ 422': {
    // the decentralized exchange, an instrument whose order book is empty
    before: (ctx) => brokerage(ctx, 'decentralized_exchange'),
    request: (ctx) => as(ctx, 'GET', '/api/v1/instruments/NVDAX/quote/'),
    after: (ctx) => brokerage(ctx, 'equities_brokerage'),
  },
  'GET /api/v1/instruments/:symbol/quote/ 502': {
    // the brokerage fails (answers 500)
    before: async () => {
      providers!.alpaca.quotes.set('AAPL', failing());
    },
    request: (ctx) => as(ctx, 'GET', '/api/v1/instruments/AAPL/quote/'),
    after: async () => {
      providers!.alpaca.quotes.set('AAPL', { bid: '199.90', ask: '200.10' });
    },
  },
  'POST /api/v1/orders/ 502': {
    before: async () => {
      providers!.alpaca.assets.unshift(failing() as never);
    },
    request: (ctx) => as(ctx, 'POST', '/api/v1/orders/', { symbol: 'AAPL', side: 'buy', type: 'limit', qty: '1', limit_price: '100.00' }, idem()),
    after: async () => {
      providers!.alpaca.assets.shift();
    },
  },
  'DELETE /api/v1/orders/:id/ 422': {
    // settled: cancelled already
    request: async (ctx) => {
      const order = await openOrder(ctx);
      await must('cancel', await call(ctx.t, stateOf(ctx).token, 'DELETE', `/api/v1/orders/${order}/`), 200);
      return as(ctx, 'DELETE', `/api/v1/orders/${order}/`);
    },
  },
  'DELETE /api/v1/orders/:id/ 502': {
    request: async (ctx) => {
      const order = await openOrder(ctx);
      providers!.alpaca.orders.get = failing().get;
      return as(ctx, 'DELETE', `/api/v1/orders/${order}/`);
    },
    after: async () => {
      delete (providers!.alpaca.orders as { get?: unknown }).get;
    },
  },
  // the providers refuse (the card issuer, the crypto exchange) or fail (the banking provider): 502
  'POST /api/v1/cards/ 502': { ...refusing, request: (ctx) => success['POST /api/v1/cards/'](ctx) },
  'POST /api/v1/cards/:id/freeze/ 502': {
    request: async (ctx) => {
      const card = await newCard(ctx);
      money!.state.refusing = true;
      return as(ctx, 'POST', `/api/v1/cards/${card}/freeze/`);
    },
    after: refusing.after,
  },
  'POST /api/v1/cards/:id/unfreeze/ 502': {
    request: async (ctx) => {
      const card = await newCard(ctx);
      await must('freeze', await call(ctx.t, stateOf(ctx).token, 'POST', `/api/v1/cards/${card}/freeze/`), 200);
      money!.state.refusing = true;
      return as(ctx, 'POST', `/api/v1/cards/${card}/unfreeze/`);
    },
    after: refusing.after,
  },
  'POST /api/v1/crypto/addresses/ 502': { ...refusing, request: (ctx) => as(ctx, 'POST', '/api/v1/crypto/addresses/', { asset: 'USDT' }) },
  'POST /api/v1/crypto/quotes/ 502': { ...refusing, request: (ctx) => success['POST /api/v1/crypto/quotes/'](ctx) },
  'POST /api/v1/virtual-accounts/ 502': {
    // a currency the provider does not hold
    request: async (ctx) => json('POST', '/api/v1/virtual-accounts/', bearer(await freshToken(ctx, 'basic')), { currency: 'GBP' }),
  },
  'POST /api/v1/ramps/ 502': {
    before: async () => banking!.fault('fail', 'fail', 'fail'),
    request: (ctx) => success['POST /api/v1/ramps/'](ctx),
  },
  'POST /api/v1/crypto/swaps/ 404': { request: (ctx) => as(ctx, 'POST', '/api/v1/crypto/swaps/', { quote_id: ABSENT }, idem()) },
  'POST /api/v1/fx/conversions/ 404': { request: (ctx) => as(ctx, 'POST', '/api/v1/fx/conversions/', { quote_id: ABSENT }, idem()) },
  'POST /api/v1/transfers/ 404': {
    request: (ctx) => as(ctx, 'POST', '/api/v1/transfers/', { recipient: 'nobody-here', amount: '1.00', currency: 'EUR' }, idem()),
  },
  'PUT /api/v1/profile/phone/ 200': { request: (ctx) => as(ctx, 'PUT', '/api/v1/profile/phone/', { phone: null }) },
  'PUT /api/v1/profile/phone/ 409': {
    // the peer has the number verified (an operator set it)
    before: (ctx) => ctx.t.app.services.identity.phones.setVerified(stateOf(ctx).peer as string, '+447911123457').then(() => undefined),
    request: (ctx) => as(ctx, 'PUT', '/api/v1/profile/phone/', { phone: '+447911123457' }),
  },
  'PUT /api/v1/profile/phone/ 429': {
    // one code a minute per user: a second number right after the first
    request: async (ctx) => {
      const { token } = await pendingPhone(ctx);
      return json('PUT', '/api/v1/profile/phone/', bearer(token), { phone: freshPhone() });
    },
  },
  'POST /api/v1/profile/phone/verify/ 429': {
    // five wrong codes: the sixth guess is not evaluated
    request: async (ctx) => {
      const { token, code } = await pendingPhone(ctx);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) await must('wrong code', await call(ctx.t, token, 'POST', '/api/v1/profile/phone/verify/', { code: wrong }), 400);
      return json('POST', '/api/v1/profile/phone/verify/', bearer(token), { code: wrong });
    },
  },
  'POST /api/v1/profile/phone/verify/ 409': {
    // another user verified the number while this one's code was on its way (the race the unique index settles)
    request: async (ctx) => {
      const { token, code, phone } = await pendingPhone(ctx);
      const other = await createUser(ctx.t);
      await ctx.t.app.services.identity.store.pool.query('UPDATE identity.node_user SET phone = $2, phone_verified_at = now() WHERE id = $1', [
        other.id,
        phone,
      ]);
      return json('POST', '/api/v1/profile/phone/verify/', bearer(token), { code });
    },
  },
  'GET /api/v1/transactions/:id/receipt/ 404': { request: (ctx) => as(ctx, 'GET', `/api/v1/transactions/${ABSENT}/receipt/`) },
  'GET /api/v1/shop/products/:id/ 404': { request: (ctx) => as(ctx, 'GET', `/api/v1/shop/products/${ABSENT}/`) },
  'POST /api/v1/shop/cart/items/ 404': { request: (ctx) => as(ctx, 'POST', '/api/v1/shop/cart/items/', { product_id: ABSENT, quantity: 1 }) },
  'POST /api/v1/shop/cart/items/ 409': {
    request: (ctx) => as(ctx, 'POST', '/api/v1/shop/cart/items/', { product_id: stateOf(ctx).product, quantity: 1, expected_price: '999.00' }),
  },
  'GET /api/v1/instruments/:symbol/quote/ 404': { request: (ctx) => as(ctx, 'GET', '/api/v1/instruments/NOPE/quote/') },
  'POST /api/v1/orders/ 404': { request: (ctx) => as(ctx, 'POST', '/api/v1/orders/', { symbol: 'NOPE', side: 'buy', type: 'market', qty: '1' }, idem()) },
  'POST /api/v1/orders/ 422': {
    // a fraction of a share of an instrument that trades in whole shares
    request: (ctx) => as(ctx, 'POST', '/api/v1/orders/', { symbol: 'BRK.A', side: 'buy', type: 'market', qty: '0.5' }, idem()),
  },
};

// ---- onboarding and account security (routes/account.ts): each case that ends a session or changes a password has a user of its own

const totpAt = (secret: string, steps: number) =>
  totpGenerate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps } as Parameters<typeof totpGenerate>[0]);

/** A new user enrolled in 2FA (its code of this time step used): its token and secret. */
async function enrolledUser(ctx: CaseContext): Promise<{ token: string; secret: string }> {
  const token = await freshToken(ctx);
  const { secret } = await must('enrol', await call(ctx.t, token, 'POST', '/api/auth/2fa/enrol/', { current_password: PASSWORD }), 201);
  await must('confirm', await call(ctx.t, token, 'POST', '/api/auth/2fa/confirm/', { otp: await totp(secret as string) }), 200);
  return { token, secret: secret as string };
}

/** A single-use token of a new user's (as the mails carry them), written as the node writes them: its SHA-256. */
async function oneTimeToken(ctx: CaseContext, purpose: 'email_verify' | 'password_reset'): Promise<string> {
  const user = await ctx.t.app.services.identity.identity.createUser({
    username: `mail_${randomUUID().slice(0, 8)}`,
    password: PASSWORD,
    email: `${randomUUID()}@example.com`,
  });
  const token = randomUUID().replace(/-/g, '').padEnd(43, 'x');
  await pool(ctx).query(
    `INSERT INTO identity.one_time_token (token_hash, user_id, purpose, email, expires_at) VALUES (sha256(convert_to($1, 'UTF8')), $2, $3, $4, now() + interval '1 hour')`,
    [token, user.id, purpose, user.email],
  );
  return token;
}

const newSignup = () => {
  const username = `joiner_${randomUUID().slice(0, 8)}`;
  return { username, email: `${username}@example.com`, password: 'a long enough password' };
};

/** Uses up an allowance per client address (AUTH_ATTEMPTS_PER_HOUR, 20 by default) for one case, and gives it back after. */
const exhausting = (path: string, body: () => unknown): Pick<Recipe, 'before' | 'after'> => ({
  before: async (ctx) => {
    for (let i = 0; i < 20; i++) await call(ctx.t, '', 'POST', path, body());
  },
  after: async (ctx) => {
    await pool(ctx).query('DELETE FROM identity.rate_limit');
  },
});

Object.assign(success, {
  'POST /api/auth/signup/': () => json('POST', '/api/auth/signup/', {}, newSignup()),
  'POST /api/auth/email/verify/': async (ctx: CaseContext) => json('POST', '/api/auth/email/verify/', {}, { token: await oneTimeToken(ctx, 'email_verify') }),
  'POST /api/auth/password/reset/': () => json('POST', '/api/auth/password/reset/', {}, { email: 'someone@example.com' }),
  'POST /api/auth/password/reset/confirm/': async (ctx: CaseContext) =>
    json('POST', '/api/auth/password/reset/confirm/', {}, { token: await oneTimeToken(ctx, 'password_reset'), password: 'a brand new password' }),
  'POST /api/auth/password/': async (ctx: CaseContext) =>
    json('POST', '/api/auth/password/', bearer(await freshToken(ctx)), { current_password: PASSWORD, password: 'a brand new password' }),
  'DELETE /api/auth/sessions/:id/': async (ctx: CaseContext) => {
    const token = await freshToken(ctx);
    const [session] = await must('sessions', await call(ctx.t, token, 'GET', '/api/auth/sessions/'), 200);
    return json('DELETE', `/api/auth/sessions/${session.id}/`, bearer(token));
  },
  'POST /api/auth/logout/': async (ctx: CaseContext) => json('POST', '/api/auth/logout/', bearer(await freshToken(ctx))),
  'POST /api/auth/logout-all/': async (ctx: CaseContext) => json('POST', '/api/auth/logout-all/', bearer(await freshToken(ctx))),
  'POST /api/auth/2fa/recovery-codes/': async (ctx: CaseContext) => {
    const { token, secret } = await enrolledUser(ctx);
    return json('POST', '/api/auth/2fa/recovery-codes/', bearer(token), { otp: await totpAt(secret, 1) });
  },
  'GET /admin/identity/user/:id/': (ctx: CaseContext) => ({
    method: 'GET',
    path: `/admin/identity/user/${stateOf(ctx).userId}/`,
    headers: { cookie: stateOf(ctx).session.cookie },
  }),
  // the replayed user stays active and at the enhanced level (what the other cases need)
  'POST /admin/identity/user/:id/active/': (ctx: CaseContext) => form(ctx, `/admin/identity/user/${stateOf(ctx).userId}/active/`, { active: 'yes' }),
  'POST /admin/identity/user/:id/kyc/': (ctx: CaseContext) => form(ctx, `/admin/identity/user/${stateOf(ctx).userId}/kyc/`, { level: 'enhanced' }),
  'DELETE /api/auth/2fa/': async (ctx: CaseContext) => {
    const { token, secret } = await enrolledUser(ctx);
    return json('DELETE', '/api/auth/2fa/', bearer(token), { otp: await totpAt(secret, 1), current_password: PASSWORD });
  },
  'POST /admin/identity/user/add/': (ctx: CaseContext) => {
    const name = `added_${randomUUID().slice(0, 8)}`;
    return form(ctx, '/admin/identity/user/add/', { username: name, email: `${name}@example.com`, password: 'a long enough password' });
  },
  // sign-up stays open (the replay's sign-up cases need it); an invite with a note and an expiry
  'POST /admin/identity/signup/': (ctx: CaseContext) => form(ctx, '/admin/identity/signup/', { mode: 'open' }),
  'POST /admin/identity/signup/invites/': (ctx: CaseContext) =>
    form(ctx, '/admin/identity/signup/invites/', { note: 'conformance replay', expires_in_days: '7' }),
  'POST /admin/adjustments/': (ctx: CaseContext) => form(ctx, '/admin/adjustments/', adjustmentFields(ctx, 'credit')),
  'POST /admin/adjustments/:id/approve/': async (ctx: CaseContext) => form(ctx, `/admin/adjustments/${(await proposed(ctx, 'credit', MAKER)).id}/approve/`),
  'POST /admin/adjustments/:id/reject/': async (ctx: CaseContext) => form(ctx, `/admin/adjustments/${(await proposed(ctx, 'credit', MAKER)).id}/reject/`),
  'POST /admin/identity/operator-change/': async (ctx: CaseContext) =>
    form(ctx, '/admin/identity/operator-change/', { user: (await freshCustomer(ctx)).username, change: 'support', reason: 'conformance replay' }),
  'POST /admin/identity/operator-change/:id/approve/': async (ctx: CaseContext) =>
    form(ctx, `/admin/identity/operator-change/${await operatorChange(ctx)}/approve/`),
  'POST /admin/identity/operator-change/:id/reject/': async (ctx: CaseContext) =>
    form(ctx, `/admin/identity/operator-change/${await operatorChange(ctx)}/reject/`),
});

/** A customer of its own (one pending operator change per user). */
const freshCustomer = (ctx: CaseContext) => createUser(ctx.t, `op_${randomUUID().slice(0, 8)}`);
/** Another superuser (the host's way in), who proposes what the replay's console session decides. */
async function operatorMaker(ctx: CaseContext) {
  const s = stateOf(ctx);
  s.operatorMaker ??= await createUser(ctx.t, `maker_${randomUUID().slice(0, 8)}`, { superuser: true });
  return s.operatorMaker as { id: string; username: string };
}
/** A pending operator change of a fresh customer, proposed by `by` (default: the other superuser). */
async function operatorChange(ctx: CaseContext, by?: { id: string; username: string }) {
  const maker = by ?? (await operatorMaker(ctx));
  const change = await ctx.t.app.services.identity.operators.propose(
    { userId: maker.id, username: maker.username, role: 'superuser' },
    (await freshCustomer(ctx)).id,
    'support',
    '',
  );
  return change.id;
}
const decidedChange = async (ctx: CaseContext) => {
  const id = await operatorChange(ctx);
  await ctx.t.app.services.identity.operators.reject({ userId: String(stateOf(ctx).adminId), username: String(stateOf(ctx).adminName), role: 'superuser' }, id);
  return id;
};

/** Another administrator (maker-checker): the replay's console session approves what this one proposes. */
const MAKER = { id: '00000000-0000-4000-8000-00000000a11c', name: 'maker' };
const adjustmentFields = (ctx: CaseContext, direction: 'credit' | 'debit', amount = '1.00') => ({
  user: String(stateOf(ctx).username),
  direction,
  currency: 'EUR',
  amount,
  reason: 'conformance replay',
});
/** A pending adjustment of the replay's user, proposed by `by` straight through the ledger's service. */
const proposed = (ctx: CaseContext, direction: 'credit' | 'debit', by: { id: string; name: string }, amount = '1.00') =>
  ctx.t.app.services.ledger.adjustments.propose(adjustmentFields(ctx, direction, amount), by);
const decided = async (ctx: CaseContext) => {
  const a = await proposed(ctx, 'credit', MAKER);
  await ctx.t.app.services.ledger.adjustments.reject(a.id, { id: String(stateOf(ctx).adminId), name: 'checker' });
  return a.id;
};

Object.assign(recipes, {
  'POST /api/auth/signup/ 403': {
    // invite-only (the console's setting) and no invite code
    before: (ctx: CaseContext) => ctx.t.app.services.identity.onboarding.setSignupMode('invite_only', 'test').then(() => undefined),
    request: () => json('POST', '/api/auth/signup/', {}, newSignup()),
    after: (ctx: CaseContext) => ctx.t.app.services.identity.onboarding.setSignupMode('open', 'test').then(() => undefined),
  },
  'POST /api/auth/signup/ 409': { request: (ctx: CaseContext) => json('POST', '/api/auth/signup/', {}, { ...newSignup(), username: stateOf(ctx).username }) },
  'POST /api/auth/signup/ 429': {
    ...exhausting('/api/auth/signup/', () => ({ username: 'x', email: 'x', password: 'x' })),
    request: () => json('POST', '/api/auth/signup/', {}, newSignup()),
  },
  'POST /api/auth/email/verify/ 429': {
    ...exhausting('/api/auth/email/verify/', () => ({ token: 'x' })),
    request: () => json('POST', '/api/auth/email/verify/', {}, { token: 'x' }),
  },
  'POST /api/auth/password/reset/ 429': {
    ...exhausting('/api/auth/password/reset/', () => ({ email: 'x@example.com' })),
    request: () => json('POST', '/api/auth/password/reset/', {}, { email: 'x@example.com' }),
  },
  'POST /api/auth/password/reset/confirm/ 429': {
    ...exhausting('/api/auth/password/reset/confirm/', () => ({ token: 'x', password: 'a brand new password' })),
    request: () => json('POST', '/api/auth/password/reset/confirm/', {}, { token: 'x', password: 'a brand new password' }),
  },
  // the current password is a secret like the sign-in's: five wrong ones of a user from one address, the sixth is not evaluated
  // (a fresh user each: the main user's token must survive the replay)
  'POST /api/auth/password/ 429': {
    request: async (ctx: CaseContext) => {
      const token = await freshToken(ctx);
      const wrong = { current_password: 'not the password', password: 'a brand new password' };
      for (let i = 0; i < 5; i++) await must('wrong password', await call(ctx.t, token, 'POST', '/api/auth/password/', wrong), 400);
      return json('POST', '/api/auth/password/', bearer(token), { current_password: PASSWORD, password: 'a brand new password' });
    },
  },
  'POST /api/auth/2fa/enrol/ 429': {
    request: async (ctx: CaseContext) => {
      const token = await freshToken(ctx);
      for (let i = 0; i < 5; i++) await must('wrong password', await call(ctx.t, token, 'POST', '/api/auth/2fa/enrol/', { current_password: 'wrong' }), 400);
      return json('POST', '/api/auth/2fa/enrol/', bearer(token), { current_password: PASSWORD });
    },
  },
  'DELETE /api/auth/2fa/ 429': {
    request: async (ctx: CaseContext) => {
      const { token, secret } = await enrolledUser(ctx);
      for (let i = 0; i < 5; i++)
        await must('wrong password', await call(ctx.t, token, 'DELETE', '/api/auth/2fa/', { current_password: 'wrong', otp: '000000' }), 400);
      return json('DELETE', '/api/auth/2fa/', bearer(token), { otp: await totpAt(secret, 1), current_password: PASSWORD });
    },
  },
  'POST /api/auth/2fa/recovery-codes/ 409': { request: (ctx: CaseContext) => as(ctx, 'POST', '/api/auth/2fa/recovery-codes/', { otp: '123456' }) },
  'DELETE /api/auth/2fa/ 409': { request: (ctx: CaseContext) => as(ctx, 'DELETE', '/api/auth/2fa/', { otp: '123456' }) },
  // an empty form is a valid invite (note and expiry are optional): an expiry out of range is the 400
  // its success is the page with the code (201): a browser whose session is gone (the CSRF cookie and token
  // still right) is sent to the sign-in page
  'POST /admin/identity/signup/invites/ 302': {
    request: (ctx: CaseContext) => {
      const r = form(ctx, '/admin/identity/signup/invites/', { note: 'no session' });
      return { ...r, headers: { ...r.headers, cookie: r.headers.cookie.replace(/;?\s*sessionid=[^;]*/, '') } };
    },
  },
  'POST /admin/identity/signup/invites/ 400': { request: (ctx: CaseContext) => form(ctx, '/admin/identity/signup/invites/', { expires_in_days: '400' }) },
  'POST /admin/identity/user/add/ 409': {
    request: (ctx: CaseContext) =>
      form(ctx, '/admin/identity/user/add/', {
        username: String(stateOf(ctx).username).toUpperCase(),
        email: 'taken@example.com',
        password: 'a long enough password',
      }),
  },
  // the session's own proposal: a different administrator must approve it
  'POST /admin/adjustments/:id/approve/ 403': {
    request: async (ctx: CaseContext) =>
      form(ctx, `/admin/adjustments/${(await proposed(ctx, 'credit', { id: String(stateOf(ctx).adminId), name: 'self' })).id}/approve/`),
  },
  'POST /admin/adjustments/:id/approve/ 404': { request: (ctx: CaseContext) => form(ctx, `/admin/adjustments/${ABSENT}/approve/`) },
  'POST /admin/adjustments/:id/approve/ 409': { request: async (ctx: CaseContext) => form(ctx, `/admin/adjustments/${await decided(ctx)}/approve/`) },
  // a debit larger than the wallet holds
  'POST /admin/adjustments/:id/approve/ 422': {
    request: async (ctx: CaseContext) => form(ctx, `/admin/adjustments/${(await proposed(ctx, 'debit', MAKER, '99999999.00')).id}/approve/`),
  },
  // operators: never oneself (403), an unknown user (404), a change that changes nothing (409)
  'POST /admin/identity/operator-change/ 403': {
    request: (ctx: CaseContext) => form(ctx, '/admin/identity/operator-change/', { user: String(stateOf(ctx).adminId), change: 'freeze' }),
  },
  'POST /admin/identity/operator-change/ 404': {
    request: (ctx: CaseContext) => form(ctx, '/admin/identity/operator-change/', { user: ABSENT, change: 'support' }),
  },
  'POST /admin/identity/operator-change/ 409': {
    request: async (ctx: CaseContext) => form(ctx, '/admin/identity/operator-change/', { user: (await operatorMaker(ctx)).username, change: 'superuser' }),
  },
  // the session's own proposal: a different superuser must approve it
  'POST /admin/identity/operator-change/:id/approve/ 403': {
    request: async (ctx: CaseContext) =>
      form(
        ctx,
        `/admin/identity/operator-change/${await operatorChange(ctx, { id: String(stateOf(ctx).adminId), username: String(stateOf(ctx).adminName) })}/approve/`,
      ),
  },
  'POST /admin/identity/operator-change/:id/approve/ 409': {
    request: async (ctx: CaseContext) => form(ctx, `/admin/identity/operator-change/${await decidedChange(ctx)}/approve/`),
  },
  'POST /admin/identity/operator-change/:id/reject/ 409': {
    request: async (ctx: CaseContext) => form(ctx, `/admin/identity/operator-change/${await decidedChange(ctx)}/reject/`),
  },
  'POST /admin/adjustments/:id/reject/ 404': { request: (ctx: CaseContext) => form(ctx, `/admin/adjustments/${ABSENT}/reject/`) },
  'POST /admin/adjustments/:id/reject/ 409': { request: async (ctx: CaseContext) => form(ctx, `/admin/adjustments/${await decided(ctx)}/reject/`) },
  'DELETE /api/auth/2fa/ 403': {
    // the node enforces 2FA: it cannot be switched off
    before: (ctx: CaseContext) => changeNode(ctx.t, () => ctx.t.app.services.node.node.updateSettings({ enforce_2fa: true }, 'test')).then(() => undefined),
    request: (ctx: CaseContext) => json('DELETE', '/api/auth/2fa/', bearer(id(ctx, 'enrolledToken')), { otp: '123456' }),
    after: (ctx: CaseContext) => changeNode(ctx.t, () => ctx.t.app.services.node.node.updateSettings({ enforce_2fa: false }, 'test')).then(() => undefined),
  },
} satisfies Record<string, Recipe>);

for (const [key, request] of Object.entries(success)) {
  const [method, path] = key.split(' ');
  const route = financeSurface.routes.find((r) => r.method === method && r.path === path)!;
  recipes[`${key} ${route.response.status ?? 200}`] ??= { request };
}

const baseOf = (route: (typeof financeSurface.routes)[number]) => {
  const own = success[`${route.method} ${route.path}`];
  return async (ctx: CaseContext): Promise<ReplayRequest> =>
    own ? own(ctx) : { method: route.method, path: route.path, headers: { ...ctx.routeCredentials } };
};

for (const route of financeSurface.routes) {
  if (route.documented === false) continue;
  const statuses = documented(route.method, route.path);
  const base = baseOf(route);
  const add = (status: number, recipe: Recipe) => {
    if (statuses.includes(status)) recipes[`${route.method} ${route.path} ${status}`] ??= recipe;
  };
  // a bearer route refuses an enrolment-only token with 403 (every route but the enrolment's own)
  if (route.security === 'bearer' && !route.path.startsWith('/api/auth/2fa/')) {
    add(403, { request: async (ctx) => ({ ...(await base(ctx)), headers: { ...(await base(ctx)).headers, ...bearer(stateOf(ctx).enrolToken) } }) });
  }
  // the admin console sends a browser without a session to its sign-in page
  if (route.security === 'session' && route.method === 'GET') {
    add(302, {
      request: async (ctx) => {
        const r = await base(ctx);
        const { cookie: _cookie, ...headers } = r.headers;
        return { ...r, headers, redirect: true };
      },
    });
  }
  if (route.consumes === 'form') {
    add(400, {
      request: async (ctx) => {
        const r = await base(ctx);
        return { ...r, body: `${r.body}&note=%00`, redirect: false };
      },
    });
  }
  if (route.idempotent && !route.body) {
    add(400, {
      request: async (ctx) => {
        const r = await base(ctx);
        return { ...r, headers: { ...r.headers, 'idempotency-key': 'k'.repeat(256) } };
      },
    });
  }
  if (route.idempotent) {
    const withKey = async (ctx: CaseContext, key: string) => {
      const r = await base(ctx);
      return { ...r, headers: { ...r.headers, 'idempotency-key': key } };
    };
    // the first request with the key still running (its record, as a request in flight leaves it)
    add(409, {
      request: async (ctx) => {
        const key = randomUUID();
        const r = await withKey(ctx, key);
        await fetch(`${ctx.t.urls.finance}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
        for (const table of await idempotencyTables(ctx.t)) {
          await pool(ctx).query(`UPDATE ${table} SET state = 'running', outcome = NULL, locked_until = now() + interval '1 hour' WHERE key = $1`, [key]);
        }
        return r;
      },
    });
    // the key used before for another request
    add(422, {
      request: async (ctx) => {
        const key = randomUUID();
        const r = await withKey(ctx, key);
        for (const table of await idempotencyTables(ctx.t)) {
          await pool(ctx).query(
            `INSERT INTO ${table} (owner, key, fingerprint, state, locked_until, outcome) VALUES ($1, $2, 'another request', 'done', now(), '{"ok": null}')`,
            [`user:${userOf(r)}`, key],
          );
        }
        return r;
      },
    });
  }
}

let sumsub: LocalSumsub | undefined;
let money: Awaited<ReturnType<typeof startMoneyProviders>> | undefined;
let banking: Awaited<ReturnType<typeof startBankingProvider>> | undefined;
let providers: Providers | undefined;
let assistant: Awaited<ReturnType<typeof startAssistantProvider>> | undefined;
/** The licence registry the console's licence page activates with (a LIC- key). */
let licenceRegistry: LocalRegistry | undefined;

async function tokenVersion(t: TestApp, userId: string): Promise<number> {
  const { rows } = await t.app.services.identity.store.pool.query<{ v: number }>('SELECT token_version AS v FROM identity.node_user WHERE id = $1', [userId]);
  return rows[0].v;
}

export const financeFixture: SurfaceFixture = {
  async start() {
    assistant = await startAssistantProvider();
    licenceRegistry = new LocalRegistry(3600);
    await licenceRegistry.start();
    providers = await startProviders();
    sumsub = new LocalSumsub(KYC_APP_TOKEN, KYC_SECRET_KEY);
    const kycUrl = await sumsub.start();
    money = await startMoneyProviders();
    banking = await startBankingProvider({ apiKey: BANKING_API_KEY, signingSecret: BANKING_WEBHOOK_SECRET });
    return {
      env: {
        ...assistant.env,
        ...providers.env,
        KYC_PROVIDER: 'sumsub',
        KYC_PROVIDER_URL: kycUrl,
        KYC_PROVIDER_APP_TOKEN: KYC_APP_TOKEN,
        KYC_PROVIDER_SECRET_KEY: KYC_SECRET_KEY,
        KYC_WEBHOOK_SECRET,
        KYC_DOCUMENT_MAX_BYTES: String(KYC_DOCUMENT_MAX_BYTES),
        BANKING_WEBHOOK_SECRET,
        BANKING_PROVIDER_URL: banking.url,
        BANKING_PROVIDER_API_KEY: BANKING_API_KEY,
        ...money.env,
      },
      stop: async () => {
        await licenceRegistry?.stop();
        await assistant?.close();
        await providers?.close();
        await sumsub?.stop();
        await money?.close();
        await banking?.stop();
      },
    };
  },
  async setUp(t: TestApp, state) {
    const s = state as unknown as FinanceState;
    const keys = licenceKeys();
    s.licenceToken = await licenceToken(keys);
    s.licenceKey = keys.publicKeyLine;
    await t.app.services.node.installLicence(s.licenceToken as string, s.licenceKey as string);
    const on = Object.fromEntries(TOGGLES.filter((g) => g.type === 'boolean' && 'module' in g && g.module).map((g) => [g.key, true]));
    await changeNode(t, () => t.app.services.node.node.updateSettings(on, 'test'));
    const values = (await t.app.services.node.node.settings()).values;
    s.settingsForm = Object.fromEntries(
      TOGGLES.flatMap((g) => (g.type === 'boolean' ? (values[g.key] === true ? [[g.field, 'on']] : []) : [[g.field, String(values[g.key])]])),
    );
    await t.app.services.investing.investing.syncInstruments({ provider: 'equities', trigger: 'test' });

    const user = await createUser(t);
    await t.app.services.identity.identity.setKycLevel(user.id, 'enhanced');
    for (const [currency, minor] of Object.entries({ EUR: 10_000_00n, USD: 10_000_00n, NGN: 100_000_00n, GHS: 1_000_00n, BTC: 1_000_000n })) {
      await t.app.services.ledger.ledger.fund(user.id, currency, minor, randomUUID());
    }
    s.userId = user.id;
    s.username = user.username;
    s.token = await login(t, user.username);
    const peer = await createUser(t);
    s.peer = peer.username;
    s.peerToken = await login(t, peer.username);
    const identity = t.app.services.identity.identity as unknown as {
      tokenService(): { issue(c: Record<string, unknown>, ttl: number): Promise<string> };
    };
    s.enrolToken = await identity
      .tokenService()
      .issue({ userId: user.id, username: user.username, scope: 'enrol-2fa', version: await tokenVersion(t, user.id) }, 3600);

    // 2FA: a user who started enrolling (confirm), one enrolled already (409s)
    const enrolling = await createUser(t);
    s.enrolUserToken = await login(t, enrolling.username);
    const enrolled = await createUser(t);
    s.enrolledToken = await login(t, enrolled.username);
    const started = await must('enrol', await call(t, s.enrolledToken as string, 'POST', '/api/auth/2fa/enrol/', { current_password: PASSWORD }), 201);
    s.enrolledSecret = started.secret;
    await must('confirm', await call(t, s.enrolledToken as string, 'POST', '/api/auth/2fa/confirm/', { otp: await totp(started.secret) }), 200);
    s.totpSecret = (await must('enrol', await call(t, s.enrolUserToken as string, 'POST', '/api/auth/2fa/enrol/', { current_password: PASSWORD }), 201)).secret;

    const admin = await createUser(t, undefined, { superuser: true });
    s.adminName = admin.username;
    s.adminId = admin.id;
    s.session = await adminSignIn(t, admin.username);

    // KYC: a user with an open verification, one with a submitted one (its applicant), one for the console to review
    s.kycToken = await login(t, (await createUser(t)).username);
    s.verification = (
      await must(
        'verification',
        await call(t, s.kycToken as string, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Grace', last_name: 'Hopper' }),
        201,
      )
    ).id;
    const submitter = await login(t, (await createUser(t)).username);
    const submitted = (
      await must(
        'verification',
        await call(t, submitter, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Alan', last_name: 'Turing' }),
        201,
      )
    ).id;
    await must(
      'document',
      await call(t, submitter, 'POST', `/api/v1/kyc/verifications/${submitted}/documents/`, { kind: 'passport', content_base64: PNG }),
      201,
    );
    await must('submit', await call(t, submitter, 'POST', `/api/v1/kyc/verifications/${submitted}/submit/`), 200);
    s.submittedVerification = submitted;
    s.kycToken2 = submitter;
    s.applicant = (await t.app.services.compliance.store.byId(submitted))!.applicantId!;

    const card = await must('card', await call(t, s.token, 'POST', '/api/v1/cards/', { currency: 'EUR' }, idem()), 201);
    s.card = card.id;
    s.providerCard = (await t.app.services.cards.store.card(card.id))!.providerCardId;
    s.cryptoAddress = (await must('address', await call(t, s.token, 'POST', '/api/v1/crypto/addresses/', { asset: 'BTC' }), 201)).address;
    s.product = (
      await t.app.services.commerce.shop.createProduct({ name: 'Replayed thing', description: 'A thing', price: '2.50', currency: 'EUR', stock: 100000 })
    ).id;
    s.scarce = (await t.app.services.commerce.shop.createProduct({ name: 'Scarce thing', description: 'Few', price: '1.00', currency: 'EUR', stock: 2 })).id;
    const transfer = await must(
      'transfer',
      await call(t, s.token, 'POST', '/api/v1/transfers/', { recipient: peer.username, amount: '1.00', currency: 'EUR' }, idem()),
      201,
    );
    s.transaction = transfer.id;
    s.bankTransfer = await bankTransfer({ t, state } as CaseContext);
    s.referralCode = (await must('rewards', await call(t, s.token, 'GET', '/api/v1/rewards/'), 200)).referral_code;
    // points to redeem: a paid order of 300.00 (a point per whole unit)
    const dear = (await t.app.services.commerce.shop.createProduct({ name: 'Dear thing', description: 'Points', price: '300.00', currency: 'EUR', stock: 10 }))
      .id;
    await must('cart', await call(t, s.token, 'POST', '/api/v1/shop/cart/items/', { product_id: dear, quantity: 1 }), 201);
    const dearOrder = (await must('checkout', await call(t, s.token, 'POST', '/api/v1/shop/checkout/'), 201)).id;
    await must('pay', await call(t, s.token, 'POST', `/api/v1/shop/orders/${dearOrder}/pay/`), 200);

    const valid = bearer(s.token);
    return { valid, admin: valid, client: valid, exhausted: valid, bySecurity: { session: { cookie: s.session.cookie } } };
  },
  recipes,
};
