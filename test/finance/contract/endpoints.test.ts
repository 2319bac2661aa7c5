import { PRODUCT_NAMES } from '../../../subgraphs/products';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { generate as totpGenerate } from 'otplib';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { startAssistantProvider } from '../../support/finance/assistant';
import { validateOpenApi } from '../../support/platform/openapi';
import {
  adminPost,
  adminSignIn,
  changeNode,
  createUser,
  graphql,
  installValidLicence,
  licenceKeys,
  licenceToken,
  login,
  PASSWORD,
} from '../../support/finance/node';

/**
 * The finance node's REST surface (contract docs/contracts/finance-node.md §4), exactly: paths, statuses, headers,
 * bodies. The system runs in-process on this file's own database; the assistant's provider is a
 * local server speaking the OpenAI chat-completions protocol.
 */

let t: TestApp;
let provider: Awaited<ReturnType<typeof startAssistantProvider>>;

beforeAll(async () => {
  provider = await startAssistantProvider();
  t = await startTestApp(
    {
      APP_NAME: 'Acme Finance',
      APP_VERSION: '2.3.4',
      ...provider.env,
      CSRF_TRUSTED_ORIGINS: 'https://app.example.com',
      CORS_ALLOWED_ORIGINS: 'https://app.example.com',
    },
    // all three products: credentials of the others must not reach finance data (and the reverse)
    { products: PRODUCT_NAMES },
  );
});
afterAll(async () => {
  await t?.stop();
  await provider?.close();
});

