import { Supergraph } from '@apollo/federation-internals';
import { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType } from 'graphql';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { MAX_AMOUNT_MINOR, maxAmount } from '../../../subgraphs/finance/kernel/currencies';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { createUser, graphql, installValidLicence, login } from '../../support/finance/node';
import { invariants } from '../../support/finance/ledger';

/**
 * One maximum per currency for every money amount (subgraphs/finance/kernel/currencies.ts: 10^14 minor
 * units), read by the one parser of amounts (toMinor) on every REST route and GraphQL mutation, and
 * enforced by the ledger itself, whose account sums can never leave bigint's range.
 */

let t: TestApp<'finance'>;
const { url, send } = surface(() => t.urls.finance, { idempotent: true });

beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
}, 120_000);
afterAll(() => t?.stop());

async function user() {
  const u = await createUser(t as unknown as TestApp);
  await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  return { ...u, token: await login(t as unknown as TestApp, u.username) };
}

const HOSTILE = ['92233720368547758.07', '99999999999999999', '1000000000000000000000000000000', '1e30', '9'.repeat(400)];

describe('the maximum of a movement', () => {
  it('is 10^14 minor units in every currency, documented as a decimal per currency', () => {
    expect(MAX_AMOUNT_MINOR).toBe(10n ** 14n);
    expect([maxAmount('GHS'), maxAmount('UGX'), maxAmount('BTC')]).toEqual(['1000000000000.00', '100000000000000', '1000000.00000000']);
  });

  it('refuses a mobile-money deposit of 92233720368547758.07 GHS with 400, and later deposits by others still work', async () => {
    const [mallory, alice] = [await user(), await user()];
    const huge = await send('POST', '/api/v1/mobile-money/deposits/', mallory.token, {
      amount: '92233720368547758.07',
      currency: 'GHS',
      phone_number: '+233241234567',
    });
    expect([huge.status, huge.body.code]).toEqual([400, 'invalid']);
    expect(huge.body.errors.amount).toEqual(['Ensure this value is less than or equal to 1000000000000.00.']);
    const over = await send('POST', '/api/v1/mobile-money/deposits/', mallory.token, {
      amount: '1000000000000.01',
      currency: 'GHS',
      phone_number: '+233241234567',
    });
    expect(over.status).toBe(400);
    const max = await send('POST', '/api/v1/mobile-money/deposits/', mallory.token, {
      amount: '1000000000000.00',
      currency: 'GHS',
      phone_number: '+233241234567',
    });
    // the largest amount is well-formed, and more than one deposit may bring in (the deposit limits)
    expect([max.status, max.body.code]).toEqual([403, 'limit_exceeded']);
    const later = await send('POST', '/api/v1/mobile-money/deposits/', alice.token, { amount: '50.00', currency: 'GHS', phone_number: '+233241234567' });
    expect([later.status, later.body.amount]).toEqual([201, { amount: '50.00', currency: 'GHS' }]);
    expect(await invariants(t.app.services.ledger.store.store, 'GHS')).toBeGreaterThan(0);
  });

  it("refuses, before writing anything, a movement that would take an account's sums beyond what the ledger holds (422 amount_too_large)", async () => {
    const ledger = t.app.services.ledger.ledger;
    const store = t.app.services.ledger.store.store;
    const [a, b] = [await user(), await user()];
    await ledger.fund(a.id, 'KES', 100n, randomUUID());
    expect((await send('POST', '/api/v1/mobile-money/deposits/', a.token, { amount: '1.00', currency: 'KES', phone_number: '+254712345678' })).status).toBe(
      201,
    );
    // the system accounts of KES near the ledger's ceiling, as after a very long life
    const near = '3999999999999999000';
    const { rows } = await store.pool.query(
      `UPDATE ledger.account SET debits_posted = debits_posted + $1, credits_posted = credits_posted + $1,
                                 debits_pending = debits_pending + $1, credits_pending = credits_pending + $1
        WHERE owner_type <> 'user' AND currency = 'KES' RETURNING id`,
      [near],
    );
    expect(rows.length).toBeGreaterThan(0);
    const before = await store.pool.query(`SELECT count(*)::int AS n FROM ledger.transfer WHERE currency = 'KES'`);
    // posted in one statement (postSingle)
    await expect(ledger.fund(b.id, 'KES', MAX_AMOUNT_MINOR, randomUUID())).rejects.toMatchObject({
      extensions: { code: 'AMOUNT_TOO_LARGE', http: { status: 422 } },
    });
    // pending, through REST (a batch in a transaction)
    const pending = await send('POST', '/api/v1/mobile-money/deposits/', b.token, {
      amount: '1000000000000.00',
      currency: 'KES',
      phone_number: '+254712345678',
    });
    // a user's deposit is held to their deposit limits first: a maximal one never reaches the ledger
    expect([pending.status, pending.body.code]).toEqual([403, 'limit_exceeded']);
    expect((await store.pool.query(`SELECT count(*)::int AS n FROM ledger.transfer WHERE currency = 'KES'`)).rows[0].n).toBe(before.rows[0].n);
    // movements that fit still go through
    await expect(ledger.fund(b.id, 'KES', 500n, randomUUID())).resolves.toMatchObject({ result: 'created' });
    const small = await send('POST', '/api/v1/mobile-money/deposits/', b.token, { amount: '5.00', currency: 'KES', phone_number: '+254712345678' });
    expect(small.status).toBe(201);
    // and the clearing account near the ledger's maximum is an alert for the operator
    expect(t.app.services.banking.banking.clearingAlerts.get('banking:momo KES')).toBeGreaterThanOrEqual(99);
  });
});

