import { randomUUID } from 'node:crypto';
import { admits, FIELD_AUDIENCE, ROLE_CAPABILITIES, type CallerClass } from '../../../subgraphs/finance/kernel/capabilities';
import { PRODUCT_NAMES } from '../../../subgraphs/products';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { adminSignIn, createUser, graphql, installValidLicence, login } from '../../support/finance/node';
import { financeFields, placeholderOperation } from '../../support/finance/fields';
import { createLicence } from '../../support/registry/registry';

/**
 * Role × field: GENERATED from the committed supergraph. Every query and mutation
 * the finance node serves is called, with placeholder arguments built from its types, by every kind of
 * caller — no credential, a node user, support staff, a superuser, the prediction API's administrator
 * key and a registry licence key — and each answer must match the node's ONE capability table
 * (subgraphs/finance/kernel/capabilities.ts): a caller the table admits gets past authorisation (its
 * answer may be any other error: the placeholders name nothing), a caller it does not admit gets
 * UNAUTHENTICATED, FORBIDDEN or SUPPORT_STAFF_FORBIDDEN. A field the table does not declare fails this
 * test (and the subgraph refuses to build).
 */
let t: TestApp;
let names: { superuser: string; support: string; user: string };
beforeAll(async () => {
  t = await startTestApp({}, { products: PRODUCT_NAMES });
  await installValidLicence(t);
  const tag = randomUUID().slice(0, 6);
  names = { superuser: `root_${tag}`, support: `helpdesk_${tag}`, user: `customer_${tag}` };
  // the host's way in (the seed and the CLI): no proposal needed
  await createUser(t, names.superuser, { superuser: true });
  await t.app.services.identity.identity.createUser({ username: names.support, password: 'correct horse battery staple', staff: true });
  await createUser(t, names.user);
}, 240_000);
afterAll(() => t?.stop());

const REFUSED = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'SUPPORT_STAFF_FORBIDDEN']);
type Headers = Record<string, string>;

/** Each caller class and how to (re)make its credential: a user's tokens end when a placeholder call signs them out. */
async function credentials(): Promise<Record<CallerClass, () => Promise<Headers>>> {
  const admin = { authorization: `Bearer ${t.adminKey}` };
  const licence = { 'x-license-key': (await createLicence(t)).key };
  return {
    anonymous: async () => ({}),
    user: async () => ({ authorization: `Bearer ${await login(t, names.user)}` }),
    support: async () => ({ cookie: (await adminSignIn(t, names.support)).cookie }),
    superuser: async () => ({ cookie: (await adminSignIn(t, names.superuser)).cookie }),
    // other products' credentials: both count as "foreign" in the table
    foreign: async () => admin,
    ...({ 'foreign (licence key)': async () => licence } as object),
  } as Record<CallerClass, () => Promise<Headers>>;
}

const codeOf = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code ?? 'OK';

it('declares every finance query and mutation of the supergraph in the capability table, and nothing the supergraph lacks', () => {
  const served = [...financeFields('Query'), ...financeFields('Mutation')];
  expect(served.length).toBeGreaterThan(150);
  expect(served.filter((f) => !(f in FIELD_AUDIENCE))).toEqual([]);
  // internal fields are in the table but not callable through the gateway (@inaccessible) or service-only
  const stale = Object.keys(FIELD_AUDIENCE).filter((f) => !served.includes(f) && !['authenticateNodeToken', 'authenticateAdminSession'].includes(f));
  expect(stale.filter((f) => FIELD_AUDIENCE[f] !== 'internal')).toEqual([]);
});

it('support staff handle cases and read: never a money decision, never the node, never operators', () => {
  for (const f of ['resolveDispute', 'approveLedgerAdjustment', 'rejectLedgerAdjustment', 'voidLedgerTransfer', 'adminVoidBankingMovement']) {
    expect([f, ROLE_CAPABILITIES.support.has(f)]).toEqual([f, false]);
  }
  for (const f of [
    'createNodeUser',
    'proposeNodeOperatorChange',
    'approveNodeOperatorChange',
    'updateNodeSettings',
    'installNodeLicence',
    'setNodeUserPhone',
  ]) {
    expect([f, ROLE_CAPABILITIES.support.has(f)]).toEqual([f, false]);
  }
  for (const f of [
    'reviewDispute',
    'adminPostDisputeMessage',
    'reviewKycVerification',
    'proposeLedgerAdjustment',
    'setNodeUserActive',
    'setNodeUserKycLevel',
  ]) {
    expect([f, ROLE_CAPABILITIES.support.has(f)]).toEqual([f, true]);
  }
  expect([...ROLE_CAPABILITIES.support].every((f) => ROLE_CAPABILITIES.superuser.has(f))).toBe(true);
});

it('answers every finance query and mutation to every kind of caller as the capability table says', async () => {
  const makers = await credentials();
  const headers = Object.fromEntries(await Promise.all(Object.entries(makers).map(async ([k, make]) => [k, await make()] as const))) as Record<string, Headers>;
  const wrong: string[] = [];
  let calls = 0;
  for (const root of ['Query', 'Mutation'] as const) {
    for (const field of financeFields(root)) {
      const audience = FIELD_AUDIENCE[field];
      if (!audience) continue; // the test above names it
      const query = placeholderOperation(root, field);
      for (const [caller, make] of Object.entries(makers)) {
        const cls = (caller.startsWith('foreign') ? 'foreign' : caller) as CallerClass;
        let code = codeOf((await graphql(t, query, {}, headers[caller])).body);
        // a placeholder call signed this caller out (nodeLogoutAll: its token is dead): sign in again and ask once more
        if ((code === 'UNAUTHENTICATED' || code === 'INVALID_CREDENTIALS') && cls !== 'anonymous') {
          headers[caller] = await make();
          code = codeOf((await graphql(t, query, {}, headers[caller])).body);
        }
        calls++;
        if (code === 'GRAPHQL_VALIDATION_FAILED') wrong.push(`${field}: the generated operation is invalid (${query})`);
        const allowed = admits(audience, cls);
        if (allowed === REFUSED.has(code))
          wrong.push(`${field} (${audience}) by ${caller}: ${code}, expected ${allowed ? 'to pass authorisation' : 'a refusal'}`);
      }
    }
  }
  expect(wrong).toEqual([]);
  expect(calls).toBeGreaterThan(900);
}, 600_000);

it("keeps the node's administrator view of nodeInfo (host, deployment, system checks) for its superusers: not support staff, not another product's administrator key", async () => {
  const query = '{ nodeInfo { name hostname checks { id } licence { source claims { licenceId } } } }';
  const asSuperuser = (await graphql(t, query, {}, { cookie: (await adminSignIn(t, names.superuser)).cookie })).body.data.nodeInfo;
  expect(asSuperuser.hostname).toEqual(expect.any(String));
  expect(asSuperuser.checks).toEqual(expect.any(Array));
  expect(asSuperuser.licence.claims).not.toBeNull();
  const publicView = { name: asSuperuser.name, hostname: null, checks: null, licence: { source: null, claims: null } };
  const others: Headers[] = [{ authorization: `Bearer ${t.adminKey}` }, { cookie: (await adminSignIn(t, names.support)).cookie }, {}];
  for (const headers of others) {
    expect((await graphql(t, query, {}, headers)).body.data.nodeInfo).toEqual(publicView);
  }
});