const { url } = surface(() => t.urls.finance);
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('every response names the node', () => {
  it('carries X-App-Name and X-App-Version (APP_NAME, APP_VERSION) and X-Request-ID on successes, errors and probes', async () => {
    for (const [path, status] of [
      ['/healthz', 200],
      ['/api/v1/config/', 200],
      ['/api/balance/', 401],
      ['/api/nope/', 404],
      ['/swagger.json', 200],
    ] as const) {
      const res = await http(url(path));
      expect([path, res.status, res.headers.get('x-app-name'), res.headers.get('x-app-version')]).toEqual([path, status, 'Acme Finance', '2.3.4']);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const echoed = await http(url('/healthz'), { headers: { 'x-request-id': 'client-req-42' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-req-42');
  });
});

describe('probes', () => {
  it('GET /healthz and /livez answer 200 {"status": "ok"} without dependencies; ?verbose lists the checks', async () => {
    for (const path of ['/healthz', '/livez']) {
      const res = await http(url(path));
      expect([res.status, res.body]).toEqual([200, { status: 'ok' }]);
      const verbose = await http(url(`${path}?verbose`));
      expect(verbose.body).toBe(`[+]ping ok\n${path.slice(1)} check passed\n`);
    }
  });

  const FINANCE_SUBGRAPHS = ['node', 'identity', 'ledger', 'compliance', 'banking', 'cards', 'crypto', 'commerce', 'investing', 'payments'];
  const checksOf = (body: { checks: { subgraph: string; ready: boolean; pending_migrations: string[] }[] }) =>
    body.checks.map((c) => [c.subgraph, c.ready, c.pending_migrations]);

  it("GET /readyz is 200 when the database answers and every migration of every finance subgraph's schema is applied", async () => {
    const res = await http(url('/readyz'));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(checksOf(res.body)).toEqual(FINANCE_SUBGRAPHS.map((s) => [s, true, []]));
  });

  it("GET /readyz is 503 while a finance module's migration is not applied (investing), naming it", async () => {
    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: number; timestamp: string; name: string }>(
        'DELETE FROM investing.migrations WHERE id = (SELECT max(id) FROM investing.migrations) RETURNING *',
      );
      try {
        const res = await http(url('/readyz'));
        expect([res.status, res.body.status]).toEqual([503, 'unavailable']);
        expect(checksOf(res.body)).toEqual(FINANCE_SUBGRAPHS.map((s) => [s, s !== 'investing', s === 'investing' ? [rows[0].name] : []]));
        const verbose = (await http(url('/readyz?verbose'))).body;
        expect([verbose.includes('[-]investing-database failed\n'), verbose.endsWith('readyz check failed\n')]).toEqual([true, true]);
      } finally {
        await db.query('INSERT INTO investing.migrations (id, timestamp, name) VALUES ($1, $2, $3)', [rows[0].id, rows[0].timestamp, rows[0].name]);
      }
    } finally {
      await db.end();
    }
    expect((await http(url('/readyz'))).status).toBe(200);
  });
});

describe('GET /api/v1/node/ and the licence', () => {
  /** An administrator's view: the admin console's session. */
  let asAdmin: { headers: { cookie: string } };
  beforeAll(async () => {
    const session = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
    asAdmin = { headers: { cookie: session.cookie } };
  });

  it('answers anyone identity, version and licence state only; the deployment, claims and check messages only an administrator', async () => {
    const expected = {
      name: 'Acme Finance',
      version: '2.3.4',
      read_only: true,
      maintenance: false,
      licence: { status: 'missing', valid: false, checks: ['app.E001', 'app.E002'], expires_at: null },
      registry: null,
    };
    expect((await http(url('/api/v1/node/'))).body).toEqual(expected);
    // a user of the node is no administrator
    const user = await createUser(t);
    expect((await http(url('/api/v1/node/'), { key: await login(t, user.username) })).body).toEqual(expected);
    // nor is an anonymous GraphQL caller: the same fields answer null
    const query =
      '{ nodeInfo { name version readOnly hostname deploymentId licence { status checks source issuer claims { organisationId licenceId } } checks { id message } deployment { deploymentId } } }';
    const anonymous = await graphql(t, query);
    expect(anonymous.body).toEqual({
      data: {
        nodeInfo: {
          name: 'Acme Finance',
          version: '2.3.4',
          readOnly: true,
          hostname: null,
          deploymentId: null,
          licence: { status: 'missing', checks: ['app.E001', 'app.E002'], source: null, issuer: null, claims: null },
          checks: null,
          deployment: null,
        },
      },
    });
    const admin = await http(url('/api/v1/node/'), asAdmin);
    expect(admin.body).toMatchObject({ ...expected, hostname: expect.any(String), deployment_id: null, licence: { source: 'environment', claims: null } });
    expect(admin.body.checks.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(['app.E001', 'app.E002']));
  });

  it('an object store that cannot be written is app.E009 in the checks (administrators only), gone once it takes writes again', async () => {
    const objects = join(t.config.dataDir, 'objects');
    const ids = async () => (await http(url('/api/v1/node/'), asAdmin)).body.checks.map((c: { id: string }) => c.id);
    expect(await ids()).not.toContain('app.E009');
    const moved = existsSync(objects) ? `${objects}.moved` : undefined;
    if (moved) renameSync(objects, moved);
    // a file where the store's folder must be: no privilege writes through it (root ignores modes)
    writeFileSync(objects, 'not a folder');
    try {
      const admin = await http(url('/api/v1/node/'), asAdmin);
      const e009 = admin.body.checks.find((c: { id: string }) => c.id === 'app.E009');
      expect(e009).toMatchObject({ level: 'ERROR', message: expect.stringMatching(/^The object store cannot be written \(.*objects\/data: ENOTDIR\)/) });
      expect((await http(url('/api/v1/node/'))).body.checks).toBeUndefined();
    } finally {
      rmSync(objects, { force: true });
      if (moved) renameSync(moved, objects);
    }
    expect(await ids()).not.toContain('app.E009');
  });

  it('without a licence: read-only, app.E001 and app.E002 in the licence and in the checks', async () => {
    const res = await http(url('/api/v1/node/'), asAdmin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Acme Finance', version: '2.3.4', read_only: true, maintenance: false });
    expect(res.body.licence).toMatchObject({ status: 'missing', valid: false, checks: ['app.E001', 'app.E002'], claims: null });
    const ids = res.body.checks.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['app.E001', 'app.E002']));
    expect(res.body.checks[0]).toEqual({ id: 'app.E001', level: 'ERROR', message: expect.any(String), hint: expect.any(String) });
  });

  it('refuses a licence that does not verify (app.E003) or has expired (app.E004), and installs a valid one without a restart', async () => {
    const keys = licenceKeys();
    const other = licenceKeys({ fresh: true });
    const badSignature = t.app.services.node.installLicence(await licenceToken(other), keys.publicKeyLine);
    await expect(badSignature).rejects.toMatchObject({ code: 'LICENCE_INVALID', extensions: { details: { checks: ['app.E003'] } } });
    const expired = t.app.services.node.installLicence(
      await licenceToken(keys, { ttlSeconds: 60, now: new Date(Date.now() - 86_400_000) }),
      keys.publicKeyLine,
    );
    await expect(expired).rejects.toMatchObject({ extensions: { details: { checks: ['app.E004'] } } });
    expect((await http(url('/api/v1/node/'))).body.read_only).toBe(true);

    await t.app.services.node.installLicence(await licenceToken(keys), keys.publicKeyPem);
    const res = await http(url('/api/v1/node/'), asAdmin);
    expect(res.body.read_only).toBe(false);
    expect(res.body.licence).toMatchObject({ status: 'valid', valid: true, source: 'api', checks: [], issuer: 'test-registry', key_id: 'test-key' });
    expect(res.body.licence.claims).toEqual({
      licence_id: 'lic_test_0001',
      organisation_id: 'org_test',
      organisation_name: 'Test Organisation Ltd',
      product: 'finance-node',
      plan: 'enterprise',
      max_nodes: 3,
      maintenance_until: '2030-12-31',
      entitlements: ['banking', 'investing', 'shop'],
      status: 'Active',
    });
  });
});

describe('public configuration and feature flags', () => {
  it('GET /api/v1/config/ answers branding, modules and banking rails, and never a secret', async () => {
    const res = await http(url('/api/v1/config/'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'app',
      'auth',
      'banking_rails',
      'branding',
      'brokerage',
      'development',
      'kyc',
      'maintenance',
      'modules',
      'read_only',
    ]);
    expect(res.body.app).toEqual({ name: 'Acme Finance', version: '2.3.4' });
    expect(Object.keys(res.body.branding).sort()).toEqual(
      [
        'color_accent',
        'color_primary',
        'color_secondary',
        'favicon_url',
        'legal_entity',
        'logo_url',
        'organisation_name',
        'privacy_url',
        'support_email',
        'support_phone',
        'terms_url',
      ].sort(),
    );
    expect(res.body.modules).toEqual({
      shop: true,
      investments: true,
      virtual_iban: true,
      african_accounts: true,
      mobile_money: true,
      disputes: true,
      crypto: true,
      fiat_ramps: true,
      rewards: true,
    });
    expect(res.body.banking_rails).toContainEqual({ rail: 'sepa', currencies: ['EUR'], module: 'virtual_iban' });
    const text = JSON.stringify(res.body);
    for (const secret of ['sk-local-test', t.config.SERVER_JWT_KEY ?? 'no-jwt-key-set', 'secret']) expect(text).not.toContain(secret);
  });

  it('GET /api/v1/config/features/ answers the sixteen toggles', async () => {
    const res = await http(url('/api/v1/config/features/'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).filter((k) => k !== 'updated_at')).toEqual([
      'shop_enabled',
      'investments_enabled',
      'virtual_iban_enabled',
      'african_accounts_enabled',
      'mobile_money_enabled',
      'kyc_required',
      'disputes_enabled',
      'crypto_enabled',
      'fiat_ramps_enabled',
      'rewards_enabled',
      'enforce_2fa',
      'enhanced_kyc_required',
      'maintenance_mode',
      'maintenance_message',
      'brokerage_provider',
      'fractional_shares_enabled',
    ]);
    expect(res.body).toMatchObject({ enforce_2fa: false, maintenance_mode: false, brokerage_provider: 'equities_brokerage' });
  });
});

describe('POST /api/login/ and GET /api/balance/', () => {
  it('answers {access, token_type, expires_in}; the token opens the balance, per currency, as decimal strings', async () => {
    const user = await createUser(t);
    await t.app.services.ledger.ledger.fund(user.id, 'EUR', 1050n, '00000000-0000-4000-8000-000000000101');
    await t.app.services.ledger.ledger.fund(user.id, 'GBP', 99_999n, '00000000-0000-4000-8000-000000000102');
    const res = await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access', 'expires_in', 'token_type']);
    expect(res.body.token_type).toBe('Bearer');
    expect(res.body.expires_in).toBe(3600);
    expect(res.body.access.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(res.body.access.split('.')[0], 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const balance = await http(url('/api/balance/'), { key: res.body.access });
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({
      balances: [
        {
          currency: 'EUR',
          available: { amount: '10.50', currency: 'EUR' },
          posted: { amount: '10.50', currency: 'EUR' },
          pending: { amount: '10.50', currency: 'EUR' },
        },
        {
          currency: 'GBP',
          available: { amount: '999.99', currency: 'GBP' },
          posted: { amount: '999.99', currency: 'GBP' },
          pending: { amount: '999.99', currency: 'GBP' },
        },
      ],
    });
  });

  it('refuses wrong credentials (401 no_active_account), then throttles the user name (429, Retry-After)', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 5; i++) {
      const res = await http(url('/api/login/'), json({ username: user.username, password: 'wrong password' }));
      expect([res.status, res.body]).toEqual([401, { detail: 'No active account found with the given credentials', code: 'no_active_account' }]);
    }
    const throttled = await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }));
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe('throttled');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    const unknown = await http(url('/api/login/'), json({ username: 'nobody-here', password: PASSWORD }));
    expect(unknown.status).toBe(401);
  });

  it('validates the body (400 with errors per field)', async () => {
    const res = await http(url('/api/login/'), json({ username: 'x' }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid', errors: { password: expect.any(Array) } });
  });

  it('answers 401 with WWW-Authenticate without a token, and token_not_valid for a forged or expired one', async () => {
    const none = await http(url('/api/balance/'));
    expect([none.status, none.body.code, none.headers.get('www-authenticate')]).toEqual([401, 'not_authenticated', 'Bearer realm="finance-node"']);
    const user = await createUser(t);
    const token = await login(t, user.username);
    const [h, p] = token.split('.');
    const forged = await http(url('/api/balance/'), { key: `${h}.${p}.${'A'.repeat(43)}` });
    expect([forged.status, forged.body.code]).toEqual([401, 'token_not_valid']);
    const garbage = await http(url('/api/balance/'), { key: 'not-a-token' });
    expect(garbage.status).toBe(401);
  });
});

