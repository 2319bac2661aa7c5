import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from './config';
import { DomainError, UNAVAILABLE_RETRY_AFTER_SECONDS } from './errors';
import { secretBoxFor } from './secret-box';

/**
 * Object storage behind one interface, for every product's files (release artifacts, KYC documents,
 * dispute attachments, branding assets): an embedded filesystem store (default, DATA_DIR/objects/) and
 * an S3-compatible store for production (OBJECT_STORE=s3).
 *
 * Uploads stream (never held in memory) and get their SHA-256 computed on the way. Clients download
 * through presigned links: S3's own (SigV4), or, for the filesystem store, HMAC-SHA256-signed links
 * with an expiry served by the REST surface on FILESYSTEM_OBJECT_PATH (see `FilesystemObjectStore.serve`).
 */
export interface StoredObject {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes, when the store knows it (objects it wrote itself). */
  sha256?: string;
  contentType: string;
  lastModified: Date;
}

export interface PutOptions {
  contentType: string;
  /** Known length (a file): the S3 store then needs no temporary copy. */
  size?: number;
}

export interface PresignOptions {
  /** GET: a download link; PUT: an upload link (the body is the object). */
  method?: 'GET' | 'PUT';
  expiresInSeconds: number;
  /** Download: Content-Disposition filename. */
  filename?: string;
  /** Download: Content-Type answered; upload: the Content-Type the upload must carry. */
  contentType?: string;
  /** Public base URL of the REST surface that serves filesystem links (ignored by S3). */
  baseUrl: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export interface ObjectStore {
  readonly kind: 'filesystem' | 's3';
  put(key: string, body: Readable | Buffer, opts: PutOptions): Promise<StoredObject>;
  head(key: string): Promise<StoredObject | undefined>;
  /** The object's bytes (or one range of them), as a stream. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  presign(key: string, opts: PresignOptions): Promise<{ url: string; expiresAt: Date }>;
  delete(key: string): Promise<void>;
  /**
   * Whether the store takes writes now: undefined when it does, else what stops it (a system check
   * reports it). The filesystem store writes and removes a probe file in each of its folders; S3
   * is not probed (its permissions show at the first upload, as a 503 storage_unavailable).
   */
  writeProblem(): Promise<string | undefined>;
}

/** Where the REST surface serves presigned filesystem links: `<path><encoded key>?expires&…&signature`. */
export const FILESYSTEM_OBJECT_PATH = '/api/v1/objects/';

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}){0,8}$/;

/** Object keys: up to 9 segments of letters, digits, `.`, `_`, `-` (no `..`, no leading dot or slash). */
export function assertObjectKey(key: string): void {
  if (!KEY_RE.test(key) || key.split('/').some((s) => s === '.' || s === '..')) throw new DomainError('BAD_USER_INPUT', 400, `Invalid object key "${key}".`);
}

/** Counts and hashes what passes through. */
class Digest extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.hash.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }
  hex(): string {
    return this.hash.digest('hex');
  }
}

/** Filesystem errors that mean the store cannot be written (read-only, immutable, full, or its folder is not one). */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ENOENT']);

/** The store cannot take the upload right now: 503 STORAGE_UNAVAILABLE with Retry-After, never a 500. */
export const storageUnavailable = () =>
  new DomainError('STORAGE_UNAVAILABLE', 503, 'The file store cannot be written right now; please retry later.', {
    retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
  });

/** Leftover `.part` files remembered for removal (beyond it, the next start's sweep takes them). */
const MAX_LEFTOVERS = 10_000;

const asStorageError = (err: unknown) => (UNWRITABLE.has((err as { code?: string }).code ?? '') ? storageUnavailable() : err);

/**
 * Streams `body` into `path` (through a temporary `.part` file, renamed at the end, removed on failure), returning its size and SHA-256.
 * A `.part` file that cannot be removed (the store went read-only mid-write) is handed to `leftover`, to be removed once the store is writable again.
 */
