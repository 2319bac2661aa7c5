import { parsePublicKey, verifyLicenceToken } from '../../../lib/licence-token';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { createLicence, gql, registryClient, type RegistryClient } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

let t: TestApp;
let demoKey: string;
let client: RegistryClient;
beforeAll(async () => {
  t = await startTestApp();
  demoKey = (await t.app.services.licensing.demoLicence()).licenceKey;
  client = registryClient(t, demoKey);
});
afterAll(() => t?.stop());

const keys = (o: object) => Object.keys(o);

describe('GET /api/v1/license', () => {
  it('answers the calling licence in the envelope, its key masked', async () => {
    const res = await client.get('/api/v1/license');
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['success', 'data']);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(keys(data)).toEqual(['id', 'key', 'status', 'product', 'plan', 'maxNodes', 'nodesInUse', 'maintenanceUntil', 'entitlements', 'organisation']);
    expect(data).toMatchObject({ key: `${demoKey.slice(0, 8)}-****-****`, status: 'Active', product: 'finance-node', plan: 'enterprise', maxNodes: 10 });
    expect(data.maintenanceUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(data.entitlements).toEqual(['enterprise-whitelabel']);
    expect(keys(data.organisation)).toEqual(['id', 'name']);
    expect(data.organisation.name).toBe('Demo Organisation');
    expect(res.text).not.toContain(demoKey);
  });

  it('takes the key from ?licenseKey= too, and in lower case', async () => {
    const res = await http(`${t.urls.registry}/api/v1/license?licenseKey=${demoKey.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data.product).toBe('finance-node');
  });
});

describe('licence key errors: {"success": false, "error": {"code", "message"}}', () => {
  const expectError = (res: { status: number; body: any }, status: number, code: string) => {
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
    expect(keys(res.body)).toEqual(['success', 'error']);
    expect(res.body.success).toBe(false);
    expect(keys(res.body.error)).toEqual(['code', 'message']);
  };

  it('401 UNAUTHORIZED when the key is missing (with a challenge)', async () => {
    for (const path of ['/api/v1/license', '/api/v1/releases', '/api/v1/releases/check-update?product=finance-node&channel=stable&current_version=1.0.0']) {
      const res = await client.get(path, { key: null });
      expectError(res, 401, 'UNAUTHORIZED');
      expect(res.body.error.message).toMatch(/licence key required/i);
      expect(res.headers.get('www-authenticate')).toMatch(/^License realm="licence-registry"/);
    }
    expectError(await client.post('/api/v1/license/checkout', undefined, { key: null }), 401, 'UNAUTHORIZED');
    expectError(
      await client.post('/api/v1/deployments/register', { hostname: 'a', ipAddress: '10.0.0.1', currentVersion: '1.0.0' }, { key: null }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('401 UNAUTHORIZED when it is malformed', async () => {
    for (const key of ['LIC-AAAA-BBBB', 'not-a-key', 'LIC-0000-1111-OOOO', t.adminKey]) {
      const res = await client.get('/api/v1/license', { key });
      expectError(res, 401, 'UNAUTHORIZED');
      expect(res.body.error.message).toMatch(/licence key/);
    }
  });

  it('401 LICENSE_NOT_FOUND for a well-formed key nobody holds', async () => {
    expectError(await client.get('/api/v1/license', { key: 'LIC-2345-6789-ABCD' }), 401, 'LICENSE_NOT_FOUND');
  });

  it('403 LICENSE_SUSPENDED while suspended, 200 again once reinstated, 403 LICENSE_REVOKED for good', async () => {
    const { key, id } = await createLicence(t);
    const licensing = t.app.services.licensing;
    expect((await client.get('/api/v1/license', { key })).status).toBe(200);
    await licensing.licences.suspend(id, 'test');
    expectError(await client.get('/api/v1/license', { key }), 403, 'LICENSE_SUSPENDED');
    await licensing.licences.reinstate(id, 'test');
    expect((await client.get('/api/v1/license', { key })).status).toBe(200);
    await licensing.licences.revoke(id, 'test');
    expectError(await client.get('/api/v1/license', { key }), 403, 'LICENSE_REVOKED');
    await expect(licensing.licences.reinstate(id, 'test')).rejects.toThrow(/Revoked/);
  });

  it('403 LICENSE_EXPIRED past its validity (before the upkeep job records it, and after)', async () => {
    const { key, id } = await createLicence(t, { expiresAt: new Date(Date.now() - 1000) });
    expectError(await client.get('/api/v1/license', { key }), 403, 'LICENSE_EXPIRED');
    expect(await t.app.services.licensing.licences.expireDue('test')).toBeGreaterThanOrEqual(1);
    expect((await t.app.services.licensing.licences.find(id)).status).toBe('Expired');
    expectError(await client.get('/api/v1/license', { key }), 403, 'LICENSE_EXPIRED');
  });
});

describe('signed licences', () => {
  it('GET /api/v1/license/public-key answers the Ed25519 key without a credential', async () => {
    const res = await client.get('/api/v1/license/public-key', { key: null });
    expect(res.status).toBe(200);
    expect(keys(res.body.data)).toEqual(['algorithm', 'keyId', 'publicKey']);
    expect(res.body.data.algorithm).toBe('EdDSA');
    expect(parsePublicKey(res.body.data.publicKey).asymmetricKeyType).toBe('ed25519');
  });

  it('POST /api/v1/license/checkout signs a licence token the finance node verifies offline', async () => {
    const res = await client.post('/api/v1/license/checkout');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(keys(data)).toEqual(['token', 'expiresAt', 'algorithm', 'keyId', 'publicKey']);
    const published = (await client.get('/api/v1/license/public-key', { key: null })).body.data;
    expect({ keyId: data.keyId, publicKey: data.publicKey, algorithm: data.algorithm }).toEqual(published);
    const verified = await verifyLicenceToken(data.token, parsePublicKey(data.publicKey), { audience: 'finance-node' });
    const licence = (await client.get('/api/v1/license')).body.data;
    expect(verified.keyId).toBe(data.keyId);
    expect(verified.claims).toEqual({
      licenceId: licence.id,
      organisationId: licence.organisation.id,
      organisationName: 'Demo Organisation',
      product: 'finance-node',
      plan: 'enterprise',
      maxNodes: 10,
      maintenanceUntil: licence.maintenanceUntil,
      entitlements: ['enterprise-whitelabel'],
      status: 'Active',
    });
    expect(verified.expiresAt!.toISOString()).toBe(new Date(data.expiresAt).toISOString());
    // LICENCE_TOKEN_TTL_DAYS (365 by default)
    expect(verified.expiresAt!.getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
    await expect(verifyLicenceToken(data.token, parsePublicKey(data.publicKey), { audience: 'another-product' })).rejects.toThrow(/aud/);
  });

  it('never outlives the licence, and refuses a suspended one', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000);
    const { key, id } = await createLicence(t, { expiresAt });
    const res = await client.post('/api/v1/license/checkout', undefined, { key });
    expect(Math.abs(new Date(res.body.data.expiresAt).getTime() - expiresAt.getTime())).toBeLessThan(1000);
    await t.app.services.licensing.licences.suspend(id, 'test');
    expect((await client.post('/api/v1/license/checkout', undefined, { key })).body.error.code).toBe('LICENSE_SUSPENDED');
  });

  it('publishes the same key through GraphQL', async () => {
    const res = await gql(t, '{ licensingPublicKey { algorithm keyId publicKey } }', {}, {});
    expect(res.data.licensingPublicKey).toEqual((await client.get('/api/v1/license/public-key', { key: null })).body.data);
  });
});

describe('authorisation by principal kind', () => {
  it("a licence key reaches only its own licence's data: no administration", async () => {
    const res = await gql(t, '{ licences { id } }', {}, { 'x-license-key': demoKey });
    expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const mutation = await gql(t, 'mutation { suspendLicence(licence: "LIC-AAAA") { id } }', {}, { 'x-license-key': demoKey });
    expect(mutation.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('a prediction API key (not an administrator) reaches no registry data', async () => {
    const key = await t.createKey('pro');
    for (const query of ['{ currentLicence { id } }', '{ licences { id } }']) {
      const res = await gql(t, query, {}, { authorization: `Bearer ${key}` });
      expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
  });

  it('the administrator key administers everything', async () => {
    const res = await gql(t, '{ licences(organisation: "demo") { key status plan { code maxNodes } organisation { slug } product { code } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.licences[0]).toMatchObject({ organisation: { slug: 'demo' }, product: { code: 'finance-node' } });
  });
});
