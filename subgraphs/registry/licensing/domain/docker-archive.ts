import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { TAR_BLOCK as BLOCK, tar } from '../../../../lib/tar';

/**
 * Container image archives in the format `docker save` writes and `docker load` reads (gzipped):
 *
 *   manifest.json            [{"Config": "<config digest>.json", "RepoTags": ["name:tag"], "Layers": ["<diff id>/layer.tar"]}]
 *   <config digest>.json     the image configuration; rootfs.diff_ids lists each layer's SHA-256
 *   <diff id>/layer.tar      the layer's files (plus the legacy VERSION and json of older loaders)
 *   repositories             {"name": {"tag": "<diff id>"}}
 *
 * The image id is `sha256:<SHA-256 of the configuration>`, the digest a compose manifest pins.
 * Archives built here are byte-for-byte reproducible (fixed times, owners and order).
 */
export interface ImageFile {
  path: string;
  content: string | Buffer;
  mode?: number;
}

export interface ImageSpec {
  /** `repository:tag`, e.g. `finance-node/backend:1.1.0`. */
  repoTag: string;
  files: ImageFile[];
  /** Image configuration (Env, Cmd, WorkingDir, ExposedPorts, Labels). */
  config: Record<string, unknown>;
  created: Date;
}

export interface BuiltImage {
  archive: Buffer;
  /** `sha256:<hex>` of the image configuration (what `docker images --no-trunc` shows as IMAGE ID). */
  imageId: string;
  repoTag: string;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Every parent directory of the files, each once, before the files (as `docker save` lists them). */
function withDirectories(files: ImageFile[]): { path: string; content?: string | Buffer; mode?: number }[] {
  const dirs = new Set<string>();
  for (const f of files) {
    const segments = f.path.split('/');
    for (let i = 1; i < segments.length; i++) dirs.add(`${segments.slice(0, i).join('/')}/`);
  }
  return [...[...dirs].sort().map((path) => ({ path })), ...files];
}

/** Builds a one-layer image archive, gzipped, ready for `docker load -i`. */
export function buildImageArchive(spec: ImageSpec): BuiltImage {
  const created = spec.created.toISOString();
  const layer = tar(withDirectories(spec.files), spec.created);
  const diffId = sha256(layer);
  const config = JSON.stringify({
    architecture: 'amd64',
    os: 'linux',
    created,
    config: spec.config,
    rootfs: { type: 'layers', diff_ids: [`sha256:${diffId}`] },
    history: [{ created, created_by: 'matchday-supergraph licence registry (one layer)' }],
  });
  const configDigest = sha256(config);
  const colon = spec.repoTag.lastIndexOf(':');
  const [repository, tag] = [spec.repoTag.slice(0, colon), spec.repoTag.slice(colon + 1)];
  const archive = tar(
    [
      { path: `${diffId}/` },
      { path: `${diffId}/VERSION`, content: '1.0' },
      { path: `${diffId}/json`, content: JSON.stringify({ id: diffId, created, config: spec.config, os: 'linux' }) },
      { path: `${diffId}/layer.tar`, content: layer },
      { path: `${configDigest}.json`, content: config },
      { path: 'manifest.json', content: JSON.stringify([{ Config: `${configDigest}.json`, RepoTags: [spec.repoTag], Layers: [`${diffId}/layer.tar`] }]) },
      { path: 'repositories', content: JSON.stringify({ [repository]: { [tag]: diffId } }) },
    ],
    spec.created,
  );
  return { archive: gzipSync(archive, { level: 9 }), imageId: `sha256:${configDigest}`, repoTag: spec.repoTag };
}

export interface ImageArchiveInfo {
  repoTags: string[];
  imageId: string;
  layers: number;
}

export class ImageArchiveError extends Error {}

/** Small files are kept for reading (configurations, manifest.json); every file is hashed (layers). */
const KEEP_BYTES = 1_000_000;

/**
 * Reads an image archive (gzipped or plain tar) as a stream, keeping only its small files, and
 * checks what `docker load` checks: manifest.json names a configuration whose SHA-256 is its name,
 * and layers whose SHA-256s are the configuration's diff_ids. Both the legacy layout
 * (`<id>/layer.tar`) and the OCI layout of Docker 25+ (`blobs/sha256/<digest>`) are understood.
 */
export async function inspectImageArchive(input: Readable, opts: { gzipped: boolean }): Promise<ImageArchiveInfo> {
  const files = new Map<string, Buffer>();
  const digests = new Map<string, string>();
  let pending: Buffer = Buffer.alloc(0);
  let current: { name: string; remaining: number; padding: number; keep: boolean; hash?: ReturnType<typeof createHash>; chunks: Buffer[] } | undefined;
  let ended = false;

  const consume = (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (ended) return;
      if (current) {
        if (current.remaining > 0) {
          if (!pending.length) return;
          const take = Math.min(current.remaining, pending.length);
          const piece = pending.subarray(0, take);
          current.hash?.update(piece);
          if (current.keep) current.chunks.push(Buffer.from(piece));
          current.remaining -= take;
          pending = pending.subarray(take);
          continue;
        }
        if (pending.length < current.padding) return;
        pending = pending.subarray(current.padding);
        if (current.keep) files.set(current.name, Buffer.concat(current.chunks));
        if (current.hash) digests.set(current.name, current.hash.digest('hex'));
        current = undefined;
        continue;
      }
      if (pending.length < BLOCK) return;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((b) => b === 0)) {
        ended = true;
        return;
      }
      const field = (start: number, length: number) =>
        header
          .subarray(start, start + length)
          .toString('utf8')
          .replace(/\0.*$/s, '');
      const prefix = field(345, 155);
      const name = ((prefix ? `${prefix}/` : '') + field(0, 100)).replace(/^\.\//, '');
      const size = parseInt(field(124, 12).trim() || '0', 8);
      if (!Number.isFinite(size)) throw new ImageArchiveError('Not a tar archive.');
      const isFile = (field(156, 1) || '0') === '0';
      current = {
        name,
        remaining: size,
        padding: (BLOCK - (size % BLOCK)) % BLOCK,
        keep: isFile && size <= KEEP_BYTES,
        hash: isFile ? createHash('sha256') : undefined,
        chunks: [],
      };
    }
  };