describe('credentials stay with their product', () => {
  it('an API key of the prediction API never reaches finance data, and a node token never reaches the prediction API', async () => {
    const apiKey = await t.createKey('pro');
    const onFinance = await http(url('/api/balance/'), { key: apiKey });
    expect(onFinance.status).toBe(401);
    const viaGateway = await graphql(t, '{ balances { currency } }', {}, { authorization: `Bearer ${apiKey}` });
    expect(viaGateway.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const adminKeyViaGateway = await graphql(t, '{ nodeUsers { username } }', {}, { authorization: `Bearer ${t.adminKey}` });
    expect(adminKeyViaGateway.body.errors[0].extensions.code).toBe('FORBIDDEN');

    const user = await createUser(t);
    const token = await login(t, user.username);
    const onPredictions = await http(`${t.urls.predictions}/api/`, { key: token });
    expect(onPredictions.status).toBe(401);
    const tokenViaGateway = await graphql(t, '{ viewer { plan } }', {}, { authorization: `Bearer ${token}` });
    expect(tokenViaGateway.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const own = await graphql(t, '{ nodeUser { username } }', {}, { authorization: `Bearer ${token}` });
    expect(own.body.data.nodeUser.username).toBe(user.username);
  });
});

describe('hosts and cross-site requests', () => {
  it('refuses a Host that is not in ALLOWED_HOSTS (400 disallowed_host)', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(url('/api/v1/config/'));
      const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers: { host: 'evil.example' } }, (r: IncomingMessage) => {
        let b = '';
        r.on('data', (d) => (b += d));
        r.on('end', () => resolve({ status: r.statusCode!, body: b }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      detail: "Invalid HTTP_HOST header: 'evil.example'. You may need to add 'evil.example' to ALLOWED_HOSTS.",
      code: 'disallowed_host',
    });
  });

  it("refuses a browser's state-changing request from an untrusted Origin (403 csrf_failed), accepts CSRF_TRUSTED_ORIGINS", async () => {
    const user = await createUser(t);
    const evil = await http(url('/api/login/'), {
      ...json({ username: user.username, password: PASSWORD }),
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    });
    expect([evil.status, evil.body]).toEqual([
      403,
      { detail: 'CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins.', code: 'csrf_failed' },
    ]);
    const trusted = await http(url('/api/login/'), {
      ...json({ username: user.username, password: PASSWORD }),
      headers: { 'content-type': 'application/json', origin: 'https://app.example.com' },
    });
    expect(trusted.status).toBe(200);
  });

  it('answers preflights of CORS_ALLOWED_ORIGINS with the seven client headers and Idempotency-Key, and not others', async () => {
    const preflight = (origin: string) =>
      http(url('/api/balance/'), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,x-request-id,x-client-platform' },
      });
    const ok = await preflight('https://app.example.com');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-allow-headers')).toBe(
      'Authorization, Content-Type, Accept, X-Request-ID, X-Request-Timestamp, X-Client-Platform, X-Client-Version, Idempotency-Key',
    );
    const other = await preflight('https://other.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('two-factor authentication', () => {
  it('with "Enforce 2FA on login" on: enrol (otpauth URI), confirm, then sign in with the code; wrong or missing codes are refused', async () => {
    const user = await createUser(t);
    await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: true }, 'test'));
    try {
      const first = await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }));
      expect(first.status).toBe(403);
      expect(first.body).toMatchObject({ code: 'otp_enrolment_required', expires_in: 600 });
      const enrolmentToken = first.body.enrolment_token as string;
      // the enrolment token opens the enrolment endpoints only
      expect((await http(url('/api/balance/'), { key: enrolmentToken })).status).toBe(403);
      const enrol = await http(url('/api/auth/2fa/enrol/'), { method: 'POST', key: enrolmentToken });
      expect(enrol.status).toBe(201);
      expect(enrol.body.otpauth_uri).toBe(`otpauth://totp/Acme%20Finance:${user.username}?secret=${enrol.body.secret}&issuer=Acme%20Finance`);
      const wrong = await http(url('/api/auth/2fa/confirm/'), { ...json({ otp: '000000' }), key: enrolmentToken });
      expect(wrong.status).toBe(400);
      const confirmed = await http(url('/api/auth/2fa/confirm/'), { ...json({ otp: await totpGenerate({ secret: enrol.body.secret }) }), key: enrolmentToken });
      expect([confirmed.status, confirmed.body]).toEqual([200, { username: user.username, two_factor_enabled: true, recovery_codes: expect.any(Array) }]);
      expect(confirmed.body.recovery_codes).toHaveLength(10);

      const missing = await http(url('/api/login/'), json({ username: user.username, password: PASSWORD }));
      expect([missing.status, missing.body.code]).toEqual([401, 'otp_required']);
      const bad = await http(url('/api/login/'), json({ username: user.username, password: PASSWORD, otp: '123456' }));
      expect([bad.status, bad.body.code]).toEqual([401, 'otp_invalid']);
      // the code of the next time step: the confirmation used the current one, and a used step is not accepted twice
      const next = await totpGenerate({ secret: enrol.body.secret, epoch: Math.floor(Date.now() / 1000) + 30 } as Parameters<typeof totpGenerate>[0]);
      const ok = await http(url('/api/login/'), json({ username: user.username, password: PASSWORD, otp: next }));
      expect(ok.status).toBe(200);
      const replay = await http(url('/api/login/'), json({ username: user.username, password: PASSWORD, otp: next }));
      expect([replay.status, replay.body.code]).toEqual([401, 'otp_invalid']);
    } finally {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ enforce_2fa: false }, 'test'));
    }
  });
});

