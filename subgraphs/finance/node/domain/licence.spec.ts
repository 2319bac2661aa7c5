import { generateLicenceKeyPair, publicKeyLine } from '../../../../lib/licence-token';
import { builtInVendorKeys, trustsVendorKey, vendorKeyFingerprint } from './licence';

/** The vendor keys a node trusts: built in (vendor-keys.pem), else the pinned one. */
const a = generateLicenceKeyPair().publicKeyPem;
const b = generateLicenceKeyPair().publicKeyPem;

it('names a key by its SPKI whatever its notation; not a key: undefined', () => {
  expect(vendorKeyFingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
  expect(vendorKeyFingerprint(publicKeyLine(a))).toBe(vendorKeyFingerprint(a));
  expect(vendorKeyFingerprint(b)).not.toBe(vendorKeyFingerprint(a));
  expect(vendorKeyFingerprint('not a key')).toBeUndefined();
});

it('reads vendor-keys.pem: PEM blocks and one-line keys, comments; refuses what is not a key', () => {
  const keys = builtInVendorKeys(`# the vendor's keys\n${a}\n${publicKeyLine(b)}\n`);
  expect(keys).toEqual(new Set([vendorKeyFingerprint(a), vendorKeyFingerprint(b)]));
  expect(builtInVendorKeys(undefined).size).toBe(0);
  expect(() => builtInVendorKeys('garbage')).toThrow(/vendor-keys.pem: not a public key/);
});

it('trusts a built-in key only when the node has any; else the pinned key, or any while none is pinned', () => {
  const [fa, fb] = [vendorKeyFingerprint(a)!, vendorKeyFingerprint(b)!];
  expect(trustsVendorKey(fa, new Set([fa]), fb)).toBe(true);
  expect(trustsVendorKey(fb, new Set([fa]), fb)).toBe(false);
  expect(trustsVendorKey(fb, new Set(), undefined)).toBe(true);
  expect(trustsVendorKey(fb, new Set(), fa)).toBe(false);
  expect(trustsVendorKey(fa, new Set(), fa)).toBe(true);
});

it('production (no pinning): only a key the node carries; none carried: nothing is trusted', () => {
  const [fa, fb] = [vendorKeyFingerprint(a)!, vendorKeyFingerprint(b)!];
  expect(trustsVendorKey(fa, new Set([fa]), undefined, false)).toBe(true);
  expect(trustsVendorKey(fb, new Set([fa]), undefined, false)).toBe(false);
  expect(trustsVendorKey(fa, new Set(), undefined, false)).toBe(false);
  expect(trustsVendorKey(fa, new Set(), fa, false)).toBe(false);
});
