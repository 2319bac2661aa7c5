import { randomUUID } from 'node:crypto';
import { objectStoreFor } from '../../../lib/object-store';
import { FIELD_AUDIENCE, NOT_DECISIONS } from '../../../subgraphs/finance/kernel/capabilities';
import { LOGO_UPLOAD_PREFIX } from '../../../subgraphs/finance/node/contract';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { surface } from '../../support/platform/http';
import { adminSignIn, auditDelivered, changeNode, createUser, graphql, installValidLicence, licenceKeys, licenceToken } from '../../support/finance/node';
import { moneyMoves } from '../../support/finance/money';
import { financeFields, mutationWith } from '../../support/finance/fields';
import { LICENCE_KEY, LocalRegistry } from '../../support/finance/local-registry';

/**
 * Audit completeness: GENERATED from the committed supergraph and the capability
 * table. Every mutation an operator credential (support staff or superuser) may call is a decision,
 * and each writes an entry to the node's audit log in the decision's transaction: called here through
 * the gateway with a real case (SCENARIOS: one per mutation; a new operator mutation without one
 * fails this test), each must leave at least one new entry by this operator in node.audit_log.
 * Known missing before: setNodeUserPhone, setNodeSignupMode, createNodeInvite,
 * adminVoidBankingMovement, the shop's product changes, an operator's dispute message.
 */
let t: TestApp<'finance'>;
/** The finance tests' shared people and moves (a customer with basic KYC, a deposit, a balance). */
let m: ReturnType<typeof moneyMoves>;
let cookie: string;
let operator: { id: string; username: string };
let checker: { id: string; username: string };
const registry = new LocalRegistry();
const any = () => t as unknown as TestApp;

beforeAll(async () => {
  await registry.start();
  t = await startTestApp({}, { products: ['finance'] });
  m = moneyMoves(t);
  await installValidLicence(any());
  const on = Object.fromEntries(
    ['shop', 'mobile_money', 'disputes', 'rewards', 'virtual_iban', 'african_accounts', 'crypto', 'fiat_ramps', 'investments'].map((m) => [
      `${m}_enabled`,
      true,
    ]),
  );
  await changeNode(any(), () => t.app.services.node.node.updateSettings(on, 'test'));
  operator = await createUser(any(), `auditor_${randomUUID().slice(0, 8)}`, { superuser: true });
  checker = await createUser(any(), `checker_${randomUUID().slice(0, 8)}`, { superuser: true });
  cookie = (await adminSignIn(any(), operator.username)).cookie;
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await registry.stop();
});

const { send } = surface(() => t.urls.finance);

const product = () =>
  t.app.services.commerce.shop.createProduct({ name: `Thing ${randomUUID().slice(0, 6)}`, description: 'A thing', price: '15.00', currency: 'EUR', stock: 5 });

/** A product bought and paid by a customer of its own. */
async function paidOrder() {
  const u = await m.customer();
  await m.deposit(u.id, '15.00');
  const p = await product();
  await send('POST', '/api/v1/shop/cart/items/', u.token, { product_id: p.id, quantity: 1 });
  const order = (await send('POST', '/api/v1/shop/checkout/', u.token)).body;
  const paid = await send('POST', `/api/v1/shop/orders/${order.id}/pay/`, u.token);
  expect(paid.status).toBe(200);
  return { orderId: order.id as string, transactionId: paid.body.payment_transaction_id as string, user: u };
}

/** A dispute of a paid order, opened by its buyer (under review when asked). */
async function disputedOrder(underReview = false) {
  const { transactionId, user } = await paidOrder();
  const opened = await send('POST', '/api/v1/disputes/', user.token, { transaction_id: transactionId, reason: 'not_received', description: 'It never came.' });
  expect(opened.status).toBe(201);
  if (underReview) await t.app.services.commerce.disputes.review(opened.body.id, { role: 'admin', username: checker.username });
  return opened.body.id as string;
}

async function submittedVerification() {
  const u = await m.customer();
  const created = await send('POST', '/api/v1/kyc/verifications/', u.token, { level: 'basic', first_name: 'Ada', last_name: 'Review' });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR passport scan')]);
  await send('POST', `/api/v1/kyc/verifications/${created.body.id}/documents/`, u.token, { kind: 'passport', content_base64: png.toString('base64') });
  expect((await send('POST', `/api/v1/kyc/verifications/${created.body.id}/submit/`, u.token)).body.state).toBe('in_review');
  return created.body.id as string;
}

