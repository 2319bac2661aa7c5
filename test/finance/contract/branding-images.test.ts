import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { adminPost, adminSignIn, createUser, installValidLicence, type AdminSession } from '../../support/finance/node';

/**
 * The finance branding form refuses an SVG data: URI as favicon as the registry
 * workspace does: SVG can carry scripts. Raster images (PNG, JPEG, GIF, WebP, ICO) by their declared type
 * and their bytes, http(s) URLs and paths are accepted. The logo is uploaded as a file (branding-logo.test.ts): the operation refuses a logo URL or data: URI, SVG or not.
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
const faviconNow = async () => (await http(`${t.urls.finance}/api/v1/config/`)).body.branding.favicon_url as string;

it.each([
  ['faviconUrl', SVG],
  // an SVG that says it is a PNG: the bytes decide
  ['faviconUrl', `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`],
])('refuses %s = an SVG data: URI (400, nothing changed)', async (field, value) => {
  const before = await faviconNow();
  const res = await adminPost(t, admin, '/admin/node/branding/', { [field]: value });
  expect(res.status).toBe(400);
  expect(res.body).toContain('SVG is refused');
  expect(await faviconNow()).toBe(before);
});

it.each([SVG, PNG, 'https://cdn.example.com/logo.png'])('refuses a logo given as a URL or data: URI (%s): it is uploaded as a file', async (value) => {
  await expect(t.app.services.node.node.updateBranding({ logo_url: value }, 'test')).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
});

it('accepts a PNG data: URI and an https URL as favicon', async () => {
  expect((await adminPost(t, admin, '/admin/node/branding/', { faviconUrl: PNG })).status).toBe(302);
  expect(await faviconNow()).toBe(PNG);
  expect((await adminPost(t, admin, '/admin/node/branding/', { faviconUrl: 'https://cdn.example.com/favicon.png' })).status).toBe(302);
});
