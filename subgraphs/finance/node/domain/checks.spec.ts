import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, SETTING_NAMES } from '../../../../test/support/platform/config';
import { projectRoot } from '../../../../lib/paths';
import { SecretBoxError, maskSecret, purposeBox } from '../../../../lib/secret-box';
import { CHECK_CATALOGUE, configurationChecks, formatChecks } from './checks';
import { DEFAULT_PUBLIC_KEY, EXAMPLE_TOKEN, evaluateLicence } from './licence';

/** The configuration contract of the finance node (contract §1): every name read, validated, documented. */
const CONTRACT_NAMES = [
  'APP_NAME',
  'APP_VERSION',
  'DEBUG',
  'FRAMEWORK_SECRET_KEY',
  'SERVER_JWT_KEY',
  'ALLOWED_HOSTS',
  'CSRF_TRUSTED_ORIGINS',
  'CORS_ALLOWED_ORIGINS',
  'FRONTEND_URL',
  'PORT',
  'CORS_ALLOW_HEADERS',
  'POSTGRES_DB',
  'POSTGRES_USER',
  'POSTGRES_PASSWORD',
  'DATABASE_URL',
  'REDIS_PASSWORD',
  'CELERY_BROKER_URL',
  'CELERY_RESULT_BACKEND',
  'VENDOR_LICENSE_ENGINE_URL',
  'VENDOR_API_KEY',
  'VENDOR_DEPLOYMENT_ID',
  'VENDOR_LICENSE_TOKEN',
  'VENDOR_PUBLIC_KEY',
  'BROKERAGE_API_KEY_ID',
  'BROKERAGE_API_SECRET_KEY',
  'ASSISTANT_API_KEY',
];
const root = projectRoot();

describe('the configuration contract', () => {
  it('reads every name (lib/config.ts) and documents every one in .env.example and docs/operations.md', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const readme = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
    for (const name of CONTRACT_NAMES) {
      expect([name, (SETTING_NAMES as readonly string[]).includes(name)]).toEqual([name, true]);
      expect([name, new RegExp(`^${name}=`, 'm').test(example)]).toEqual([name, true]);
      expect([name, readme.includes(`\`${name}\``)]).toEqual([name, true]);
    }
  });

  it('never commits or packages an environment file, but the example', () => {
    const ignored = (file: string) => {
      try {
        execFileSync('git', ['check-ignore', '-q', file], { cwd: root });
        return true;
      } catch {
        return false;
      }
    };
    expect([ignored('.env'), ignored('.env.production'), ignored('.env.local'), ignored('.env.example')]).toEqual([true, true, true, false]);
    expect(readFileSync(join(root, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['.env', '.env.*']));
  });

  it('builds DATABASE_URL from POSTGRES_* when it is unset, and parses the lists and DEBUG', () => {
    const c = loadConfig({ POSTGRES_DB: 'fin', POSTGRES_USER: 'u', POSTGRES_PASSWORD: 'p w', ALLOWED_HOSTS: ' a.example , .b.example ', DEBUG: 'True' });
    expect(c.DATABASE_URL).toBe('postgres://u:p%20w@127.0.0.1:5432/fin');
    expect(c.databaseFrom).toBe('POSTGRES_*');
    expect(c.ALLOWED_HOSTS).toEqual(['a.example', '.b.example']);
    expect(c.DEBUG).toBe(true);
    expect(() => loadConfig({ DEBUG: 'maybe' })).toThrow(/DEBUG: must be true or false/);
  });

  it("treats .env.example's licence values as the placeholder token (app.E001) and the default key (app.E002)", async () => {
    const e = await evaluateLicence(EXAMPLE_TOKEN, DEFAULT_PUBLIC_KEY);
    expect(e.checks.map((c) => c.id)).toEqual(['app.E001', 'app.E002']);
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    expect(example).toContain(`VENDOR_LICENSE_TOKEN=${EXAMPLE_TOKEN}\n`);
    expect(example).toContain(`VENDOR_PUBLIC_KEY=${DEFAULT_PUBLIC_KEY}\n`);
  });

  it('documents every check id it can report', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      FRONTEND_URL: 'http://127.0.0.1:8000/app/',
      PUBLIC_URL_REGISTRY: 'https://registry.example.com',
      PUBLIC_URL_PREDICTIONS: 'https://predictions.example.com',
      DEBUG: 'true',
      CORS_ALLOWED_HEADERS: 'x',
      CORS_ALLOW_HEADERS: 'Accept',
      CSRF_TRUSTED_ORIGINS: 'example.com',
      PORT: '9000',
    });
    const ids = configurationChecks(config, { generated: ['SERVER_JWT_KEY'] }).map((c) => c.id);
    for (const id of ids) expect(Object.keys(CHECK_CATALOGUE)).toContain(id);
    expect(ids).toEqual(expect.arrayContaining(['app.E005', 'app.E006', 'app.E007', 'app.E008', 'app.W002', 'app.W003', 'app.W004', 'app.W009']));
    expect(formatChecks([], ['app.E001'])).toBe('System check identified no issues (0 silenced).');
  });
});

describe('secrets at rest (lib/secret-box)', () => {
  it('seals with AES-256-GCM per purpose: another key or purpose, or a changed byte, does not open', () => {
    const box = purposeBox('k'.repeat(64), 'node.provider-credential');
    const sealed = box.seal('sk_live_abcdef123456');
    expect(sealed).toMatch(/^sb1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(box.seal('sk_live_abcdef123456')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('sk_live_abcdef123456');
    expect(() => purposeBox('k'.repeat(64), 'identity.totp').open(sealed)).toThrow(SecretBoxError);
    expect(() => purposeBox('q'.repeat(64), 'node.provider-credential').open(sealed)).toThrow(SecretBoxError);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow(SecretBoxError);
    expect(maskSecret('sk_live_abcdef123456')).toBe('••••••••3456');
    expect(maskSecret('short')).toBe('••••••••');
  });
});
