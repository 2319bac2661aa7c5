import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { missingAndroidTools } from '../../../clients/mobile';
import { BUILDS_UNAVAILABLE } from '../../../subgraphs/registry/licensing/domain/frontend-builds';
import { WHITELABEL_ENTITLEMENT } from '../../../subgraphs/registry/licensing/domain/branding';
import type { BuildRow } from '../../../subgraphs/registry/licensing/store/workspace-store';
import { startTestApp, type TestApp } from '../../support/platform/app';

/**
 * The mobile packages of custom frontend builds, through the registry's pg-boss worker: the apps open
 * the node's public https address from the branding; every build of an organisation is signed with
 * its one key (sealed at rest) and a larger versionCode, so an update installs over the last one
 * (apksigner and aapt say so); missing build tools read "unavailable" to the customer.
 */
const run = promisify(execFile);
let t: TestApp<'registry'>;
let dir: string;
let organisationId: string;

beforeAll(async () => {
  const missing = await missingAndroidTools();
  if (missing.length)
    throw new Error(`This test needs ${missing.join(', ')} (apt-get install aapt zipalign apksigner android-framework-res, as .ci/run does).`);
  t = await startTestApp({}, { products: ['registry'] });
  dir = mkdtempSync(join(tmpdir(), 'mobile-builds-'));
  const { licensing } = t.app.services;
  organisationId = (await licensing.catalogue.createOrganisation({ name: 'Acme Ltd', slug: 'acme-ltd' }, 'test')).id;
  await licensing.builds.grant(organisationId, WHITELABEL_ENTITLEMENT, 'test');
}, 120_000);

afterAll(async () => {
  await t?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function finished(id: string): Promise<BuildRow> {
  for (let i = 0; i < 600; i++) {
    const build = (await t.app.services.licensing.builds.find(id))!;
    if (build.status === 'succeeded' || build.status === 'failed') return build;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`build ${id} did not finish`);
}

async function apkOf(build: BuildRow, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.app.services.licensing.objects.get(build.android!.key)) chunks.push(chunk as Buffer);
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

const save = (publicUrl?: string) =>
  t.app.services.licensing.branding.save(organisationId, { displayName: 'Acme Wallet', primaryColor: '#0b5fff', accentColor: '#8e2c9a', publicUrl }, 'test');

describe('mobile packages of custom frontend builds', () => {
  it('refuses a plain-HTTP public address, and a build without any', async () => {
    await expect(save('http://wallet.acme.example/app/')).rejects.toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
    await save();
    await expect(t.app.services.licensing.builds.request(organisationId, 'test')).rejects.toMatchObject({ status: 409, code: 'PUBLIC_URL_REQUIRED' });
  });

  it('two builds: the node’s https address, one sealed key, versionCode 1 then 2', async () => {
    const { licensing } = t.app.services;
    await save('https://wallet.acme.example/app/');
    const first = await finished((await licensing.builds.request(organisationId, 'test')).id);
    expect(first.error).toBeNull();
    const second = await finished((await licensing.builds.request(organisationId, 'test')).id);
    expect(second.error).toBeNull();
    const [a, b] = [await apkOf(first, 'first.apk'), await apkOf(second, 'second.apk')];

    const certificate = async (file: string) =>
      /certificate SHA-256 digest: ([0-9a-f]{64})/.exec((await run('apksigner', ['verify', '--print-certs', file])).stdout)![1];
    expect(await certificate(b)).toBe(await certificate(a));
    const badging = async (file: string) => (await run('aapt', ['dump', 'badging', file])).stdout;
    expect(/versionCode='(\d+)'/.exec(await badging(a))![1]).toBe('1');
    expect(/versionCode='(\d+)'/.exec(await badging(b))![1]).toBe('2');
    expect((await run('dexdump', ['-d', b])).stdout).toContain('const-string v1, "https://wallet.acme.example/app/"');
    expect(second.log.join('\n')).toContain('versionCode 2, opens https://wallet.acme.example/app/');

    // at rest the key is sealed: no PKCS#12 bytes, no password in the row
    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT keystore_sealed, password_sealed, version_code FROM licensing.mobile_signing_key WHERE organisation_id = $1', [
        organisationId,
      ]);
      expect(rows).toHaveLength(1);
      expect(rows[0].keystore_sealed).toMatch(/^sb1\.[0-9a-f]{8}\./);
      expect(rows[0].password_sealed).toMatch(/^sb1\.[0-9a-f]{8}\./);
      expect(rows[0].version_code).toBe(2);
    } finally {
      await db.end();
    }
  }, 300_000);

  it('without the build tools the customer reads that builds are unavailable, never an install command', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(dir, 'no-tools');
    try {
      const build = await finished((await t.app.services.licensing.builds.request(organisationId, 'test')).id);
      expect(build.status).toBe('failed');
      expect(build.error).toBe(BUILDS_UNAVAILABLE);
      expect(JSON.stringify(build)).not.toMatch(/apt-get|aapt|keytool/);
      expect(await t.app.services.licensing.builds.checkBuildTools()).toEqual(expect.arrayContaining(['aapt', 'apksigner', 'keytool']));
    } finally {
      process.env.PATH = path;
    }
  }, 120_000);
});
