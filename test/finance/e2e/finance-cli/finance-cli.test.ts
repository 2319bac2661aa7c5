import pg from 'pg';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PUBLIC_KEY } from '../../../../subgraphs/finance/node/domain/licence';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { licenceKeys, licenceToken, runCli } from '../../../support/finance/node';

/**
 * `npm run cli -- finance:check` (Django's `check`), `finance:install-licence` and
 * `finance:createsuperuser`, run as the compiled CLI against this file's own database.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt('dist/bin/cli.js');
  db = await createTestDatabase();
  env = {
    DATABASE_URL: db.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'finance-cli-')),
    FRONTEND_URL: 'https://app.example.com',
    CORS_ALLOWED_ORIGINS: 'https://app.example.com',
  };
});
afterAll(() => db?.release());

describe('finance:check', () => {
  it('reports app.E001 and app.E002 Django-style and exits 1 when the licence token and public key are missing', async () => {
    const { code, stdout } = await runCli(['finance:check'], env);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^System check identified some issues:\n\nERRORS:\n\?: \(app\.E001\) The licence token \(VENDOR_LICENSE_TOKEN\) is missing or a placeholder\.\n\tHINT: /,
    );
    expect(stdout).toContain('?: (app.E002) The licence public key (VENDOR_PUBLIC_KEY) is missing or the default.');
    expect(stdout).toMatch(/System check identified \d+ issues \(0 silenced\)\.\n$/);
  });

  it('reports a placeholder token (app.E001) and the default public key (app.E002)', async () => {
    const { code, stdout } = await runCli(['finance:check'], { ...env, VENDOR_LICENSE_TOKEN: 'changeme', VENDOR_PUBLIC_KEY: DEFAULT_PUBLIC_KEY });
    expect(code).toBe(1);
    expect(stdout).toContain('(app.E001)');
    expect(stdout).toContain('(app.E002)');
  });

  it('reports a token of another key (app.E003) and an expired one (app.E004)', async () => {
    const keys = licenceKeys();
    const other = await runCli(['finance:check'], {
      ...env,
      VENDOR_LICENSE_TOKEN: await licenceToken(licenceKeys({ fresh: true })),
      VENDOR_PUBLIC_KEY: keys.publicKeyLine,
    });
    expect([other.code, other.stdout.includes('(app.E003)')]).toEqual([1, true]);
    const expired = await licenceToken(keys, { ttlSeconds: 60, now: new Date(Date.now() - 86_400_000) });
    const late = await runCli(['finance:check'], { ...env, VENDOR_LICENSE_TOKEN: expired, VENDOR_PUBLIC_KEY: keys.publicKeyLine });
    expect([late.code, late.stdout.includes('(app.E004)')]).toEqual([1, true]);
  });

  it('passes (exit 0) with a valid licence, and warns about weak settings: the misspelt CORS_ALLOWED_HEADERS, missing client headers', async () => {
    const keys = licenceKeys();
    const { code, stdout } = await runCli(['finance:check'], {
      ...env,
      VENDOR_LICENSE_TOKEN: await licenceToken(keys),
      VENDOR_PUBLIC_KEY: keys.publicKeyPem,
      CORS_ALLOWED_HEADERS: 'Authorization,Content-Type',
      CORS_ALLOW_HEADERS: 'Authorization,Content-Type,Accept',
      REDIS_PASSWORD: 'unused',
    });
    expect(stdout).not.toContain('ERRORS:');
    expect(code).toBe(0);
    expect(stdout).toContain('?: (app.W002) CORS_ALLOWED_HEADERS is set and ignored: the setting is CORS_ALLOW_HEADERS.');
    expect(stdout).toContain('?: (app.W003) CORS_ALLOW_HEADERS lacks X-Request-ID, X-Request-Timestamp, X-Client-Platform, X-Client-Version');
    expect(stdout).toMatch(/\(app\.I001\) Database: DATABASE_URL\. .*REDIS_PASSWORD is accepted and not used\./);
  });

  it('reports production mistakes as errors: DEBUG on, a short FRAMEWORK_SECRET_KEY, no SERVER_JWT_KEY; SILENCED_SYSTEM_CHECKS hides ids', async () => {
    const { code, stdout } = await runCli(['finance:check'], {
      ...env,
      NODE_ENV: 'production',
      PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090',
      PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
      DEBUG: 'true',
      FRAMEWORK_SECRET_KEY: 'short',
      SILENCED_SYSTEM_CHECKS: 'app.E001,app.E002',
    });
    expect(code).toBe(1);
    expect(stdout).toContain('?: (app.E005) DEBUG is true in production.');
    expect(stdout).toContain('?: (app.E006) FRAMEWORK_SECRET_KEY has 5 characters; it must have 64.');
    expect(stdout).toContain('?: (app.E007) SERVER_JWT_KEY is not set.');
    expect(stdout).not.toContain('(app.E001)');
    expect(stdout).toMatch(/\(2 silenced\)\.\n$/);
  });
});

describe('finance:install-licence and finance:createsuperuser', () => {
  it('installs a licence that verifies (files or values); the check then passes without the environment', async () => {
    const keys = licenceKeys();
    const dir = mkdtempSync(join(tmpdir(), 'finance-licence-'));
    writeFileSync(join(dir, 'token.jwt'), await licenceToken(keys));
    writeFileSync(join(dir, 'key.pem'), keys.publicKeyPem);
    const bad = await runCli(
      ['finance:install-licence', '--token', await licenceToken(licenceKeys({ fresh: true })), '--public-key', `@${join(dir, 'key.pem')}`],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('app.E003');
    const ok = await runCli(['finance:install-licence', '--token', `@${join(dir, 'token.jwt')}`, '--public-key', `@${join(dir, 'key.pem')}`], env);
    expect([ok.code, ok.stdout]).toEqual([0, expect.stringContaining('Licence installed: lic_test_0001 for Test Organisation Ltd (plan enterprise)')]);
    const check = await runCli(['finance:check'], env);
    expect(check.stdout).not.toContain('(app.E001)');
    expect(check.code).toBe(0);
  });

  it('creates a superuser from SUPERUSER_PASSWORD (never a command-line argument)', async () => {
    const missing = await runCli(['finance:createsuperuser', '--username', 'root'], env);
    expect(missing.code).toBe(2);
    const ok = await runCli(['finance:createsuperuser', '--username', 'Root', '--email', 'root@example.com'], {
      ...env,
      SUPERUSER_PASSWORD: 'a long enough password',
    });
    expect([ok.code, ok.stdout]).toEqual([0, 'Superuser "root" ready: sign in at /admin/.\n']);
  });

  it('creates a normal user (not an administrator) from USER_PASSWORD; a taken name fails', async () => {
    const missing = await runCli(['finance:createuser', '--username', 'ada', '--email', 'ada@example.com'], env);
    expect(missing.code).toBe(2);
    const ok = await runCli(['finance:createuser', '--username', 'Ada', '--email', 'ada@example.com'], { ...env, USER_PASSWORD: 'a long enough password' });
    expect([ok.code, ok.stdout]).toEqual([0, 'User "ada" created: they sign in at POST /api/login/ (or the web client).\n']);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT is_superuser, email, email_verified_at IS NOT NULL AS verified FROM identity.node_user WHERE username = 'ada'`,
      );
      expect(rows).toEqual([{ is_superuser: false, email: 'ada@example.com', verified: true }]);
    } finally {
      await client.end();
    }
    const again = await runCli(['finance:createuser', '--username', 'ada', '--email', 'ada@example.com'], { ...env, USER_PASSWORD: 'a long enough password' });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });
});
