import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox, SecretBoxError, loadMasterKey, parseMasterKey } from './secret-box';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, with the same context', () => {
    const sealed = box.seal('LIC-ABCD-EFGH-JKLM', 'licence:1');
    expect(sealed).toMatch(/^sb1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('LIC-');
    expect(box.open(sealed, 'licence:1')).toBe('LIC-ABCD-EFGH-JKLM');
    // a fresh IV each time
    expect(box.seal('x', 'c')).not.toBe(box.seal('x', 'c'));
  });

  it('refuses another context, a tampered value and another master key, each clearly', () => {
    const sealed = box.seal('secret', 'licence:1');
    expect(() => box.open(sealed, 'licence:2')).toThrow(SecretBoxError);
    const raw = Buffer.from(sealed.split('.')[2], 'base64url');
    raw[raw.length - 20] ^= 1;
    expect(() => box.open(`sb1.${box.keyId}.${raw.toString('base64url')}`, 'licence:1')).toThrow(/authentication/);
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'licence:1')).toThrow(/master key .* changed/);
  });

  it('derives distinct purpose keys from one master key', () => {
    expect(box.derive('a')).toHaveLength(32);
    expect(box.derive('a')).toEqual(box.derive('a'));
    expect(box.derive('a')).not.toEqual(box.derive('b'));
  });
});

describe('the master key', () => {
  it('is read from MASTER_KEY as base64 or hex (32 bytes)', () => {
    const key = randomBytes(32);
    expect(parseMasterKey(key.toString('base64'))).toEqual(key);
    expect(parseMasterKey(key.toString('hex'))).toEqual(key);
    expect(parseMasterKey(key.toString('base64url'))).toEqual(key);
    expect(() => parseMasterKey('too short')).toThrow(/32 bytes/);
  });

  it('is generated once into DATA_DIR/master.key, created with mode 0600, and read back afterwards', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
    const first = loadMasterKey({ dataDir: dir });
    const file = join(dir, 'master.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadMasterKey({ dataDir: dir })).toEqual(first);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
  });

  it('prefers MASTER_KEY over the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
    writeFileSync(join(dir, 'master.key'), randomBytes(32).toString('base64'), { mode: 0o600 });
    const key = randomBytes(32);
    expect(loadMasterKey({ dataDir: dir, masterKey: key.toString('hex') })).toEqual(key);
  });
});