/** A document of a verification waiting for review. */
async function kycDocument() {
  const u = await m.customer();
  const created = await send('POST', '/api/v1/kyc/verifications/', u.token, { level: 'basic', first_name: 'Ada', last_name: 'Viewed' });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR passport scan')]);
  const doc = await send('POST', `/api/v1/kyc/verifications/${created.body.id}/documents/`, u.token, {
    kind: 'passport',
    content_base64: png.toString('base64'),
  });
  return doc.body.id as string;
}

const adjustment = async () =>
  (
    await t.app.services.ledger.adjustments.propose(
      { user: (await createUser(any())).username, direction: 'credit', currency: 'EUR', amount: '1.00', reason: 'audit completeness' },
      { id: checker.id, name: checker.username },
    )
  ).id;

const operatorChange = async () =>
  (
    await t.app.services.identity.operators.propose(
      { userId: checker.id, username: checker.username, role: 'superuser' },
      (await createUser(any())).id,
      'support',
      '',
    )
  ).id;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]).toString('base64');
const productInput = { name: 'Audited lamp', description: 'Bright', price: '9.90', currency: 'EUR', stock: 3 };
let phones = 0;

/** A real case of each operator mutation: the variables of a call that succeeds. */
const SCENARIOS: Record<string, () => Promise<Record<string, unknown>>> = {
  // identity
  setNodeUserActive: async () => ({ user: (await createUser(any())).id, active: false }),
  setNodeUserKycLevel: async () => ({ user: (await createUser(any())).id, level: 'BASIC' }),
  setNodeUserPhone: async () => ({ user: (await createUser(any())).id, phone: `+4479111${String(40000 + phones++)}` }),
  setNodeSignupMode: async () => ({ mode: 'open' }),
  createNodeInvite: async () => ({ note: 'audit completeness' }),
  createNodeUser: async () => ({
    username: `made_${randomUUID().slice(0, 8)}`,
    email: `made_${randomUUID().slice(0, 8)}@example.com`,
    password: 'a fine long password',
  }),
  proposeNodeOperatorChange: async () => ({ user: (await createUser(any())).id, change: 'superuser' }),
  approveNodeOperatorChange: async () => ({ id: await operatorChange() }),
  rejectNodeOperatorChange: async () => ({ id: await operatorChange() }),
  // ledger
  proposeLedgerAdjustment: async () => ({
    user: (await createUser(any())).username,
    currency: 'EUR',
    amount: '1.00',
    direction: 'credit',
    reason: 'audit completeness',
  }),
  approveLedgerAdjustment: async () => ({ id: await adjustment() }),
  rejectLedgerAdjustment: async () => ({ id: await adjustment() }),
  voidLedgerTransfer: async () => {
    const u = await m.customer();
    await m.deposit(u.id, '20.00');
    const ledger = t.app.services.ledger.ledger;
    const clearing = await ledger.account('system', '00000000-0000-0000-0000-000000000000', 'EUR', 'payments:clearing');
    const id = randomUUID();
    await ledger.createTransfers([
      { id, debitAccountId: (await ledger.wallet(u.id, 'EUR')).id, creditAccountId: clearing.id, amount: 7_00n, code: 'withdrawal', kind: 'pending' },
    ]);
    return { id };
  },
  // banking
  adminVoidBankingMovement: async () => {
    const u = await m.customer();
    const deposit = await send('POST', '/api/v1/mobile-money/deposits/', u.token, { amount: '1000', currency: 'UGX', phone_number: '+256772123456' });
    expect(deposit.status).toBe(201);
    return { id: deposit.body.id };
  },
  adminSimulateIncomingTransfer: async () => {
    const u = await m.customer();
    const eur = await send('POST', '/api/v1/virtual-accounts/', u.token, { currency: 'EUR' });
    expect(eur.status).toBe(201);
    return { accountId: eur.body.id, amount: '5.00', senderName: 'Audit sender' };
  },
  // commerce
  createShopProduct: async () => ({ input: productInput }),
  updateShopProduct: async () => ({ id: (await product()).id, input: { ...productInput, price: '11.00' } }),
  setShopProductImage: async () => ({ id: (await product()).id, contentType: 'image/png', content: PNG }),
  fulfilShopOrder: async () => ({ id: (await paidOrder()).orderId }),
  adminCancelShopOrder: async () => ({ id: (await paidOrder()).orderId }),
  reviewDispute: async () => ({ id: await disputedOrder() }),
  rejectDispute: async () => ({ id: await disputedOrder(true), note: 'Delivered.' }),
  resolveDispute: async () => ({ id: await disputedOrder(true), note: 'Refunded.' }),
  adminPostDisputeMessage: async () => ({ id: await disputedOrder(), body: 'We are looking into it.' }),
  // compliance
  reviewKycVerification: async () => ({ verificationId: await submittedVerification(), decision: 'verified' }),
  viewKycDocument: async () => ({ documentId: await kycDocument() }),
  // node
  updateNodeSettings: async () => ({ input: { rewardsEnabled: true } }),
  updateNodeBranding: async () => ({ input: { organisationName: 'Audited Org' } }),
  uploadNodeLogo: async () => {
    // what the REST surface stages (POST /admin/node/branding/logo/): a PNG under branding/uploads/
    const uploadKey = `${LOGO_UPLOAD_PREFIX}${randomUUID()}`;
    await objectStoreFor(t.config).put(uploadKey, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), { contentType: 'image/png' });
    return { uploadKey };
  },
  installNodeLicence: async () => {
    const keys = licenceKeys();
    return { publicKey: keys.publicKeyLine, token: await licenceToken(keys) };
  },
  activateNodeLicence: async () => ({ licenceKey: LICENCE_KEY, registryUrl: registry.url }),
  saveProviderCredential: async () => ({ provider: 'card_issuer', name: 'api_key', secret: `sk_${randomUUID()}` }),
  deleteProviderCredential: async () => ({
    id: (await t.app.services.node.node.saveProviderCredential({ provider: 'crypto_exchange', name: 'api_key', secret: `sk_${randomUUID()}` }, 'test')).id,
  }),
};