async function spool(body: Readable | Buffer, path: string, leftover: (part: string) => void = () => undefined): Promise<{ size: number; sha256: string }> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.part`;
  const digest = new Digest();
  try {
    await mkdir(dirname(path), { recursive: true });
    await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, digest, createWriteStream(temporary, { flags: 'wx' }));
    await rename(temporary, path);
  } catch (err) {
    // the cleanup's own failure (ENOTDIR, EROFS…) must not hide why the write failed
    await rm(temporary, { force: true }).catch((rmErr: NodeJS.ErrnoException) => {
      if (rmErr.code !== 'ENOENT') leftover(temporary);
    });
    throw asStorageError(err);
  }
  return { size: digest.size, sha256: digest.hex() };
}

/** Removes the `.part` files an interrupted write left under `dir`; a folder that is missing or not one is nothing to sweep. */
export async function sweepPartials(dir: string): Promise<number> {
  let removed = 0;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith('.part')) continue;
    const parent = (e as { parentPath?: string; path?: string }).parentPath ?? (e as { path?: string }).path ?? dir;
    await rm(join(parent, e.name), { force: true }).then(
      () => (removed += 1),
      () => undefined,
    );
  }
  return removed;
}

const linkError = (code: string, status: number, message: string) => new DomainError(code, status, message);

/** What the REST surface streams for a verified filesystem link (see rest-adapter/core's `stream` reply). */
export interface ServedObject {
  size: number;
  contentType: string;
  filename?: string;
  sha256?: string;
  lastModified: Date;
  open(range?: ByteRange): Readable;
  /** The local file that holds the bytes (a response sends it with lib/file-send.ts). */
  file: string;
}

/**
 * Files under `root` (data/<key>, with meta/<key>.json holding its type and SHA-256). Links are
 * `<baseUrl>/api/v1/objects/<key>?expires=<unix s>[&filename][&type]&signature=<HMAC-SHA256>`, the
 * signature covering method, key, expiry, filename and type: nothing in a link can be changed.
 */
export class FilesystemObjectStore implements ObjectStore {
  readonly kind = 'filesystem';

  constructor(
    private readonly root: string,
    private readonly signingKey: Buffer,
    private readonly clock: () => Date = () => new Date(),
  ) {
    // what an interrupted write left behind (a crash, a full or read-only disk) goes at start
    void sweepPartials(join(root, 'data'));
  }

  private dataPath(key: string) {
    assertObjectKey(key);
    return join(this.root, 'data', key);
  }

  private metaPath(key: string) {
    return join(this.root, 'meta', `${key}.json`);
  }

  /** `.part` files of writes cut short that could not be removed then (a read-only store): removed once it is writable again. */
  private readonly leftovers = new Set<string>();

  /** Removes the leftovers it can now (after a write succeeded, or a readiness check found the store writable). */
  async sweepLeftovers(): Promise<number> {
    let removed = 0;
    for (const part of [...this.leftovers]) {
      await rm(part, { force: true }).then(
        () => {
          this.leftovers.delete(part);
          removed += 1;
        },
        () => undefined,
      );
    }
    return removed;
  }

  async writeProblem(): Promise<string | undefined> {
    const problem = await this.writeCheck();
    if (!problem && this.leftovers.size) await this.sweepLeftovers();
    return problem;
  }

  private async writeCheck(): Promise<string | undefined> {
    for (const folder of [join(this.root, 'data'), join(this.root, 'meta')]) {
      // named as a partial write, so that a probe a crash left behind goes with the start's sweep
      const probe = join(folder, `.write-check-${randomBytes(6).toString('hex')}.part`);
      try {
        await mkdir(folder, { recursive: true });
        await writeFile(probe, 'ok');
        await rm(probe, { force: true });
      } catch (err) {
        return `${folder}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
      }
    }
    return undefined;
  }

  async put(key: string, body: Readable | Buffer, opts: PutOptions): Promise<StoredObject> {
    const path = this.dataPath(key);
    const { size, sha256 } = await spool(body, path, (part) => this.leftovers.size < MAX_LEFTOVERS && this.leftovers.add(part));
    if (this.leftovers.size) await this.sweepLeftovers();
    if (opts.size !== undefined && opts.size !== size) {
      await this.delete(key);
      throw new DomainError('BAD_USER_INPUT', 400, `Expected ${opts.size} bytes, received ${size}.`);
    }
    try {
      await mkdir(dirname(this.metaPath(key)), { recursive: true });
      await writeFile(this.metaPath(key), JSON.stringify({ contentType: opts.contentType, sha256, size }));
    } catch (err) {
      await rm(path, { force: true }).catch(() => undefined);
      throw asStorageError(err);
    }
    return { key, size, sha256, contentType: opts.contentType, lastModified: (await stat(path)).mtime };
  }

  async head(key: string): Promise<StoredObject | undefined> {
    const path = this.dataPath(key);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const meta = await readFile(this.metaPath(key), 'utf8').then(
      (t) => JSON.parse(t) as { contentType?: string; sha256?: string; size?: number },
      () => ({}) as { contentType?: string; sha256?: string; size?: number },
    );
    // a sidecar from an earlier write of the same key would describe other bytes
    const sha256 = meta.size === info.size ? meta.sha256 : undefined;
    return { key, size: info.size, sha256, contentType: meta.contentType ?? 'application/octet-stream', lastModified: info.mtime };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.dataPath(key);
    if (!(await this.head(key))) throw linkError('NOT_FOUND', 404, 'No such object.');
    return openFile(path, range);
  }

  async presign(key: string, opts: PresignOptions): Promise<{ url: string; expiresAt: Date }> {
    assertObjectKey(key);
    const method = opts.method ?? 'GET';
    const expires = Math.floor(this.clock().getTime() / 1000) + opts.expiresInSeconds;
    const params = new URLSearchParams({ expires: String(expires) });
    if (opts.filename) params.set('filename', opts.filename);
    if (opts.contentType) params.set('type', opts.contentType);
    params.set('signature', this.sign(method, key, expires, opts.filename, opts.contentType));
    const url = `${opts.baseUrl.replace(/\/+$/, '')}${FILESYSTEM_OBJECT_PATH}${encodeURIComponent(key)}?${params.toString()}`;
    return { url, expiresAt: new Date(expires * 1000) };
  }

  async delete(key: string): Promise<void> {
    await rm(this.dataPath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  /**
   * A presigned link's object, once its signature and expiry check out: what the surface streams
   * (with HEAD, Range, ETag from the SHA-256). Errors: 403 SIGNATURE_INVALID, 403 LINK_EXPIRED, 404.
   */
  async serve(key: string, query: Record<string, unknown>): Promise<ServedObject> {
    const { filename, contentType } = this.verify('GET', key, query);
    const object = await this.head(key);
    if (!object) throw linkError('NOT_FOUND', 404, 'No such object.');
    const path = this.dataPath(key);
    return {
      size: object.size,
      contentType: contentType ?? object.contentType,
      filename,
      sha256: object.sha256,
      lastModified: object.lastModified,
      open: (range) => openFile(path, range),
      file: path,
    };
  }

  /** A presigned upload (PUT): the body streams to disk; its type must be the signed one, if any. */
  async receive(key: string, query: Record<string, unknown>, body: Readable, requestType: string | undefined): Promise<StoredObject> {
    const { contentType } = this.verify('PUT', key, query);
    const type = (requestType ?? '').split(';')[0].trim().toLowerCase();
    if (contentType && type !== contentType.toLowerCase()) {
      throw linkError('BAD_USER_INPUT', 400, `This upload link requires Content-Type: ${contentType}.`);
    }
    return this.put(key, body, { contentType: contentType ?? (type || 'application/octet-stream') });
  }

  private verify(method: 'GET' | 'PUT', key: string, query: Record<string, unknown>): { filename?: string; contentType?: string } {
    const str = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const expires = Number(str('expires'));
    const signature = str('signature') ?? '';
    const filename = str('filename');
    const contentType = str('type');
    if (!Number.isInteger(expires) || !signature) throw linkError('SIGNATURE_INVALID', 403, 'This link is not signed.');
    assertObjectKey(key);
    const expected = Buffer.from(this.sign(method, key, expires, filename, contentType), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw linkError('SIGNATURE_INVALID', 403, 'The link signature does not match.');
    if (expires * 1000 < this.clock().getTime()) throw linkError('LINK_EXPIRED', 403, 'This link has expired; ask for a new one.');
    return { filename, contentType };
  }

  private sign(method: string, key: string, expires: number, filename?: string, contentType?: string): string {
    return createHmac('sha256', this.signingKey)
      .update([method, key, String(expires), filename ?? '', contentType ?? ''].join('\n'))
      .digest('base64url');
  }
}

function openFile(path: string, range?: ByteRange): ReadStream {
  return createReadStream(path, range ? { start: range.start, end: range.end } : {});
}

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

type S3Module = typeof import('@aws-sdk/client-s3');

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …). The SDK is loaded only in this mode. Uploads
 * of unknown length are spooled to a temporary file first (S3 needs the length, and the SHA-256 is
 * sent along as x-amz-checksum-sha256 so that S3 verifies the bytes); the SHA-256 is kept as object
 * metadata. Requests use checksums only when an operation requires them: S3-compatible servers do not
 * all accept the SDK's default streaming checksum trailers.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  private client?: import('@aws-sdk/client-s3').S3Client;
  private sdk?: S3Module;

  constructor(private readonly settings: S3Settings) {}

  private s3() {
    if (!this.client) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      this.sdk = require('@aws-sdk/client-s3') as S3Module;
      this.client = new this.sdk.S3Client({
        region: this.settings.region,
        endpoint: this.settings.endpoint,
        forcePathStyle: this.settings.forcePathStyle,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials:
          this.settings.accessKeyId && this.settings.secretAccessKey
            ? { accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey }
            : undefined,
      });
    }
    return { client: this.client, sdk: this.sdk! };
  }

  async writeProblem(): Promise<string | undefined> {
    return undefined;
  }

  async put(key: string, body: Readable | Buffer, opts: PutOptions): Promise<StoredObject> {
    assertObjectKey(key);
    const { client, sdk } = this.s3();
    // the length and the digest are needed before the request: a temporary copy gives both
    const temporary = join(tmpdir(), `matchday-s3-${randomBytes(8).toString('hex')}`);
    try {
      const { size, sha256 } = await spool(body, temporary);
      if (opts.size !== undefined && opts.size !== size) throw new DomainError('BAD_USER_INPUT', 400, `Expected ${opts.size} bytes, received ${size}.`);
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Body: createReadStream(temporary),
          ContentLength: size,
          ContentType: opts.contentType,
          ChecksumSHA256: Buffer.from(sha256, 'hex').toString('base64'),
          Metadata: { sha256 },
        }),
      );
      return { key, size, sha256, contentType: opts.contentType, lastModified: new Date() };
    } finally {
      await rm(temporary, { force: true });
    }
  }

  async head(key: string): Promise<StoredObject | undefined> {
    assertObjectKey(key);
    const { client, sdk } = this.s3();
    try {
      const out = await client.send(new sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return {
        key,
        size: out.ContentLength ?? 0,
        sha256: out.Metadata?.sha256,
        contentType: out.ContentType ?? 'application/octet-stream',
        lastModified: out.LastModified ?? new Date(0),
      };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return undefined;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertObjectKey(key);
    const { client, sdk } = this.s3();
    const out = await client.send(
      new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    return out.Body as Readable;
  }

  async presign(key: string, opts: PresignOptions): Promise<{ url: string; expiresAt: Date }> {
    assertObjectKey(key);
    const { client, sdk } = this.s3();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { getSignedUrl } = require('@aws-sdk/s3-request-presigner') as typeof import('@aws-sdk/s3-request-presigner');
    const command =
      opts.method === 'PUT'
        ? new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: key, ContentType: opts.contentType })
        : new sdk.GetObjectCommand({
            Bucket: this.settings.bucket,
            Key: key,
            ResponseContentType: opts.contentType,
            ResponseContentDisposition: opts.filename ? contentDisposition(opts.filename) : undefined,
          });
    const url = await getSignedUrl(client, command, { expiresIn: opts.expiresInSeconds });
    return { url, expiresAt: new Date(Date.now() + opts.expiresInSeconds * 1000) };
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    const { client, sdk } = this.s3();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}

/** `attachment; filename="…"` with an RFC 5987 `filename*` for names beyond plain ASCII. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return ascii === filename ? `attachment; filename="${filename}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const stores = new WeakMap<Config, ObjectStore>();

/**
 * The configured store, one per configuration in a process (the subgraph that writes objects and
 * the surface that serves filesystem links share it). The filesystem store signs links with a key
 * derived from the master key (lib/secret-box.ts): every process that has the master key and the
 * directory can serve them.
 */
export function objectStoreFor(config: Config): ObjectStore {
  let store = stores.get(config);
  if (!store) {
    if (config.OBJECT_STORE === 's3') {
      store = new S3ObjectStore({
        bucket: config.S3_BUCKET!,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      });
    } else {
      const box = secretBoxFor({ masterKey: config.MASTER_KEY, dataDir: config.dataDir });
      store = new FilesystemObjectStore(join(config.dataDir, 'objects'), box.derive('object-store-links'));
    }
    stores.set(config, store);
  }
  return store;
}