/** Every money field of the finance node's OpenAPI document: decimal strings of a JSON request body. */
interface MoneyField {
  method: string;
  path: string;
  field: string[];
}

type Schema = { $ref?: string; type?: string; description?: string; properties?: Record<string, Schema>; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };
const MONEY_NAME = /(^|_)(amount|price|limit|per_authorisation|daily|monthly|denomination|notional|qty)$/;

function moneyFields(doc: {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}): MoneyField[] {
  const resolveRef = (s: Schema): Schema => (s.$ref ? doc.components!.schemas![s.$ref.split('/').pop()!] : s);
  const found: MoneyField[] = [];
  const walk = (raw: Schema, at: string[], method: string, path: string) => {
    const s = resolveRef(raw);
    for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, [...at, k], method, path);
    for (const x of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(x, at, method, path);
    const name = at[at.length - 1] ?? '';
    if (s.type === 'string' && (MONEY_NAME.test(name) || /decimal string/i.test(s.description ?? ''))) found.push({ method, path, field: at });
  };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['post', 'put', 'patch'].includes(method)) continue;
      for (const [type, content] of Object.entries(op.requestBody?.content ?? {}))
        if (type.includes('json')) walk(content.schema, [], method.toUpperCase(), path);
    }
  }
  return found;
}

/** What each route needs beside its money field for that field to be read: the values of a valid request. */
async function validBodies(token: string): Promise<Record<string, Record<string, unknown>>> {
  const recipient = await user();
  const card = await send('POST', '/api/v1/cards/', token, { currency: 'EUR' });
  const operators = (await http(url('/api/v1/utilities/catalogue/'), { key: token })).body;
  const products = (await http(url('/api/v1/shop/products/'), { key: token })).body;
  const brands = (await http(url('/api/v1/gift-cards/brands/'), { key: token })).body;
  const first = (list: unknown) => ((list as { results?: unknown[] })?.results ?? (Array.isArray(list) ? list : []))[0] as Record<string, unknown> | undefined;
  const airtime = (operators?.airtime ?? operators?.operators ?? [])[0] ?? first(operators);
  const biller = (operators?.bills ?? operators?.billers ?? [])[0];
  const brand = first(brands);
  const instrument = first((await http(url('/api/v1/instruments/'), { key: token })).body);
  return {
    'POST /api/v1/transfers/': { recipient: recipient.username, currency: 'EUR' },
    'POST /api/v1/fx/quotes/': { source_currency: 'EUR', target_currency: 'NGN' },
    'POST /api/v1/crypto/quotes/': { from_asset: 'BTC', to_asset: 'USDT' },
    'POST /api/v1/cards/': { currency: 'EUR' },
    [`PATCH /api/v1/cards/{id}/`]: { _path: `/api/v1/cards/${card.body.id}/` },
    'POST /api/v1/bank-transfers/': { currency: 'NGN', bank_code: '058', account_number: '0123456789', account_name: 'Ada' },
    'POST /api/v1/mobile-money/deposits/': { currency: 'GHS', phone_number: '+233241234567' },
    'POST /api/v1/mobile-money/withdrawals/': { currency: 'GHS', phone_number: '+233241234567' },
    'POST /api/v1/ramps/': { direction: 'on', fiat_currency: 'EUR', asset: 'USDT' },
    'POST /api/v1/shop/cart/items/': { product_id: first(products)?.id, quantity: 1 },
    'POST /api/v1/utilities/airtime/': { operator: airtime?.id ?? airtime?.code, phone_number: '+2348031234567', currency: airtime?.currency ?? 'NGN' },
    'POST /api/v1/utilities/bills/': { biller: biller?.id ?? biller?.code, account_number: '1234567890', currency: biller?.currency ?? 'NGN' },
    'POST /api/v1/gift-cards/orders/': { brand_id: brand?.id, country: (brand?.countries as string[] | undefined)?.[0] ?? 'US', quantity: 1 },
    'POST /api/v1/orders/': { symbol: instrument?.symbol ?? 'AAPL', side: 'buy', type: 'limit', qty: '1', limit_price: '10.00' },
  };
}

