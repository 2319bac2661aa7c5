import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { REQUEST_TOKEN_TTL_SECONDS, signRequestToken, verifyRequestToken, type Principal } from './principal';
import { generateServiceKeyPair, parseServicePrivateKey, parseServicePublicKey } from './service-keys';

const gateway = generateServiceKeyPair();
const football = generateServiceKeyPair();
const keys: Record<string, string> = { gateway: gateway.publicKey, football: football.publicKey };
const publicKeyOf = (issuer: string) => (keys[issuer] ? parseServicePublicKey(keys[issuer]) : undefined);
const ADMIN: Principal = { kind: 'gateway', administrator: true };
const BODY = '{"query":"{ apiKeys { prefix } }"}';

const sign = (overrides: Partial<Parameters<typeof signRequestToken>[0]> = {}) =>
  signRequestToken({
    issuer: 'gateway',
    audience: 'access',
    privateKey: parseServicePrivateKey(gateway.privateKey),
    body: BODY,
    principal: ADMIN,
    ...overrides,
  });
const verify = (token: string, overrides: Partial<Parameters<typeof verifyRequestToken>[1]> = {}) =>
  verifyRequestToken(token, { audience: 'access', publicKeyOf, body: BODY, ...overrides });

it('carries the principal and the client address from its signer to its audience, for its body', async () => {
  expect(await verify(await sign({ clientAddress: '203.0.113.7' }))).toEqual({ issuer: 'gateway', principal: ADMIN, clientAddress: '203.0.113.7' });
});

it('is refused by another audience, for another body, after its short life, or signed by a key that is not its issuer’s', async () => {
  const token = await sign();
  expect(await verify(token, { audience: 'football' })).toBeUndefined();
  expect(await verify(token, { body: `${BODY} ` })).toBeUndefined();
  expect(await verify(token, { now: Date.now() + (REQUEST_TOKEN_TTL_SECONDS + 6) * 1000 })).toBeUndefined();
  expect(await verify(await sign({ privateKey: parseServicePrivateKey(football.privateKey) }))).toBeUndefined();
  expect(await verify(await sign({ issuer: 'unknown' }))).toBeUndefined();
});

it('refuses a token its signer gave a long life, and one without a signature', async () => {
  const now = Math.floor(Date.now() / 1000);
  const long = await new SignJWT({ bh: createHash('sha256').update(BODY).digest('base64url'), p: ADMIN })
    .setProtectedHeader({ alg: 'EdDSA', kid: 'gateway' })
    .setIssuer('gateway')
    .setAudience('access')
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .setJti('j')
    .sign(parseServicePrivateKey(gateway.privateKey));
  expect(await verify(long)).toBeUndefined();
  expect(await verify(long, { now: (now + 1) * 1000 })).toBeUndefined();
  const [header, payload] = (await sign()).split('.');
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'gateway' })).toString('base64url')}.${payload}.`;
  expect(await verify(none)).toBeUndefined();
  expect(await verify(`${header}.${payload}.`)).toBeUndefined();
});
