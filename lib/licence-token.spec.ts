import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import {
  LicenceTokenError,
  generateLicenceKeyPair,
  parsePublicKey,
  publicKeyLine,
  signLicenceToken,
  verifyLicenceToken,
  type LicenceClaims,
} from './licence-token';

const claims: LicenceClaims = {
  licenceId: 'lic_1',
  organisationId: 'org_1',
  organisationName: 'Acme',
  product: 'finance-node',
  plan: 'business',
  maxNodes: 3,
  maintenanceUntil: '2027-01-31',
  entitlements: ['enterprise-whitelabel'],
  status: 'Active',
};
const pair = generateLicenceKeyPair();
const privateKey = createPrivateKey(pair.privateKeyPem);
const publicKey = createPublicKey(pair.publicKeyPem);
const sign = (now?: Date, ttlSeconds = 3600) => signLicenceToken(claims, { privateKey, keyId: 'k1', issuer: 'registry', ttlSeconds, now });

async function reason(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'accepted';
  } catch (err) {
    return err instanceof LicenceTokenError ? err.reason : `other: ${(err as Error).message}`;
  }
}

it('verifies what it signed, with every claim', async () => {
  const { token, expiresAt } = await sign();
  const verified = await verifyLicenceToken(token, publicKey, { audience: 'finance-node' });
  expect(verified.claims).toEqual(claims);
  expect(verified.issuer).toBe('registry');
  expect(verified.keyId).toBe('k1');
  expect(verified.expiresAt?.getTime()).toBe(expiresAt.getTime());
  expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: 'k1' });
});

it('refuses another key, a changed payload, an expired token and another audience', async () => {
  const { token } = await sign();
  const other = createPublicKey(generateLicenceKeyPair().publicKeyPem);
  expect(await reason(verifyLicenceToken(token, other, { audience: 'finance-node' }))).toBe('signature');
  const [h, p, s] = token.split('.');
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
  payload.lic.maxNodes = 1000;
  expect(
    await reason(verifyLicenceToken(`${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`, publicKey, { audience: 'finance-node' })),
  ).toBe('signature');
  const old = await sign(new Date(Date.now() - 7200_000), 600);
  expect(await reason(verifyLicenceToken(old.token, publicKey, { audience: 'finance-node' }))).toBe('expired');
  expect(await reason(verifyLicenceToken(token, publicKey, { audience: 'other-product' }))).toBe('claims');
  expect(await reason(verifyLicenceToken('not a token', publicKey, { audience: 'finance-node' }))).toBe('malformed');
});

it('pins EdDSA: a token with alg "none" or an HMAC signature is refused', async () => {
  const { token } = await sign();
  const payload = token.split('.')[1];
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
  expect(await reason(verifyLicenceToken(none, publicKey, { audience: 'finance-node' }))).toBe('malformed');
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const mac = createHmac('sha256', pair.publicKeyPem).update(`${header}.${payload}`).digest('base64url');
  expect(await reason(verifyLicenceToken(`${header}.${payload}.${mac}`, publicKey, { audience: 'finance-node' }))).not.toBe('accepted');
});

it('reads the public key as PEM, one-line base64 SPKI, raw 32 bytes (base64url) or JWK', async () => {
  const { token } = await sign();
  const jwk = publicKey.export({ format: 'jwk' });
  const forms = [pair.publicKeyPem, pair.publicKeyPem.replace(/\n/g, '\\n'), publicKeyLine(pair.publicKeyPem), jwk.x!, JSON.stringify(jwk)];
  for (const form of forms) {
    expect((await verifyLicenceToken(token, parsePublicKey(form), { audience: 'finance-node' })).claims.licenceId).toBe('lic_1');
  }
  expect(() => parsePublicKey('changeme')).toThrow(LicenceTokenError);
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
  expect(() => parsePublicKey(rsa.export({ type: 'spki', format: 'pem' }).toString())).toThrow(/not an Ed25519 key/);
});