const withValue = (base: Record<string, unknown>, field: string[], value: string): Record<string, unknown> => {
  const body = structuredClone(base);
  delete body._path;
  let at = body;
  for (const k of field.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
  at[field[field.length - 1]] = value;
  return body;
};

describe('one validation of money amounts', () => {
  it('answers 400 to hostile amounts in every money field of the OpenAPI document, never 500', async () => {
    const doc = (await http(url('/swagger.json'))).body;
    const fields = moneyFields(doc);
    // the document's money fields, found by walking it (a new one is covered as soon as it is documented)
    expect(fields.map((f) => `${f.method} ${f.path} ${f.field.join('.')}`)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/transfers/ amount',
        'POST /api/v1/fx/quotes/ source_amount',
        'POST /api/v1/crypto/quotes/ from_amount',
        'POST /api/v1/cards/ spending_limits.per_authorisation',
        'POST /api/v1/mobile-money/deposits/ amount',
      ]),
    );
    const u = await user();
    const bodies = await validBodies(u.token);
    const answers: string[] = [];
    for (const f of fields) {
      const base = bodies[`${f.method} ${f.path}`];
      expect([`${f.method} ${f.path}`, base]).toEqual([`${f.method} ${f.path}`, expect.any(Object)]);
      for (const value of HOSTILE) {
        const res = await send(f.method, (base._path as string | undefined) ?? f.path, u.token, withValue(base, f.field, value));
        answers.push(`${f.method} ${f.path} ${f.field.join('.')} ${value.slice(0, 24)} → ${res.status} ${res.body?.code ?? ''}`);
      }
    }
    expect(answers.filter((a) => !/→ 400 invalid$/.test(a))).toEqual([]);
  }, 300_000);

  it('answers BAD_USER_INPUT to hostile amounts in every money argument of the GraphQL mutations, never INTERNAL_SERVER_ERROR', async () => {
    const schema = Supergraph.build(readFileSync(join(projectRoot(), 'schema/supergraph.finance.graphql'), 'utf8'))
      .apiSchema()
      .toGraphQLJSSchema();
    const u = await user();
    const recipient = await user();
    const card = await send('POST', '/api/v1/cards/', u.token, { currency: 'EUR' });
    const bodies = await validBodies(u.token);
    const restOf = (mutation: string) => {
      const key = MUTATION_ROUTES[mutation];
      return key ? Object.fromEntries(Object.entries(bodies[key] ?? {}).map(([k, v]) => [k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), v])) : {};
    };
    const known: Record<string, unknown> = { recipient: recipient.username, id: card.body.id, quantity: 1 };
    const answers: string[] = [];
    for (const [name, field] of Object.entries(schema.getMutationType()!.getFields())) {
      const companions = { ...known, ...restOf(name) };
      for (const path of moneyArguments(field.args)) {
        for (const value of HOSTILE.slice(0, 3)) {
          const variables = Object.fromEntries(field.args.map((a) => [a.name, argumentValue(a.type, [a.name], path, value, companions)]));
          const defs = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
          const query = `mutation(${defs}) { ${name}(${field.args.map((a) => `${a.name}: $${a.name}`).join(', ')}) { __typename } }`;
          const res = await graphql(t as unknown as TestApp, query, variables, { authorization: `Bearer ${u.token}` });
          answers.push(`${name} ${path.join('.')} ${value.slice(0, 20)} → ${res.status} ${res.body.errors?.[0]?.extensions?.code ?? 'OK'}`);
        }
      }
    }
    // every money argument was reached; the mutations of other principals refuse a user first (an administrator's adjustment:
    // its hostile amounts are 400 in test/finance/contract/console-operators.test.ts)
    expect(answers.length).toBeGreaterThan(30);
    const OTHERS =
      /^(createShopProduct|updateShopProduct|createLedgerTransfers|proposeLedgerAdjustment|adminSimulateIncomingTransfer) .* → (403|401) (FORBIDDEN|UNAUTHENTICATED)$/;
    expect(answers.filter((a) => !/→ 400 BAD_USER_INPUT$/.test(a) && !OTHERS.test(a))).toEqual([]);
  }, 300_000);
});

