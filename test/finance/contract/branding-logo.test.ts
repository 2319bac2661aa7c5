import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { LOGO_MAX_BYTES } from '../../../subgraphs/finance/node/contract';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminPost, adminSignIn, createUser, installValidLicence, type AdminSession } from '../../support/finance/node';

/**
 * The logo: uploaded from the console's branding page as the file itself
 * (POST /admin/node/branding/logo/), a PNG, JPEG or WebP by its first bytes, at most 512 KiB, kept in the
 * object store and served to anyone at GET /api/v1/config/logo/, which `branding.logo_url` of the public
 * configuration names. Everything else is refused with a 4xx and changes nothing; a logo saved as a URL or
 * data: URI before uploads existed is no longer shown, and the console says so.
 */
let t: TestApp<'finance'>;
let admin: AdminSession;
let support: AdminSession;
beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
  admin = await adminSignIn(t as unknown as TestApp, (await createUser(t as unknown as TestApp, undefined, { superuser: true })).username);
  const staff = await createUser(t as unknown as TestApp);
  await t.app.services.node.store.pool.query('UPDATE identity.node_user SET is_staff = true WHERE id = $1', [staff.id]);
  support = await adminSignIn(t as unknown as TestApp, staff.username);
});
afterAll(() => t?.stop());

