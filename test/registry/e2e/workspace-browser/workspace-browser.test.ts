import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { outboxDir } from '../../../../lib/mailer';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { launchChromium } from '../../../support/platform/browser';
import { gql, registryClient } from '../../../support/registry/registry';
import { http } from '../../../support/platform/http';

/**
 * The customer workspace in headless Chromium, end to end through the registry's port, the gateway
 * and PostgreSQL: an invitation mailed to the outbox, a password chosen from its link, sign-in, the
 * Active licence and its node, a download through a link the session authorises, the compose
 * manifest; whitelabel refused without the entitlement, then granted by the vendor; a branding saved
 * (a colour refused for its contrast), a build run by the pg-boss worker, the manifest naming the
 * custom frontend, the packages downloaded; a build whose logo URL fails reports why and leaves the
 * manifest as it was; CSRF refusals.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PASSWORD = 'correct horse battery';
const EMAIL = 'alice@acme.example';

let t: TestApp;
let assets: Server;
let assetBase: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let licence: { key: string; id: string };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  browser = await launchChromium();
  // the customer's web server, where their logo lives
  assets = createServer((req, res) => {
    if (req.url === '/logo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    res.writeHead(404).end('not here');
  });
  await new Promise<void>((r) => assets.listen(0, '127.0.0.1', r));
  assetBase = `http://127.0.0.1:${(assets.address() as AddressInfo).port}`;
  t = await startTestApp({ WORKSPACE_ASSET_FETCH_ALLOW_PRIVATE: 'true' });
  // a customer of its own: the demo organisation's Enterprise plan already carries enterprise-whitelabel
  const created = await gql(t, 'mutation { createRegistryOrganisation(input: { name: "Acme Ltd", slug: "acme-ltd" }) { id } }');
  expect(created.errors).toBeUndefined();
  const { licensing } = t.app.services;
  await licensing.catalogue.createPlan({ product: 'finance-node', code: 'acme-standard', name: 'Acme Standard', maxNodes: 3 }, 'test');
  const issued = await licensing.licences.create({ organisation: 'acme-ltd', plan: 'finance-node/acme-standard', maintenanceUntil: '2099-12-31' }, 'test');
  licence = { key: issued.key, id: issued.licence.id };
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await t?.stop();
  await new Promise((r) => assets?.close(r));
});

/** The password link of the newest mail to `to` in the outbox (quoted-printable undone). */
function passwordLinkMailedTo(to: string): string {
  const dir = outboxDir(t.config);
  const mails = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((m) => m.includes(to));
  const text = mails[mails.length - 1].replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /(http:\/\/\S+\/workspace\/password\/\?token=[A-Za-z0-9_-]{43})/.exec(text)![1];
}

const csrfOf = async () => (await context.cookies()).find((c) => c.name === 'csrftoken')!.value;
const sessionOf = async () => (await context.cookies()).find((c) => c.name === 'workspace_session');

async function manifestFor(key: string) {
  const client = registryClient(t, key);
  const releases = (await client.get('/api/v1/releases?channel=stable')).body.data as { id: string; version: string }[];
  const latest = releases[0];
  const manifest = await client.get(`/api/v1/releases/${latest.id}/manifest?format=compose`);
  expect(manifest.status).toBe(200);
  return { release: latest, text: manifest.text };
}

/** Follows the build page (it reloads itself while the build runs) to the end: the status, and the reason when it failed. */
async function waitForBuild(): Promise<{ status: string; error: string | null }> {
  await page.locator('[data-testid=build-status]', { hasText: /succeeded|failed/ }).waitFor({ timeout: 60_000 });
  const error = page.locator('[data-testid=build-error]');
  return { status: (await page.textContent('[data-testid=build-status]'))!.trim(), error: (await error.count()) ? await error.textContent() : null };
}