/** The REST route of a mutation: its valid companion values are the route's (camelCased). */
const MUTATION_ROUTES: Record<string, string> = {
  sendBankTransfer: 'POST /api/v1/bank-transfers/',
  requestMobileMoneyDeposit: 'POST /api/v1/mobile-money/deposits/',
  requestMobileMoneyWithdrawal: 'POST /api/v1/mobile-money/withdrawals/',
  createRamp: 'POST /api/v1/ramps/',
  issueCard: 'POST /api/v1/cards/',
  addShopCartItem: 'POST /api/v1/shop/cart/items/',
  requestAirtime: 'POST /api/v1/utilities/airtime/',
  requestBillPayment: 'POST /api/v1/utilities/bills/',
  orderGiftCard: 'POST /api/v1/gift-cards/orders/',
  createCryptoQuote: 'POST /api/v1/crypto/quotes/',
  submitInvestmentOrder: 'POST /api/v1/orders/',
  createTransfer: 'POST /api/v1/transfers/',
  createFxQuote: 'POST /api/v1/fx/quotes/',
};

const MONEY_ARGUMENT = /(amount|Amount|price|Price|Limit|^limit|denomination|notional|^qty)$/;

/** The paths of the String arguments (and input fields) of a mutation that hold money amounts. */
function moneyArguments(args: readonly { name: string; type: GraphQLInputType }[]): string[][] {
  const found: string[][] = [];
  const walk = (type: GraphQLInputType, at: string[], seen: Set<string>) => {
    const named = getNamedType(type);
    if (isInputObjectType(named)) {
      if (seen.has(named.name)) return;
      for (const [k, v] of Object.entries(named.getFields())) walk(v.type, [...at, k], new Set([...seen, named.name]));
    } else if (named.name === 'String' && MONEY_ARGUMENT.test(at[at.length - 1])) found.push(at);
  };
  for (const a of args) walk(a.type, [a.name], new Set());
  return found;
}

/** A value for an argument: the hostile amount at `target`, companions by name, else the simplest valid value of its type. */
function argumentValue(type: GraphQLInputType, at: string[], target: string[], value: string, companions: Record<string, unknown>): unknown {
  if (at.join('.') === target.join('.')) return value;
  const name = at[at.length - 1];
  const required = isNonNullType(type);
  const inner = required ? type.ofType : type;
  if (isListType(inner)) return [argumentValue(inner.ofType, at, target, value, companions)];
  if (isInputObjectType(inner)) {
    if (!required && !target.join('.').startsWith(at.join('.'))) return undefined;
    return Object.fromEntries(Object.entries(inner.getFields()).map(([k, f]) => [k, argumentValue(f.type, [...at, k], target, value, companions)]));
  }
  if (name in companions) return companions[name];
  if (!required) return undefined;
  if (isEnumType(inner)) return inner.getValues()[0].value;
  return inner.name === 'Int' || inner.name === 'Float' ? 1 : inner.name === 'Boolean' ? false : inner.name === 'ID' ? randomUUID() : 'x';
}

describe('one code per refusal on REST and GraphQL', () => {
  it('refuses a transfer beyond the balance as insufficient_funds over REST and INSUFFICIENT_FUNDS over GraphQL', async () => {
    const [payer, payee] = [await user(), await user()];
    const rest = await send('POST', '/api/v1/transfers/', payer.token, { recipient: payee.username, amount: '5.00', currency: 'EUR' });
    expect([rest.status, rest.body.code]).toEqual([422, 'insufficient_funds']);
    const gql = await graphql(
      t as unknown as TestApp,
      'mutation($r: String!) { createTransfer(recipient: $r, amount: "5.00", currency: "EUR") { id } }',
      { r: payee.username },
      { authorization: `Bearer ${payer.token}` },
    );
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_FUNDS');
  });
});
