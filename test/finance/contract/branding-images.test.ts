import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminPost, adminSignIn, createUser, installValidLicence, type AdminSession } from '../../support/finance/node';

/**
 * The finance branding form refuses an SVG data: URI as logo or favicon, as the
 * registry workspace does: SVG can carry scripts. Raster images (PNG, JPEG, GIF, WebP, ICO) by their
 * declared type and their bytes, http(s) URLs and paths are accepted.
 */
let t: TestApp<'finance'>;
let admin: AdminSession;
beforeAll(async () => {
  t = await startTestApp({}, { products: ['finance'] });
  await installValidLicence(t);
  admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
});
afterAll(() => t?.stop());

const SVG = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64')}`;
const PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64')}`;
const logoNow = async () => (await http(`${t.urls.finance}/api/v1/config/`)).body.branding.logo_url as string;

it.each([
  ['logoUrl', SVG],
  ['faviconUrl', SVG],
  // an SVG that says it is a PNG: the bytes decide
  ['logoUrl', `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`],
])('refuses %s = an SVG data: URI (400, nothing changed)', async (field, value) => {
  const before = await logoNow();
  const res = await adminPost(t, admin, '/admin/node/branding/', { [field]: value });
  expect(res.status).toBe(400);
  expect(res.body).toContain('SVG is refused');
  expect(await logoNow()).toBe(before);
});

it('accepts a PNG data: URI and an https URL', async () => {
  expect((await adminPost(t, admin, '/admin/node/branding/', { logoUrl: PNG })).status).toBe(302);
  expect(await logoNow()).toBe(PNG);
  expect((await adminPost(t, admin, '/admin/node/branding/', { logoUrl: 'https://cdn.example.com/logo.svg' })).status).toBe(302);
});