  try {
    for await (const chunk of opts.gzipped ? input.pipe(createGunzip()) : input) {
      consume(chunk as Buffer);
      if (ended) break;
    }
  } catch (err) {
    if (err instanceof ImageArchiveError) throw err;
    throw new ImageArchiveError(`The archive cannot be read: ${(err as Error).message}`);
  } finally {
    input.destroy();
  }

  const manifestText = files.get('manifest.json');
  if (!manifestText) throw new ImageArchiveError('Not an image archive: no manifest.json (make it with `docker save <image> | gzip`).');
  let manifest: { Config?: string; RepoTags?: string[]; Layers?: string[] }[];
  try {
    manifest = JSON.parse(manifestText.toString('utf8')) as typeof manifest;
  } catch {
    throw new ImageArchiveError('manifest.json is not JSON.');
  }
  const image = manifest[0];
  if (!Array.isArray(manifest) || manifest.length !== 1 || !image.Config || !Array.isArray(image.Layers)) {
    throw new ImageArchiveError('manifest.json must describe exactly one image (Config, RepoTags, Layers).');
  }
  const configText = files.get(image.Config);
  if (!configText) throw new ImageArchiveError(`The image configuration ${image.Config} is missing.`);
  const configDigest = sha256(configText);
  // named by its digest: <digest>.json (legacy layout) or blobs/sha256/<digest> (OCI layout)
  if (!image.Config.includes(configDigest)) throw new ImageArchiveError('The image configuration does not match its digest.');
  const diffIds = (JSON.parse(configText.toString('utf8')) as { rootfs?: { diff_ids?: string[] } }).rootfs?.diff_ids ?? [];
  if (diffIds.length !== image.Layers.length) throw new ImageArchiveError('The configuration and manifest.json disagree on the number of layers.');
  image.Layers.forEach((layer, i) => {
    const digest = digests.get(layer);
    if (digest === undefined) throw new ImageArchiveError(`Layer ${layer} is missing.`);
    if (`sha256:${digest}` !== diffIds[i]) throw new ImageArchiveError(`Layer ${layer} does not match its diff_id.`);
  });
  return { repoTags: image.RepoTags ?? [], imageId: `sha256:${configDigest}`, layers: image.Layers.length };
}