const png = (width = 120, colour = '#c2185b') =>
  Buffer.from(
    new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="40"><rect width="${width}" height="40" fill="${colour}"/></svg>`)
      .render()
      .asPng(),
  );
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), randomBytes(200)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x20, 0, 0, 0]), Buffer.from('WEBPVP8 '), randomBytes(100)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), randomBytes(50)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');

const upload = (body: Buffer, contentType: string, session: AdminSession | null = admin) =>
  http(`${t.urls.finance}/admin/node/branding/logo/`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(session ? { cookie: session.cookie, 'x-csrftoken': session.csrf } : {}) },
    body,
  });
const logoUrl = async () => (await http(`${t.urls.finance}/api/v1/config/`)).body.branding.logo_url as string;
const served = async () => {
  const res = await fetch(`${t.urls.finance}/api/v1/config/logo/`);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};
/** What the surface streamed and the subgraph has not taken: empty once every upload is answered. */
const staged = () => {
  const dir = join(t.config.dataDir, 'objects', 'data', 'branding', 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const audited = async () =>
  (
    await t.app.services.node.store.pool.query<{ detail: { sha256: string } }>("SELECT detail FROM node.audit_log WHERE action = 'branding.logo_uploaded'")
  ).rows.map((r) => r.detail.sha256);

it.each([
  ['PNG', 'image/png', png()],
  ['JPEG', 'image/jpeg', JPEG],
  ['WebP', 'image/webp', WEBP],
])('accepts a %s (%s): stored, named by the configuration, served with its type, ETag, revalidation and nosniff, audited', async (_kind, type, file) => {
  const res = await upload(file, type);
  const sha256 = createHash('sha256').update(file).digest('hex');
  expect([res.status, res.body]).toEqual([201, { logo_url: `/api/v1/config/logo/?v=${sha256.slice(0, 16)}`, content_type: type, size: file.length, sha256 }]);
  expect(await logoUrl()).toBe(res.body.logo_url);
  const got = await served();
  expect(got.status).toBe(200);
  expect(got.bytes.equals(file)).toBe(true);
  expect(got.headers.get('content-type')).toBe(type);
  expect(got.headers.get('etag')).toBe(`"${sha256}"`);
  expect(got.headers.get('cache-control')).toBe('public, no-cache');
  expect(got.headers.get('x-content-type-options')).toBe('nosniff');
  // the path the configuration gives answers the same image; unchanged, a revalidation is 304
  expect((await fetch(`${t.urls.finance}${res.body.logo_url}`)).status).toBe(200);
  expect((await fetch(`${t.urls.finance}/api/v1/config/logo/`, { headers: { 'if-none-match': `"${sha256}"` } })).status).toBe(304);
  expect(await audited()).toContain(sha256);
  expect(staged()).toEqual([]);
});

it.each([
  ['a GIF', 'image/gif', 415, GIF],
  ['a GIF declared as PNG', 'image/png', 400, GIF],
  ['an SVG', 'image/svg+xml', 415, SVG],
  ['an SVG declared as PNG', 'image/png', 400, SVG],
  ['a text file named .png', 'image/png', 400, Buffer.from('just some text, not an image\n')],
  ['an empty file', 'image/png', 400, Buffer.alloc(0)],
  ['a PNG over 512 KiB', 'image/png', 413, Buffer.concat([png(), randomBytes(LOGO_MAX_BYTES)])],
])('refuses %s (sent as %s) with %d and changes nothing', async (_what, type, status, file) => {
  const first = await upload(png(80, '#1565c0'), 'image/png');
  expect(first.status).toBe(201);
  const before = await served();
  const res = await upload(file, type);
  expect({ status: res.status, detail: typeof res.body.detail }).toEqual({ status, detail: 'string' });
  expect(await logoUrl()).toBe(first.body.logo_url);
  expect((await served()).bytes.equals(before.bytes)).toBe(true);
  expect(staged()).toEqual([]);
});

it('refuses a caller without a console session, and support staff, changing and keeping nothing', async () => {
  const before = await logoUrl();
  const anonymous = await upload(png(), 'image/png', null);
  expect(anonymous.status).toBe(403);
  // a session that is gone: to the sign-in page, as every console page
  const signedOut = await upload(png(), 'image/png', { cookie: `csrftoken=${admin.csrf}`, csrf: admin.csrf });
  expect([signedOut.status, signedOut.headers.get('location')]).toEqual([302, '/admin/login/?next=/admin/node/branding/']);
  const staff = await upload(png(), 'image/png', support);
  expect(staff.status).toBe(403);
  // a signed-in superuser without the CSRF token
  const forged = await http(`${t.urls.finance}/admin/node/branding/logo/`, {
    method: 'POST',
    headers: { 'content-type': 'image/png', cookie: admin.cookie },
    body: png(),
  });
  expect(forged.status).toBe(403);
  expect(await logoUrl()).toBe(before);
  expect(staged()).toEqual([]);
});

it('no longer shows a URL or data: URI saved before uploads: the console says so, the form refuses new ones, removal forgets it', async () => {
  const pool = t.app.services.node.store.pool;
  await pool.query(
    "UPDATE node.branding SET logo_url = 'https://cdn.example.com/logo.png', logo_object_key = NULL, logo_content_type = NULL, logo_size = NULL, logo_sha256 = NULL, logo_uploaded_at = NULL",
  );
  expect(await logoUrl()).toBe('');
  expect((await served()).status).toBe(404);
  const page = await http(`${t.urls.finance}/admin/node/branding/`, { headers: { cookie: admin.cookie } });
  expect(page.body).toContain('A logo saved before uploads existed is not shown');
  expect(page.body).toContain('https://cdn.example.com/logo.png');
  // the console's form has no logo field any more; the operation behind it refuses a URL or data: URI
  for (const value of ['https://cdn.example.com/other.png', `data:image/png;base64,${png().toString('base64')}`]) {
    await expect(t.app.services.node.node.updateBranding({ logo_url: value }, 'test')).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  }
  expect((await adminPost(t as unknown as TestApp, admin, '/admin/node/branding/', { removeLogo: '1' })).status).toBe(302);
  expect((await pool.query('SELECT logo_url FROM node.branding')).rows[0].logo_url).toBe('');
  // an upload after it is shown again
  const res = await upload(png(), 'image/png');
  expect(res.status).toBe(201);
  expect(await logoUrl()).toBe(res.body.logo_url);
});