describe('maintenance mode', () => {
  it('answers non-admin API routes with 503, Retry-After and the notice; probes, node, config and admin stay up', async () => {
    const admin = await createUser(t, undefined, { superuser: true });
    const session = await adminSignIn(t, admin.username);
    const user = await createUser(t);
    const token = await login(t, user.username);
    const notice = 'Back at 10:00 UTC: we are upgrading the ledger.';
    const saved = await changeNode(t, () =>
      adminPost(t, session, '/admin/node/settings/', {
        maintenanceMode: 'on',
        maintenanceMessage: notice,
        brokerageProvider: 'equities_brokerage',
        shopEnabled: 'on',
      }),
    );
    expect(saved.status).toBe(302);
    try {
      for (const [method, path, init] of [
        ['GET', '/api/balance/', { key: token }],
        ['POST', '/api/login/', json({ username: user.username, password: PASSWORD })],
        ['POST', '/api/assistant/', { ...json({ question: 'hi' }), key: token }],
      ] as const) {
        const res = await http(url(path), { ...init, method });
        expect([method, path, res.status, res.body]).toEqual([method, path, 503, { detail: notice, code: 'maintenance', maintenance: true }]);
        expect(res.headers.get('retry-after')).toBe('300');
      }
      for (const path of ['/healthz', '/livez', '/readyz', '/api/v1/node/', '/api/v1/config/', '/api/v1/config/features/'])
        expect([path, (await http(url(path))).status]).toEqual([path, 200]);
      expect((await http(url('/api/v1/config/'))).body.maintenance).toEqual({ active: true, message: notice });
      const console = await http(url('/admin/'), { headers: { cookie: session.cookie } });
      expect(console.status).toBe(200);
      expect(console.body).toContain(notice);
    } finally {
      await changeNode(t, () =>
        adminPost(t, session, '/admin/node/settings/', {
          maintenanceMessage: 'The service is undergoing scheduled maintenance. Please try again shortly.',
          brokerageProvider: 'equities_brokerage',
          ...Object.fromEntries(
            [
              'shopEnabled',
              'investmentsEnabled',
              'virtualIbanEnabled',
              'africanAccountsEnabled',
              'mobileMoneyEnabled',
              'kycRequired',
              'disputesEnabled',
              'cryptoEnabled',
              'fiatRampsEnabled',
              'rewardsEnabled',
              'fractionalSharesEnabled',
            ].map((f) => [f, 'on']),
          ),
        }),
      );
    }
    expect((await http(url('/api/balance/'), { key: token })).status).toBe(200);
  });
});

