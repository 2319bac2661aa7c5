import { loadConfig } from '../../../subgraphs/products';
import type { AccessServices } from '../../../subgraphs/predictions/access/services';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

/**
 * ADMIN_API_KEY: rotating it after a leak must lock the leaked key out, and an operator-chosen key
 * (stored as an unsalted SHA-256, like generated ones) must be as random as a generated one.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const NEW_KEY = 'rotated_admin_7f3c9a1e5b2d8c4f6a0e9b3d7c1f5a2e';
const NEWER_KEY = 'rotated_again_c2b9e4f7a1d3c8b5e0f6a9d2c7b4e1f3';
const viewer = (key: string) =>
  http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ apiKeys { prefix } }' }),
  });
const access = () => t.app.services.access as AccessServices;

it('makes a changed ADMIN_API_KEY the administrator key and revokes the one it replaces, in the running process at once', async () => {
  // the old key is in use (and so cached) when the operator rotates
  expect((await viewer(t.adminKey)).body.errors).toBeUndefined();
  const result = await access().apiKeys.bootstrapAdmin(NEW_KEY);
  expect(result.revokedPrefixes).toEqual([t.adminKey.slice(0, 12)]);
  const old = await viewer(t.adminKey);
  expect(old.status).toBe(401);
  expect(old.body.errors[0].message).toMatch(/revoked/);
  expect((await viewer(NEW_KEY)).body.errors).toBeUndefined();

  // the same key again (every restart): nothing changes
  expect(await access().apiKeys.bootstrapAdmin(NEW_KEY)).toEqual({});
  expect((await viewer(NEW_KEY)).body.errors).toBeUndefined();

  // rotating once more revokes the previous ADMIN_API_KEY, not administrator keys made by hand
  const manual = await t.createKey('enterprise', { role: 'admin' });
  expect((await access().apiKeys.bootstrapAdmin(NEWER_KEY)).revokedPrefixes).toEqual([NEW_KEY.slice(0, 12)]);
  expect((await viewer(NEW_KEY)).status).toBe(401);
  expect((await viewer(NEWER_KEY)).body.errors).toBeUndefined();
  expect((await viewer(manual)).body.errors).toBeUndefined();
});

it('refuses a revoked key as ADMIN_API_KEY (a leaked key cannot come back)', async () => {
  await expect(access().apiKeys.bootstrapAdmin(NEW_KEY)).rejects.toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/revoked/) });
});

describe('the key an operator chooses', () => {
  it.each([
    ['24 characters (the former minimum)', 'abcdefghijklmnopqrstuvwx'],
    ['31 characters', 'Zq8vN2mK5xR1tY7wB4cH9jL3pF6sD0a'],
    ['a repeated character', 'a'.repeat(40)],
    ['a short repeated run', 'ab12'.repeat(10)],
    ['a longer repeated run', 'abcdefghij'.repeat(4)],
    ['a sequence', '0123456789abcdefghijklmnopqrstuvwxyz'],
    ['characters outside the alphabet', 'pass word with spaces and more than 32 chars'],
  ])('is refused with the same rule by the configuration check and at seeding: %s', async (_label, key) => {
    expect(() => loadConfig({ ADMIN_API_KEY: key })).toThrow(/ADMIN_API_KEY: (must be 32 to 128 random characters|is too regular)/);
    await expect(access().apiKeys.bootstrapAdmin(key)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('is accepted when it has 32 or more random characters', () => {
    for (const key of ['0123456789abcdef0123456789abcdef'.replace(/./g, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]), NEW_KEY]) {
      expect(loadConfig({ ADMIN_API_KEY: key }).ADMIN_API_KEY).toBe(key);
    }
  });
});
