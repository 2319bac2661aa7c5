import { KEY_ALPHABET, canonicalLicenceKey, generateDownloadToken, generateLicenceKey, hashLicenceKey, isDownloadToken, keyPrefix, maskedKey } from './keys';
import { licenceKeyCredential, downloadTokenCredential } from '../credential';

describe('licence keys', () => {
  it('have the form LIC-XXXX-XXXX-XXXX over an alphabet without look-alikes (no 0/O, 1/I)', () => {
    expect(KEY_ALPHABET).toHaveLength(32);
    for (const c of '01IO') expect(KEY_ALPHABET).not.toContain(c);
    for (let i = 0; i < 200; i++) expect(generateLicenceKey()).toMatch(/^LIC-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  });

  it('are drawn uniformly: every symbol in every position, no repeats in 10,000 keys', () => {
    const keys = Array.from({ length: 10_000 }, generateLicenceKey);
    expect(new Set(keys).size).toBe(keys.length);
    const counts = new Map<string, number>();
    for (const k of keys) for (const c of k.replace(/^LIC-|-/g, '')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...KEY_ALPHABET].sort().join(''));
    // 120,000 symbols over 32: 3,750 expected each; a biased draw would stray by far more than 10 %
    for (const n of counts.values()) expect(Math.abs(n - 3750)).toBeLessThan(375);
  });

  it('are read case-insensitively and looked up by the hash of the canonical form', () => {
    const key = generateLicenceKey();
    expect(canonicalLicenceKey(` ${key.toLowerCase()} `)).toBe(key);
    expect(hashLicenceKey(canonicalLicenceKey(key.toLowerCase())!)).toEqual(hashLicenceKey(key));
    for (const bad of ['LIC-0000-AAAA-BBBB', 'LIC-AAAA-BBBB', 'KEY-AAAA-BBBB-CCCC', 'LIC-AAAA-BBBB-CCCC-DDDD'])
      expect(canonicalLicenceKey(bad)).toBeUndefined();
    expect(maskedKey(keyPrefix(key))).toBe(`${key.slice(0, 8)}-****-****`);
  });

  it('are what the licence credential kind recognises (and download tokens what theirs does)', () => {
    const key = generateLicenceKey();
    const token = generateDownloadToken();
    expect(licenceKeyCredential.recognises(key)).toBe(true);
    expect(licenceKeyCredential.recognises(token)).toBe(false);
    expect(isDownloadToken(token)).toBe(true);
    expect(downloadTokenCredential.recognises(token)).toBe(true);
    expect(downloadTokenCredential.recognises(key)).toBe(false);
    expect(licenceKeyCredential.sources).toEqual([{ header: 'x-license-key' }, { query: 'licenseKey' }]);
    expect(downloadTokenCredential.sources).toEqual([{ query: 'token' }]);
  });
});
