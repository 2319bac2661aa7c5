import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets at rest (licence keys, the licence signing key, provider credentials): authenticated
 * encryption with AES-256-GCM under one master key.
 *
 * The master key is `MASTER_KEY` (32 bytes as base64, base64url or 64 hex digits) or, when that is
 * unset, the file DATA_DIR/master.key, generated on first start: created with mode 0600 (never
 * chmod-ed afterwards, so it is never readable by others, not even briefly).
 * Losing it loses every secret it sealed; keep it with the database backups, apart from them.
 *
 * Sealed form: `sb1.<key id>.<base64url(iv ‖ ciphertext ‖ tag)>`. The key id (8 hex digits of the
 * key's SHA-256) makes a wrong master key a clear error instead of a generic authentication failure.
 * `context` is bound as additional authenticated data: a value sealed for one row or purpose does
 * not open for another (a licence key copied onto another licence's row fails to open).
 */
export const MASTER_KEY_FILE = 'master.key';
const VERSION = 'sb1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

export class SecretBox {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new SecretBoxError('The master key must be 32 bytes.');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  seal(plaintext: string | Buffer, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
    return `${VERSION}.${this.keyId}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  openBuffer(sealed: string, context: string): Buffer {
    const [version, keyId, payload] = sealed.split('.');
    if (version !== VERSION || !payload) throw new SecretBoxError('Not a sealed secret.');
    if (keyId !== this.keyId) {
      throw new SecretBoxError(
        `This secret was sealed with master key ${keyId}, not the configured ${this.keyId} (MASTER_KEY or DATA_DIR/${MASTER_KEY_FILE} changed).`,
      );
    }
    const raw = Buffer.from(payload, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('Sealed secret is truncated.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SecretBoxError('Sealed secret failed authentication (tampered, or sealed for another context).');
    }
  }

  open(sealed: string, context: string): string {
    return this.openBuffer(sealed, context).toString('utf8');
  }

  /** A key for another purpose (e.g. signing presigned URLs), derived with HKDF-SHA256: one master secret to keep. */
  derive(purpose: string, bytes = 32): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), Buffer.from(`matchday:${purpose}`, 'utf8'), bytes));
  }
}

/** MASTER_KEY as given: 32 bytes in base64, base64url or hex. */
export function parseMasterKey(value: string): Buffer {
  const text = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) throw new SecretBoxError('MASTER_KEY must be 32 bytes: 64 hex digits or 44 base64 characters (openssl rand -base64 32).');
  return key;
}

/** The master key: MASTER_KEY, else DATA_DIR/master.key (created 0600 on first use). */
export function loadMasterKey(opts: { masterKey?: string; dataDir: string }): Buffer {
  if (opts.masterKey) return parseMasterKey(opts.masterKey);
  const file = join(opts.dataDir, MASTER_KEY_FILE);
  mkdirSync(opts.dataDir, { recursive: true });
  if (!existsSync(file)) {
    // written whole under a temporary name (created 0600), then linked into place: a concurrent first
    // start either wins the link or reads the winner's complete key, never a partial file
    const temporary = join(opts.dataDir, `.${MASTER_KEY_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`);
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temporary, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(temporary);
    }
  }
  const text = readFileSync(file, 'utf8');
  if (!text.trim()) throw new SecretBoxError(`${file} is empty: restore it from your backup (or remove it only if nothing was sealed with it).`);
  return parseMasterKey(text);
}

const boxes = new Map<string, SecretBox>();

/** One SecretBox per master-key source in this process (the subgraphs and the REST surface share it). */
export function secretBoxFor(opts: { masterKey?: string; dataDir: string }): SecretBox {
  const id = opts.masterKey ? `env:${createHash('sha256').update(opts.masterKey).digest('hex')}` : `file:${opts.dataDir}`;
  let box = boxes.get(id);
  if (!box) {
    box = new SecretBox(loadMasterKey(opts));
    boxes.set(id, box);
  }
  return box;
}

/** A sealer for one purpose (each kind of secret its own key and context): `seal` and `open` take only the value. */
export interface PurposeBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/**
 * A sealer keyed from a textual secret rather than the master key: the finance node seals its provider
 * credentials and TOTP secrets under its own FRAMEWORK_SECRET_KEY (as Django does with SECRET_KEY), one
 * key per purpose derived with HKDF-SHA256, the purpose also bound as additional data.
 */
export function purposeBox(masterSecret: string, purpose: string): PurposeBox {
  if (masterSecret.length < 32) throw new SecretBoxError('the master secret must have at least 32 characters');
  const box = new SecretBox(Buffer.from(hkdfSync('sha256', masterSecret, 'matchday.secret-box', purpose, 32)));
  return { seal: (plaintext) => box.seal(plaintext, purpose), open: (sealed) => box.open(sealed, purpose) };
}

/** A secret as shown to people: its last four characters at most, the rest as dots (`••••••••wxyz`). */
export function maskSecret(secret: string): string {
  const visible = secret.length >= 12 ? 4 : secret.length >= 8 ? 2 : 0;
  return `${'•'.repeat(8)}${secret.slice(secret.length - visible)}`;
}
