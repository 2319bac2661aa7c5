import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { TAR_BLOCK as BLOCK, tar } from '../../../../lib/tar';
import { ImageArchiveError, type ImageFile } from './docker-archive';

export interface LayerSpec {
  /** The new image's `repository:tag`. */
  repoTag: string;
  /** The files of the added layer (they shadow the base image's at the same paths). */
  files: ImageFile[];
  /** Environment variables set (replacing the base's of the same name). */
  env?: Record<string, string>;
  labels?: Record<string, string>;
  created: Date;
}

/** Configurations and manifest.json are kept to be rewritten; layers pass through untouched. */
const KEEP_BYTES = 4_000_000;
/** Entries of the base archive the new one replaces (its manifest, tags and any OCI index). */
const REPLACED = new Set(['manifest.json', 'repositories', 'index.json', 'oci-layout']);
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

function withDirectories(files: ImageFile[]): { path: string; content?: string | Buffer; mode?: number }[] {
  const dirs = new Set<string>();
  for (const f of files) {
    const segments = f.path.split('/');
    for (let i = 1; i < segments.length; i++) dirs.add(`${segments.slice(0, i).join('/')}/`);
  }
  return [...[...dirs].sort().map((path) => ({ path })), ...files];
}

/**
 * A `docker save` archive of a base image plus one layer: the base's layers are streamed through
 * unchanged (never held in memory), the layer is added on top, and the configuration gets the new
 * layer's diff_id, the environment and labels given, and a history entry. What comes out (gzipped, to
 * `output`) loads with `docker load` and, gunzipped, `podman load`; its image id is the SHA-256 of the
 * new configuration.
 */
export async function addImageLayer(
  input: Readable,
  opts: { gzipped: boolean },
  spec: LayerSpec,
  output: Writable,
): Promise<{ imageId: string; repoTag: string; layers: number }> {
  const gzip = createGzip({ level: 1 });
  gzip.pipe(output);
  const done = once(output, 'finish');
  const write = async (chunk: Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  try {
    return await layered(input, opts, spec, write, async () => {
      gzip.end();
      await done;
    });
  } catch (err) {
    done.catch(() => undefined);
    gzip.destroy();
    output.destroy();
    throw err;
  }
}

async function layered(
  input: Readable,
  opts: { gzipped: boolean },
  spec: LayerSpec,
  write: (chunk: Buffer) => Promise<void>,
  end: () => Promise<void>,
): Promise<{ imageId: string; repoTag: string; layers: number }> {
  const kept = await copyEntries(opts.gzipped ? input.pipe(createGunzip()) : input, write);
  const manifestText = kept.get('manifest.json');
  if (!manifestText) throw new ImageArchiveError('The base is not an image archive: no manifest.json.');
  const [base] = JSON.parse(manifestText.toString('utf8')) as { Config: string; Layers: string[] }[];
  const baseConfigText = base && kept.get(base.Config);
  if (!baseConfigText) throw new ImageArchiveError('The base image configuration is missing.');
  const config = JSON.parse(baseConfigText.toString('utf8')) as {
    config?: { Env?: string[]; Labels?: Record<string, string> };
    rootfs: { type: string; diff_ids: string[] };
    history?: unknown[];
    created?: string;
  };

  const layer = tar(withDirectories(spec.files), spec.created);
  const diffId = sha256(layer);
  const created = spec.created.toISOString();
  const env = new Map((config.config?.Env ?? []).map((e) => [e.slice(0, e.indexOf('=')), e] as const));
  for (const [name, value] of Object.entries(spec.env ?? {})) env.set(name, `${name}=${value}`);
  const next = {
    ...config,
    created,
    config: { ...config.config, Env: [...env.values()], Labels: { ...config.config?.Labels, ...spec.labels } },
    rootfs: { type: 'layers', diff_ids: [...config.rootfs.diff_ids, `sha256:${diffId}`] },
    history: [...(config.history ?? []), { created, created_by: `matchday-supergraph licence registry: ${spec.files.length} files added` }],
  };
  const configText = JSON.stringify(next);
  const configDigest = sha256(configText);
  const colon = spec.repoTag.lastIndexOf(':');
  const [repository, tag] = [spec.repoTag.slice(0, colon), spec.repoTag.slice(colon + 1)];
  const layers = [...base.Layers, `${diffId}/layer.tar`];
  await write(
    tar(
      [
        { path: `${diffId}/` },
        { path: `${diffId}/VERSION`, content: '1.0' },
        { path: `${diffId}/json`, content: JSON.stringify({ id: diffId, created, os: 'linux' }) },
        { path: `${diffId}/layer.tar`, content: layer },
        { path: `${configDigest}.json`, content: configText },
        { path: 'manifest.json', content: JSON.stringify([{ Config: `${configDigest}.json`, RepoTags: [spec.repoTag], Layers: layers }]) },
        { path: 'repositories', content: JSON.stringify({ [repository]: { [tag]: diffId } }) },
      ],
      spec.created,
    ),
  );
  await end();
  return { imageId: `sha256:${configDigest}`, repoTag: spec.repoTag, layers: layers.length };
}

/** Copies every entry of the tar stream but the replaced ones and the end-of-archive blocks; keeps the small JSON files. */
async function copyEntries(tarStream: AsyncIterable<unknown>, write: (chunk: Buffer) => Promise<void>): Promise<Map<string, Buffer>> {
  const kept = new Map<string, Buffer>();
  let pending: Buffer = Buffer.alloc(0);
  let current: { name: string; remaining: number; padding: number; pass: boolean; keep: boolean; chunks: Buffer[] } | undefined;
  let ended = false;
  for await (const chunk of tarStream) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    while (!ended) {
      if (current) {
        if (current.remaining > 0) {
          if (!pending.length) break;
          const piece = pending.subarray(0, Math.min(current.remaining, pending.length));
          if (current.pass) await write(piece);
          if (current.keep) current.chunks.push(Buffer.from(piece));
          current.remaining -= piece.length;
          pending = pending.subarray(piece.length);
          continue;
        }
        if (pending.length < current.padding) break;
        if (current.pass && current.padding) await write(Buffer.from(pending.subarray(0, current.padding)));
        pending = pending.subarray(current.padding);
        if (current.keep) kept.set(current.name, Buffer.concat(current.chunks));
        current = undefined;
        continue;
      }
      if (pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((b) => b === 0)) {
        ended = true;
        break;
      }
      const field = (start: number, length: number) =>
        header
          .subarray(start, start + length)
          .toString('utf8')
          .replace(/\0.*$/s, '');
      const prefix = field(345, 155);
      const name = ((prefix ? `${prefix}/` : '') + field(0, 100)).replace(/^\.\//, '');
      const size = parseInt(field(124, 12).trim() || '0', 8);
      if (!Number.isFinite(size)) throw new ImageArchiveError('The base is not a tar archive.');
      const isFile = (field(156, 1) || '0') === '0';
      const pass = !REPLACED.has(name);
      if (pass) await write(Buffer.from(header));
      current = { name, remaining: size, padding: (BLOCK - (size % BLOCK)) % BLOCK, pass, keep: isFile && size <= KEEP_BYTES, chunks: [] };
    }
    if (ended) break;
  }
  if (!ended && current) throw new ImageArchiveError('The base archive is truncated.');
  return kept;
}
