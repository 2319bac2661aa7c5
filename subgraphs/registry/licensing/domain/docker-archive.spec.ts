import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tar } from '../../../../lib/tar';
import { buildImageArchive, inspectImageArchive } from './docker-archive';
import { demoImage } from './demo';

/** Reads a plain tar into {name: bytes} (what `docker load` sees). */
function entries(archive: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let offset = 0; offset + 512 <= archive.length;) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString().replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString().replace(/\0.*$/s, ''), 8);
    out.set(name, archive.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('docker load archives', () => {
  const image = buildImageArchive({
    repoTag: 'finance-node/backend:1.1.0',
    created: new Date('2025-06-02T09:00:00Z'),
    files: [{ path: 'srv/finance-node/VERSION', content: '1.1.0\n' }],
    config: { Cmd: ['/srv/finance-node/bin/finance-node'] },
  });

  it('hold manifest.json, the image configuration named by its digest, and one layer whose digest is the diff_id', () => {
    const files = entries(gunzipSync(image.archive));
    const [manifest] = JSON.parse(files.get('manifest.json')!.toString());
    expect(manifest.RepoTags).toEqual(['finance-node/backend:1.1.0']);
    const config = files.get(manifest.Config)!;
    expect(manifest.Config).toBe(`${sha256(config)}.json`);
    expect(image.imageId).toBe(`sha256:${sha256(config)}`);
    const layer = files.get(manifest.Layers[0])!;
    expect(JSON.parse(config.toString()).rootfs).toEqual({ type: 'layers', diff_ids: [`sha256:${sha256(layer)}`] });
    expect([...entries(layer).keys()]).toEqual(['srv/', 'srv/finance-node/', 'srv/finance-node/VERSION']);
    expect(entries(layer).get('srv/finance-node/VERSION')!.toString()).toBe('1.1.0\n');
  });

  it('are reproducible byte for byte (a re-stored demo artifact keeps its SHA-256)', () => {
    const created = new Date('2025-01-15T09:00:00Z');
    expect(demoImage('1.0.0', 'backend', created).archive).toEqual(demoImage('1.0.0', 'backend', created).archive);
    expect(sha256(demoImage('1.0.0', 'backend', created).archive)).not.toBe(sha256(demoImage('1.0.0', 'frontend', created).archive));
  });

  it('are read back by the registry (gzipped or not) and refused when a layer or the configuration was tampered with', async () => {
    await expect(inspectImageArchive(Readable.from([image.archive]), { gzipped: true })).resolves.toEqual({
      repoTags: ['finance-node/backend:1.1.0'],
      imageId: image.imageId,
      layers: 1,
    });
    const plain = gunzipSync(image.archive);
    await expect(inspectImageArchive(Readable.from([plain]), { gzipped: false })).resolves.toMatchObject({ imageId: image.imageId });
    // one chunk per byte: the reader keeps its place across chunk boundaries
    await expect(inspectImageArchive(Readable.from([...gzipSync(plain)].map((b) => Buffer.from([b]))), { gzipped: true })).resolves.toMatchObject({
      layers: 1,
    });

    const files = entries(plain);
    const [manifest] = JSON.parse(files.get('manifest.json')!.toString());
    const rebuild = (replace: Record<string, Buffer>) =>
      gzipSync(
        tar(
          [...files.entries()].map(([path, content]) => ({ path, content: replace[path] ?? content })),
          new Date(0),
        ),
      );
    const layer = Buffer.from(files.get(manifest.Layers[0])!);
    layer[600] ^= 1;
    await expect(inspectImageArchive(Readable.from([rebuild({ [manifest.Layers[0]]: layer })]), { gzipped: true })).rejects.toThrow(
      /does not match its diff_id/,
    );
    await expect(inspectImageArchive(Readable.from([rebuild({ [manifest.Config]: Buffer.from('{}') })]), { gzipped: true })).rejects.toThrow(/digest/);
    await expect(inspectImageArchive(Readable.from([gzipSync(tar([{ path: 'README', content: 'hi' }], new Date(0)))]), { gzipped: true })).rejects.toThrow(
      /no manifest\.json/,
    );
    await expect(inspectImageArchive(Readable.from([Buffer.from('not gzip at all')]), { gzipped: true })).rejects.toThrow(/cannot be read/);
  });

  // skopeo reads docker-save archives as container tools do (it copies them to an OCI layout, checking every digest)
  const skopeo = (() => {
    try {
      execFileSync('skopeo', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  (skopeo ? it : it.skip)('load into skopeo (docker-archive → OCI layout) when skopeo is installed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'archive-'));
    writeFileSync(join(dir, 'image.tar'), gunzipSync(demoImage('1.2.0-rc.1', 'frontend', new Date('2025-11-01T09:00:00Z')).archive));
    const inspected = JSON.parse(execFileSync('skopeo', ['inspect', `docker-archive:${join(dir, 'image.tar')}`], { encoding: 'utf8' }));
    expect(inspected.Layers).toHaveLength(1);
    execFileSync('skopeo', ['copy', '--quiet', `docker-archive:${join(dir, 'image.tar')}`, `oci:${join(dir, 'oci')}:latest`]);
  });
});