describe('the assistant (POST /api/assistant/)', () => {
  it("sends the user's question to the OpenAI-compatible provider and answers its reply; a failing provider is the generic message", async () => {
    await installValidLicence(t);
    const user = await createUser(t);
    const token = await login(t, user.username);
    const res = await http(url('/api/assistant/'), { ...json({ question: 'What is my IBAN?' }), key: token });
    expect([res.status, res.body]).toEqual([200, { answer: 'You asked: What is my IBAN?', model: 'local-model' }]);
    const call = provider.calls.at(-1)!;
    expect(call.authorization).toBe('Bearer sk-local-test');
    expect(call.body.model).toBe('local-model');
    expect(call.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    provider.state.fails = true;
    try {
      const failed = await http(url('/api/assistant/'), { ...json({ question: 'Hello?' }), key: token });
      expect([failed.status, failed.body]).toEqual([
        503,
        { detail: 'Sorry, the assistant is unavailable right now. Please try again later.', code: 'assistant_unavailable' },
      ]);
    } finally {
      provider.state.fails = false;
    }
  });
});

describe('API documentation', () => {
  it('serves /swagger.json as a valid OpenAPI 3 document of every route of the surface', async () => {
    const res = await http(url('/swagger.json'));
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const validation = await validateOpenApi(res.body);
    expect(validation.errors).toBeUndefined();
    expect(validation.valid).toBe(true);
    for (const path of [
      '/healthz',
      '/livez',
      '/readyz',
      '/api/v1/node/',
      '/api/v1/config/',
      '/api/v1/config/features/',
      '/api/login/',
      '/api/balance/',
      '/swagger/',
      '/redoc/',
      '/swagger.json',
      '/admin/',
    ]) {
      expect(Object.keys(res.body.paths)).toContain(path);
    }
    expect(res.body.paths['/api/balance/'].get.responses['200'].headers['X-App-Version']).toBeDefined();
  });

  it('serves Swagger UI at /swagger/ and ReDoc at /redoc/ from this process (no CDN)', async () => {
    for (const path of ['/swagger/', '/redoc/']) {
      const page = await http(url(path));
      expect(page.status).toBe(200);
      const refs = [...(page.body as string).matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        expect(ref.startsWith('/')).toBe(true);
        expect([ref, (await fetch(url(ref))).status]).toEqual([ref, 200]);
      }
      expect(page.body).toContain('/swagger.json');
    }
  });
});