describe('the customer workspace in a browser', () => {
  it('invites by mail; the link sets a password; sign-in shows the Active licence, its node and the deployment', async () => {
    const invited = await gql(
      t,
      'mutation { inviteWorkspaceUser(input: { organisation: "acme-ltd", email: "Alice@Acme.example", name: "Alice", role: owner }) { email role } }',
    );
    expect(invited.errors).toBeUndefined();
    expect(invited.data.inviteWorkspaceUser).toEqual({ email: EMAIL, role: 'owner' });
    const registered = await registryClient(t, licence.key).post('/api/v1/deployments/register', {
      hostname: 'node-1.acme',
      ipAddress: '10.0.0.7',
      currentVersion: '1.1.0',
    });
    expect(registered.status).toBe(201);

    await page.goto(passwordLinkMailedTo(EMAIL).replace(/^http:\/\/[^/]+/, t.urls.registry));
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/workspace\/login\/\?password=set/);
    await page.fill('#email', EMAIL);
    await page.fill('#password', PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/workspace\/$/);

    const session = await sessionOf();
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/workspace/' });
    const row = page.locator('tr', { has: page.locator(`#key-${licence.id}`) });
    expect(await row.locator('[data-testid=licence-status]').textContent()).toBe('Active');
    expect(await row.locator('[data-testid=nodes]').textContent()).toBe('1 / 3');
    expect(await page.textContent(`#key-${licence.id}`)).toMatch(/^LIC-[A-Z0-9]{4}-\*{4}-\*{4}$/);
    await row.getByRole('button', { name: 'Reveal' }).click();
    await page.locator(`#key-${licence.id}[data-revealed=true]`).waitFor();
    expect(await page.textContent(`#key-${licence.id}`)).toBe(licence.key);
    const deployment = page.locator('tr', { hasText: 'node-1.acme' });
    expect(await deployment.textContent()).toContain('alive');
    expect(await deployment.textContent()).toContain('1.1.0');
  });

  it('refuses a wrong password with the form again, and nothing is signed in', async () => {
    const res = await http(`${t.urls.registry}/workspace/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${await csrfOf()}` },
      body: new URLSearchParams({ email: EMAIL, password: 'not the password', csrfmiddlewaretoken: await csrfOf() }).toString(),
    });
    expect(res.status).toBe(401);
    expect(res.text).toContain('E-mail address or password is not correct.');
    expect(res.headers.get('set-cookie') ?? '').not.toContain('workspace_session');
  });

  it('shows releases with their changelog rendered safely and downloads an artifact through a link the session authorises', async () => {
    await page.goto(`${t.urls.registry}/workspace/licences/${licence.id}/releases/`);
    const release = page.locator('article', { hasText: '1.1.0' }).first();
    expect(await release.textContent()).toContain('Covered by maintenance');
    expect(await release.locator('.changelog li').count()).toBeGreaterThan(0);
    const item = release.locator('li', { hasText: /frontend.*\.docker\.tar\.gz/ });
    const href = (await item.locator('a').getAttribute('href'))!;
    const shown = (await item.locator('code').textContent())!;

    const redirect = await context.request.get(`${t.urls.registry}${href}`, { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    // the presigned link needs no session: it is the authorisation
    const archive = await http(redirect.headers().location);
    expect(archive.status).toBe(200);
    const bytes = Buffer.from(await (await fetch(redirect.headers().location)).arrayBuffer());
    expect(sha256(bytes)).toBe(shown);

    // the same route without the session: to the sign-in page, no link
    const anonymous = await http(`${t.urls.registry}${href}`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/workspace/login/');

    const manifest = await context.request.get(`${t.urls.registry}${(await release.locator('a', { hasText: 'Compose manifest' }).getAttribute('href'))!}`);
    expect(manifest.status()).toBe(200);
    expect(await manifest.text()).toMatch(/finance-node\/frontend:1\.1\.0/);
  });

  it('explains the whitelabel entitlement and refuses branding without it (403)', async () => {
    const res = await page.goto(`${t.urls.registry}/workspace/branding/`);
    expect(res!.status()).toBe(403);
    expect(await page.textContent('[data-testid=not-entitled]')).toContain('enterprise-whitelabel');
    const csrf = await csrfOf();
    const save = await context.request.post(`${t.urls.registry}/workspace/branding/`, {
      form: { displayName: 'Acme Pay', primaryColor: '#1a4f8b', accentColor: '#8e2c9a', csrfmiddlewaretoken: csrf },
      maxRedirects: 0,
    });
    expect(save.status()).toBe(403);
  });

  it('refuses a state-changing form without the CSRF token, or from another origin', async () => {
    const cookie = `workspace_session=${(await sessionOf())!.value}; csrftoken=${await csrfOf()}`;
    const noToken = await http(`${t.urls.registry}/workspace/builds/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: '',
    });
    expect(noToken.status).toBe(403);
    expect(JSON.stringify(noToken.body)).toContain('CSRF');
    const foreign = await http(`${t.urls.registry}/workspace/builds/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: 'https://evil.example' },
      body: new URLSearchParams({ csrfmiddlewaretoken: await csrfOf() }).toString(),
    });
    expect(foreign.status).toBe(403);
    expect(JSON.stringify(foreign.body)).toContain('Origin checking failed');
  });

  it('brands, builds, and the next manifest deploys the custom frontend; the packages download', async () => {
    const granted = await gql(t, 'mutation { grantOrganisationEntitlement(organisation: "acme-ltd", entitlement: "enterprise-whitelabel") }');
    expect(granted.data.grantOrganisationEntitlement).toContain('enterprise-whitelabel');
    const before = await manifestFor(licence.key);

    await page.goto(`${t.urls.registry}/workspace/branding/`);
    await page.fill('#displayName', 'Acme Pay');
    await page.fill('#primaryColor', '#ffee00');
    await page.fill('#accentColor', '#8e2c9a');
    expect(await page.textContent('#primaryColor-contrast')).toContain('too light');
    await page.click('#branding-form button[type=submit]');
    expect(await page.textContent('[role=alert]')).toMatch(/primaryColor #ffee00 is too light.*contrast 1\.\d+:1/);
    expect(await page.locator('[data-testid=branding-version]').count()).toBe(0);

    await page.fill('#primaryColor', '#1a4f8b');
    await page.fill('#logoUrl', `${assetBase}/logo.png`);
    // the mobile apps open the node's public https address
    await page.fill('#publicUrl', 'https://pay.acme.example/app/');
    // the live preview follows the form
    expect(
      await page
        .locator('#preview > div')
        .first()
        .evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).backgroundColor),
    ).toBe('rgb(26, 79, 139)');
    expect(await page.textContent('#preview-name')).toBe('Acme Pay');
    await page.click('#branding-form button[type=submit]');
    await page.waitForURL(/\/workspace\/branding\/\?saved=1/);
    expect(await page.textContent('[data-testid=branding-version]')).toContain('version 1');

    await page.getByRole('button', { name: 'Build my frontend' }).click();
    await page.waitForURL(/\/workspace\/builds\/[0-9a-f-]{36}\/$/);
    expect(await waitForBuild()).toEqual({ status: 'succeeded', error: null });
    const log = (await page.textContent('[data-testid=build-log]'))!;
    expect(log).toContain('branding version 1: Acme Pay, #1a4f8b / #8e2c9a');
    expect(log).toMatch(/frontend image finance-node\/frontend-acme-ltd:[0-9.]+-[0-9a-f]{8}/);

    const after = await manifestFor(licence.key);
    expect(after.release.id).toBe(before.release.id);
    expect(before.text).toContain(`finance-node/frontend:${before.release.version}`);
    expect(after.text).not.toContain(`finance-node/frontend:${before.release.version}`);
    expect(after.text).toMatch(/finance-node\/frontend-acme-ltd:[0-9.]+-[0-9a-f]{8}/);
    // the other components as released
    expect(after.text).toContain(`finance-node/backend:${before.release.version}`);

    // the manifest's download link for the custom frontend works with the licence key, and the archive is what the build recorded
    const url = /(\S+\/api\/v1\/custom-frontends\/[0-9a-f-]{36}\/download)/.exec(after.text)![1];
    const redirect = await http(url, { headers: { 'x-license-key': licence.key } });
    expect(redirect.status).toBe(302);
    const archive = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
    expect(after.text).toContain(sha256(archive));
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    for (const which of ['android', 'ios']) {
      const link = page.locator(`[data-testid=package-${which}]`);
      const shown = (await page
        .locator('li', { has: page.locator(`[data-testid=package-${which}]`) })
        .locator('code')
        .textContent())!;
      const res = await context.request.get(`${t.urls.registry}${(await link.getAttribute('href'))!}`, { maxRedirects: 0 });
      expect(res.status()).toBe(302);
      const bytes = Buffer.from(await (await fetch(res.headers().location)).arrayBuffer());
      expect(sha256(bytes)).toBe(shown);
      // what the customer gets is the real thing: a signed APK, a complete Xcode project
      const dir = mkdtempSync(join(tmpdir(), 'matchday-package-'));
      try {
        if (which === 'android') {
          writeFileSync(join(dir, 'client.apk'), bytes);
          expect(execFileSync('apksigner', ['verify', join(dir, 'client.apk')], { encoding: 'utf8' })).not.toMatch(/DOES NOT VERIFY/);
        } else {
          const name = bytes.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b])) ? 'client.tar.gz' : 'client.zip';
          writeFileSync(join(dir, name), bytes);
          const listing = name.endsWith('.zip')
            ? execFileSync('unzip', ['-l', join(dir, name)], { encoding: 'utf8' })
            : execFileSync('tar', ['tzf', join(dir, name)], { encoding: 'utf8' });
          expect(listing).toMatch(/project\.pbxproj/);
          expect(listing).toMatch(/Info\.plist/);
          expect(listing).toMatch(/AppIcon\.appiconset/);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }

    // the vendor sees it all by GraphQL
    const vendor = await gql(
      t,
      '{ registryOrganisations { slug entitlements branding { version displayName } frontendBuilds { status frontend { image } } } }',
    );
    const acme = vendor.data.registryOrganisations.find((o: { slug: string }) => o.slug === 'acme-ltd');
    expect(acme.entitlements).toEqual(['enterprise-whitelabel']);
    expect(acme.branding[0]).toEqual({ version: 1, displayName: 'Acme Pay' });
    expect(acme.frontendBuilds[0].status).toBe('succeeded');
    // the demo organisation holds it through its Enterprise plan
    expect(vendor.data.registryOrganisations.find((o: { slug: string }) => o.slug === 'demo').entitlements).toEqual(['enterprise-whitelabel']);
  }, 120_000);

  it('a build whose logo URL fails reports why and leaves the manifest as it was; the vendor can re-run it', async () => {
    const before = await manifestFor(licence.key);
    await page.goto(`${t.urls.registry}/workspace/branding/`);
    await page.fill('#logoUrl', `${assetBase}/missing.png`);
    await page.click('#branding-form button[type=submit]');
    await page.waitForURL(/saved=2/);
    await page.getByRole('button', { name: 'Build my frontend' }).click();
    await page.waitForURL(/\/workspace\/builds\/[0-9a-f-]{36}\/$/);
    expect(await waitForBuild()).toEqual({ status: 'failed', error: `Cannot fetch ${assetBase}/missing.png: the server answered 404.` });
    const after = await manifestFor(licence.key);
    const image = (text: string) => /finance-node\/frontend-acme-ltd:[0-9.]+-[0-9a-f]{8}/.exec(text)![0];
    expect(image(after.text)).toBe(image(before.text));

    const failedId = /\/workspace\/builds\/([0-9a-f-]{36})\//.exec(page.url())![1];
    const rerun = await gql(t, 'mutation($id: ID!) { rerunFrontendBuild(buildId: $id) { status brandingVersion } }', { id: failedId });
    expect(rerun.data.rerunFrontendBuild).toEqual({ status: 'queued', brandingVersion: 2 });
  }, 120_000);

  it('signs out: the session ends on the server', async () => {
    const session = (await sessionOf())!.value;
    await page.goto(`${t.urls.registry}/workspace/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/workspace\/login\/$/);
    const replay = await http(`${t.urls.registry}/workspace/`, { headers: { cookie: `workspace_session=${session}` } });
    expect(replay.status).toBe(302);
    expect(replay.headers.get('location')).toBe('/workspace/login/');
  });
});
