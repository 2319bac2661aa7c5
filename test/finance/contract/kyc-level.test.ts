import { PRODUCT_NAMES } from '../../../subgraphs/products';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminSignIn, createUser, graphql, installValidLicence, login } from '../../support/finance/node';

/**
 * A user's KYC level (none, basic, enhanced) lives with the user in the identity subgraph: the
 * administrators set it, a verification's outcome may (only the service principals allowed to), and
 * every operation of the user carries it in their principal: the next request sees a change.
 */
let t: TestApp;
/** The node's administrator: a superuser's console session (the prediction API's administrator keys have no say here). */
let asNodeAdmin: Record<string, string>;
beforeAll(async () => {
  // all three products: the other products' administrator key is refused
  t = await startTestApp({}, { products: PRODUCT_NAMES });
  await installValidLicence(t);
  asNodeAdmin = { cookie: (await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username)).cookie };
});
afterAll(() => t?.stop());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const levelOf = async (token: string) => (await graphql(t, '{ nodeUser { kycLevel } }', {}, bearer(token))).body.data?.nodeUser.kycLevel as string;
const setLevel = (user: string, level: string, headers: Record<string, string>) =>
  graphql(t, 'mutation($u: ID!, $l: NodeKycLevel!) { setNodeUserKycLevel(user: $u, level: $l) { username kycLevel } }', { u: user, l: level }, headers);

it('starts at NONE; an administrator sets it by user name, and the same token carries the new level at once', async () => {
  const user = await createUser(t);
  const token = await login(t, user.username);
  expect(await levelOf(token)).toBe('NONE');
  const res = await setLevel(user.username, 'BASIC', asNodeAdmin);
  expect(res.body).toEqual({ data: { setNodeUserKycLevel: { username: user.username, kycLevel: 'BASIC' } } });
  expect(await levelOf(token)).toBe('BASIC');
  expect((await t.app.gateway.execute({ query: '{ nodeUser { id } }' }, { headers: bearer(token) }, 'kyc')).status).toBe(200);
  // the principal itself carries it (what money movement's limits read)
  await t.app.services.identity.identity.setKycLevel(user.id, 'enhanced');
  expect(await levelOf(token)).toBe('ENHANCED');
});

it('refuses the user themselves, an unknown user (404) and a level outside the list (400)', async () => {
  const user = await createUser(t);
  const token = await login(t, user.username);
  expect((await setLevel(user.username, 'ENHANCED', bearer(token))).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  // nor the prediction API's administrator key
  expect((await setLevel(user.username, 'ENHANCED', { authorization: `Bearer ${t.adminKey}` })).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  expect(await levelOf(token)).toBe('NONE');
  expect((await setLevel('nobody_here', 'BASIC', asNodeAdmin)).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  const bad = await setLevel(user.username, 'PLATINUM', asNodeAdmin);
  expect(bad.status).toBe(400);
  await expect(t.app.services.identity.identity.setKycLevel(user.id, 'platinum' as never)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
});

it('lets only the service principals in KYC_LEVEL_WRITERS set it', async () => {
  const user = await createUser(t);
  const setLevelAs = (service: string) =>
    t.app.gateway.execute(
      { query: 'mutation($u: ID!) { setNodeUserKycLevel(user: $u, level: BASIC) { kycLevel } }', variables: { u: user.id } },
      { headers: {} },
      'kyc-service',
      { kind: 'service', name: service },
    );
  expect((await setLevelAs('predictions')).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  expect((await setLevelAs('compliance')).body.data).toEqual({ setNodeUserKycLevel: { kycLevel: 'BASIC' } });
});

it('GET /api/v1/kyc/ answers the level the money modules check: one source, whoever set it', async () => {
  const user = await createUser(t);
  const token = await login(t, user.username);
  const kyc = async () => (await http(`${t.urls.finance}/api/v1/kyc/`, { key: token })).body as { level: string; required_level: string };
  const quote = () =>
    http(`${t.urls.finance}/api/v1/fx/quotes/`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source_currency: 'EUR', target_currency: 'GBP', source_amount: '10.00' }),
    });
  expect(await kyc()).toMatchObject({ level: 'none', required_level: 'basic' });
  expect((await quote()).body).toMatchObject({ code: 'kyc_required', level: 'none' });
  // an administrator verifies the user at the basic level (no verification of the user's own)
  expect((await setLevel(user.username, 'BASIC', asNodeAdmin)).body.errors).toBeUndefined();
  expect(await kyc()).toMatchObject({ level: 'basic', required_level: 'basic' });
  expect((await quote()).status).toBe(201);
});