/** The mutations an operator credential may call that decide something, from the supergraph and the capability table. */
const decisions = () =>
  financeFields('Mutation').filter((f) => (FIELD_AUDIENCE[f] === 'operator' || FIELD_AUDIENCE[f] === 'superuser') && !NOT_DECISIONS.has(f));

const entriesBy = async (actor: string) =>
  (await t.app.services.ledger.store.pool.query<{ action: string }>('SELECT action FROM node.audit_log WHERE actor = $1 ORDER BY at, id', [actor])).rows.map(
    (r) => r.action,
  );

it('has a real case for every operator mutation of the supergraph (a new one needs its case here), and no case for a field that is not one', () => {
  const fields = decisions();
  expect(fields.length).toBeGreaterThanOrEqual(29);
  expect(fields.filter((f) => !(f in SCENARIOS))).toEqual([]);
  expect(Object.keys(SCENARIOS).filter((f) => !fields.includes(f))).toEqual([]);
});

it('every operator decision writes its audit entry (node.audit_log, by this operator)', async () => {
  const actor = `admin:${operator.username}`;
  const unaudited: string[] = [];
  const actions: Record<string, string[]> = {};
  for (const field of decisions().filter((f) => f in SCENARIOS)) {
    const variables = await SCENARIOS[field]();
    await auditDelivered(any());
    const before = (await entriesBy(actor)).length;
    const res = await graphql(any(), mutationWith(field, variables), variables, { cookie });
    if (res.body.errors) {
      unaudited.push(`${field}: the case failed: ${JSON.stringify(res.body.errors[0])}`);
      continue;
    }
    await auditDelivered(any());
    actions[field] = (await entriesBy(actor)).slice(before);
    if (!actions[field].length) unaudited.push(`${field}: no audit entry`);
  }
  expect(unaudited).toEqual([]);
  // what the known-missing ones write now
  expect(actions).toMatchObject({
    setNodeUserPhone: ['user.phone_set'],
    setNodeSignupMode: ['signup.mode_set'],
    createNodeInvite: ['invite.created'],
    adminVoidBankingMovement: ['movement.voided'],
    adminSimulateIncomingTransfer: ['movement.simulated'],
    createShopProduct: ['product.created'],
    adminPostDisputeMessage: ['dispute.message_posted'],
  });
}, 300_000);
