import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import {
  adminSignIn,
  changeNode,
  createUser,
  graphql,
  installValidLicence,
  licenceKeys,
  licenceToken,
  login,
  type AdminSession,
} from '../../support/finance/node';
import { NODE_STATE_CHANGED } from '../../../subgraphs/finance/kernel/gate';

/**
 * The finance node accepts only licence tokens signed by the vendor keys it was built
 * with (vendor-keys.pem), else by the key of the first licence it installed (pinned). An operator who
 * signs a token with a key pair of their own cannot unlock writes: not through the admin console, the
 * CLI, the environment, nor by writing it into the node's tables.
 */
let t: TestApp;
let operator: AdminSession;
let vendor: ReturnType<typeof licenceKeys>;
beforeAll(async () => {
  t = (await startTestApp({}, { products: ['finance'] })) as unknown as TestApp;
  vendor = await installValidLicence(t);
  const admin = await createUser(t, undefined, { superuser: true });
  operator = await adminSignIn(t, admin.username);
}, 120_000);
afterAll(() => t?.stop());

const pool = () => t.app.services.ledger.store.pool;
const node = async () => (await http(`${t.urls.finance}/api/v1/node/`, { headers: { cookie: operator.cookie } })).body;
const install = (token: string, publicKey: string) =>
  graphql(
    t,
    'mutation($token: String!, $publicKey: String!) { installNodeLicence(token: $token, publicKey: $publicKey) { status valid } }',
    { token, publicKey },
    { cookie: operator.cookie },
  );

it("pins the first licence's key; a licence signed by the operator's own key pair is refused with 403 and changes nothing", async () => {
  const pin = await pool().query(`SELECT fingerprint, source FROM node.vendor_key`);
  expect(pin.rows).toEqual([{ fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), source: 'api' }]);
  const before = (await pool().query(`SELECT token, public_key FROM node.licence`)).rows;

  const own = licenceKeys({ fresh: true });
  const refused = await install(await licenceToken(own, { claims: { plan: 'unlimited', maxNodes: 999 } }), own.publicKeyPem);
  expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'UNTRUSTED_VENDOR_KEY' } });
  expect(refused.body.errors[0].message).toMatch(/^The licence was not installed: The licence is signed by a key this node does not trust/);
  expect((await pool().query(`SELECT token, public_key FROM node.licence`)).rows).toEqual(before);
  expect((await pool().query(`SELECT fingerprint FROM node.vendor_key`)).rows).toEqual([{ fingerprint: pin.rows[0].fingerprint }]);

  // the vendor's renewal, signed with the pinned key (in another notation), installs
  const renewed = await install(await licenceToken(vendor), vendor.publicKeyLine);
  expect(renewed.body).toEqual({ data: { installNodeLicence: { status: 'valid', valid: true } } });
});

it("a licence of another key written into the node's tables makes the node read-only (app.E010): writes answer 403", async () => {
  const user = await createUser(t);
  const token = await login(t, user.username);
  const before = (await pool().query(`SELECT token, public_key FROM node.licence`)).rows[0];
  const own = licenceKeys({ fresh: true });
  await changeNode(t, async () => {
    await pool().query(`UPDATE node.licence SET token = $1, public_key = $2`, [await licenceToken(own), own.publicKeyLine]);
    await pool().query('SELECT pg_notify($1, $2)', [NODE_STATE_CHANGED, 'licence']);
  });
  try {
    const state = await node();
    expect([state.read_only, state.licence.status, state.licence.checks]).toEqual([true, 'invalid', ['app.E010']]);
    expect(state.checks.map((c: { id: string }) => c.id)).toContain('app.E010');
    const write = await http(`${t.urls.finance}/api/v1/fx/quotes/`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source_currency: 'EUR', target_currency: 'GBP', source_amount: '10.00' }),
    });
    expect([write.status, write.body.code]).toEqual([403, 'licence_read_only']);
  } finally {
    await changeNode(t, async () => {
      await pool().query(`UPDATE node.licence SET token = $1, public_key = $2`, [before.token, before.public_key]);
      await pool().query('SELECT pg_notify($1, $2)', [NODE_STATE_CHANGED, 'licence']);
    });
  }
  expect((await node()).read_only).toBe(false);
});
