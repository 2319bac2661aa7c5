import { ConfigError } from '../../../lib/config';
import { loadConfig } from '../../../subgraphs/products';
import { configurationChecks } from '../../../subgraphs/finance/node/domain/checks';
import { sandboxProvidersSelected } from '../../../subgraphs/finance/kernel/sandbox';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminSignIn, createUser, installValidLicence, login } from '../../support/finance/node';

/**
 * No sandbox provider in production unless named: with NODE_ENV=production the
 * offline sandboxes (KYC, banking rails/mobile money/ramps, cards, crypto, FX, SMS) are disabled — their
 * calls answer 503 sandbox_provider_disabled — unless ALLOW_SANDBOX_PROVIDERS lists them; the system
 * checks report each (app.W011 active, app.W012 disabled).
 */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('passport scan')]);
const PRODUCTION = {
  NODE_ENV: 'production',
  FRONTEND_URL: 'http://127.0.0.1:8000/app/',
  FRAMEWORK_SECRET_KEY: 'f'.repeat(64),
  SERVER_JWT_KEY: 'j'.repeat(48),
  PUBLIC_URL_REGISTRY: 'https://registry.example.com',
  PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
};

describe('the configuration', () => {
  it('in production, every sandbox the configuration selects is disabled, and reported, unless ALLOW_SANDBOX_PROVIDERS names it', () => {
    const plain = loadConfig(PRODUCTION);
    expect(sandboxProvidersSelected(plain)).toEqual(['kyc', 'banking', 'cards', 'crypto', 'fx', 'sms']);
    const checksOf = (config: ReturnType<typeof loadConfig>) =>
      configurationChecks(config, { generated: [] })
        .filter((c) => c.id === 'app.W011' || c.id === 'app.W012')
        .map((c) => [c.id, /(sandbox )?(\w+) provider/.exec(c.msg)![2]]);
    expect(checksOf(plain)).toEqual([
      ['app.W012', 'kyc'],
      ['app.W012', 'banking'],
      ['app.W012', 'cards'],
      ['app.W012', 'crypto'],
      ['app.W012', 'fx'],
      ['app.W012', 'sms'],
    ]);
    expect(checksOf(loadConfig({ ...PRODUCTION, ALLOW_SANDBOX_PROVIDERS: 'kyc,cards' }))).toEqual([
      ['app.W011', 'kyc'],
      ['app.W012', 'banking'],
      ['app.W011', 'cards'],
      ['app.W012', 'crypto'],
      ['app.W012', 'fx'],
      ['app.W012', 'sms'],
    ]);
    expect(sandboxProvidersSelected(loadConfig({ ...PRODUCTION, SMS_PROVIDER_URL: 'https://api.twilio.com' }))).not.toContain('sms');
    // development and tests: the sandboxes, nothing to report
    expect(checksOf(loadConfig({ NODE_ENV: 'development' }))).toEqual([]);
    expect(() => loadConfig({ ...PRODUCTION, ALLOW_SANDBOX_PROVIDERS: 'kyc,everything' })).toThrow(ConfigError);
  });
});

describe.each([
  ['without ALLOW_SANDBOX_PROVIDERS', {}, false],
  ['with ALLOW_SANDBOX_PROVIDERS=kyc,sms', { ALLOW_SANDBOX_PROVIDERS: 'kyc,sms' }, true],
] as const)('a production node %s', (_label, env, allowed) => {
  let t: TestApp<'finance'>;
  beforeAll(async () => {
    t = await startTestApp({ ...PRODUCTION, ...env }, { products: ['finance'] });
    await installValidLicence(t);
  });
  afterAll(() => t?.stop());

  it(
    allowed
      ? 'verifies with the sandbox KYC, and the system check reports it active'
      : 'refuses the sandbox KYC (503), and the system check reports it disabled',
    async () => {
      const user = await createUser(t);
      const token = await login(t, user.username);
      const call = (path: string, body?: unknown) =>
        http(`${t.urls.finance}${path}`, { method: 'POST', key: token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
      const created = await call('/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Grace', last_name: 'Hopper' });
      expect(created.status).toBe(201);
      await call(`/api/v1/kyc/verifications/${created.body.id}/documents/`, { kind: 'passport', content_base64: PNG.toString('base64') });
      const submitted = await call(`/api/v1/kyc/verifications/${created.body.id}/submit/`);
      if (allowed) {
        expect([submitted.status, submitted.body.state]).toEqual([200, 'verified']);
      } else {
        expect([submitted.status, submitted.body.code]).toEqual([503, 'sandbox_provider_disabled']);
        expect((await http(`${t.urls.finance}/api/v1/kyc/`, { key: token })).body.level).toBe('none');
      }

      const admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
      const node = await http(`${t.urls.finance}/api/v1/node/`, { headers: { cookie: admin.cookie } });
      const kycCheck = (node.body.checks as { id: string; message: string }[]).find((c) => /\bkyc provider/i.test(c.message));
      expect(kycCheck?.id).toBe(allowed ? 'app.W011' : 'app.W012');

      // the sandbox SMS provider (phone verification codes) follows the same rule
      const phone = await http(`${t.urls.finance}/api/v1/profile/phone/`, {
        method: 'PUT',
        key: token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone: '+447400123456' }),
      });
      expect([phone.status, phone.body.code]).toEqual(allowed ? [202, undefined] : [503, 'sandbox_provider_disabled']);
    },
  );
});
